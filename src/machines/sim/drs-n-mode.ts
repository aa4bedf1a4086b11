/**
 * DrsNMode: DRS_N (003 fig. 5; 000 sec. 5 fig. 4 and its two improvements) as a strategy on the replay driver's event
 * loop: test-and-set the destination's busy lock, send if free, else try another destination.
 */
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import type { ReplayDriver, ReplayMode } from "./replay-driver.js";
import { K, NONE } from "./timeline.js";
import { blockingDuration } from "./blocking-rules.js";

/** The DRS_N settings a run uses (ProtocolOptions of a drs-n request). */
export interface DrsNSettings {
  /** Time of one test-and-set inquiry (us). */
  readonly inquiry: number;
  /** A busy destination says how long it stays busy (000's first improvement). */
  readonly busyMeasure: boolean;
  /**
   * A destination gives the go-ahead when its current receive ends within one inquiry time (000's second improvement).
   */
  readonly earlyGoAhead: boolean;
  /** Most inquiries before the run stops with a CommplanError. */
  readonly maxInquiries: number;
}

/**
 * Node i's messages in the order it tries them: message k (start[i] <= k < start[i + 1]) goes to dest[k], size[k]
 * elements.
 */
export interface ProtocolMessages {
  readonly start: Uint32Array;
  readonly dest: Uint32Array;
  readonly size: Float64Array;
}

/**
 * DRS_N on a ReplayDriver whose schedule lists message k as transfer k. Event ids: k (< n) message k
 * arrives; INQ + i node i's inquiry returns; WAKE + i node i wakes up; BEGIN + k message k starts
 * (early go-ahead: when the receive it waited for ends). Events are keyed by their absolute time
 * (EventHeap.push): a protocol has no stage-local clock. The driver's loop handles them in time-key
 * and id order; the mode keeps the locks, the candidates and the issue and end times of the realised
 * trace.
 */
export class DrsNMode implements ReplayMode {
  readonly eventIds: number;
  /** Time each message went on the wire (its realised issue time). */
  readonly issue: Float64Array;
  /** Time each message arrives (its realised end time). */
  readonly end: Float64Array;
  /** Test-and-set inquiries made so far. */
  inquiries = 0;
  /** A message's time on the wire: the blocking rule every replay uses (blocking-rules.ts). */
  private readonly duration: (k: number) => number;
  private readonly n: number;
  private readonly sent: Uint8Array;
  /** Messages each node still has to send. */
  private readonly left: Uint32Array;
  /** Each node's next candidate (cyclic over its list). */
  private readonly cursor: Uint32Array;
  /** End of the receive holding the node's lock, -1 when FREE. */
  private readonly lockUntil: Float64Array;
  /** Improvement 1: do not disturb this message's destination before. */
  private readonly avoidUntil: Float64Array;
  private readonly inquireSince: Float64Array;
  /** The message node i's inquiry is about. */
  private readonly pendingInq: Int32Array;
  private readonly INQ: number;
  private readonly WAKE: number;
  private readonly BEGIN: number;
  private readonly start: Uint32Array;
  private readonly dest: Uint32Array;
  /** Elements of message k. */
  private readonly size: Float64Array;

  constructor(
    private readonly d: ReplayDriver,
    machine: MachineModel,
    msgs: ProtocolMessages,
    tcd: (a: number, b: number) => number,
    private readonly o: DrsNSettings,
  ) {
    this.start = msgs.start;
    this.dest = msgs.dest;
    this.size = msgs.size;
    const p = d.s.p,
      n = msgs.dest.length;
    this.duration = blockingDuration(d.s, machine, tcd);
    this.n = n;
    this.issue = new Float64Array(n);
    this.end = new Float64Array(n);
    this.sent = new Uint8Array(n);
    this.left = new Uint32Array(p);
    this.cursor = new Uint32Array(p);
    this.lockUntil = new Float64Array(p).fill(-1);
    this.avoidUntil = new Float64Array(n);
    this.inquireSince = new Float64Array(p);
    for (let i = 0; i < p; i++) this.left[i] = this.start[i + 1]! - this.start[i]!;
    this.INQ = n;
    this.WAKE = n + p;
    this.BEGIN = n + 2 * p;
    this.eventIds = 2 * n + 2 * p;
    this.pendingInq = new Int32Array(p).fill(-1);
  }

  reset(): void {}

  composeBegin(): void {}

  composeEnd(): void {}

  /** At the start of the run every node picks its first candidate. */
  tryIssue(v: number, t: number): void {
    this.next(v, t);
  }

  onEvent(id: number, t: number): void {
    if (id < this.n) this.arrive(id, t);
    else if (id >= this.BEGIN) this.begin(id - this.BEGIN, this.d.s.src[id - this.BEGIN]!, t);
    else if (id < this.WAKE) this.inquiryBack(id - this.INQ, t);
    else this.next(id - this.WAKE, t);
  }

  /** Message k of node i goes on the wire at t (the lock is already held). */
  private begin(k: number, i: number, t: number): void {
    const { acc } = this.d;
    acc.begin(i, t);
    acc.begin(this.dest[k]!, t);
    this.d.started(k, t);
    this.d.heap.push(this.end[k]!, k);
  }

  /** Message k arrives at t: its destination's lock is freed (unless already taken again) and its sender moves on. */
  private arrive(k: number, t: number): void {
    const { acc, tl } = this.d;
    const i = this.d.s.src[k]!;
    const d = this.dest[k]!;
    acc.end(i, t);
    acc.end(d, t);
    if (this.lockUntil[d] === t) this.lockUntil[d] = -1;
    tl.add(i, K.send, this.issue[k]!, t, d, this.size[k]!, k);
    tl.add(d, K.recv, this.issue[k]!, t, i, this.size[k]!, k);
    this.d.received(k, t);
    this.next(i, t);
  }

  /**
   * Node i's inquiry returns at t: it sends when the lock was free (or frees within one inquiry, with the early
   * go-ahead), else tries another destination.
   */
  private inquiryBack(i: number, t: number): void {
    const { lockUntil } = this;
    const { acc, tl } = this.d;
    const k = this.pendingInq[i]!;
    const d = this.dest[k]!;
    tl.add(i, K.stall, this.inquireSince[i]!, t, d, 0, NONE);
    acc.stalled[i] = acc.stalled[i]! + (t - this.inquireSince[i]!);
    const free = lockUntil[d]! < 0 || lockUntil[d]! <= t;
    const soon = this.o.earlyGoAhead && !free && lockUntil[d]! - t <= this.o.inquiry;
    if (free || soon) {
      const s0 = free ? t : lockUntil[d]!;
      if (soon) {
        // The protocol arranged this wait (the message is not in the network yet): stalled, not contention.
        acc.stalled[i] = acc.stalled[i]! + (s0 - t);
        tl.add(i, K.stall, t, s0, d, 0, k);
      }
      this.send(k, i, d, s0, t);
    } else {
      if (this.o.busyMeasure) this.avoidUntil[k] = lockUntil[d]!;
      this.next(i, t);
    }
  }

  /** Node i holds d's lock for message k, which goes on the wire at s0 (>= t, the time of the go-ahead). */
  private send(k: number, i: number, d: number, s0: number, t: number): void {
    const { acc } = this.d;
    const e = s0 + this.duration(k);
    this.lockUntil[d] = e;
    this.sent[k] = 1;
    this.left[i]!--;
    // the driver counts node i's issued transfers (its check that every node issued all of them)
    this.d.order.ptr[i]!++;
    this.issue[k] = s0;
    this.end[k] = e;
    const bytes = this.size[k]! * this.d.s.elementBytes;
    acc.sentBytes[i] = acc.sentBytes[i]! + bytes;
    acc.recvBytes[d] = acc.recvBytes[d]! + bytes;
    if (s0 > t)
      this.d.heap.push(s0, this.BEGIN + k); // the accounts only move forward in time
    else this.begin(k, i, t);
  }

  /** Node i picks its next candidate and inquires, or sleeps (improvement 1) until a destination should be free. */
  private next(i: number, t: number): void {
    if (this.left[i] === 0) return;
    const a = this.start[i]!,
      cnt = this.start[i + 1]! - a;
    let soonest = Infinity;
    for (let q = 0; q < cnt; q++) {
      const k = a + ((this.cursor[i]! + q) % cnt);
      if (this.sent[k]) continue;
      if (this.o.busyMeasure && this.avoidUntil[k]! > t) {
        soonest = Math.min(soonest, this.avoidUntil[k]!);
        continue;
      }
      this.cursor[i] = (k - a + 1) % cnt;
      this.inquire(i, k, t);
      return;
    }
    this.d.heap.push(soonest, this.WAKE + i); // every destination is busy: sleep for the smallest measure
  }

  /** Node i sends a test-and-set inquiry about message k at t; it returns one inquiry time later. */
  private inquire(i: number, k: number, t: number): void {
    const { inquiry, maxInquiries } = this.o;
    this.pendingInq[i] = k;
    this.inquireSince[i] = t;
    const back = t + inquiry;
    if (!(back > t))
      throw fail(
        "simulate",
        "UNSUPPORTED",
        `drs-n: simulated time stopped advancing at ${t.toFixed(3)} us (an inquiry of ${inquiry} us is lost in rounding); use a larger inquiry`,
        { field: "inquiry" },
      );
    if (++this.inquiries > maxInquiries) {
      throw fail(
        "simulate",
        "UNSUPPORTED",
        `drs-n: more than ${maxInquiries} inquiries (${this.d.done} of ${this.n} messages delivered at ${t.toFixed(3)} us); nodes keep inquiring while their destinations are busy: use a larger inquiry or set busyMeasure`,
        { field: "inquiry" },
      );
    }
    this.d.heap.push(back, this.INQ + i);
  }
}

/** The node whose message list holds message k (binary search over start). */
export function senderOf(start: Uint32Array, k: number, p: number): number {
  let lo = 0,
    hi = p - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (start[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
