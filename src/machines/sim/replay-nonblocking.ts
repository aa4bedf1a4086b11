/**
 * Nonblocking replay: main processor (T_s), copy engine (m t_c) and network (m t_d) as three pipelined resources per
 * node (004 sec 2.2, eqs 2 and 4; sec 3.4 send buffers).
 */
import type { MachineModel } from "../../model/machine.js";
import type { Schedule } from "../../model/schedule.js";
import type { DataTracker } from "./data-tracker.js";
import type { NodeAccounts } from "./node-accounts.js";
import type { SimOptions } from "./options.js";
import { ReplayDriver, type ReplayMode, type ReplayOutcome } from "./replay-driver.js";
import { K, type TimelineRecorder } from "./timeline.js";
import { networkCost } from "./fabric.js";

/**
 * Phases of a network message: 0 send start-up on the source's processor, 1 copy to the interface, 2 network, 3 receive
 * start-up on the destination's processor.
 */
const CPU_SEND = 0,
  DMA = 1,
  NET = 2,
  CPU_RECV = 3;
/** FIFO queues of jobs (x * 4 + phase) per node: processor, copy engine, output port, input port. */
const Q_CPU = 0,
  Q_DMA = 1,
  Q_OUT = 2,
  Q_IN = 3;

/**
 * Replays `s` in nonblocking mode. A message a -> b passes through: a's main processor for
 * T_s_send (MPI_Isend), a's copy engine for m t_c (all of t_c is charged at the sender), the network
 * for m t_d (holding a's output port and b's input port; a busy input port is node contention),
 * and b's main processor for T_s - T_s_send (completing the receive). Each resource serves its
 * requests first come, first served, so consecutive messages pipeline. The copy into the
 * interface needs a free send buffer (`sendBuffers`: 1 single, 2 dual buffering, 004 sec 3.4);
 * the buffer is freed when the message has left through the network. A node issues its messages
 * in schedule order; what a message waits for first is `sendWaits`: with "data" (default) only the
 * receives of its stage that bring elements it forwards (forward-deps.ts), so a node sends its
 * messages first and receives meanwhile (004 eq. 2); with "steps" every receive of the node in
 * earlier steps of the stage (the blocking rule). Local copies take m t_m on the processor.
 * Stages: barrier, then the compose on the processor (t_m per byte handled).
 */
export function replayNonblocking(
  s: Schedule,
  machine: MachineModel,
  o: SimOptions,
  acc: NodeAccounts,
  tl: TimelineRecorder,
  data: DataTracker | null,
): ReplayOutcome {
  const driver = new ReplayDriver(s, o, acc, tl, data, 4 * s.transferCount);
  const makespan = driver.run(machine, new NonblockingMode(driver, machine));
  return {
    makespan,
    events: driver.heap.pushed,
    start: driver.startAt,
    end: driver.endAt,
    collisions: 0,
    flows: driver.flows,
  };
}

/**
 * The nonblocking mode's resources per node: processor, copy engine (with `sendBuffers` buffers),
 * `ports` output and input ports, each with a FIFO of jobs. Event id x * 4 + phase: that phase of
 * transfer x ends. A node has at most one send start-up queued or running (`issuing`).
 */
class NonblockingMode implements ReplayMode {
  readonly eventIds: number;
  private readonly ports: number;
  private readonly buffers: number;
  private readonly tc: number;
  private readonly tm: number;
  /** Bytes added to every network message (machine.envelope). */
  private readonly env: number;
  private readonly tsSend: number;
  private readonly tsRecv: number;
  private readonly tdOf: (a: number, b: number) => number;
  private readonly phaseStart: Float64Array;
  private readonly jobNext: Int32Array;
  private readonly waitSince: Float64Array;
  /** The node's processor has a send start-up queued or running. */
  private readonly issuing: Uint8Array;
  private readonly cpuBusy: Uint8Array;
  private readonly dmaBusy: Uint8Array;
  private readonly outBusy: Int32Array;
  private readonly inBusy: Int32Array;
  private readonly bufUsed: Int32Array;
  private readonly qh: readonly [Int32Array, Int32Array, Int32Array, Int32Array];
  private readonly qt: readonly [Int32Array, Int32Array, Int32Array, Int32Array];

  constructor(
    private readonly d: ReplayDriver,
    machine: MachineModel,
  ) {
    const p = d.s.p,
      T = d.s.transferCount;
    this.eventIds = 4 * T;
    this.ports = d.o.network && d.o.portSharing === "fair" ? Infinity : d.o.ports;
    this.buffers = d.o.sendBuffers;
    this.tc = machine.tc;
    this.tm = machine.tm;
    this.env = machine.envelope ?? 0;
    this.tsSend = machine.tsSend;
    this.tsRecv = machine.ts - machine.tsSend;
    this.tdOf = networkCost(d.o.fabric, machine);
    this.phaseStart = new Float64Array(4 * T);
    this.jobNext = new Int32Array(4 * T);
    this.waitSince = new Float64Array(T);
    this.issuing = new Uint8Array(p);
    this.cpuBusy = new Uint8Array(p);
    this.dmaBusy = new Uint8Array(p);
    this.outBusy = new Int32Array(p);
    this.inBusy = new Int32Array(p);
    this.bufUsed = new Int32Array(p);
    this.qh = [new Int32Array(p), new Int32Array(p), new Int32Array(p), new Int32Array(p)];
    this.qt = [new Int32Array(p), new Int32Array(p), new Int32Array(p), new Int32Array(p)];
  }

  reset(): void {
    for (const q of this.qh) q.fill(-1);
    this.issuing.fill(0);
  }

  composeBegin(v: number): void {
    this.cpuBusy[v] = 1;
    this.issuing[v] = 1;
  }

  composeEnd(v: number, t: number): void {
    this.cpuBusy[v] = 0;
    this.issuing[v] = 0;
    this.serveCpu(v, t);
    this.tryIssue(v, t);
  }

  /** Node v queues the send start-up of its next message when it has none queued and the send rule allows. */
  tryIssue(v: number, t: number): void {
    if (this.issuing[v]) return;
    const x = this.d.nextSend(v);
    if (x < 0 || !this.d.take(v, x, t)) return;
    this.issuing[v] = 1;
    this.enqueue(Q_CPU, v, x * 4 + CPU_SEND);
    this.serveCpu(v, t);
  }

  private enqueue(q: number, v: number, job: number): void {
    this.jobNext[job] = -1;
    const h = this.qh[q as 0],
      tail = this.qt[q as 0];
    if (h[v]! < 0) h[v] = job;
    else this.jobNext[tail[v]!] = job;
    tail[v] = job;
  }

  private dequeue(q: number, v: number): number {
    const h = this.qh[q as 0];
    const job = h[v]!;
    h[v] = this.jobNext[job]!;
    return job;
  }

  private head(q: number, v: number): number {
    return this.qh[q as 0][v]!;
  }

  private cpuTime(job: number): number {
    const x = job >> 2,
      ph = job & 3;
    const { src, dst, size } = this.d.s;
    if (src[x] === dst[x]) return size[x]! * this.d.s.elementBytes * this.tm;
    return ph === CPU_SEND ? this.tsSend : this.tsRecv;
  }

  private serveCpu(v: number, t: number): void {
    if (this.cpuBusy[v] || this.head(Q_CPU, v) < 0) return;
    const job = this.dequeue(Q_CPU, v);
    this.cpuBusy[v] = 1;
    this.d.acc.begin(v, t);
    this.phaseStart[job] = t;
    if ((job & 3) === CPU_SEND) this.d.started(job >> 2, t);
    this.d.at(t, this.cpuTime(job), job);
  }

  private serveDma(v: number, t: number): void {
    if (this.dmaBusy[v] || this.bufUsed[v]! >= this.buffers || this.head(Q_DMA, v) < 0) return;
    const job = this.dequeue(Q_DMA, v);
    this.dmaBusy[v] = 1;
    this.bufUsed[v]!++;
    this.d.acc.begin(v, t);
    this.phaseStart[job] = t;
    this.d.at(t, (this.d.s.size[job >> 2]! * this.d.s.elementBytes + this.env) * this.tc, job);
  }

  private startNet(x: number, t: number): void {
    const a = this.d.s.src[x]!,
      b = this.d.s.dst[x]!;
    this.inBusy[b]!++;
    this.d.acc.begin(a, t);
    this.d.acc.begin(b, t);
    this.phaseStart[x * 4 + NET] = t;
    const bytes = this.d.s.size[x]! * this.d.s.elementBytes + this.env;
    if (this.d.flows) this.d.flows.begin(x, a, b, bytes, t, 0, x * 4 + NET);
    else this.d.at(t, bytes * this.tdOf(a, b), x * 4 + NET);
  }

  private serveOut(v: number, t: number): void {
    while (this.outBusy[v]! < this.ports && this.head(Q_OUT, v) >= 0) {
      const job = this.dequeue(Q_OUT, v);
      const x = job >> 2,
        b = this.d.s.dst[x]!;
      this.outBusy[v]!++;
      if (this.inBusy[b]! < this.ports && this.d.mayReceive(x)) this.startNet(x, t);
      else {
        this.waitSince[x] = t;
        this.enqueue(Q_IN, b, job);
      }
    }
  }

  /** Removes and returns the first job queued at b's input port whose message the receive order admits (-1 if none). */
  private dequeueAdmitted(b: number): number {
    if (this.d.gate === null) return this.dequeue(Q_IN, b);
    const h = this.qh[Q_IN],
      tail = this.qt[Q_IN];
    let prev = -1;
    for (let job = h[b]!; job >= 0; prev = job, job = this.jobNext[job]!) {
      if (!this.d.mayReceive(job >> 2)) continue;
      if (prev < 0) h[b] = this.jobNext[job]!;
      else {
        this.jobNext[prev] = this.jobNext[job]!;
        if (tail[b] === job) tail[b] = prev;
      }
      return job;
    }
    return -1;
  }

  private serveIn(b: number, t: number): void {
    const { acc, tl, base } = this.d;
    while (this.inBusy[b]! < this.ports && this.head(Q_IN, b) >= 0) {
      const job = this.dequeueAdmitted(b);
      if (job < 0) return;
      const x = job >> 2;
      const a = this.d.s.src[x]!;
      acc.wait[a] = acc.wait[a]! + (t - this.waitSince[x]!);
      tl.add(a, K.wait, base + this.waitSince[x]!, base + t, b, this.d.s.size[x]!, x);
      this.startNet(x, t);
    }
  }

  /** Transfer x has arrived at its destination b (its last phase ended at t). */
  private finishMessage(x: number, t: number): void {
    this.d.received(x, t);
    if (this.d.gate) {
      // with the step order, either end may have reached its next step: messages queued for it may enter
      this.serveIn(this.d.s.dst[x]!, t);
      this.serveIn(this.d.s.src[x]!, t);
    }
    this.tryIssue(this.d.s.dst[x]!, t);
  }

  /** Phase job & 3 of transfer job >> 2 ends at t. */
  onEvent(job: number, t: number): void {
    const ph = job & 3;
    if (ph === CPU_SEND || ph === CPU_RECV) this.cpuDone(job, t);
    else if (ph === DMA) this.dmaDone(job, t);
    else this.netDone(job, t);
  }

  /**
   * A processor phase ends: a local copy, a send start-up (the copy engine is next) or a receive start-up (the message
   * is in).
   */
  private cpuDone(job: number, t: number): void {
    const x = job >> 2,
      ph = job & 3;
    const a = this.d.s.src[x]!,
      b = this.d.s.dst[x]!;
    const { acc, tl, base } = this.d;
    const v = ph === CPU_SEND ? a : b;
    this.cpuBusy[v] = 0;
    acc.end(v, t);
    if (a === b) {
      tl.add(a, K.copy, base + this.phaseStart[job]!, base + t, a, this.d.s.size[x]!, x);
      this.issuing[a] = 0;
      this.finishMessage(x, t);
      this.serveCpu(a, t);
      this.tryIssue(a, t);
      return;
    }
    tl.add(v, K.cpu, base + this.phaseStart[job]!, base + t, ph === CPU_SEND ? b : a, this.d.s.size[x]!, x);
    if (ph === CPU_SEND) {
      this.issuing[a] = 0;
      this.enqueue(Q_DMA, a, x * 4 + DMA);
      this.serveDma(a, t);
      this.serveCpu(a, t);
      this.tryIssue(a, t);
    } else {
      this.finishMessage(x, t);
      this.serveCpu(b, t);
    }
  }

  /** The copy into the interface ends: the message queues for the output port. */
  private dmaDone(job: number, t: number): void {
    const x = job >> 2;
    const a = this.d.s.src[x]!,
      b = this.d.s.dst[x]!;
    this.dmaBusy[a] = 0;
    this.d.acc.end(a, t);
    this.d.tl.add(a, K.dma, this.d.base + this.phaseStart[job]!, this.d.base + t, b, this.d.s.size[x]!, x);
    this.enqueue(Q_OUT, a, x * 4 + NET);
    this.serveOut(a, t);
    this.serveDma(a, t);
  }

  /** The network phase ends: ports and the send buffer are freed; the receive start-up queues at b. */
  private netDone(job: number, t: number): void {
    const x = job >> 2;
    const a = this.d.s.src[x]!,
      b = this.d.s.dst[x]!;
    const { acc, tl, base } = this.d;
    const z = this.d.s.size[x]!;
    this.d.flows?.finish(x, t);
    this.outBusy[a]!--;
    this.inBusy[b]!--;
    this.bufUsed[a]!--;
    acc.end(a, t);
    acc.end(b, t);
    tl.add(a, K.send, base + this.phaseStart[job]!, base + t, b, z, x);
    tl.add(b, K.recv, base + this.phaseStart[job]!, base + t, a, z, x);
    const bytes = z * this.d.s.elementBytes;
    acc.sentBytes[a] = acc.sentBytes[a]! + bytes;
    acc.recvBytes[b] = acc.recvBytes[b]! + bytes;
    this.serveIn(b, t);
    this.serveOut(a, t);
    this.serveDma(a, t);
    this.enqueue(Q_CPU, b, x * 4 + CPU_RECV);
    this.serveCpu(b, t);
  }
}
