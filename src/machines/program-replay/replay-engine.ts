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
import type { ReplayOps } from "./replay-ops.js";
import { LmmSystem } from "./lmm-system.js";

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
  /** 1 for the network's FATPIPE links (each flow may use the whole bandwidth); default none. */
  readonly fatpipe?: Uint8Array;
  readonly runtime: RuntimeModel;
  /** CPU time of a copied byte (us), used when the runtime charges copies. */
  readonly copyUsPerByte: number;
  /** Reproduce SimGrid's selective update of the max-min system (default true); false: exact max-min at each change. */
  readonly selectiveUpdate?: boolean;
}

/** Operation kinds (ReplayOps' codes), local to keep the hot loops free of module bindings. */
const SEND = 0,
  RECV = 1,
  COPY = 2;
const EV_CPU = 0,
  EV_ACTIVATE = 1;
const JOB_POST = 0,
  JOB_OR = 1;
/** Lmm's penalty (us) of a route without latency: SimGrid gives such a flow the penalty 1 (second). */
const ZERO_LATENCY_PENALTY_US = 1e6;
/** Events this close (us) happen at once: SimGrid's surf/precision (1e-9 s). */
const SAME_TIME_US = 1e-3;

/** Replays `ops` on the network and runtime of `o`; throws a one-line error on an unmatched message or a deadlock. */
export function replayProgramOps(ops: ReplayOps, o: ReplayEngineOptions): ProgramReplayResult {
  const { p, rankStart, kind, peer, bytes, blocking, waitPrefix, depStart, deps } = ops;
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
    if (kind[x] === SEND) total += net.route(opRank[x]!, peer[x]!, out);
  }
  routeStart[n] = total;
  const routeLinks = new Int32Array(total);
  const latSum = new Float64Array(n);
  const weight = new Float64Array(n);
  let messages = 0,
    eagerMessages = 0;
  for (let x = 0; x < n; x++) {
    if (kind[x] !== SEND) continue;
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
  const lmm = new LmmSystem(
    {
      links: net.links,
      bandwidth: net.bandwidth,
      fatpipe: o.fatpipe ?? new Uint8Array(net.links),
      routeStart,
      routeLinks,
      weight,
    },
    o.selectiveUpdate ?? true,
  );
  // events: heap ids are sequence numbers (ties go first-in first-out, as SimGrid's action heap), payload beside
  const heap = new EventHeap(1024);
  let evKind = new Uint8Array(1024),
    evArg = new Int32Array(1024),
    seq = 0;
  const schedule = (t: number, k: number, arg: number): void => {
    if (seq === evKind.length) {
      const a = new Uint8Array(seq * 2),
        b = new Int32Array(seq * 2);
      a.set(evKind);
      b.set(evArg);
      evKind = a;
      evArg = b;
    }
    evKind[seq] = k;
    evArg[seq] = arg;
    heap.push(t, seq++);
  };
  const posted = new Uint8Array(n),
    complete = new Uint8Array(n);
  const rem = new Float64Array(n),
    rate = new Float64Array(n);
  const isActive = new Uint8Array(n);
  // flow f drains rate[f] from rem[f] bytes left at upd[f]; its completion is due[f], kept in a heap of its own
  // (a rate change pushes a new entry; an entry whose time is no longer due[f] is stale)
  const upd = new Float64Array(n),
    due = new Float64Array(n).fill(Infinity),
    newRate = new Float64Array(n),
    touched = new Int32Array(Math.max(1, messages));
  const dueHeap = new EventHeap(1024);
  let now = 0,
    events = 0,
    recomputes = 0;
  const ptr = Int32Array.from(rankStart.subarray(0, p));
  const doneUpTo = Int32Array.from(rankStart.subarray(0, p));
  const cpuBusy = new Uint8Array(p),
    jobKind = new Uint8Array(p),
    jobOp = new Int32Array(p),
    pendingPost = new Int32Array(p).fill(-1),
    inFlight = new Int32Array(p);
  const finish = new Float64Array(p).fill(NaN);
  const orQueue: number[][] = Array.from({ length: p }, () => []);
  const startQueue: number[][] = Array.from({ length: p }, () => []);
  // the actors to run at the current time, in rounds (one operation each per round, as SimGrid's simcalls)
  let runQ = new Int32Array(p),
    nextQ = new Int32Array(p);
  let nRun = 0;
  const queued = new Uint8Array(p);
  const wake = (r: number): void => {
    if (queued[r]) return;
    queued[r] = 1;
    runQ[nRun++] = r;
  };
  const eager = (x: number): boolean => bytes[x]! < rt.eagerBytes;

  const cpuCost = (x: number): number => {
    const k = kind[x];
    if (k === SEND) {
      if (blocking[x]) return eager(x) ? overheadUs(rt.sendOverhead, bytes[x]!) : 0;
      return overheadUs(rt.isendOverhead, bytes[x]!);
    }
    if (k === COPY) return rt.copies ? bytes[x]! * o.copyUsPerByte : 0;
    return 0;
  };
  const activate = (s: number): void => {
    rem[s] = bytes[s]! + rt.envelopeBytes;
    rate[s] = 0;
    upd[s] = now;
    isActive[s] = 1;
    lmm.enable(s);
  };
  const begin = (s: number, t: number): void => {
    inFlight[opRank[s]!]!++;
    if (latSum[s]! > 0) schedule(t + latSum[s]!, EV_ACTIVATE, s);
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
    if (k === COPY) complete[x] = 1;
    else if (k === SEND) {
      if (eager(x)) complete[x] = 1;
      if (posted[partner[x]!]) match(x, t);
    } else if (posted[partner[x]!]) match(partner[x]!, t);
  };
  const inDeps = (k: number, x: number): boolean => {
    for (let j = depStart[k]!; j < depStart[k + 1]!; j++) if (deps[j] === x) return true;
    return false;
  };
  const cpuJob = (r: number, k: number, x: number, t: number): void => {
    cpuBusy[r] = 1;
    jobKind[r] = k;
    jobOp[r] = x;
    schedule(t, EV_CPU, r);
  };
  /** One turn of rank r's actor at t: true when it did an operation and runs again in the next round. */
  const turn = (r: number, t: number): boolean => {
    if (!Number.isNaN(finish[r]!) || cpuBusy[r] === 1) return false;
    if (pendingPost[r]! >= 0) {
      post(pendingPost[r]!, t);
      pendingPost[r] = -1;
      return true;
    }
    const end = rankStart[r + 1]!;
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
      if (i < q.length) {
        const x = q.splice(i, 1)[0]!;
        cpuJob(r, JOB_OR, x, t + overheadUs(rt.recvOverhead, bytes[x]!));
      }
      return false;
    }
    if (k === end) {
      finish[r] = t;
      return false;
    }
    ptr[r] = k + 1;
    const c = cpuCost(k);
    if (c > 0) {
      cpuJob(r, JOB_POST, k, t + c);
      return false;
    }
    post(k, t);
    return true;
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
    wake(r);
    wake(rv);
  };
  const runActors = (t: number): void => {
    while (nRun > 0) {
      const m = nRun;
      const swap = runQ;
      runQ = nextQ;
      nextQ = swap;
      nRun = 0;
      for (let i = 0; i < m; i++) queued[nextQ[i]!] = 0;
      for (let i = 0; i < m; i++) {
        const r = nextQ[i]!;
        if (turn(r, t)) wake(r);
      }
    }
  };

  for (let r = 0; r < p; r++) wake(r);
  runActors(0);
  const doneList: number[] = [];
  const liveTop = (): number => {
    while (dueHeap.size > 0) {
      const f = dueHeap.topId();
      if (isActive[f] === 1 && dueHeap.topTime() === due[f]) return dueHeap.topTime();
      dueHeap.pop();
    }
    return Infinity;
  };
  for (;;) {
    if (lmm.modified) {
      const m = lmm.solve(newRate, touched);
      recomputes++;
      for (let i = 0; i < m; i++) {
        const f = touched[i]!;
        const r = newRate[f]!;
        if (r === rate[f]) continue;
        rem[f] = rem[f]! - rate[f]! * (now - upd[f]!);
        upd[f] = now;
        rate[f] = r;
        due[f] = r > 0 ? now + rem[f]! / r : Infinity;
        if (r > 0) dueHeap.push(due[f]!, f);
      }
    }
    const tf = liveTop();
    const th = heap.size > 0 ? heap.topTime() : Infinity;
    if (tf === Infinity && th === Infinity) break;
    now = Math.min(tf, th);
    doneList.length = 0;
    while (liveTop() <= now + SAME_TIME_US) {
      doneList.push(dueHeap.topId());
      isActive[dueHeap.topId()] = 0;
      dueHeap.pop();
    }
    while (heap.size > 0 && heap.topTime() <= now + SAME_TIME_US) {
      const id = heap.topId();
      heap.pop();
      events++;
      const x = evArg[id]!;
      if (evKind[id] === EV_ACTIVATE) activate(x);
      else {
        cpuBusy[x] = 0;
        const j = jobOp[x]!;
        if (jobKind[x] === JOB_POST) pendingPost[x] = j;
        else complete[j] = 1;
        wake(x);
      }
    }
    doneList.sort((a, b) => a - b);
    for (const f of doneList) {
      rem[f] = 0;
      lmm.free(f);
      events++;
      transferDone(f, now);
    }
    runActors(now);
  }
  let makespan = 0;
  for (let r = 0; r < p; r++) {
    if (Number.isNaN(finish[r]!)) {
      const k = ptr[r]!;
      const what =
        k < rankStart[r + 1]!
          ? `before its operation ${k - rankStart[r]!} (${["send to", "recv from", "copy"][kind[k]!]} ${kind[k] === COPY ? "" : peer[k]})`
          : "in its final wait";
      throw fail("machines", "BAD_INPUT", `program replay: deadlock: rank ${r} waits forever ${what.trim()}`);
    }
    makespan = Math.max(makespan, finish[r]!);
  }
  return { makespanUs: makespan, rankFinishUs: finish, messages, eagerMessages, events, recomputes };
}

/** partner[x]: the receive of send x and the send of receive x, matched in order per (source, destination, tag). */
function matchMessages(ops: ReplayOps, opRank: Int32Array): Int32Array {
  const { kind, peer, tag, p, bytes } = ops;
  const n = kind.length;
  const partner = new Int32Array(n).fill(-1);
  // sends and receives sorted by (source, destination, tag, program order): the k-th of each pair up
  const src = new Int32Array(n),
    dst = new Int32Array(n);
  let ns = 0,
    nr = 0;
  for (let x = 0; x < n; x++) {
    const k = kind[x];
    if (k === SEND) {
      if (peer[x]! >= p || peer[x] === opRank[x])
        throw fail("machines", "BAD_INPUT", `program replay: rank ${opRank[x]} sends to ${peer[x]}, not another rank`);
      src[x] = opRank[x]!;
      dst[x] = peer[x]!;
      ns++;
    } else if (k === RECV) {
      if (peer[x]! >= p || peer[x] === opRank[x])
        throw fail(
          "machines",
          "BAD_INPUT",
          `program replay: rank ${opRank[x]} receives from ${peer[x]}, not another rank`,
        );
      src[x] = peer[x]!;
      dst[x] = opRank[x]!;
      nr++;
    }
  }
  const sends = new Int32Array(ns),
    recvs = new Int32Array(nr);
  ns = nr = 0;
  for (let x = 0; x < n; x++) {
    if (kind[x] === SEND) sends[ns++] = x;
    else if (kind[x] === RECV) recvs[nr++] = x;
  }
  const cmp = (a: number, b: number): number => src[a]! - src[b]! || dst[a]! - dst[b]! || tag[a]! - tag[b]!;
  sortByKey(sends, src, dst, tag, p, cmp);
  sortByKey(recvs, src, dst, tag, p, cmp);
  const describe = (x: number): string =>
    kind[x] === SEND
      ? `rank ${opRank[x]} sends to ${peer[x]} (tag ${tag[x]}) a message that is never received`
      : `rank ${opRank[x]} receives from ${peer[x]} (tag ${tag[x]}) a message that is never sent`;
  let i = 0,
    j = 0;
  while (i < ns || j < nr) {
    const s = i < ns ? sends[i]! : -1,
      v = j < nr ? recvs[j]! : -1;
    if (s < 0 || (v >= 0 && cmp(v, s) < 0)) throw fail("machines", "BAD_INPUT", `program replay: ${describe(v)}`);
    if (v < 0 || cmp(s, v) < 0) throw fail("machines", "BAD_INPUT", `program replay: ${describe(s)}`);
    if (bytes[s] !== bytes[v])
      throw fail(
        "machines",
        "BAD_INPUT",
        `program replay: rank ${opRank[s]} sends ${bytes[s]} bytes to ${opRank[v]} (tag ${tag[s]}), which receives ${bytes[v]}`,
      );
    partner[s] = v;
    partner[v] = s;
    i++;
    j++;
  }
  return partner;
}

/**
 * Sorts operation ids by (source, destination, tag, id): as packed numbers when (source, destination, tag, id) fit
 * in 2^53 (a typed-array numeric sort), else with the comparator and the id.
 */
function sortByKey(
  ids: Int32Array,
  src: Int32Array,
  dst: Int32Array,
  tag: Uint32Array,
  p: number,
  cmp: (a: number, b: number) => number,
): void {
  let maxTag = 0,
    maxId = 0;
  for (let i = 0; i < ids.length; i++) {
    maxTag = Math.max(maxTag, tag[ids[i]!]!);
    maxId = Math.max(maxId, ids[i]!);
  }
  const T = maxTag + 1,
    N = maxId + 1;
  if (p * p * T * N < 2 ** 53) {
    const packed = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const x = ids[i]!;
      packed[i] = ((src[x]! * p + dst[x]!) * T + tag[x]!) * N + x;
    }
    packed.sort();
    for (let i = 0; i < ids.length; i++) ids[i] = packed[i]! % N;
  } else ids.sort((a, b) => cmp(a, b) || a - b);
}
