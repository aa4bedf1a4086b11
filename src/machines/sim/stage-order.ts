/**
 * StageOrder: each node's sends of a run of steps in schedule order, and the blocking rule of 004 sec 2.3 (a send of
 * step s waits for every receive of its node in earlier steps).
 */
import { prefixSums } from "../../internal/buckets.js";
import type { Schedule } from "../../model/schedule.js";

/**
 * The per-node order both replays issue transfers in, for the steps [stepLo, stepHi) loaded last.
 * `sendList[sendStart[v] .. sendStart[v + 1])` are the transfers node v sends (local copies
 * included), in schedule order; `ptr[v]` is the next one to issue. The step rule: transfer x of
 * step s may go only when its source has completed every receive (local copies included) of steps
 * < s of the range. Receives into a node are kept in step order with a completion flag and a
 * pointer past the completed prefix, so a receive of a later step that completes early does not
 * count for an earlier one. Typed arrays only; `load` is O(transfers of the range + P).
 */
export class StageOrder {
  readonly sendStart: Uint32Array;
  readonly sendList: Uint32Array;
  readonly ptr: Uint32Array;
  /** Receives into src[x] in steps of the range before x's step. */
  private readonly needRecv: Uint32Array;
  /** Receives of node v in step order occupy slots recvStart[v] .. recvStart[v + 1]. */
  private readonly recvStart: Uint32Array;
  /** Slot of transfer x in its destination's receive list. */
  private readonly recvSlot: Uint32Array;
  private readonly recvFlag: Uint8Array;
  /** First slot of node v whose receive has not completed (the completed prefix ends there). */
  private readonly recvPrefix: Uint32Array;

  constructor(private readonly s: Schedule) {
    const p = s.p,
      T = s.transferCount;
    this.sendStart = new Uint32Array(p + 1);
    this.sendList = new Uint32Array(T);
    this.ptr = new Uint32Array(p);
    this.needRecv = new Uint32Array(T);
    this.recvStart = new Uint32Array(p + 1);
    this.recvSlot = new Uint32Array(T);
    this.recvFlag = new Uint8Array(T);
    this.recvPrefix = new Uint32Array(p);
  }

  /** Prepares the steps [stepLo, stepHi): send lists, receive lists, nothing received yet. */
  load(stepLo: number, stepHi: number): void {
    const { p, src, dst, stepStart } = this.s;
    const { sendStart, sendList, ptr, needRecv, recvStart, recvSlot, recvPrefix } = this;
    const lo = stepStart[stepLo]!,
      hi = stepStart[stepHi]!;
    sendStart.fill(0);
    recvStart.fill(0);
    for (let x = lo; x < hi; x++) {
      sendStart[src[x]! + 1]!++;
      recvStart[dst[x]! + 1]!++;
    }
    prefixSums(sendStart, p);
    prefixSums(recvStart, p);
    ptr.set(sendStart.subarray(0, p));
    recvPrefix.set(recvStart.subarray(0, p));
    // Transfers are stored step by step, so index order is step order.
    for (let x = lo; x < hi; x++) {
      sendList[ptr[src[x]!]!++] = x;
      recvSlot[x] = recvPrefix[dst[x]!]!++;
    }
    ptr.set(sendStart.subarray(0, p));
    recvPrefix.set(recvStart.subarray(0, p));
    this.recvFlag.fill(0, 0, hi - lo);
    // needRecv[x]: receives into src[x] in earlier steps (recvPrefix counts them, step by step).
    for (let st = stepLo; st < stepHi; st++) {
      const a0 = stepStart[st]!,
        a1 = stepStart[st + 1]!;
      for (let x = a0; x < a1; x++) needRecv[x] = recvPrefix[src[x]!]! - recvStart[src[x]!]!;
      for (let x = a0; x < a1; x++) recvPrefix[dst[x]!]!++;
    }
    recvPrefix.set(recvStart.subarray(0, p));
  }

  /** Transfer x (of the loaded range) has been received at its destination. */
  received(x: number): void {
    const b = this.s.dst[x]!;
    const flag = this.recvFlag,
      prefix = this.recvPrefix;
    flag[this.recvSlot[x]!] = 1;
    const stop = this.recvStart[b + 1]!;
    let k = prefix[b]!;
    while (k < stop && flag[k] === 1) k++;
    prefix[b] = k;
  }

  /** Whether the source of x has completed every receive of the earlier steps of the range (the step rule). */
  stepsDone(x: number): boolean {
    const a = this.s.src[x]!;
    return this.recvPrefix[a]! - this.recvStart[a]! >= this.needRecv[x]!;
  }
}
