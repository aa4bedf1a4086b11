/** Run-time protocols without a static schedule: AC, the asynchronous send-everything algorithm (003 fig. 2), and DRS_N (003 fig. 5, 000 sec. 5 fig. 4 with its two improvements); Generate_Recv (003 fig. 1) as an optional first phase. */
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import { matrixDigest, type CommMatrix } from "../../model/matrix.js";
import { createRng, shuffleInPlace } from "../../model/rng.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { EventHeap } from "./heap.js";
import { NodeAccounts } from "./node-accounts.js";
import { simulateSchedule, type NodeTimes } from "./simulate.js";
import { K, NONE, TimelineRecorder, type Timeline } from "./timeline.js";

/** async: AC of 003 fig. 2; drs-n: distributed random scheduling avoiding node contention (003 fig. 5). */
export type ProtocolName = "async" | "drs-n";
/** Every ProtocolName. */
export const PROTOCOLS: readonly ProtocolName[] = ["async", "drs-n"];

/** Options of runProtocol as a caller gives them. */
export interface ProtocolRequest {
  readonly protocol: ProtocolName;
  /** Seed of the random send orders. Default 1. */
  readonly seed?: number;
  /** Run Generate_Recv (003 fig. 1) first and add its time. Default false. */
  readonly generateRecv?: boolean;
  /** DRS_N: time of one test-and-set inquiry, a round trip of two active messages (us). Default 2 T_s. */
  readonly inquiry?: number;
  /** DRS_N, 000's first improvement: a busy destination says how long it stays busy; the sender leaves it alone that long and sleeps when every destination is busy. */
  readonly busyMeasure?: boolean;
  /** DRS_N, 000's second improvement: a destination gives the go-ahead when its current receive ends within one inquiry time. */
  readonly earlyGoAhead?: boolean;
  readonly timeline?: boolean;
}

/** The outcome of a protocol run. */
export interface ProtocolResult {
  readonly protocol: ProtocolName;
  readonly machine: string;
  /** Time of the whole run, Generate_Recv included (us). */
  readonly makespan: number;
  /** Time of the Generate_Recv phase (0 when not run). */
  readonly generateRecvTime: number;
  /** DRS_N: test-and-set inquiries made (0 for async). */
  readonly inquiries: number;
  readonly totalWait: number;
  readonly fnc: number;
  readonly nodes: NodeTimes;
  /**
   * The realised trace as a timed Schedule (one stage "realised"): transfers sorted by the time they
   * were issued, one step per distinct issue time; each transfer carries its whole message as one
   * payload chunk and its times (start = when the sender issued it, end = when it arrived).
   */
  readonly realised: Schedule;
  readonly timeline: Timeline;
}

/** Most messages a protocol run takes. */
const MAX_MESSAGES = 20_000_000;

/** Runs a run-time protocol for matrix m on machine (blocking ports as in replayBlocking; flat topology). */
export function runProtocol(m: CommMatrix, machine: MachineModel, req: ProtocolRequest): ProtocolResult {
  if (!PROTOCOLS.includes(req.protocol)) throw fail("simulate", "BAD_OPTION", `unknown protocol '${String(req.protocol)}'; known: ${PROTOCOLS.join(", ")}`, { field: "protocol" });
  const seed = req.seed ?? 1;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw fail("simulate", "BAD_OPTION", `seed must be an integer in 0..4294967295, got ${seed}`, { field: "seed" });
  const inquiry = req.inquiry ?? 2 * machine.ts;
  if (!(inquiry > 0) || !Number.isFinite(inquiry)) throw fail("simulate", "BAD_OPTION", `inquiry must be a finite time > 0, got ${inquiry}`, { field: "inquiry" });
  const p = m.p;
  // Each node's messages in a seeded random order (003: "sends messages to their destinations in a random order").
  const rng = createRng(seed);
  const start = new Uint32Array(p + 1);
  let n = 0;
  for (let i = 0; i < p; i++) {
    start[i] = n;
    for (let j = 0; j < p; j++) if (i !== j && m.data[i * p + j]! > 0) n++;
  }
  start[p] = n;
  if (n > MAX_MESSAGES) throw fail("simulate", "BAD_INPUT", `the matrix has ${n} messages; protocols take at most ${MAX_MESSAGES}`, { field: "matrix" });
  const dest = new Uint32Array(n);
  for (let i = 0, k = 0; i < p; i++) {
    for (let j = 0; j < p; j++) if (i !== j && m.data[i * p + j]! > 0) dest[k++] = j;
    shuffleInPlace(rng, dest.subarray(start[i]!, start[i + 1]!));
  }
  const genRecv = req.generateRecv ? generateRecvTime(m, machine, start, dest, seed) : 0;
  const run = req.protocol === "async" ? runAsync(m, machine, start, dest, req.timeline ?? true) : runDrsN(m, machine, start, dest, inquiry, req);
  const realised = realisedSchedule(m, req, seed, start, dest, run.issue, run.end, genRecv);
  let lmax = 0;
  for (let v = 0; v < p; v++) lmax = Math.max(lmax, run.nodes.sentBytes[v]!, run.nodes.recvBytes[v]!);
  let worst = 0, anyWait = false;
  for (let v = 0; v < p; v++) {
    if (run.nodes.wait[v]! > 0) anyWait = true;
    worst = Math.max(worst, Math.max(run.nodes.sentBytes[v]!, run.nodes.recvBytes[v]!) * machine.td + run.nodes.wait[v]!);
  }
  const fnc = anyWait && lmax * machine.td > 0 ? worst / (lmax * machine.td) : 1;
  return {
    protocol: req.protocol,
    machine: machine.name,
    makespan: genRecv + run.makespan,
    generateRecvTime: genRecv,
    inquiries: run.inquiries,
    totalWait: run.totalWait,
    fnc,
    nodes: run.nodes,
    realised,
    timeline: run.timeline,
  };
}

interface RunOut {
  readonly makespan: number;
  readonly issue: Float64Array;
  readonly end: Float64Array;
  readonly nodes: NodeTimes;
  readonly totalWait: number;
  readonly inquiries: number;
  readonly timeline: Timeline;
}

/** The one-step schedule "node i sends its messages in the order dest[start[i] .. start[i+1])". */
function orderSchedule(m: CommMatrix, start: Uint32Array, dest: Uint32Array, algorithm: string, elementBytes: number): Schedule {
  const b = new ScheduleBuilder({ p: m.p, algorithm, params: {}, seed: null, elementBytes, matrixDigest: "" }, false, dest.length);
  b.stage("async", "none").step();
  for (let i = 0; i < m.p; i++) for (let k = start[i]!; k < start[i + 1]!; k++) b.transfer(i, dest[k]!, m.data[i * m.p + dest[k]!]!);
  return b.build();
}

/** AC: every node issues its messages back to back; a message to a busy receiver waits in the network (003 sec 3.1). */
function runAsync(m: CommMatrix, machine: MachineModel, start: Uint32Array, dest: Uint32Array, timeline: boolean): RunOut {
  const s = orderSchedule(m, start, dest, "async", m.elementBytes);
  const r = simulateSchedule(s, { ...machine, barrier: 0 }, { timeline, ports: 1 });
  // With one port a node issues its k-th message when its (k-1)-th arrives.
  const issue = new Float64Array(s.transferCount);
  for (let i = 0; i < m.p; i++) for (let k = start[i]! + 1; k < start[i + 1]!; k++) issue[k] = r.transferEnd[k - 1]!;
  return { makespan: r.makespan, issue, end: r.transferEnd, nodes: r.nodes, totalWait: r.totalWait, inquiries: 0, timeline: r.timeline };
}

/** DRS_N: test-and-set the destination's busy lock, send if free, else try another destination (003 fig. 5; 000 sec. 5). */
function runDrsN(m: CommMatrix, machine: MachineModel, start: Uint32Array, dest: Uint32Array, inquiry: number, req: ProtocolRequest): RunOut {
  const p = m.p;
  const n = dest.length;
  const eb = m.elementBytes;
  const tcd = machine.tc + machine.td;
  const busyMeasure = req.busyMeasure ?? false;
  const early = req.earlyGoAhead ?? false;
  const acc = new NodeAccounts(p);
  const tl = new TimelineRecorder(p, req.timeline ?? true);
  const issue = new Float64Array(n);
  const end = new Float64Array(n);
  const sent = new Uint8Array(n);
  const left = new Uint32Array(p); // messages still to send
  const cursor = new Uint32Array(p); // next candidate (cyclic over the node's list)
  const lockUntil = new Float64Array(p).fill(-1); // end of the receive holding the lock, -1 when FREE
  const avoidUntil = new Float64Array(n); // improvement 1: do not disturb this destination before
  const inquireSince = new Float64Array(p);
  for (let i = 0; i < p; i++) left[i] = start[i + 1]! - start[i]!;
  const heap = new EventHeap(2 * p + 16);
  // Event ids: k (< n) = message k arrives; n + i = node i's inquiry returns; 2n... encoded below.
  const INQ = n, WAKE = n + p;
  const pendingInq = new Int32Array(p).fill(-1);
  let inquiries = 0;
  let last = 0;

  const duration = (k: number, i: number): number => machine.ts + m.data[i * p + dest[k]!]! * eb * tcd;

  /** Node i picks its next candidate and inquires, or sleeps (improvement 1) until a destination should be free. */
  const next = (i: number, t: number): void => {
    if (left[i] === 0) return;
    const a = start[i]!, cnt = start[i + 1]! - a;
    let soonest = Infinity;
    for (let q = 0; q < cnt; q++) {
      const k = a + ((cursor[i]! + q) % cnt);
      if (sent[k]) continue;
      if (busyMeasure && avoidUntil[k]! > t) {
        soonest = Math.min(soonest, avoidUntil[k]!);
        continue;
      }
      cursor[i] = (k - a + 1) % cnt;
      pendingInq[i] = k;
      inquireSince[i] = t;
      inquiries++;
      heap.push(t + inquiry, INQ + i);
      return;
    }
    heap.push(soonest, WAKE + i); // every destination is busy: sleep for the smallest measure
  };

  for (let i = 0; i < p; i++) next(i, 0);
  while (heap.size > 0) {
    const t = heap.topTime();
    const id = heap.topId();
    heap.pop();
    if (t > last) last = t;
    if (id < n) {
      const k = id;
      const i = senderOf(start, k, p);
      const d = dest[k]!;
      acc.end(i, t);
      acc.end(d, t);
      if (lockUntil[d] === t) lockUntil[d] = -1;
      tl.add(i, K.send, issue[k]!, t, d, m.data[i * p + d]!, k);
      tl.add(d, K.recv, issue[k]!, t, i, m.data[i * p + d]!, k);
      next(i, t);
    } else if (id < WAKE) {
      const i = id - INQ;
      const k = pendingInq[i]!;
      const d = dest[k]!;
      tl.add(i, K.stall, inquireSince[i]!, t, d, 0, NONE);
      acc.stalled[i] = acc.stalled[i]! + (t - inquireSince[i]!);
      const free = lockUntil[d]! < 0 || lockUntil[d]! <= t;
      const soon = early && !free && lockUntil[d]! - t <= inquiry;
      if (free || soon) {
        const s0 = free ? t : lockUntil[d]!;
        if (soon) {
          acc.wait[i] = acc.wait[i]! + (s0 - t);
          tl.add(i, K.wait, t, s0, d, 0, k);
        }
        const e = s0 + duration(k, i);
        lockUntil[d] = e;
        sent[k] = 1;
        left[i]!--;
        issue[k] = s0;
        end[k] = e;
        const bytes = m.data[i * p + d]! * eb;
        acc.sentBytes[i] = acc.sentBytes[i]! + bytes;
        acc.recvBytes[d] = acc.recvBytes[d]! + bytes;
        acc.begin(i, s0);
        acc.begin(d, s0);
        heap.push(e, k);
      } else {
        if (busyMeasure) avoidUntil[k] = lockUntil[d]!;
        next(i, t);
      }
    } else next(id - WAKE, t);
  }
  const idle = new Float64Array(p);
  let totalWait = 0;
  for (let v = 0; v < p; v++) {
    idle[v] = Math.max(0, last - acc.busy[v]! - acc.wait[v]! - acc.stalled[v]!);
    totalWait += acc.wait[v]!;
  }
  return {
    makespan: last,
    issue,
    end,
    nodes: { busy: acc.busy, idle, stalled: acc.stalled, wait: acc.wait, sentBytes: acc.sentBytes, recvBytes: acc.recvBytes },
    totalWait,
    inquiries,
    timeline: tl.build(),
  };
}

/** The node whose message list holds message k (binary search over start). */
function senderOf(start: Uint32Array, k: number, p: number): number {
  let lo = 0, hi = p - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (start[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Generate_Recv (003 fig. 1): a parallel vector sum of the send masks (ceil(log2 P) rounds of a
 * P-entry vector of 4-byte counts), then an AC exchange of one 8-byte entry per message.
 */
function generateRecvTime(m: CommMatrix, machine: MachineModel, start: Uint32Array, dest: Uint32Array, seed: number): number {
  const p = m.p;
  if (p <= 1) return 0;
  const rounds = Math.ceil(Math.log2(p));
  const vectorSum = rounds * (machine.ts + 4 * p * (machine.tc + machine.td));
  const ones = new Float64Array(p * p);
  for (let i = 0; i < p; i++) for (let k = start[i]!; k < start[i + 1]!; k++) ones[i * p + dest[k]!] = 1;
  const s = orderSchedule({ p, elementBytes: 8, data: ones }, start, dest, "generate-recv", 8);
  void seed;
  return vectorSum + simulateSchedule(s, { ...machine, barrier: 0 }, { timeline: false, ports: 1 }).makespan;
}

/** The realised trace as a timed Schedule: one step per distinct issue time, transfers in issue order. */
function realisedSchedule(m: CommMatrix, req: ProtocolRequest, seed: number, start: Uint32Array, dest: Uint32Array, issue: Float64Array, end: Float64Array, offset: number): Schedule {
  const p = m.p;
  const n = dest.length;
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  order.sort((a, b) => issue[a]! - issue[b]! || a - b);
  const params: { [k: string]: boolean | number } = { generateRecv: req.generateRecv ?? false };
  if (req.protocol === "drs-n") {
    params["busyMeasure"] = req.busyMeasure ?? false;
    params["earlyGoAhead"] = req.earlyGoAhead ?? false;
  }
  const b = new ScheduleBuilder({ p, algorithm: req.protocol, params, seed, elementBytes: m.elementBytes, matrixDigest: matrixDigest(m) }, true, n, true);
  b.stage("realised", "none");
  let prev = NaN;
  for (let q = 0; q < n; q++) {
    const k = order[q]!;
    if (issue[k] !== prev) {
      b.step();
      prev = issue[k]!;
    }
    const i = senderOf(start, k, p);
    const j = dest[k]!;
    const size = m.data[i * p + j]!;
    b.transfer(i, j, size);
    b.chunk(i, j, 0, size);
    b.times(offset + issue[k]!, offset + end[k]!);
  }
  return b.build();
}
