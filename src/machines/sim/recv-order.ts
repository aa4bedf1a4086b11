/**
 * RecvGate: the receive order of a replay, arrival (first come, first served) or step (a node takes the messages of one
 * step at a time, as an MPI runtime that posts each round's receives after the previous round's waitall).
 */
import { stepOfTransfer, type Schedule } from "../../model/schedule.js";

/**
 * In which order a free receive port takes the messages waiting for it. arrival: first come, first
 * served, whatever their steps (the papers' model, 004 fig. 3); step: a message of step s waits
 * until its destination has completed every send and receive of its earlier steps in the run, then
 * first come, first served (an MPI program that posts a round's receives after the previous round's
 * MPI_Waitall, with rendezvous sends, as `commplan export --format simgrid` replayed by SMPI).
 */
export type RecvOrder = "arrival" | "step";
/** Every RecvOrder value. */
export const RECV_ORDERS: readonly RecvOrder[] = Object.freeze(["arrival", "step"]);

/**
 * The step receive order over a run of steps: each node's transfers (sends and receives, local
 * copies once) in step order with a completion flag and a pointer past the completed prefix; a
 * node's current step is the step of its first transfer not yet complete. Typed arrays only;
 * `load` is O(transfers of the run + P).
 */
export class RecvGate {
  /** Step of every transfer. */
  private readonly stepOf: Uint32Array;
  /** Node v's transfers of the run occupy slots opStart[v] .. opStart[v + 1] of opList, in step order. */
  private readonly opStart: Uint32Array;
  private readonly opList: Uint32Array;
  private readonly opDone: Uint8Array;
  /** Slot of transfer x in its source's list, and in its destination's (the same slot for a local copy). */
  private readonly srcSlot: Uint32Array;
  private readonly dstSlot: Uint32Array;
  /** First slot of node v not yet complete. */
  private readonly prefix: Uint32Array;

  constructor(private readonly s: Schedule) {
    const p = s.p,
      T = s.transferCount;
    this.stepOf = stepOfTransfer(s);
    this.opStart = new Uint32Array(p + 1);
    this.opList = new Uint32Array(2 * T);
    this.opDone = new Uint8Array(2 * T);
    this.srcSlot = new Uint32Array(T);
    this.dstSlot = new Uint32Array(T);
    this.prefix = new Uint32Array(p);
  }

  /** Prepares the steps [stepLo, stepHi): nothing complete yet. */
  load(stepLo: number, stepHi: number): void {
    const { p, src, dst, stepStart } = this.s;
    const { opStart, opList, srcSlot, dstSlot, prefix } = this;
    const lo = stepStart[stepLo]!,
      hi = stepStart[stepHi]!;
    opStart.fill(0);
    for (let x = lo; x < hi; x++) {
      opStart[src[x]! + 1]!++;
      if (dst[x] !== src[x]) opStart[dst[x]! + 1]!++;
    }
    for (let v = 0; v < p; v++) opStart[v + 1] = opStart[v + 1]! + opStart[v]!;
    prefix.set(opStart.subarray(0, p));
    // Transfers are stored step by step, so index order is step order.
    for (let x = lo; x < hi; x++) {
      const a = src[x]!,
        b = dst[x]!;
      srcSlot[x] = prefix[a]!;
      opList[prefix[a]!++] = x;
      if (b !== a) {
        dstSlot[x] = prefix[b]!;
        opList[prefix[b]!++] = x;
      } else dstSlot[x] = srcSlot[x]!;
    }
    prefix.set(opStart.subarray(0, p));
    this.opDone.fill(0, 0, opStart[p]!);
  }

  /** Whether the destination of x has completed every transfer of its steps before x's (x may be received now). */
  mayReceive(x: number): boolean {
    const b = this.s.dst[x]!;
    // x itself is not complete, so the first incomplete slot of b is at or before x's step
    return this.stepOf[this.opList[this.prefix[b]!]!]! >= this.stepOf[x]!;
  }

  /** Transfer x is complete (received at its destination): both ends' prefixes move on. */
  complete(x: number): void {
    this.opDone[this.srcSlot[x]!] = 1;
    this.opDone[this.dstSlot[x]!] = 1;
    this.advance(this.s.src[x]!);
    this.advance(this.s.dst[x]!);
  }

  private advance(v: number): void {
    const stop = this.opStart[v + 1]!;
    let k = this.prefix[v]!;
    while (k < stop && this.opDone[k] === 1) k++;
    this.prefix[v] = k;
  }
}
