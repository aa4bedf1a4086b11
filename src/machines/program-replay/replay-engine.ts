/**
 * The program replay engine: every rank executes its operations in order as an SMPI actor does (posting costs CPU
 * time, a wait pays the receive overheads of eager messages), messages start when both sides are posted, cross their
 * route's latency, then share the links by weighted max-min (SimGrid's CM02 model).
 */
import { fail } from "../../model/errors.js";
import type { NetworkRoutes } from "../../model/network.js";
import { EventHeap } from "../sim/heap.js";
import { overheadUs } from "../runtime/overhead.js";
import type { RuntimeModel } from "../runtime/runtime-model.js";
import { R_COPY, R_RECV, R_SEND, type ReplayOps } from "./replay-ops.js";
import { MaxMinSolver } from "./weighted-max-min.js";

/** What a program replay gives. */
export interface ProgramReplayResult {
  /** When the last rank finished (us). */
  readonly makespanUs: number;
  /** When each rank finished its last operation and wait (us). */
  readonly rankFinishUs: Float64Array;
  /** Messages replayed, and how many of them were eager. */
  readonly messages: number;
  readonly eagerMessages: number;
  /** Events handled and rate recomputations made. */
  readonly events: number;
  readonly recomputes: number;
}

/** The engine's options: the network the ranks run on (rank r on host r), the runtime, the copy cost. */
export interface ReplayEngineOptions {
  readonly network: NetworkRoutes;
  readonly runtime: RuntimeModel;
  /** CPU time of a copied byte (us), used when the runtime charges copies. */
  readonly copyUsPerByte: number;
}

const EV_CPU = 0,
  EV_ACTIVATE = 1;
const JOB_POST = 0,
  JOB_OR = 1;
/** Lmm's penalty (us) of a route without latency: SimGrid gives such a flow the penalty 1 (second). */
const ZERO_LATENCY_PENALTY_US = 1e6;

/** Replays `ops` on the network and runtime of `o`; throws a one-line error on an unmatched message or a deadlock. */
export function replayProgramOps(ops: ReplayOps, o: ReplayEngineOptions): ProgramReplayResult {
  const { p, rankStart, kind, peer, tag, bytes, blocking, waitPrefix, depStart, deps } = ops;
  const net = o.network;
  const rt = o.runtime;
  if (net.hosts < p)
    throw fail("machines", "BAD_OPTION", `program replay: network ${net.name} has ${net.hosts} hosts, not ${p}`);
  const n = kind.length;
  const opRank = new Int32Array(n);
  for (let r = 0; r < p; r++) for (let x = rankStart[r]!; x < rankStart[r + 1]!; x++) opRank[x] = r;
  const partner = matchMessages(ops, opRank);
  // routes, latencies and weights of the sends (flow id = the send's op id)
  const H = Math.max(1, net.maxHops);
  const routeStart = new Int32Array(n + 1);
  const out = new Int32Array(H);
  let total = 0;
  for (let x = 0; x < n; x++) {
    routeStart[x] = total;
    if (kind[x] === R_SEND) total += net.route(opRank[x]!, peer[x]!, out);
  }
  routeStart[n] = total;
  const routeLinks = new Int32Array(total);
  const latSum = new Float64Array(n);
  const weight = new Float64Array(n);
  let messages = 0,
    eagerMessages = 0;
  for (let x = 0; x < n; x++) {
    if (kind[x] !== R_SEND) continue;
    messages++;
    if (bytes[x]! < rt.eagerBytes) eagerMessages++;
    const k = net.route(opRank[x]!, peer[x]!, out);
    let lat = 0;
    for (let h = 0; h < k; h++) {
      routeLinks[routeStart[x]! + h] = out[h]!;
      lat += net.latency[out[h]!]!;
    }
    latSum[x] = lat;
    weight[x] = 1 / (lat > 0 ? lat : ZERO_LATENCY_PENALTY_US);
  }
  const solver = new MaxMinSolver(net.links);
  const heap = new EventHeap(1024);
  const posted = new Uint8Array(n),
    complete = new Uint8Array(n);
  const rem = new Float64Array(n),
    rate = new Float64Array(n);
  const active = new Int32Array(Math.max(1, messages)),
    activePos = new Int32Array(n);
  let nActive = 0,
    dirty = false,
    now = 0,
    events = 0,
    recomputes = 0;
  const ptr = Int32Array.from(rankStart.subarray(0, p));
  const doneUpTo = Int32Array.from(rankStart.subarray(0, p));
  const cpuBusy = new Uint8Array(p),
    jobKind = new Uint8Array(p),
    jobOp = new Int32Array(p),
    inFlight = new Int32Array(p);
  const finish = new Float64Array(p).fill(NaN);
  const orQueue: number[][] = Array.from({ length: p }, () => []);
  const startQueue: number[][] = Array.from({ length: p }, () => []);
  const eager = (x: number): boolean => bytes[x]! < rt.eagerBytes;

  const cpuCost = (x: number): number => {
    const k = kind[x];
    if (k === R_SEND) {
      if (blocking[x]) return eager(x) ? overheadUs(rt.sendOverhead, bytes[x]!) : 0;
      return overheadUs(rt.isendOverhead, bytes[x]!);
    }
    if (k === R_COPY) return rt.copies ? bytes[x]! * o.copyUsPerByte : 0;
    return 0;
  };
  const activate = (s: number): void => {
    rem[s] = bytes[s]! + rt.envelopeBytes;
    activePos[s] = nActive;
    active[nActive++] = s;
    dirty = true;
  };
  const begin = (s: number, t: number): void => {
    inFlight[opRank[s]!]!++;
    if (latSum[s]! > 0) heap.push(t + latSum[s]!, s * 2 + EV_ACTIVATE);
    else activate(s);
  };
  const match = (s: number, t: number): void => {
    const r = opRank[s]!;
    if (inFlight[r]! >= rt.maxInFlight) startQueue[r]!.push(s);
    else begin(s, t);
  };
  const post = (x: number, t: number): void => {
    posted[x] = 1;
    const k = kind[x];
    if (k === R_COPY) complete[x] = 1;
    else if (k === R_SEND) {
      if (eager(x)) complete[x] = 1;
      if (posted[partner[x]!]) match(x, t);
    } else if (posted[partner[x]!]) match(partner[x]!, t);
  };
  const inDeps = (k: number, x: number): boolean => {
    for (let j = depStart[k]!; j < depStart[k + 1]!; j++) if (deps[j] === x) return true;
    return false;
  };
  const step = (r: number, t: number): void => {
    const end = rankStart[r + 1]!;
    while (cpuBusy[r] === 0 && Number.isNaN(finish[r]!)) {
      const k = ptr[r]!;
      const need = k < end ? waitPrefix[k]! : end;
      let d = doneUpTo[r]!;
      while (d < end && complete[d]) d++;
      doneUpTo[r] = d;
      let ok = d >= need;
      if (ok && k < end) for (let j = depStart[k]!; j < depStart[k + 1]! && ok; j++) ok = complete[deps[j]!] === 1;
      if (!ok) {
        // the rank waits: it pays the receive overhead of an arrived eager message it waits for
        const q = orQueue[r]!;
        let i = 0;
        while (i < q.length && !(q[i]! < need || (k < end && inDeps(k, q[i]!)))) i++;
        if (i === q.length) return;
        const x = q.splice(i, 1)[0]!;
        cpuBusy[r] = 1;
        jobKind[r] = JOB_OR;
        jobOp[r] = x;
        heap.push(t + overheadUs(rt.recvOverhead, bytes[x]!), r * 2 + EV_CPU);
        return;
      }
      if (k === end) {
        finish[r] = t;
        return;
      }
      ptr[r] = k + 1;
      const c = cpuCost(k);
      if (c > 0) {
        cpuBusy[r] = 1;
        jobKind[r] = JOB_POST;
        jobOp[r] = k;
        heap.push(t + c, r * 2 + EV_CPU);
        return;
      }
      post(k, t);
    }
  };
  const transferDone = (s: number, t: number): void => {
    const r = opRank[s]!;
    inFlight[r]!--;
    const q = startQueue[r]!;
    if (q.length > 0) begin(q.shift()!, t);
    if (!eager(s)) complete[s] = 1;
    const v = partner[s]!,
      rv = opRank[v]!;
    if (eager(s) && overheadUs(rt.recvOverhead, bytes[v]!) > 0) orQueue[rv]!.push(v);
    else complete[v] = 1;
    step(r, t);
    step(rv, t);
  };

  for (let r = 0; r < p; r++) step(r, 0);
  const doneList: number[] = [];
  for (;;) {
    if (dirty) {
      solver.solve({ flows: active, nFlows: nActive, routeStart, routeLinks, weight, bandwidth: net.bandwidth }, rate);
      dirty = false;
      recomputes++;
    }
    let tf = Infinity;
    for (let i = 0; i < nActive; i++) {
      const f = active[i]!;
      const r = rate[f]!;
      if (r > 0) {
        const tt = rem[f]! / r;
        if (tt < tf) tf = tt;
      }
    }
    const th = heap.size > 0 ? heap.topTime() : Infinity;
    if (tf === Infinity && th === Infinity) break;
    const tNext = Math.min(now + tf, th);
    const dt = tNext - now;
    now = tNext;
    doneList.length = 0;
    for (let i = 0; i < nActive; i++) {
      const f = active[i]!;
      rem[f] = rem[f]! - rate[f]! * dt;
      if (rem[f]! <= 1e-9 * (bytes[f]! + rt.envelopeBytes)) doneList.push(f);
    }
    for (const f of doneList) {
      const i = activePos[f]!,
        last = active[--nActive]!;
      active[i] = last;
      activePos[last] = i;
      dirty = true;
    }
    for (const f of doneList) {
      events++;
      transferDone(f, now);
    }
    while (heap.size > 0 && heap.topTime() <= now) {
      const id = heap.topId();
      heap.pop();
      events++;
      const x = id >> 1;
      if ((id & 1) === EV_ACTIVATE) activate(x);
      else {
        cpuBusy[x] = 0;
        const j = jobOp[x]!;
        if (jobKind[x] === JOB_POST) post(j, now);
        else complete[j] = 1;
        step(x, now);
      }
    }
  }
  let makespan = 0;
  for (let r = 0; r < p; r++) {
    if (Number.isNaN(finish[r]!)) {
      const k = ptr[r]!;
      const what =
        k < rankStart[r + 1]!
          ? `before its operation ${k - rankStart[r]!} (${["send to", "recv from", "copy"][kind[k]!]} ${kind[k] === R_COPY ? "" : peer[k]})`
          : "in its final wait";
      throw fail("machines", "BAD_INPUT", `program replay: deadlock: rank ${r} waits forever ${what.trim()}`);
    }
    makespan = Math.max(makespan, finish[r]!);
  }
  return { makespanUs: makespan, rankFinishUs: finish, messages, eagerMessages, events, recomputes };
}

/** partner[x]: the receive of send x and the send of receive x, matched in order per (source, destination, tag). */
function matchMessages(ops: ReplayOps, opRank: Int32Array): Int32Array {
  const { kind, peer, tag, p } = ops;
  const n = kind.length;
  const partner = new Int32Array(n).fill(-1);
  const sends = new Map<string, number[]>();
  const key = (s: number, d: number, g: number): string => `${s},${d},${g}`;
  for (let x = 0; x < n; x++) {
    if (kind[x] !== R_SEND) continue;
    if (peer[x]! >= p || peer[x] === opRank[x])
      throw fail("machines", "BAD_INPUT", `program replay: rank ${opRank[x]} sends to ${peer[x]}, not another rank`);
    const k = key(opRank[x]!, peer[x]!, tag[x]!);
    const l = sends.get(k);
    if (l === undefined) sends.set(k, [x]);
    else l.push(x);
  }
  const used = new Map<string, number>();
  for (let x = 0; x < n; x++) {
    if (kind[x] !== R_RECV) continue;
    const k = key(peer[x]!, opRank[x]!, tag[x]!);
    const i = used.get(k) ?? 0;
    const s = sends.get(k)?.[i];
    if (s === undefined)
      throw fail(
        "machines",
        "BAD_INPUT",
        `program replay: rank ${opRank[x]} receives from ${peer[x]} (tag ${tag[x]}) a message that is never sent`,
      );
    if (ops.bytes[s] !== ops.bytes[x])
      throw fail(
        "machines",
        "BAD_INPUT",
        `program replay: rank ${peer[x]} sends ${ops.bytes[s]} bytes to ${opRank[x]} (tag ${tag[x]}), which receives ${ops.bytes[x]}`,
      );
    used.set(k, i + 1);
    partner[x] = s;
    partner[s] = x;
  }
  for (let x = 0; x < n; x++)
    if (kind[x] === R_SEND && partner[x]! < 0)
      throw fail(
        "machines",
        "BAD_INPUT",
        `program replay: rank ${opRank[x]} sends to ${peer[x]} (tag ${tag[x]}) a message that is never received`,
      );
  return partner;
}
