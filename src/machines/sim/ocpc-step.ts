/**
 * OCPC lock-step steps: rounds in which messages into one receiver collide and back off (001 sec 2), for the blocking
 * replay.
 */
import { fail } from "../../model/errors.js";
import { createRng, type Rng } from "../../model/rng.js";
import type { ReplayDriver } from "./replay-driver.js";
import { K } from "./timeline.js";
import { counted } from "../../internal/plural.js";

/**
 * Most rounds an OCPC step may take before the run gives up (a CommplanError): binary exponential
 * backoff clears n messages into one receiver in O(n log n) rounds with high probability, so this
 * cap is reached only with negligible probability.
 */
export function ocpcRoundCap(n: number): number {
  return 64 * n * Math.ceil(Math.log2(n + 2)) + 1024;
}

/**
 * OCPC lock-step step (001 sec 2): rounds. In a round every sender transmits its first pending
 * message that is not backing off; two or more messages into one receiver collide, all fail (no
 * acknowledgement comes back) and are resent. A collided attempt is contention wait of its sender
 * only (neither node is busy for it: nothing is delivered); busy time is the union of a node's
 * successful sends, receives and copies; every attempt and copy counts as an event. Contention
 * resolution: binary exponential backoff, the only rule that needs no more than the missing
 * acknowledgement: after its c-th collision a message sits out a uniform number of rounds in
 * [0, 2^min(c, 16)) (seeded). A round lasts as long as its longest attempt; rounds in which nobody
 * transmits are skipped at no cost.
 */
export class OcpcStepper {
  /** Attempts that collided and were resent. */
  collisions = 0;
  /** Attempts and copies (the OCPC's events). */
  events = 0;
  private readonly rng: Rng;
  /** Per message: the round from which it may transmit again, its collisions so far. */
  private readonly eligible: Float64Array;
  private readonly collided: Uint32Array;
  /** Per node, in the current round: attempts into it; the message it sends (-1: none). */
  private readonly attempts: Int32Array;
  private readonly senderUsed: Int32Array;
  /** Each node's current run of overlapping busy intervals [busyFrom, busyTo] (busyTo -1: none). */
  private readonly busyFrom: Float64Array;
  private readonly busyTo: Float64Array;

  constructor(
    private readonly d: ReplayDriver,
    private readonly duration: (x: number) => number,
  ) {
    const p = d.s.p,
      T = d.s.transferCount;
    this.rng = createRng(d.o.seed);
    this.eligible = new Float64Array(T);
    this.collided = new Uint32Array(T);
    this.attempts = new Int32Array(p);
    this.senderUsed = new Int32Array(p);
    this.busyFrom = new Float64Array(p);
    this.busyTo = new Float64Array(p).fill(-1);
  }

  /** Runs lock-step step `step` from local time t0; returns its end. */
  run(step: number, t0: number): number {
    let pending: number[] = [];
    let last = this.copies(step, t0, pending);
    const cap = ocpcRoundCap(pending.length);
    let t = t0;
    let round = 0;
    while (pending.length > 0) {
      let next = Infinity;
      for (const x of pending) if (this.eligible[x]! < next) next = this.eligible[x]!;
      if (next > round) round = next; // nobody transmits in the rounds between: skipped at no cost
      if (round > cap) {
        throw fail(
          "simulate",
          "UNSUPPORTED",
          `OCPC step ${step} did not finish within ${cap} rounds (${counted(pending.length, "message", "messages")} left, seed ${this.d.o.seed}); try another seed`,
          { field: "fabric" },
        );
      }
      const trying: number[] = [];
      const later: number[] = [];
      this.chooseSenders(pending, round, trying, later);
      t = this.transmit(trying, later, round, t);
      later.sort((u, w) => u - w);
      pending = later;
      round++;
      if (t > last) last = t;
    }
    this.closeBusy();
    return last;
  }

  /**
   * Runs the local copies of `step` at t0 and puts its messages in `pending`; returns the last copy's end (t0 when
   * none).
   */
  private copies(step: number, t0: number, pending: number[]): number {
    const { d } = this;
    const { src, dst, size, stepStart } = d.s;
    let last = t0;
    for (let x = stepStart[step]!; x < stepStart[step + 1]!; x++) {
      if (src[x] === dst[x]) {
        const e = t0 + this.duration(x);
        d.started(x, t0);
        d.endAt[x] = d.base + e;
        if (d.data) d.data.end(x);
        d.tl.add(src[x]!, K.copy, d.base + t0, d.base + e, src[x]!, size[x]!, x);
        this.busy(src[x]!, t0, e);
        this.events++;
        d.done++;
        if (e > last) last = e;
      } else {
        pending.push(x);
        this.eligible[x] = 0;
        this.collided[x] = 0;
      }
    }
    return last;
  }

  /**
   * Splits `pending` into the round's attempts (each sender's first message not backing off) and the messages that
   * wait.
   */
  private chooseSenders(pending: number[], round: number, trying: number[], later: number[]): void {
    const src = this.d.s.src;
    this.senderUsed.fill(-1);
    for (const x of pending) {
      const a = src[x]!;
      if (this.senderUsed[a]! >= 0 || this.eligible[x]! > round) later.push(x);
      else {
        this.senderUsed[a] = x;
        trying.push(x);
      }
    }
  }

  /**
   * Transmits the round's attempts from t: collided ones back off into `later`, the others are delivered; returns the
   * round's end.
   */
  private transmit(trying: number[], later: number[], round: number, t: number): number {
    const { d } = this;
    const { src, dst, size } = d.s;
    this.attempts.fill(0);
    for (const x of trying) this.attempts[dst[x]!]!++;
    let roundEnd = t;
    for (const x of trying) {
      const a = src[x]!,
        b = dst[x]!;
      const e = t + this.duration(x);
      if (e > roundEnd) roundEnd = e;
      this.events++;
      if (this.attempts[b]! > 1) {
        this.collisions++;
        const c = ++this.collided[x]!;
        this.eligible[x] = round + 1 + this.rng.int(2 ** Math.min(c, 16));
        d.tl.add(a, K.collide, d.base + t, d.base + e, b, size[x]!, x);
        d.acc.wait[a] = d.acc.wait[a]! + (e - t);
        later.push(x);
      } else this.deliver(x, t, e);
    }
    return roundEnd;
  }

  /** Message x goes through over [t, e]. */
  private deliver(x: number, t: number, e: number): void {
    const { d } = this;
    const a = d.s.src[x]!,
      b = d.s.dst[x]!,
      z = d.s.size[x]!;
    d.started(x, t);
    d.endAt[x] = d.base + e;
    if (d.data) d.data.end(x);
    d.tl.add(a, K.send, d.base + t, d.base + e, b, z, x);
    d.tl.add(b, K.recv, d.base + t, d.base + e, a, z, x);
    this.busy(a, t, e);
    this.busy(b, t, e);
    const bytes = z * d.s.elementBytes;
    d.acc.sentBytes[a] = d.acc.sentBytes[a]! + bytes;
    d.acc.recvBytes[b] = d.acc.recvBytes[b]! + bytes;
    d.done++;
  }

  /**
   * Node v is busy over [t0, t1]; intervals come in order of their start, so overlapping ones merge (busy is a union).
   */
  private busy(v: number, t0: number, t1: number): void {
    const { busyFrom, busyTo } = this;
    if (busyTo[v]! >= 0 && t0 <= busyTo[v]!) {
      if (t1 > busyTo[v]!) busyTo[v] = t1;
      return;
    }
    if (busyTo[v]! >= 0) this.d.acc.busy[v] = this.d.acc.busy[v]! + (busyTo[v]! - busyFrom[v]!);
    busyFrom[v] = t0;
    busyTo[v] = t1;
  }

  /** Adds every node's open busy run to its busy time at the end of a step. */
  private closeBusy(): void {
    const { busyFrom, busyTo } = this;
    for (let v = 0; v < this.d.s.p; v++) {
      if (busyTo[v]! < 0) continue;
      this.d.acc.busy[v] = this.d.acc.busy[v]! + (busyTo[v]! - busyFrom[v]!);
      busyTo[v] = -1;
    }
  }
}
