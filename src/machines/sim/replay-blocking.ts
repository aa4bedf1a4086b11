/** Blocking replay: an event-driven run of a Schedule where a transfer holds a send and a receive port for T_s + m (t_c + t_d) (004 sec 2.2-2.3, figs 2-3). */
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import type { Schedule } from "../../model/schedule.js";
import { createRng } from "../../model/rng.js";
import type { DataTracker } from "./data-tracker.js";
import { EventHeap } from "./heap.js";
import type { NodeAccounts } from "./node-accounts.js";
import type { SimOptions } from "./options.js";
import { K, NONE, type TimelineRecorder } from "./timeline.js";
import { driveStages } from "./stage-driver.js";
import { StageOrder } from "./stage-order.js";
import { perByteCost } from "./topology.js";

/** What a replay hands back besides the accounts and the timeline. */
export interface ReplayOutcome {
  /** Makespan (us): the sum of the stage durations. */
  readonly makespan: number;
  /** Events processed. */
  readonly events: number;
  /** Start and end time (us, absolute) of every transfer. */
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** OCPC only: transfer attempts that collided and were resent. */
  readonly collisions: number;
}

/**
 * Replays `s` in blocking mode. Per stage: a barrier (machine.barrier), then each node composes
 * (t_m per byte it handles in the stage, when the stage rearranges), then the transfers. A node
 * issues its transfers in schedule order; a transfer of step s waits until its source has received
 * everything addressed to it in earlier steps of the stage (forwarding needs the data) and has a
 * free send port; it then holds that port and waits, if needed, for a receive port at its
 * destination: that wait is node contention. A local copy (src == dst) uses no port and takes
 * m t_m. With `lockstep`, every step ends with a free barrier (000 fig. 3).
 */
export function replayBlocking(s: Schedule, machine: MachineModel, o: SimOptions, acc: NodeAccounts, tl: TimelineRecorder, data: DataTracker | null): ReplayOutcome {
  const p = s.p;
  const T = s.transferCount;
  const { src, dst, size, stepStart } = s;
  const eb = s.elementBytes;
  const { ts, tm } = machine;
  const ports = o.ports;
  const tcdOf = perByteCost(o.topology, machine);
  const ocpc = o.topology === "ocpc";
  const rng = createRng(o.seed);
  // OCPC state: the round from which a message may transmit again, its collisions so far.
  const eligible = ocpc ? new Float64Array(T) : new Float64Array(0);
  const collided = ocpc ? new Uint32Array(T) : new Uint32Array(0);
  const attempts = new Int32Array(ocpc ? p : 0);
  const senderUsed = new Int32Array(ocpc ? p : 0);
  // OCPC busy time: each node's current run of overlapping intervals [busyFrom, busyTo] (-1: none).
  const busyFrom = new Float64Array(ocpc ? p : 0);
  const busyTo = new Float64Array(ocpc ? p : 0).fill(-1);
  let ocpcEvents = 0;

  const startAt = new Float64Array(T);
  const endAt = new Float64Array(T);
  const order = new StageOrder(s);
  const { sendStart, sendList, ptr } = order;
  const waitSince = new Float64Array(T);
  const qNext = new Int32Array(T);
  const sendBusy = new Int32Array(p);
  const recvBusy = new Int32Array(p);
  const composing = new Uint8Array(p);
  const composeEnd = new Float64Array(p); // local time at which the node has composed (stage-local clock)
  const qHead = new Int32Array(p);
  const qTail = new Int32Array(p);
  const stallSince = new Float64Array(p);
  const ready = new Float64Array(p);
  const heap = new EventHeap(Math.min(T + p, 1 << 20));
  let base = 0; // absolute time of the current stage-local clock's zero
  let done = 0;
  let collisions = 0;
  let stuck = false;
  const progressEvery = 1 << 16;
  let nextProgress = progressEvery;

  const duration = (x: number): number => {
    const a = src[x]!, b = dst[x]!;
    const bytes = size[x]! * eb;
    return a === b ? bytes * tm : ts + bytes * tcdOf(a, b);
  };

  const closeStall = (v: number, t: number): void => {
    if (stallSince[v]! >= 0) {
      acc.stalled[v] = acc.stalled[v]! + (t - stallSince[v]!);
      tl.add(v, K.stall, base + stallSince[v]!, base + t, NONE, 0, NONE);
      stallSince[v] = -1;
    }
  };

  const start = (x: number, t: number): void => {
    const a = src[x]!, b = dst[x]!;
    acc.begin(a, t);
    if (a !== b) {
      recvBusy[b]!++;
      acc.begin(b, t);
    }
    startAt[x] = base + t;
    if (data) data.start(x, base + t);
    heap.push(t + duration(x), x);
  };

  const tryIssue = (v: number, t: number): void => {
    if (composing[v]) return;
    const stop = sendStart[v + 1]!;
    while (ptr[v]! < stop) {
      const x = sendList[ptr[v]!]!;
      const b = dst[x]!;
      if (b !== v && sendBusy[v]! >= ports) return;
      if (!order.stepsDone(x)) {
        if (stallSince[v]! < 0) stallSince[v] = t;
        return;
      }
      ptr[v]!++;
      closeStall(v, t);
      if (b === v) {
        start(x, t);
        continue;
      }
      sendBusy[v]!++;
      if (recvBusy[b]! < ports && !composing[b]) start(x, t);
      else {
        waitSince[x] = t;
        qNext[x] = -1;
        if (qHead[b]! < 0) qHead[b] = x;
        else qNext[qTail[b]!] = x;
        qTail[b] = x;
      }
    }
  };

  const serve = (b: number, t: number): void => {
    while (qHead[b]! >= 0 && recvBusy[b]! < ports && !composing[b]) {
      const y = qHead[b]!;
      qHead[b] = qNext[y]!;
      const a = src[y]!;
      // Waiting for a receiver that is still composing is not contention: nobody else holds its port.
      const w0 = waitSince[y]!, w1 = Math.max(w0, Math.min(t, composeEnd[b]!));
      if (w1 > w0) {
        acc.stalled[a] = acc.stalled[a]! + (w1 - w0);
        tl.add(a, K.stall, base + w0, base + w1, b, 0, y);
      }
      acc.wait[a] = acc.wait[a]! + (t - w1);
      tl.add(a, K.wait, base + w1, base + t, b, size[y]!, y);
      start(y, t);
    }
  };

  const complete = (x: number, t: number): void => {
    const a = src[x]!, b = dst[x]!;
    endAt[x] = base + t;
    if (data) data.end(x);
    acc.end(a, t);
    if (a === b) tl.add(a, K.copy, startAt[x]!, base + t, a, size[x]!, x);
    else {
      tl.add(a, K.send, startAt[x]!, base + t, b, size[x]!, x);
      tl.add(b, K.recv, startAt[x]!, base + t, a, size[x]!, x);
      acc.end(b, t);
      sendBusy[a]!--;
      recvBusy[b]!--;
      const bytes = size[x]! * eb;
      acc.sentBytes[a] = acc.sentBytes[a]! + bytes;
      acc.recvBytes[b] = acc.recvBytes[b]! + bytes;
    }
    order.received(x);
    done++;
    if (a !== b) serve(b, t);
    tryIssue(a, t);
    if (b !== a) tryIssue(b, t);
  };

  /** Runs the transfers of steps [stepLo, stepHi) from local time t0 (nodes ready at t0 + ready[v] when given); returns the last end. */
  const runRange = (stepLo: number, stepHi: number, t0: number, withReady: boolean): number => {
    order.load(stepLo, stepHi);
    sendBusy.fill(0);
    recvBusy.fill(0);
    composing.fill(0);
    composeEnd.fill(t0);
    qHead.fill(-1);
    stallSince.fill(-1);
    let last = t0;
    if (withReady) {
      for (let v = 0; v < p; v++) {
        if (ready[v]! > 0) {
          composing[v] = 1;
          composeEnd[v] = t0 + ready[v]!;
          acc.begin(v, t0);
          heap.push(t0 + ready[v]!, T + v);
        }
      }
    }
    for (let v = 0; v < p; v++) tryIssue(v, t0);
    while (heap.size > 0) {
      const t = heap.topTime();
      const id = heap.topId();
      heap.pop();
      if (t > last) last = t;
      if (id >= T) {
        const v = id - T;
        composing[v] = 0;
        acc.end(v, t);
        tl.add(v, K.compose, base + t0, base + t, NONE, 0, NONE);
        serve(v, t);
        tryIssue(v, t);
      } else complete(id, t);
      if (o.progress && heap.pushed >= nextProgress) {
        nextProgress += progressEvery;
        o.progress(done, T);
      }
    }
    for (let v = 0; v < p; v++) {
      closeStall(v, last); // cannot happen in a valid run; closes the books otherwise
      if (ptr[v]! < sendStart[v + 1]!) stuck = true;
    }
    return last;
  };

  /** OCPC: node v is busy over [t0, t1]; intervals come in order of their start, so overlapping ones merge (busy is a union). */
  const ocpcBusy = (v: number, t0: number, t1: number): void => {
    if (busyTo[v]! >= 0 && t0 <= busyTo[v]!) {
      if (t1 > busyTo[v]!) busyTo[v] = t1;
      return;
    }
    if (busyTo[v]! >= 0) acc.busy[v] = acc.busy[v]! + (busyTo[v]! - busyFrom[v]!);
    busyFrom[v] = t0;
    busyTo[v] = t1;
  };

  /**
   * OCPC lock-step step (001 sec 2): rounds. In a round every sender transmits its first pending
   * message that is not backing off; two or more messages into one receiver collide, all fail (no
   * acknowledgement comes back) and are resent. A collided attempt is contention wait of its sender
   * only (neither node is busy for it: nothing is delivered); busy time is the union of a node's
   * successful sends, receives and copies; every attempt and copy counts as an event. Contention resolution: binary exponential backoff,
   * the only rule that needs no more than the missing acknowledgement: after its c-th collision a
   * message sits out a uniform number of rounds in [0, 2^min(c, 16)) (seeded). A round lasts as long
   * as its longest attempt; rounds in which nobody transmits are skipped at no cost.
   */
  const runOcpcStep = (step: number, t0: number): number => {
    const lo = stepStart[step]!, hi = stepStart[step + 1]!;
    let pending: number[] = [];
    let last = t0;
    for (let x = lo; x < hi; x++) {
      if (src[x] === dst[x]) {
        const e = t0 + duration(x);
        startAt[x] = base + t0;
        if (data) data.start(x, base + t0);
        endAt[x] = base + e;
        if (data) data.end(x);
        tl.add(src[x]!, K.copy, base + t0, base + e, src[x]!, size[x]!, x);
        ocpcBusy(src[x]!, t0, e);
        ocpcEvents++;
        done++;
        if (e > last) last = e;
      } else {
        pending.push(x);
        eligible[x] = 0;
        collided[x] = 0;
      }
    }
    const cap = ocpcRoundCap(pending.length);
    let t = t0;
    let round = 0;
    while (pending.length > 0) {
      let next = Infinity;
      for (const x of pending) if (eligible[x]! < next) next = eligible[x]!;
      if (next > round) round = next; // nobody transmits in the rounds between: skipped at no cost
      if (round > cap) {
        throw fail("simulate", "UNSUPPORTED", `OCPC step ${step} did not finish within ${cap} rounds (${pending.length} message(s) left, seed ${o.seed}); try another seed`, { field: "topology" });
      }
      const trying: number[] = [];
      const later: number[] = [];
      senderUsed.fill(-1);
      for (const x of pending) {
        const a = src[x]!;
        if (senderUsed[a]! >= 0 || eligible[x]! > round) later.push(x);
        else {
          senderUsed[a] = x;
          trying.push(x);
        }
      }
      attempts.fill(0);
      for (const x of trying) attempts[dst[x]!]!++;
      let roundEnd = t;
      for (const x of trying) {
        const a = src[x]!, b = dst[x]!;
        const e = t + duration(x);
        if (e > roundEnd) roundEnd = e;
        ocpcEvents++;
        if (attempts[b]! > 1) {
          collisions++;
          const c = ++collided[x]!;
          eligible[x] = round + 1 + rng.int(2 ** Math.min(c, 16));
          tl.add(a, K.collide, base + t, base + e, b, size[x]!, x);
          acc.wait[a] = acc.wait[a]! + (e - t);
          later.push(x);
        } else {
          startAt[x] = base + t;
          endAt[x] = base + e;
          if (data) {
            data.start(x, base + t);
            data.end(x);
          }
          tl.add(a, K.send, base + t, base + e, b, size[x]!, x);
          tl.add(b, K.recv, base + t, base + e, a, size[x]!, x);
          ocpcBusy(a, t, e);
          ocpcBusy(b, t, e);
          const bytes = size[x]! * eb;
          acc.sentBytes[a] = acc.sentBytes[a]! + bytes;
          acc.recvBytes[b] = acc.recvBytes[b]! + bytes;
          done++;
        }
      }
      later.sort((u, w) => u - w);
      pending = later;
      t = roundEnd;
      round++;
      if (t > last) last = t;
    }
    for (let v = 0; v < p; v++) {
      if (busyTo[v]! < 0) continue;
      acc.busy[v] = acc.busy[v]! + (busyTo[v]! - busyFrom[v]!);
      busyTo[v] = -1;
    }
    return last;
  };

  const makespan = driveStages(s, machine, o.lockstep, acc, tl, ready, {
    setBase: (t) => void (base = t),
    runRange,
    runStep: (step, c) => (ocpc ? runOcpcStep(step, c) : runRange(step, step + 1, c, false)),
  });
  if (stuck) throw new Error("simulate: a node could not issue all its transfers (internal error)");
  return { makespan, events: heap.pushed + ocpcEvents, start: startAt, end: endAt, collisions };
}

/**
 * Most rounds an OCPC step may take before the run gives up (a CommplanError): binary exponential
 * backoff clears n messages into one receiver in O(n log n) rounds with high probability, so this
 * cap is reached only with negligible probability.
 */
export function ocpcRoundCap(n: number): number {
  return 64 * n * Math.ceil(Math.log2(n + 2)) + 1024;
}
