/**
 * Blocking replay: an event-driven run of a Schedule where a transfer holds a send and a receive port for T_s + m (t_c
 * + t_d) (004 sec 2.2-2.3, figs 2-3).
 */
import type { MachineModel } from "../../model/machine.js";
import type { Schedule } from "../../model/schedule.js";
import type { DataTracker } from "./data-tracker.js";
import type { NodeAccounts } from "./node-accounts.js";
import type { ComposeGates } from "./compose-gates.js";
import { OcpcStepper } from "./ocpc-step.js";
import type { SimOptions } from "./options.js";
import { ReplayDriver, type ReplayMode, type ReplayOutcome } from "./replay-driver.js";
import { K, type TimelineRecorder } from "./timeline.js";
import { perByteCost } from "./fabric.js";
import { blockingDuration } from "./blocking-rules.js";

export type { ReplayOutcome } from "./replay-driver.js";
export { ocpcRoundCap } from "./ocpc-step.js";

/**
 * Replays `s` in blocking mode. Per stage: a barrier (machine.barrier), then each node composes
 * (t_m per byte it handles in the stage, when the stage rearranges), then the transfers. A node
 * issues its transfers in schedule order; a transfer of step s waits until its source has received
 * everything addressed to it in earlier steps of the stage (forwarding needs the data) and has a
 * free send port; it then holds that port and waits, if needed, for a receive port at its
 * destination: that wait is node contention. A local copy (src == dst) uses no port and takes
 * m t_m. With `lockstep`, every step ends with a free barrier (000 fig. 3); on the OCPC a lock-step
 * step runs in collision rounds instead (ocpc-step.ts).
 */
export function replayBlocking(
  s: Schedule,
  machine: MachineModel,
  o: SimOptions,
  acc: NodeAccounts,
  tl: TimelineRecorder,
  data: DataTracker | null,
  gates: ComposeGates | null = null,
): ReplayOutcome {
  const driver = new ReplayDriver(s, o, acc, tl, data, s.transferCount, gates);
  // on a network the flow model adds the link time: the duration is the start-up and copy before the flow
  const duration = blockingDuration(s, machine, o.network ? () => machine.tc : perByteCost(o.fabric, machine));
  const mode = new BlockingMode(driver, duration, machine.envelope ?? 0);
  const ocpc = o.fabric === "ocpc" ? new OcpcStepper(driver, duration) : null;
  const makespan = driver.run(machine, mode, ocpc ? (step, t0) => ocpc.run(step, t0) : undefined);
  const events = driver.heap.pushed + (ocpc ? ocpc.events : 0);
  const collisions = ocpc ? ocpc.collisions : 0;
  return { makespan, events, start: driver.startAt, end: driver.endAt, collisions, flows: driver.flows };
}

/**
 * The blocking mode's resources: `ports` send and receive ports per node; a transfer whose
 * destination has no free receive port (or is still composing) queues there, first come, first
 * served, holding its send port. Event id x: transfer x ends.
 */
class BlockingMode implements ReplayMode {
  readonly eventIds: number;
  private readonly ports: number;
  /** Receive ports: `ports`, unlimited when a network shares the host links fairly. */
  private readonly recvPorts: number;
  private readonly sendBusy: Int32Array;
  private readonly recvBusy: Int32Array;
  private readonly composing: Uint8Array;
  /** Local time at which the node has composed (stage-local clock). */
  private readonly composedAt: Float64Array;
  /** Since when the node has been held back for its compose (the run's start, or when a gate held it: ComposeGates). */
  private readonly blockedFrom: Float64Array;
  /** A gated compose waiting for the node's transfers under way to end: its duration (0: none). */
  private readonly pendingCompose: Float64Array;
  /** Per destination, a FIFO of transfers waiting for a receive port: head, tail, next, since when. */
  private readonly qHead: Int32Array;
  private readonly qTail: Int32Array;
  private readonly qNext: Int32Array;
  private readonly waitSince: Float64Array;
  /** Set by firstAdmitted: the queue entry before the one it found (-1: the head). */
  private qPrev = -1;

  constructor(
    private readonly d: ReplayDriver,
    private readonly duration: (x: number) => number,
    /** Bytes added to every network message (MachineModel.envelope). */
    private readonly envelope: number,
  ) {
    const p = d.s.p,
      T = d.s.transferCount;
    this.eventIds = T;
    this.ports = d.o.ports;
    this.recvPorts = d.o.network && d.o.portSharing === "fair" ? Infinity : d.o.ports;
    this.sendBusy = new Int32Array(p);
    this.recvBusy = new Int32Array(p);
    this.composing = new Uint8Array(p);
    this.composedAt = new Float64Array(p);
    this.blockedFrom = new Float64Array(p);
    this.pendingCompose = new Float64Array(p);
    this.qHead = new Int32Array(p);
    this.qTail = new Int32Array(p);
    this.qNext = new Int32Array(T);
    this.waitSince = new Float64Array(T);
  }

  reset(t0: number): void {
    this.sendBusy.fill(0);
    this.recvBusy.fill(0);
    this.composing.fill(0);
    this.composedAt.fill(t0);
    this.blockedFrom.fill(t0);
    this.pendingCompose.fill(0);
    this.qHead.fill(-1);
  }

  composeBegin(v: number, until: number): void {
    this.composing[v] = 1;
    this.composedAt[v] = until;
  }

  /** Holds node v from t (no sends, no new receives) and composes once its sends and receives under way have ended. */
  gateCompose(v: number, t: number, dur: number): void {
    this.composing[v] = 1;
    this.blockedFrom[v] = t;
    this.composedAt[v] = Infinity;
    this.pendingCompose[v] = dur;
    this.maybeCompose(v, t);
  }

  /** Starts node v's pending compose at t when it has no send and no receive under way. */
  private maybeCompose(v: number, t: number): void {
    const dur = this.pendingCompose[v]!;
    if (dur > 0 && this.sendBusy[v] === 0 && this.recvBusy[v] === 0) {
      this.pendingCompose[v] = 0;
      this.d.startCompose(v, t, dur);
    }
  }

  composeEnd(v: number, t: number): void {
    this.composing[v] = 0;
    this.serve(v, t);
    this.tryIssue(v, t);
  }

  /** Node v issues its transfers in order while it has a free send port and the step rule allows. */
  tryIssue(v: number, t: number): void {
    if (this.composing[v]) return;
    const { d, sendBusy } = this;
    const dst = d.s.dst;
    for (;;) {
      const x = d.nextSend(v);
      if (x < 0) return;
      const b = dst[x]!;
      if (b !== v && sendBusy[v]! >= this.ports) return;
      if (!d.take(v, x, t)) return;
      if (b === v) {
        this.start(x, t);
        continue;
      }
      sendBusy[v]!++;
      if (this.recvBusy[b]! < this.recvPorts && !this.composing[b] && d.mayReceive(x)) this.start(x, t);
      else this.enqueue(x, b, t);
    }
  }

  /** Transfer x (holding its send port) waits from t for a receive port at b. */
  private enqueue(x: number, b: number, t: number): void {
    this.waitSince[x] = t;
    this.qNext[x] = -1;
    if (this.qHead[b]! < 0) this.qHead[b] = x;
    else this.qNext[this.qTail[b]!] = x;
    this.qTail[b] = x;
  }

  private start(x: number, t: number): void {
    const { acc } = this.d;
    const a = this.d.s.src[x]!,
      b = this.d.s.dst[x]!;
    acc.begin(a, t);
    if (a !== b) {
      this.recvBusy[b]!++;
      acc.begin(b, t);
    }
    this.d.started(x, t);
    const f = this.d.flows;
    if (f && a !== b)
      f.begin(x, a, b, this.d.s.size[x]! * this.d.s.elementBytes + this.envelope, t, this.duration(x), x);
    else this.d.at(t, this.duration(x), x);
  }

  /** The first transfer queued at b that the receive order lets in (-1 if none); `qPrev` is set to its predecessor. */
  private firstAdmitted(b: number): number {
    let prev = -1;
    for (let y = this.qHead[b]!; y >= 0; prev = y, y = this.qNext[y]!) {
      if (this.d.mayReceive(y)) {
        this.qPrev = prev;
        return y;
      }
    }
    return -1;
  }

  /**
   * Starts the transfers queued at b (first come, first served among those the receive order admits) while it has free
   * receive ports and is not composing.
   */
  private serve(b: number, t: number): void {
    const { acc, tl, base } = this.d;
    const { src, size } = this.d.s;
    while (this.qHead[b]! >= 0 && this.recvBusy[b]! < this.recvPorts && !this.composing[b]) {
      const y = this.d.gate === null ? this.qHead[b]! : this.firstAdmitted(b);
      if (y < 0) return;
      if (this.d.gate === null || this.qPrev < 0) this.qHead[b] = this.qNext[y]!;
      else {
        this.qNext[this.qPrev] = this.qNext[y]!;
        if (this.qTail[b] === y) this.qTail[b] = this.qPrev;
      }
      const a = src[y]!;
      // Waiting for a receiver held back for its compose is not contention: nobody else holds its port.
      // That part of the wait is stalled time: [lo, hi], where [w0, t] meets the hold; the rest is waiting.
      const w0 = this.waitSince[y]!,
        lo = Math.max(w0, this.blockedFrom[b]!),
        hi = Math.min(t, this.composedAt[b]!);
      let from = w0;
      if (hi > lo) {
        if (lo > w0) {
          acc.wait[a] = acc.wait[a]! + (lo - w0);
          tl.add(a, K.wait, base + w0, base + lo, b, size[y]!, y);
        }
        acc.stalled[a] = acc.stalled[a]! + (hi - lo);
        tl.add(a, K.stall, base + lo, base + hi, b, 0, y);
        from = hi;
      }
      acc.wait[a] = acc.wait[a]! + (t - from);
      tl.add(a, K.wait, base + from, base + t, b, size[y]!, y);
      this.start(y, t);
    }
  }

  /** Transfer x ends at t. */
  onEvent(x: number, t: number): void {
    const { acc, tl, base } = this.d;
    const { src, dst, size } = this.d.s;
    const a = src[x]!,
      b = dst[x]!;
    const startAt = this.d.startAt[x]!;
    if (a !== b) this.d.flows?.finish(x, t);
    acc.end(a, t);
    if (a === b) tl.add(a, K.copy, startAt, base + t, a, size[x]!, x);
    else {
      tl.add(a, K.send, startAt, base + t, b, size[x]!, x);
      tl.add(b, K.recv, startAt, base + t, a, size[x]!, x);
      acc.end(b, t);
      this.sendBusy[a]!--;
      this.recvBusy[b]!--;
      const bytes = size[x]! * this.d.s.elementBytes;
      acc.sentBytes[a] = acc.sentBytes[a]! + bytes;
      acc.recvBytes[b] = acc.recvBytes[b]! + bytes;
    }
    this.d.received(x, t);
    // gated: a node held for its compose starts it once its transfers under way have ended; a node
    // that reached a new stage composes before it takes that stage's messages (as a program copies
    // before it posts the round's receives), so it tries its next transfer before it serves
    if (this.d.gated && a !== b) {
      this.maybeCompose(a, t);
      this.maybeCompose(b, t);
      this.tryIssue(a, t);
      this.tryIssue(b, t);
    }
    if (a !== b) this.serve(b, t);
    // with the step order, the source may have reached its next step: messages queued for it may enter
    if (this.d.gate) this.serve(a, t);
    this.tryIssue(a, t);
    if (b !== a) this.tryIssue(b, t);
  }
}
