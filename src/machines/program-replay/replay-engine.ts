/**
 * The program replay engine: every rank executes its operations in order as an SMPI actor does (posting costs CPU
 * time, a wait pays the receive overheads of eager messages), messages start when both sides are posted, cross their
 * route's latency, then share the links by weighted max-min (SimGrid's CM02 model).
 */
import { sortPrefix } from "../../internal/sort-prefix.js";
import { growI32 } from "../../internal/growable.js";
import { fail } from "../../model/errors.js";
import type { NetworkRoutes } from "../../model/network.js";
import { overheadAt } from "../runtime/overhead.js";
import type { RuntimeModel } from "../runtime/runtime-model.js";
import type { ReplayOps } from "./replay-ops.js";
import { DueHeap } from "./due-heap.js";
import { LmmSystem } from "./lmm-system.js";
import { ReplayEventHeap } from "./replay-event-heap.js";
import { ReplayTimeline } from "./replay-timeline.js";
import type { Timeline } from "../../model/timeline.js";
import { checkArg, isIntIn, isOptionsObject } from "../../model/option-checks.js";
import { MAX_P } from "../../model/limits.js";

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
  /** What each rank did and when (ReplayEngineOptions.timeline), sizes in bytes. */
  readonly timeline?: Timeline;
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
  /** Record the timeline (default false): messages from post to end, CPU overheads and copies, waits. */
  readonly timeline?: boolean;
}

/** Operation kinds (ReplayOps' codes), local to keep the hot loops free of module bindings. */
const SEND = 0,
  RECV = 1,
  COPY = 2;
/** opI's kind code: the kind in the low bits, EAGER added for an eager message. */
const KIND_MASK = 3,
  EAGER = 4;
const EV_CPU = 0,
  EV_ACTIVATE = 1;
const JOB_POST = 0,
  JOB_OR = 1;
/** Lmm's penalty (us) of a route without latency: SimGrid gives such a flow the penalty 1 (second). */
const ZERO_LATENCY_PENALTY_US = 1e6;
/**
 * The most ranks for which a table of p^2 entries, one per pair (4 MiB at 1,024), is made: flowTables' first send per
 * pair, sortByKey's counters.
 */
export const PAIR_TABLE_MAX_RANKS = 1024;
/** Events this close (us) happen at once: SimGrid's surf/precision (1e-9 s). */
const SAME_TIME_US = 1e-3;

/** Replays `ops` on the network and runtime of `o`; throws a one-line error on an unmatched message or a deadlock. */
export function replayProgramOps(ops: ReplayOps, o: ReplayEngineOptions): ProgramReplayResult {
  checkReplayEngineArgs(ops, o);
  if (o.network.hosts < ops.p)
    throw fail(
      "machines",
      "BAD_OPTION",
      `program replay: network ${o.network.name} has ${o.network.hosts} hosts, not ${ops.p}`,
    );
  return new ReplayRun(ops, o).run();
}

/**
 * The bytes of the typed arrays a finished replay of `ops` still holds (each store once), for the estimate's test:
 * the run's tables and the max-min system's; the operations themselves and the network aside.
 */
export function replayHeldBytes(ops: ReplayOps, o: ReplayEngineOptions): number {
  const run = new ReplayRun(ops, o);
  const result = run.run();
  const skip = new Set<ArrayBufferLike>();
  const marked = new Set<object>();
  const mark = (x: unknown): void => {
    if (x === null || typeof x !== "object" || marked.has(x)) return;
    marked.add(x);
    if (ArrayBuffer.isView(x)) skip.add(x.buffer);
    else for (const v of Object.values(x)) mark(v);
  };
  mark(ops);
  mark(o);
  const stores = new Set<ArrayBufferLike>();
  const seen = new Set<object>();
  const visit = (x: unknown): void => {
    if (x === null || typeof x !== "object" || seen.has(x)) return;
    seen.add(x);
    if (ArrayBuffer.isView(x)) {
      if (!skip.has(x.buffer)) stores.add(x.buffer);
      return;
    }
    for (const v of Object.values(x)) visit(v);
  };
  visit(run);
  visit(result);
  let bytes = 0;
  for (const st of stores) bytes += st.byteLength;
  return bytes;
}

/** The sends' routes (CSR by op id), route latencies and max-min weights, and the message counts. */
interface FlowTables {
  readonly routeStart: Int32Array;
  readonly routeLinks: Int32Array;
  readonly latSum: Float64Array;
  readonly weight: Float64Array;
  readonly messages: number;
  readonly eagerMessages: number;
}

function flowTables(ops: ReplayOps, opRank: Int32Array, net: NetworkRoutes, eagerBytes: number): FlowTables {
  const { kind, peer, bytes, p } = ops;
  const n = kind.length;
  const out = new Int32Array(Math.max(1, net.maxHops));
  const routeStart = new Int32Array(n + 1);
  // each pair's route computed once (routes are deterministic); first[a * p + b] is 1 + the first send from a to b (up
  // to 1024 ranks: 4 MiB; above, every send's route is computed)
  const routeLinks = growI32(16 + 4 * n);
  const first = p <= PAIR_TABLE_MAX_RANKS ? new Int32Array(p * p) : null;
  const latSum = new Float64Array(n);
  const weight = new Float64Array(n);
  let total = 0,
    messages = 0,
    eagerMessages = 0;
  for (let x = 0; x < n; x++) {
    routeStart[x] = total;
    if (kind[x] !== SEND) continue;
    messages++;
    if (bytes[x]! < eagerBytes) eagerMessages++;
    const pair = opRank[x]! * p + peer[x]!;
    const y = first === null ? -1 : first[pair]! - 1;
    if (y >= 0) {
      const a = routeStart[y]!,
        k = routeStart[y + 1]! - a;
      routeLinks.grow(total + k);
      const links = routeLinks.data;
      // a loop beats copyWithin's call on a route of a few links
      for (let h = 0; h < k; h++) links[total + h] = links[a + h]!;
      total += k;
      latSum[x] = latSum[y]!;
      weight[x] = weight[y]!;
      continue;
    }
    if (first !== null) first[pair] = x + 1;
    const k = net.route(opRank[x]!, peer[x]!, out);
    routeLinks.grow(total + k);
    const links = routeLinks.data;
    let lat = 0;
    for (let h = 0; h < k; h++) {
      links[total + h] = out[h]!;
      lat += net.latency[out[h]!]!;
    }
    total += k;
    latSum[x] = lat;
    weight[x] = 1 / (lat > 0 ? lat : ZERO_LATENCY_PENALTY_US);
  }
  routeStart[n] = total;
  routeLinks.length = total;
  return { routeStart, routeLinks: routeLinks.view(), latSum, weight, messages, eagerMessages };
}

/**
 * One replay's state, in typed arrays: per operation (posted, complete, the flow of a send), per rank (its actor: next
 * operation, CPU job, queue of eager messages whose receive overhead is due), the event heap and the flows' heap.
 */
class ReplayRun {
  private readonly rt: RuntimeModel;
  private readonly opRank: Int32Array;
  private readonly partner: Int32Array;
  private readonly t: FlowTables;
  private readonly lmm: LmmSystem;
  /** Timed events, each carrying 2 * its argument + its kind. */
  private readonly heap = new ReplayEventHeap(1024);
  private readonly posted: Uint8Array;
  private readonly complete: Uint8Array;
  /**
   * Send s's flow, numbered in the order the flows start (x = flowOf[s]), so that the flows in progress together sit
   * together: it drains rate[x] from rem[x] bytes left at upd[x]; its completion is in dueHeap (by send).
   */
  private readonly flowOf: Int32Array;
  private nFlows = 0;
  private readonly rem: Float64Array;
  private readonly rate: Float64Array;
  private readonly upd: Float64Array;
  private readonly dueHeap: DueHeap;
  private now = 0;
  private events = 0;
  private recomputes = 0;
  private readonly ptr: Int32Array;
  private readonly doneUpTo: Int32Array;
  private readonly cpuBusy: Uint8Array;
  private readonly jobKind: Uint8Array;
  private readonly jobOp: Int32Array;
  private readonly pendingPost: Int32Array;
  private readonly inFlight: Int32Array;
  private readonly finish: Float64Array;
  /**
   * What the event loop reads of operation x, four to a record so that a rank's next operations take two cache lines,
   * not one per table (P = 256: 250,000 operations, 256 ranks each at its own place): opI[4x ..] its partner, rank,
   * waitPrefix and kind + 4 when eager (an eager send or its receive); opF[4x ..] the CPU time before it is posted, a
   * receive's overhead, its route's latency (a send) and the bytes its flow carries (payload and envelope).
   */
  private readonly opI: Int32Array;
  private readonly opF: Float64Array;
  /** Whether some operation waits for an explicit list of operations (ReplayOps.deps). */
  private readonly anyDeps: boolean;
  /**
   * Per rank, two FIFO lists linked through `next` (an operation is in at most one, once): the arrived eager
   * receives whose overhead is due (orHead, orTail) and the matched sends waiting for an in-flight slot (sqHead,
   * sqTail).
   */
  private readonly next: Int32Array;
  private readonly orHead: Int32Array;
  private readonly orTail: Int32Array;
  private readonly sqHead: Int32Array;
  private readonly sqTail: Int32Array;
  /** The actors to run at the current time, in rounds (one operation each per round, as SimGrid's simcalls). */
  private runQ: Int32Array;
  private nextQ: Int32Array;
  private nRun = 0;
  private readonly queued: Uint8Array;
  /** Ready-queue mode (ReplayOps.readyQueue): the state of each rank's dataflow loop, or null. */
  private readonly rq: ReadyQueues | null;
  /** The timeline's recorder, or null when none is asked for. */
  private readonly tl: ReplayTimeline | null;

  constructor(
    private readonly ops: ReplayOps,
    private readonly o: ReplayEngineOptions,
  ) {
    const { p, rankStart, kind } = ops;
    const n = kind.length;
    this.rt = o.runtime;
    this.opRank = new Int32Array(n);
    for (let r = 0; r < p; r++) for (let x = rankStart[r]!; x < rankStart[r + 1]!; x++) this.opRank[x] = r;
    this.partner = matchMessages(ops, this.opRank);
    this.t = flowTables(ops, this.opRank, o.network, this.rt.eagerBytes);
    this.lmm = new LmmSystem(
      {
        links: o.network.links,
        bandwidth: o.network.bandwidth,
        fatpipe: o.fatpipe ?? new Uint8Array(o.network.links),
        routeStart: this.t.routeStart,
        routeLinks: this.t.routeLinks,
        weight: this.t.weight,
        // only sends are flows
        flows: this.t.messages,
      },
      o.selectiveUpdate ?? true,
    );
    this.posted = new Uint8Array(n);
    this.complete = new Uint8Array(n);
    this.flowOf = new Int32Array(n);
    const flows = Math.max(1, this.t.messages);
    this.rem = new Float64Array(flows);
    this.rate = new Float64Array(flows);
    this.upd = new Float64Array(flows);
    this.dueHeap = new DueHeap(n);
    this.ptr = Int32Array.from(rankStart.subarray(0, p));
    this.doneUpTo = Int32Array.from(rankStart.subarray(0, p));
    this.cpuBusy = new Uint8Array(p);
    this.jobKind = new Uint8Array(p);
    this.jobOp = new Int32Array(p);
    this.pendingPost = new Int32Array(p).fill(-1);
    this.inFlight = new Int32Array(p);
    this.finish = new Float64Array(p).fill(NaN);
    this.opI = new Int32Array(4 * n);
    this.opF = new Float64Array(4 * n);
    const { opI, opF } = this;
    for (let x = 0; x < n; x++) {
      opI[4 * x] = this.partner[x]!;
      opI[4 * x + 1] = this.opRank[x]!;
      opI[4 * x + 2] = ops.waitPrefix[x]!;
      opI[4 * x + 3] = kind[x]! | (ops.bytes[x]! < this.rt.eagerBytes ? EAGER : 0);
    }
    for (let x = 0; x < n; x++) {
      opF[4 * x] = this.cpuCost(x);
      if (kind[x] === RECV) opF[4 * x + 1] = overheadAt(this.rt.recvOverhead, ops.bytes[x]!);
      opF[4 * x + 2] = this.t.latSum[x]!;
      opF[4 * x + 3] = ops.bytes[x]! + this.rt.envelopeBytes;
    }
    this.anyDeps = ops.deps.length > 0;
    this.next = new Int32Array(n).fill(-1);
    this.orHead = new Int32Array(p).fill(-1);
    this.orTail = new Int32Array(p).fill(-1);
    this.sqHead = new Int32Array(p).fill(-1);
    this.sqTail = new Int32Array(p).fill(-1);
    this.runQ = new Int32Array(p);
    this.nextQ = new Int32Array(p);
    this.queued = new Uint8Array(p);
    this.rq = ops.readyQueue === true ? readyQueues(ops, this.opRank) : null;
    this.tl = o.timeline === true ? new ReplayTimeline(p, n) : null;
  }

  /** An event of kind k at time t (ties go first-in first-out, as SimGrid's heap). */
  private schedule(t: number, k: number, arg: number): void {
    this.heap.push(t, 2 * arg + k);
  }

  private wake(r: number): void {
    if (this.queued[r]) return;
    this.queued[r] = 1;
    this.runQ[this.nRun++] = r;
  }

  private eager(x: number): boolean {
    return (this.opI[4 * x + 3]! & EAGER) !== 0;
  }

  /** Appends operation x to the list (head, tail) of rank r. */
  private append(head: Int32Array, tail: Int32Array, r: number, x: number): void {
    this.next[x] = -1;
    if (tail[r]! < 0) head[r] = x;
    else this.next[tail[r]!] = x;
    tail[r] = x;
  }

  /** Removes x, after `prev` (-1: x is the head), from the list (head, tail) of rank r. */
  private unlink(head: Int32Array, tail: Int32Array, r: number, prev: number, x: number): void {
    const nx = this.next[x]!;
    if (prev < 0) head[r] = nx;
    else this.next[prev] = nx;
    if (tail[r] === x) tail[r] = prev;
  }

  /** CPU time before operation x is posted: the send overheads, a copy's t_m per byte. */
  private cpuCost(x: number): number {
    const { kind, bytes, blocking } = this.ops;
    const k = kind[x];
    if (k === SEND) {
      if (blocking[x]) return this.eager(x) ? overheadAt(this.rt.sendOverhead, bytes[x]!) : 0;
      return overheadAt(this.rt.isendOverhead, bytes[x]!);
    }
    if (k === COPY) return this.rt.copies ? bytes[x]! * this.o.copyUsPerByte : 0;
    return 0;
  }

  /** Send s's latency has elapsed: its flow joins its links. */
  private activate(s: number): void {
    // a new number: its rate starts at 0
    const x = this.nFlows++;
    this.flowOf[s] = x;
    this.rem[x] = this.opF[4 * s + 3]!;
    this.upd[x] = this.now;
    this.lmm.enable(s);
  }

  private begin(s: number, t: number): void {
    this.inFlight[this.opI[4 * s + 1]!]!++;
    const lat = this.opF[4 * s + 2]!;
    if (lat > 0) {
      this.lmm.created(s);
      this.schedule(t + lat, EV_ACTIVATE, s);
    } else this.activate(s);
  }

  /** Both sides of send s are posted: it starts, or waits for a slot of its rank's in-flight limit. */
  private match(s: number, t: number): void {
    const r = this.opI[4 * s + 1]!;
    if (this.inFlight[r]! >= this.rt.maxInFlight) this.append(this.sqHead, this.sqTail, r, s);
    else this.begin(s, t);
  }

  private post(x: number, t: number): void {
    this.posted[x] = 1;
    if (this.tl !== null) this.tl.posted(x, t);
    const code = this.opI[4 * x + 3]!,
      k = code & KIND_MASK,
      partner = this.opI[4 * x]!;
    if (k === COPY) this.complete[x] = 1;
    else if (k === SEND) {
      if ((code & EAGER) !== 0) this.complete[x] = 1;
      if (this.posted[partner]) this.match(x, t);
    } else if (this.posted[partner]) this.match(partner, t);
  }

  private inDeps(k: number, x: number): boolean {
    if (!this.anyDeps) return false;
    const { depStart, deps } = this.ops;
    for (let j = depStart[k]!; j < depStart[k + 1]!; j++) if (deps[j] === x) return true;
    return false;
  }

  /** Rank r is busy from t for c us: posting x (its overheads, or a copy) or a receive overhead (JOB_OR). */
  private cpuJob(r: number, kind: number, x: number, t: number, c: number): void {
    this.cpuBusy[r] = 1;
    this.jobKind[r] = kind;
    this.jobOp[r] = x;
    this.schedule(t + c, EV_CPU, r);
    if (this.tl !== null) this.tl.cpuStart(r, t);
  }

  /** Whether rank r may post operation k (end: its final wait): the operations it waits for have completed. */
  private ready(r: number, k: number, need: number): boolean {
    const { rankStart, depStart, deps } = this.ops;
    const end = rankStart[r + 1]!;
    let d = this.doneUpTo[r]!;
    while (d < end && this.complete[d]) d++;
    this.doneUpTo[r] = d;
    let ok = d >= need;
    if (ok && k < end && this.anyDeps)
      for (let j = depStart[k]!; j < depStart[k + 1]! && ok; j++) ok = this.complete[deps[j]!] === 1;
    return ok;
  }

  /** One turn of rank r's actor at t: true when it did an operation and runs again in the next round. */
  private turn(r: number, t: number): boolean {
    if (!Number.isNaN(this.finish[r]!) || this.cpuBusy[r] === 1) return false;
    if (this.rq !== null) return this.turnReady(r, t, this.rq);
    if (this.pendingPost[r]! >= 0) {
      this.post(this.pendingPost[r]!, t);
      this.pendingPost[r] = -1;
      return true;
    }
    const end = this.ops.rankStart[r + 1]!;
    const k = this.ptr[r]!;
    const need = k < end ? this.opI[4 * k + 2]! : end;
    if (!this.ready(r, k, need)) {
      // the rank waits: it pays the receive overhead of an arrived eager message it waits for
      let prev = -1,
        x = this.orHead[r]!;
      while (x >= 0 && !(x < need || (k < end && this.inDeps(k, x)))) {
        prev = x;
        x = this.next[x]!;
      }
      if (x >= 0) {
        this.unlink(this.orHead, this.orTail, r, prev, x);
        this.cpuJob(r, JOB_OR, x, t, this.opF[4 * x + 1]!);
      }
      return false;
    }
    if (k === end) {
      this.finish[r] = t;
      return false;
    }
    this.ptr[r] = k + 1;
    const c = this.opF[4 * k]!;
    if (c > 0) {
      this.cpuJob(r, JOB_POST, k, t, c);
      return false;
    }
    this.post(k, t);
    return true;
  }

  /**
   * One turn of rank r in ready-queue mode, as the executor's dataflow loop: post a ready receive, else another ready
   * operation (a send pays its overhead first; a copy is done at once), else wait as MPI_Waitsome does (pay the
   * receive overhead of every arrived eager message, then observe every completed operation, readying those that
   * waited for it), or finish when all are observed.
   */
  private turnReady(r: number, t: number, q: ReadyQueues): boolean {
    const pending = this.pendingPost[r]!;
    if (pending >= 0) {
      this.pendingPost[r] = -1;
      this.postReady(pending, t, q);
      return true;
    }
    if (q.recvHead[r]! < q.recvTail[r]!) {
      this.postReady(q.recvQ[q.recvHead[r]!++]!, t, q);
      return true;
    }
    if (q.otherHead[r]! < q.otherTail[r]!) {
      const x = q.otherQ[q.otherHead[r]!++]!;
      const c = this.opF[4 * x]!;
      if (c > 0) {
        this.cpuJob(r, JOB_POST, x, t, c);
        return false;
      }
      this.postReady(x, t, q);
      return true;
    }
    const start = this.ops.rankStart[r]!;
    if (q.observed[r] === this.ops.rankStart[r + 1]! - start) {
      this.finish[r] = t;
      return false;
    }
    const x = this.orHead[r]!;
    if (x >= 0) {
      this.unlink(this.orHead, this.orTail, r, -1, x);
      this.cpuJob(r, JOB_OR, x, t, this.opF[4 * x + 1]!);
      return false;
    }
    let any = false;
    for (let i = 0; i < q.activeCount[r]!;) {
      const x = q.active[start + i]!;
      if (this.complete[x] !== 1) {
        i++;
        continue;
      }
      q.active[start + i] = q.active[start + --q.activeCount[r]!]!;
      this.observe(x, q);
      any = true;
    }
    return any;
  }

  /** Posts x in ready-queue mode: a copy is observed at once, a message joins the rank's pending operations. */
  private postReady(x: number, t: number, q: ReadyQueues): void {
    this.post(x, t);
    if (this.ops.kind[x] === COPY) this.observe(x, q);
    else {
      const r = this.opRank[x]!;
      q.active[this.ops.rankStart[r]! + q.activeCount[r]!++] = x;
    }
  }

  /** The rank has seen x complete: every operation waiting for it has one dependency less; those at none are ready. */
  private observe(x: number, q: ReadyQueues): void {
    const r = this.opRank[x]!;
    q.observed[r]!++;
    for (let k = q.revStart[x]!; k < q.revStart[x + 1]!; k++) {
      const j = q.rev[k]!;
      if (--q.waiting[j]! === 0) enqueue(q, this.ops.kind[j] === RECV, r, j);
    }
  }

  /** Send s's flow ended at t: the send (rendezvous) and the receive (unless an overhead is due) complete. */
  private transferDone(s: number, t: number): void {
    const { opI } = this;
    const r = opI[4 * s + 1]!;
    this.inFlight[r]!--;
    const q = this.sqHead[r]!;
    if (q >= 0) {
      this.unlink(this.sqHead, this.sqTail, r, -1, q);
      this.begin(q, t);
    }
    const eager = (opI[4 * s + 3]! & EAGER) !== 0;
    if (!eager) this.complete[s] = 1;
    const v = opI[4 * s]!,
      rv = opI[4 * v + 1]!;
    const orDue = eager && this.opF[4 * v + 1]! > 0;
    if (orDue) this.append(this.orHead, this.orTail, rv, v);
    else this.complete[v] = 1;
    if (this.tl !== null) {
      const bytes = this.ops.bytes[s]!;
      this.tl.message(r, true, s, t, rv, bytes);
      if (!orDue) this.tl.message(rv, false, v, t, r, bytes);
    }
    this.wake(r);
    this.wake(rv);
  }

  private runActors(t: number): void {
    while (this.nRun > 0) {
      const m = this.nRun;
      const swap = this.runQ;
      this.runQ = this.nextQ;
      this.nextQ = swap;
      this.nRun = 0;
      for (let i = 0; i < m; i++) this.queued[this.nextQ[i]!] = 0;
      for (let i = 0; i < m; i++) {
        const r = this.nextQ[i]!;
        if (this.turn(r, t)) {
          this.wake(r);
          if (this.tl !== null) this.tl.busy(r, t);
        } else if (this.tl !== null) {
          // the rank waits unless it started a CPU job or finished
          if (this.cpuBusy[r] === 1 || !Number.isNaN(this.finish[r]!)) this.tl.busy(r, t);
          else this.tl.idle(r, t);
        }
      }
    }
  }

  /** Solves the modified links and reschedules the flows whose rate changed. */
  private solve(newRate: Float64Array, touched: Int32Array): void {
    const m = this.lmm.solve(newRate, touched);
    this.recomputes++;
    const { rem, rate, upd, flowOf, now } = this;
    for (let i = 0; i < m; i++) {
      const f = touched[i]!;
      const r = newRate[f]!,
        x = flowOf[f]!;
      if (r === rate[x]) continue;
      const left = (rem[x] = rem[x]! - rate[x]! * (now - upd[x]!));
      upd[x] = now;
      rate[x] = r;
      if (r > 0) this.dueHeap.set(f, now + left / r);
      else this.dueHeap.delete(f);
    }
  }

  run(): ProgramReplayResult {
    const { p } = this.ops;
    const n = this.ops.kind.length;
    const newRate = new Float64Array(n),
      touched = new Int32Array(Math.max(1, this.t.messages));
    for (let r = 0; r < p; r++) this.wake(r);
    this.runActors(0);
    const doneList = new Int32Array(Math.max(1, this.t.messages));
    const dueHeap = this.dueHeap;
    for (;;) {
      if (this.lmm.modified) this.solve(newRate, touched);
      const tf = dueHeap.topTime();
      const th = this.heap.topTime();
      if (tf === Infinity && th === Infinity) break;
      const now = (this.now = Math.min(tf, th));
      let nDone = 0;
      while (dueHeap.topTime() <= now + SAME_TIME_US) {
        const f = dueHeap.topFlow();
        doneList[nDone++] = f;
        dueHeap.delete(f);
      }
      while (this.heap.topTime() <= now + SAME_TIME_US) {
        const w = this.heap.topWhat();
        this.heap.pop();
        this.events++;
        const x = w >> 1;
        if ((w & 1) === EV_ACTIVATE) this.activate(x);
        else {
          this.cpuBusy[x] = 0;
          const j = this.jobOp[x]!;
          if (this.tl !== null) this.tl.cpuEnd(x, this.ops.kind[j] === COPY, now, this.ops.bytes[j]!);
          if (this.jobKind[x] === JOB_POST) this.pendingPost[x] = j;
          else {
            this.complete[j] = 1;
            if (this.tl !== null)
              this.tl.message(x, false, j, now, this.opI[4 * this.opI[4 * j]! + 1]!, this.ops.bytes[j]!);
          }
          this.wake(x);
        }
      }
      if (nDone > 1) sortPrefix(doneList, nDone);
      for (let i = 0; i < nDone; i++) {
        const f = doneList[i]!;
        this.lmm.free(f);
        this.events++;
        this.transferDone(f, now);
      }
      this.runActors(now);
    }
    return this.result();
  }

  /** The result, or a one-line error naming a rank that never finished. */
  private result(): ProgramReplayResult {
    const { p, rankStart, kind, peer } = this.ops;
    let makespan = 0;
    for (let r = 0; r < p; r++) {
      if (Number.isNaN(this.finish[r]!)) {
        if (this.rq !== null) {
          const left = rankStart[r + 1]! - rankStart[r]! - this.rq.observed[r]!;
          throw fail(
            "machines",
            "BAD_INPUT",
            `program replay: deadlock: rank ${r} waits forever with ${left} of its operations not complete`,
          );
        }
        const k = this.ptr[r]!;
        const what =
          k < rankStart[r + 1]!
            ? `before its operation ${k - rankStart[r]!} (${["send to", "recv from", "copy"][kind[k]!]} ${kind[k] === COPY ? "" : peer[k]})`
            : "in its final wait";
        throw fail("machines", "BAD_INPUT", `program replay: deadlock: rank ${r} waits forever ${what.trim()}`);
      }
      makespan = Math.max(makespan, this.finish[r]!);
    }
    const { messages, eagerMessages } = this.t;
    return {
      makespanUs: makespan,
      rankFinishUs: this.finish,
      messages,
      eagerMessages,
      events: this.events,
      recomputes: this.recomputes,
      ...(this.tl === null ? {} : { timeline: this.tl.build() }),
    };
  }
}

/**
 * The dataflow loop's tables (ready-queue mode): per operation the dependencies not yet observed and who waits for it
 * (CSR); per rank two FIFO queues of ready operations (receives, others) and its pending messages, each in the
 * rank's own slice [rankStart[r], rankStart[r + 1]) of a shared array; operations observed per rank.
 */
interface ReadyQueues {
  readonly waiting: Int32Array;
  readonly revStart: Int32Array;
  readonly rev: Int32Array;
  readonly recvQ: Int32Array;
  readonly otherQ: Int32Array;
  readonly recvHead: Int32Array;
  readonly recvTail: Int32Array;
  readonly otherHead: Int32Array;
  readonly otherTail: Int32Array;
  readonly active: Int32Array;
  readonly activeCount: Int32Array;
  readonly observed: Int32Array;
}

function enqueue(q: ReadyQueues, recv: boolean, r: number, x: number): void {
  if (recv) q.recvQ[q.recvTail[r]!++] = x;
  else q.otherQ[q.otherTail[r]!++] = x;
}

/** The ready-queue tables of `ops`, the operations without dependencies queued in program order. */
function readyQueues(ops: ReplayOps, opRank: Int32Array): ReadyQueues {
  const { p, rankStart, kind, depStart, deps } = ops;
  const n = kind.length;
  const waiting = new Int32Array(n),
    revStart = new Int32Array(n + 1);
  for (let x = 0; x < n; x++) {
    waiting[x] = depStart[x + 1]! - depStart[x]!;
    for (let d = depStart[x]!; d < depStart[x + 1]!; d++) revStart[deps[d]! + 1]!++;
  }
  for (let x = 0; x < n; x++) revStart[x + 1]! += revStart[x]!;
  const fill = revStart.slice(0, n),
    rev = new Int32Array(deps.length);
  for (let x = 0; x < n; x++) for (let d = depStart[x]!; d < depStart[x + 1]!; d++) rev[fill[deps[d]!]!++] = x;
  const starts = (): Int32Array => Int32Array.from(rankStart.subarray(0, p));
  const q: ReadyQueues = {
    waiting,
    revStart,
    rev,
    recvQ: new Int32Array(n),
    otherQ: new Int32Array(n),
    recvHead: starts(),
    recvTail: starts(),
    otherHead: starts(),
    otherTail: starts(),
    active: new Int32Array(n),
    activeCount: new Int32Array(p),
    observed: new Int32Array(p),
  };
  for (let x = 0; x < n; x++) if (waiting[x] === 0) enqueue(q, kind[x] === RECV, opRank[x]!, x);
  return q;
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
  if (p <= PAIR_TABLE_MAX_RANKS && ns === nr && matchPairs(sends, recvs, src, dst, bytes, tag, p, partner))
    return partner;
  // the walk below pairs them again, or names the first message without a partner; with one tag for every
  // operation no run of a pair is sorted by tag
  partner.fill(-1);
  let oneTag = true;
  for (let x = 1; x < n && oneTag; x++) oneTag = tag[x] === tag[0];
  sortByKey(sends, src, dst, oneTag ? null : tag, p);
  sortByKey(recvs, src, dst, oneTag ? null : tag, p);
  const describe = (x: number): string =>
    kind[x] === SEND
      ? `rank ${opRank[x]} sends to ${peer[x]} (tag ${tag[x]}) a message that is never received`
      : `rank ${opRank[x]} receives from ${peer[x]} (tag ${tag[x]}) a message that is never sent`;
  // both lists in (source, destination, tag) order: equal heads pair, else the lesser head has no partner
  let i = 0,
    j = 0;
  while (i < ns || j < nr) {
    const s = i < ns ? sends[i]! : -1,
      v = j < nr ? recvs[j]! : -1;
    if (s >= 0 && v >= 0 && src[s] === src[v] && dst[s] === dst[v] && tag[s] === tag[v]) {
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
      continue;
    }
    const cmp = (a: number, b: number): number => src[a]! - src[b]! || dst[a]! - dst[b]! || tag[a]! - tag[b]!;
    if (s < 0 || (v >= 0 && cmp(v, s) < 0)) throw fail("machines", "BAD_INPUT", `program replay: ${describe(v)}`);
    throw fail("machines", "BAD_INPUT", `program replay: ${describe(s)}`);
  }
  return partner;
}

/**
 * The common case of matchMessages in one counting sort: as many sends as receives (ids ascending), the k-th receive
 * of each (source, destination) pair paired with the k-th send, of the same size and tag. When every pair's sends and
 * receives carry the same tags in the same order, this is matching by (source, destination, tag): the k-th of a tag
 * among a pair's sends sits at the place of the k-th of that tag among its receives (a lowered program's messages,
 * one tag per round, match here). False (partner partly written) at the first receive without such a send:
 * matchMessages' walk then finds the first problem in its order, or pairs tags that come in another order.
 */
function matchPairs(
  sends: Int32Array,
  recvs: Int32Array,
  src: Int32Array,
  dst: Int32Array,
  bytes: Float64Array,
  tag: Uint32Array,
  p: number,
  partner: Int32Array,
): boolean {
  const start = new Int32Array(p * p + 1);
  for (let i = 0; i < sends.length; i++) start[src[sends[i]!]! * p + dst[sends[i]!]! + 1]!++;
  for (let k = 1; k < start.length; k++) start[k]! += start[k - 1]!;
  // the sends by pair, in program order within a pair; then `at` is each pair's next send for its receives
  const at = start.slice(0, p * p),
    byPair = new Int32Array(sends.length);
  for (let i = 0; i < sends.length; i++) {
    const x = sends[i]!;
    byPair[at[src[x]! * p + dst[x]!]!++] = x;
  }
  at.set(start.subarray(0, p * p));
  for (let j = 0; j < recvs.length; j++) {
    const v = recvs[j]!,
      key = src[v]! * p + dst[v]!,
      i = at[key]!++;
    if (i >= start[key + 1]!) return false;
    const s = byPair[i]!;
    if (bytes[s] !== bytes[v] || tag[s] !== tag[v]) return false;
    partner[s] = v;
    partner[v] = s;
  }
  return true;
}

/**
 * Sorts operation ids (ascending on entry) by (source, destination, tag, id): one stable counting sort on the pair (up
 * to PAIR_TABLE_MAX_RANKS ranks; above, two: by destination, then source) gives (source, destination, id); the runs of
 * one pair whose tags differ are then sorted by (tag, id) (`tag` null: every operation has one tag).
 */
function sortByKey(ids: Int32Array, src: Int32Array, dst: Int32Array, tag: Uint32Array | null, p: number): void {
  const n = ids.length;
  if (p <= PAIR_TABLE_MAX_RANKS) pairSort(ids, src, dst, p);
  else {
    const tmp = new Int32Array(n),
      cnt = new Int32Array(p + 1);
    countingPass(ids, tmp, dst, cnt);
    cnt.fill(0);
    countingPass(tmp, ids, src, cnt);
  }
  if (tag === null) return;
  for (let i = 0; i < n;) {
    const a = ids[i]!;
    let j = i + 1,
      mixed = false;
    for (; j < n && src[ids[j]!] === src[a] && dst[ids[j]!] === dst[a]; j++) mixed ||= tag[ids[j]!] !== tag[a];
    if (mixed)
      for (let u = i + 1; u < j; u++) {
        const x = ids[u]!,
          tx = tag[x]!;
        let w = u - 1;
        for (; w >= i && (tag[ids[w]!]! > tx || (tag[ids[w]!] === tx && ids[w]! > x)); w--) ids[w + 1] = ids[w]!;
        ids[w + 1] = x;
      }
    i = j;
  }
}

/** Sorts ids (ascending) by (source, destination, id) in one stable counting sort on the pair (p^2 counters). */
function pairSort(ids: Int32Array, src: Int32Array, dst: Int32Array, p: number): void {
  const n = ids.length;
  const cnt = new Int32Array(p * p + 1),
    key = new Int32Array(n),
    from = ids.slice();
  for (let i = 0; i < n; i++) {
    const x = from[i]!;
    const k = (key[i] = src[x]! * p + dst[x]!);
    cnt[k + 1]!++;
  }
  for (let k = 1; k < cnt.length; k++) cnt[k]! += cnt[k - 1]!;
  for (let i = 0; i < n; i++) ids[cnt[key[i]!]!++] = from[i]!;
}

/** One stable counting sort of `from` into `to` by key[id] (keys below cnt.length - 1; cnt zeroed). */
function countingPass(from: Int32Array, to: Int32Array, key: Int32Array, cnt: Int32Array): void {
  for (let i = 0; i < from.length; i++) cnt[key[from[i]!]! + 1]!++;
  for (let k = 1; k < cnt.length; k++) cnt[k]! += cnt[k - 1]!;
  for (let i = 0; i < from.length; i++) {
    const x = from[i]!;
    to[cnt[key[x]!]!++] = x;
  }
}

/** Refuses replayProgramOps' arguments unless ReplayOps (replayOpsOf's) and options with a network and runtime. */
function checkReplayEngineArgs(ops: unknown, o: unknown): void {
  const fn = "replayProgramOps";
  const opsOk =
    isOptionsObject(ops) &&
    isIntIn(ops["p"], 1, MAX_P) &&
    ops["rankStart"] instanceof Uint32Array &&
    ops["kind"] instanceof Uint8Array &&
    ops["bytes"] instanceof Float64Array;
  checkArg("machines", fn, "ops", ops, opsOk, "ReplayOps (replayOpsOf's)");
  const net: unknown = isOptionsObject(o) ? o["network"] : undefined;
  const run: unknown = isOptionsObject(o) ? o["runtime"] : undefined;
  const ok = isOptionsObject(net) && typeof net["hosts"] === "number" && isOptionsObject(run);
  checkArg("machines", fn, "o", o, ok, "engine options { network, runtime, copyUsPerByte, ... }", "BAD_OPTION");
}
