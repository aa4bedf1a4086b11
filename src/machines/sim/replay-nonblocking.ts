/** Nonblocking replay: main processor (T_s), copy engine (m t_c) and network (m t_d) as three pipelined resources per node (004 sec 2.2, eqs 2 and 4; sec 3.4 send buffers). */
import type { MachineModel } from "../../model/machine.js";
import type { Schedule } from "../../model/schedule.js";
import type { DataTracker } from "./data-tracker.js";
import { EventHeap } from "./heap.js";
import type { NodeAccounts } from "./node-accounts.js";
import type { SimOptions } from "./options.js";
import type { ReplayOutcome } from "./replay-blocking.js";
import { forwardDeps } from "./forward-deps.js";
import { driveStages } from "./stage-driver.js";
import { StageOrder } from "./stage-order.js";
import { K, NONE, type TimelineRecorder } from "./timeline.js";
import { networkCost } from "./topology.js";

/** Phases of a network message: 0 send start-up on the source's processor, 1 copy to the interface, 2 network, 3 receive start-up on the destination's processor. */
const CPU_SEND = 0, DMA = 1, NET = 2, CPU_RECV = 3;

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
export function replayNonblocking(s: Schedule, machine: MachineModel, o: SimOptions, acc: NodeAccounts, tl: TimelineRecorder, data: DataTracker | null): ReplayOutcome {
  const p = s.p;
  const T = s.transferCount;
  const { src, dst, size } = s;
  const eb = s.elementBytes;
  const { ts, tc, tm, tsSend } = machine;
  const tsRecv = ts - tsSend;
  const ports = o.ports;
  const buffers = o.sendBuffers;
  const tdOf = networkCost(o.topology, machine);
  const byData = o.sendWaits === "data";
  const deps = byData ? forwardDeps(s) : null;
  const needLeft = deps ? deps.need.slice() : new Uint32Array(0); // receives each transfer still waits for

  const startAt = new Float64Array(T);
  const endAt = new Float64Array(T);
  const phaseStart = new Float64Array(4 * T);
  const jobNext = new Int32Array(4 * T);
  const order = new StageOrder(s);
  const { sendStart, sendList, ptr } = order;
  const waitSince = new Float64Array(T);
  const issuing = new Uint8Array(p); // the node's processor has a send start-up queued or running
  const cpuBusy = new Uint8Array(p);
  const dmaBusy = new Uint8Array(p);
  const outBusy = new Int32Array(p);
  const inBusy = new Int32Array(p);
  const bufUsed = new Int32Array(p);
  // FIFO queues of jobs (x * 4 + phase): processor, copy engine, output port, input port.
  const qh = [new Int32Array(p), new Int32Array(p), new Int32Array(p), new Int32Array(p)] as const;
  const qt = [new Int32Array(p), new Int32Array(p), new Int32Array(p), new Int32Array(p)] as const;
  const Q_CPU = 0, Q_DMA = 1, Q_OUT = 2, Q_IN = 3;
  const stallSince = new Float64Array(p);
  const ready = new Float64Array(p);
  const heap = new EventHeap(Math.min(4 * T + p, 1 << 20));
  let base = 0;
  let done = 0;
  let nextProgress = 1 << 16;

  const enqueue = (q: number, v: number, job: number): void => {
    jobNext[job] = -1;
    const h = qh[q as 0]!, t = qt[q as 0]!;
    if (h[v]! < 0) h[v] = job;
    else jobNext[t[v]!] = job;
    t[v] = job;
  };
  const dequeue = (q: number, v: number): number => {
    const h = qh[q as 0]!;
    const job = h[v]!;
    h[v] = jobNext[job]!;
    return job;
  };
  const head = (q: number, v: number): number => qh[q as 0]![v]!;

  const closeStall = (v: number, t: number): void => {
    if (stallSince[v]! >= 0) {
      acc.stalled[v] = acc.stalled[v]! + (t - stallSince[v]!);
      tl.add(v, K.stall, base + stallSince[v]!, base + t, NONE, 0, NONE);
      stallSince[v] = -1;
    }
  };

  const cpuTime = (job: number): number => {
    const x = job >> 2, ph = job & 3;
    if (src[x] === dst[x]) return size[x]! * eb * tm;
    return ph === CPU_SEND ? tsSend : tsRecv;
  };

  const serveCpu = (v: number, t: number): void => {
    if (cpuBusy[v] || head(Q_CPU, v) < 0) return;
    const job = dequeue(Q_CPU, v);
    cpuBusy[v] = 1;
    acc.begin(v, t);
    phaseStart[job] = t;
    const x = job >> 2;
    if ((job & 3) === CPU_SEND) {
      startAt[x] = base + t;
      if (data) data.start(x, base + t);
    }
    heap.push(t + cpuTime(job), job);
  };
  const serveDma = (v: number, t: number): void => {
    if (dmaBusy[v] || bufUsed[v]! >= buffers || head(Q_DMA, v) < 0) return;
    const job = dequeue(Q_DMA, v);
    dmaBusy[v] = 1;
    bufUsed[v]!++;
    acc.begin(v, t);
    phaseStart[job] = t;
    heap.push(t + size[job >> 2]! * eb * tc, job);
  };
  const startNet = (x: number, t: number): void => {
    const a = src[x]!, b = dst[x]!;
    inBusy[b]!++;
    acc.begin(a, t);
    acc.begin(b, t);
    phaseStart[x * 4 + NET] = t;
    heap.push(t + size[x]! * eb * tdOf(a, b), x * 4 + NET);
  };
  const serveOut = (v: number, t: number): void => {
    while (outBusy[v]! < ports && head(Q_OUT, v) >= 0) {
      const job = dequeue(Q_OUT, v);
      const x = job >> 2, b = dst[x]!;
      outBusy[v]!++;
      if (inBusy[b]! < ports) startNet(x, t);
      else {
        waitSince[x] = t;
        enqueue(Q_IN, b, job);
      }
    }
  };
  const serveIn = (b: number, t: number): void => {
    while (inBusy[b]! < ports && head(Q_IN, b) >= 0) {
      const x = dequeue(Q_IN, b) >> 2;
      const a = src[x]!;
      acc.wait[a] = acc.wait[a]! + (t - waitSince[x]!);
      tl.add(a, K.wait, base + waitSince[x]!, base + t, b, size[x]!, x);
      startNet(x, t);
    }
  };

  const tryIssue = (v: number, t: number): void => {
    if (issuing[v]) return;
    if (ptr[v]! >= sendStart[v + 1]!) return;
    const x = sendList[ptr[v]!]!;
    if (byData ? needLeft[x]! > 0 : !order.stepsDone(x)) {
      if (stallSince[v]! < 0) stallSince[v] = t;
      return;
    }
    closeStall(v, t);
    ptr[v]!++;
    issuing[v] = 1;
    enqueue(Q_CPU, v, x * 4 + CPU_SEND);
    serveCpu(v, t);
  };

  const finishMessage = (x: number, t: number): void => {
    const b = dst[x]!;
    endAt[x] = base + t;
    if (data) data.end(x);
    order.received(x);
    done++;
    // the transfers waiting for this receive all leave from b
    if (deps) for (let i = deps.start[x]!; i < deps.start[x + 1]!; i++) needLeft[deps.list[i]!]!--;
    tryIssue(b, t);
  };

  const onEvent = (job: number, t: number): void => {
    const x = job >> 2, ph = job & 3;
    const a = src[x]!, b = dst[x]!;
    if (ph === CPU_SEND || ph === CPU_RECV) {
      const v = ph === CPU_SEND ? a : b;
      cpuBusy[v] = 0;
      acc.end(v, t);
      if (a === b) {
        tl.add(a, K.copy, base + phaseStart[job]!, base + t, a, size[x]!, x);
        issuing[a] = 0;
        finishMessage(x, t);
        serveCpu(a, t);
        tryIssue(a, t);
        return;
      }
      tl.add(v, K.cpu, base + phaseStart[job]!, base + t, ph === CPU_SEND ? b : a, size[x]!, x);
      if (ph === CPU_SEND) {
        issuing[a] = 0;
        enqueue(Q_DMA, a, x * 4 + DMA);
        serveDma(a, t);
        serveCpu(a, t);
        tryIssue(a, t);
      } else {
        finishMessage(x, t);
        serveCpu(b, t);
      }
    } else if (ph === DMA) {
      dmaBusy[a] = 0;
      acc.end(a, t);
      tl.add(a, K.dma, base + phaseStart[job]!, base + t, b, size[x]!, x);
      enqueue(Q_OUT, a, x * 4 + NET);
      serveOut(a, t);
      serveDma(a, t);
    } else {
      outBusy[a]!--;
      inBusy[b]!--;
      bufUsed[a]!--;
      acc.end(a, t);
      acc.end(b, t);
      tl.add(a, K.send, base + phaseStart[job]!, base + t, b, size[x]!, x);
      tl.add(b, K.recv, base + phaseStart[job]!, base + t, a, size[x]!, x);
      const bytes = size[x]! * eb;
      acc.sentBytes[a] = acc.sentBytes[a]! + bytes;
      acc.recvBytes[b] = acc.recvBytes[b]! + bytes;
      serveIn(b, t);
      serveOut(a, t);
      serveDma(a, t);
      enqueue(Q_CPU, b, x * 4 + CPU_RECV);
      serveCpu(b, t);
    }
  };

  const runRange = (stepLo: number, stepHi: number, t0: number, withReady: boolean): number => {
    order.load(stepLo, stepHi);
    for (const q of qh) q.fill(-1);
    issuing.fill(0);
    stallSince.fill(-1);
    let last = t0;
    if (withReady) {
      for (let v = 0; v < p; v++) {
        if (ready[v]! > 0) {
          cpuBusy[v] = 1;
          issuing[v] = 1;
          acc.begin(v, t0);
          heap.push(t0 + ready[v]!, 4 * T + v);
        }
      }
    }
    for (let v = 0; v < p; v++) tryIssue(v, t0);
    while (heap.size > 0) {
      const t = heap.topTime();
      const id = heap.topId();
      heap.pop();
      if (t > last) last = t;
      if (id >= 4 * T) {
        const v = id - 4 * T;
        cpuBusy[v] = 0;
        issuing[v] = 0;
        acc.end(v, t);
        tl.add(v, K.compose, base + t0, base + t, NONE, 0, NONE);
        serveCpu(v, t);
        tryIssue(v, t);
      } else onEvent(id, t);
      if (o.progress && heap.pushed >= nextProgress) {
        nextProgress += 1 << 16;
        o.progress(done, T);
      }
    }
    for (let v = 0; v < p; v++) {
      closeStall(v, last);
      if (ptr[v]! < sendStart[v + 1]!) throw new Error("simulate: a node could not issue all its transfers (internal error)");
    }
    return last;
  };

  const makespan = driveStages(s, machine, o.lockstep, acc, tl, ready, { setBase: (t) => void (base = t), runRange });
  return { makespan, events: heap.pushed, start: startAt, end: endAt, collisions: 0 };
}
