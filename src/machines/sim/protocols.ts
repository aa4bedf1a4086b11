/** Run-time protocols without a static schedule: AC, the asynchronous send-everything algorithm (003 fig. 2), and DRS_N (003 fig. 5, 000 sec. 5 fig. 4 with its two improvements); Generate_Recv (003 fig. 1) as an optional first phase. */
import { checkMachine } from "../../model/machine.js";
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import { entry, matrixDigest, matrixRows, type CommMatrix } from "../../model/matrix.js";
import { createRng, shuffleInPlace } from "../../model/rng.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import type { TopologyName } from "../../model/machine.js";
import { contentionFactor } from "./contention-factor.js";
import { EventHeap } from "./heap.js";
import { NodeAccounts } from "./node-accounts.js";
import type { NetworkRoutes } from "../../model/network.js";
import type { SimNetworkStats } from "./link-contention.js";
import { resolveSeed, resolveTopology, type PortSharing } from "./options.js";
import { simulateSchedule, type NodeTimes } from "./simulate.js";
import { K, NONE, TimelineRecorder, type Timeline } from "./timeline.js";
import { networkCost, perByteCost } from "./topology.js";

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
  /** DRS_N: most test-and-set inquiries the run may make before it stops with a CommplanError. Default MAX_INQUIRIES. */
  readonly maxInquiries?: number;
  /** flat or cm5-fat-tree (per-pair t_d, 000 sec 3); default the machine's topology, else flat. The OCPC is defined per step and has no protocol here. */
  readonly topology?: TopologyName;
  readonly timeline?: boolean;
  /** Called now and then with (messages delivered, messages in all). */
  readonly progress?: ((done: number, total: number) => void) | null;
  /** async only: run on a network with the flow model (SimRequest.network; Generate_Recv keeps the node-port model). */
  readonly network?: NetworkRoutes | null;
  /** async only, with a network: SimRequest.portSharing. */
  readonly portSharing?: PortSharing;
  /** async only, with a network: SimRequest.linkFactor (false skips f_lc). */
  readonly linkFactor?: boolean;
}

/** ProtocolRequest with its defaults filled and its values checked. */
interface ProtocolOptions {
  readonly protocol: ProtocolName;
  readonly seed: number;
  readonly generateRecv: boolean;
  readonly inquiry: number;
  readonly busyMeasure: boolean;
  readonly earlyGoAhead: boolean;
  readonly maxInquiries: number;
  readonly topology: TopologyName;
  readonly timeline: boolean;
  readonly progress: ((done: number, total: number) => void) | null;
  readonly network: NetworkRoutes | null;
  readonly portSharing: PortSharing | undefined;
  readonly linkFactor: boolean | undefined;
}

/** Shortest DRS_N inquiry time (us): a round trip of two messages takes far longer on any machine, and a shorter one would let simulated time stand still. */
export const MIN_INQUIRY = 1e-3;

/** Default of `maxInquiries`: most test-and-set inquiries one DRS_N run makes before it stops with an error (a node whose destinations are all busy keeps inquiring, about makespan / inquiry times). */
export const MAX_INQUIRIES = 50_000_000;

/** Fills the defaults of a protocol request and checks every value once; options that do not apply to the protocol are errors. */
function resolveProtocolOptions(req: ProtocolRequest, machine: MachineModel): ProtocolOptions {
  const bad = (field: string, text: string): Error => fail("simulate", "BAD_OPTION", text, { field });
  if (!PROTOCOLS.includes(req.protocol))
    throw bad("protocol", `unknown protocol '${String(req.protocol)}'; known: ${PROTOCOLS.join(", ")}`);
  if (req.protocol === "async") {
    for (const k of ["inquiry", "busyMeasure", "earlyGoAhead", "maxInquiries"] as const)
      if (req[k] !== undefined && req[k] !== false)
        throw bad(k, `${k} is a drs-n option; async (AC, 003 fig. 2) makes no inquiries`);
  }
  const inquiry = req.inquiry ?? 2 * machine.ts;
  if (typeof inquiry !== "number" || !(inquiry >= MIN_INQUIRY) || !Number.isFinite(inquiry))
    throw bad("inquiry", `inquiry must be a finite time >= ${MIN_INQUIRY} us, got ${String(inquiry)}`);
  const maxInquiries = req.maxInquiries ?? MAX_INQUIRIES;
  if (!Number.isInteger(maxInquiries) || maxInquiries < 1)
    throw bad("maxInquiries", `maxInquiries must be an integer >= 1, got ${String(maxInquiries)}`);
  const topology = resolveTopology(req.topology, machine);
  if (req.protocol === "drs-n" && (req.network || req.portSharing !== undefined))
    throw bad(
      req.network ? "network" : "portSharing",
      "drs-n runs on its own engine without the flow model; a network is an async option",
    );
  if (topology === "ocpc")
    throw bad(
      "topology",
      "the ocpc topology is defined per step of a schedule (001 sec 2); the protocols run on flat or cm5-fat-tree",
    );
  return {
    protocol: req.protocol,
    seed: resolveSeed(req.seed),
    generateRecv: req.generateRecv ?? false,
    inquiry,
    busyMeasure: req.busyMeasure ?? false,
    earlyGoAhead: req.earlyGoAhead ?? false,
    maxInquiries,
    topology,
    timeline: req.timeline ?? true,
    progress: req.progress ?? null,
    network: req.network ?? null,
    portSharing: req.portSharing,
    linkFactor: req.linkFactor,
  };
}

/** The outcome of a protocol run. */
export interface ProtocolResult {
  readonly protocol: ProtocolName;
  readonly machine: string;
  readonly topology: TopologyName;
  /** Time of the whole run, Generate_Recv included (us). */
  readonly makespan: number;
  /** Time of the Generate_Recv phase (0 when not run). */
  readonly generateRecvTime: number;
  /** DRS_N: test-and-set inquiries made (0 for async). */
  readonly inquiries: number;
  /** Sum over nodes of the contention wait (us); 0 for DRS_N, whose lock admits one message per receiver (an early go-ahead's wait is stalled time). */
  readonly totalWait: number;
  /** Measured node-contention factor, as SimResult.fnc (contention-factor.ts). */
  readonly fnc: number;
  readonly nodes: NodeTimes;
  /**
   * The realised trace as a timed Schedule (one stage "realised"): transfers sorted by the time they
   * were issued, one step per distinct issue time; each transfer carries its whole message as one
   * payload chunk and its times (start = when the sender issued it, for DRS_N when it went on the
   * wire, after an early go-ahead's wait; end = when it arrived).
   */
  readonly realised: Schedule;
  /** Per-node intervals; like the realised times, they start after the Generate_Recv phase. */
  readonly timeline: Timeline;
  /** async on a network only: the link books (SimResult.network). */
  readonly network?: SimNetworkStats;
}

/** Most messages a protocol run takes. */
const MAX_MESSAGES = 20_000_000;

/** Runs a run-time protocol for matrix m on machine (blocking, one send and one receive port per node; flat or CM-5 fat-tree network). */
export function runProtocol(m: CommMatrix, machine: MachineModel, req: ProtocolRequest): ProtocolResult {
  checkMachine(machine, "protocols");
  const o = resolveProtocolOptions(req, machine);
  const p = m.p;
  // Each node's messages in a seeded random order (003: "sends messages to their destinations in a random order").
  const rng = createRng(o.seed);
  // the network messages from the non-zero entries (O(P + E) on sparse storage)
  const rows = matrixRows(m);
  const start = new Uint32Array(p + 1);
  let n = 0;
  for (let i = 0; i < p; i++) {
    start[i] = n;
    for (let k = rows.rowStart[i]!; k < rows.rowStart[i + 1]!; k++) if (rows.col[k] !== i) n++;
  }
  start[p] = n;
  if (n > MAX_MESSAGES)
    throw fail("simulate", "BAD_INPUT", `the matrix has ${n} messages; protocols take at most ${MAX_MESSAGES}`, {
      field: "matrix",
    });
  const dest = new Uint32Array(n);
  const size = new Float64Array(n);
  for (let i = 0, k = 0; i < p; i++) {
    for (let x = rows.rowStart[i]!; x < rows.rowStart[i + 1]!; x++) if (rows.col[x] !== i) dest[k++] = rows.col[x]!;
    shuffleInPlace(rng, dest.subarray(start[i]!, start[i + 1]!));
    for (let x = start[i]!; x < start[i + 1]!; x++) size[x] = entry(m, i, dest[x]!);
  }
  const msgs: Messages = { start, dest, size };
  const genRecv = o.generateRecv ? generateRecvTime(p, machine, msgs, o.topology) : 0;
  const run = o.protocol === "async" ? runAsync(m, machine, msgs, o) : runDrsN(m, machine, msgs, o);
  const realised = realisedSchedule(m, o, msgs, run.issue, run.end, genRecv);
  const timeline = run.timeline;
  for (let i = 0; i < timeline.count; i++) {
    timeline.start[i] = timeline.start[i]! + genRecv;
    timeline.end[i] = timeline.end[i]! + genRecv;
  }
  return {
    protocol: o.protocol,
    machine: machine.name,
    topology: o.topology,
    makespan: genRecv + run.makespan,
    generateRecvTime: genRecv,
    inquiries: run.inquiries,
    totalWait: run.totalWait,
    fnc: contentionFactor(realised, networkCost(o.topology, machine), run.nodes.wait),
    nodes: run.nodes,
    realised,
    timeline,
    ...(run.network ? { network: run.network } : {}),
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
  readonly network?: SimNetworkStats | undefined;
}

/** Node i's messages in the order it sends them: message k (start[i] <= k < start[i + 1]) goes to dest[k], size[k] elements. */
interface Messages {
  readonly start: Uint32Array;
  readonly dest: Uint32Array;
  readonly size: Float64Array;
}

/** The one-step schedule "node i sends its messages in the order dest[start[i] .. start[i+1])". */
function orderSchedule(p: number, msgs: Messages, algorithm: string, elementBytes: number): Schedule {
  const { start, dest, size } = msgs;
  const b = new ScheduleBuilder(
    { p, algorithm, params: {}, seed: null, elementBytes, matrixDigest: "" },
    false,
    dest.length,
  );
  b.stage("async", "none").step();
  for (let i = 0; i < p; i++) for (let k = start[i]!; k < start[i + 1]!; k++) b.transfer(i, dest[k]!, size[k]!);
  return b.build();
}

/** AC: every node issues its messages back to back; a message to a busy receiver waits in the network (003 sec 3.1). */
function runAsync(m: CommMatrix, machine: MachineModel, msgs: Messages, o: ProtocolOptions): RunOut {
  const { start } = msgs;
  const s = orderSchedule(m.p, msgs, "async", m.elementBytes);
  const r = simulateSchedule(
    s,
    { ...machine, barrier: 0 },
    {
      timeline: o.timeline,
      ports: 1,
      topology: o.topology,
      progress: o.progress,
      ...(o.network ? { network: o.network } : {}),
      ...(o.network && o.linkFactor !== undefined ? { linkFactor: o.linkFactor } : {}),
      ...(o.portSharing !== undefined ? { portSharing: o.portSharing } : {}),
    },
  );
  // With one port a node issues its k-th message when its (k-1)-th arrives.
  const issue = new Float64Array(s.transferCount);
  for (let i = 0; i < m.p; i++) for (let k = start[i]! + 1; k < start[i + 1]!; k++) issue[k] = r.transferEnd[k - 1]!;
  return {
    makespan: r.makespan,
    issue,
    end: r.transferEnd,
    nodes: r.nodes,
    totalWait: r.totalWait,
    inquiries: 0,
    timeline: r.timeline,
    network: r.network,
  };
}

/** Events between two progress calls of a DRS_N run. */
const DRS_PROGRESS_EVERY = 1 << 12;

/** DRS_N: test-and-set the destination's busy lock, send if free, else try another destination (003 fig. 5; 000 sec. 5). */
function runDrsN(m: CommMatrix, machine: MachineModel, msgs: Messages, o: ProtocolOptions): RunOut {
  const run = new DrsNRun(m, machine, msgs, o);
  run.run();
  return run.result();
}

/**
 * One DRS_N run. Event ids: k (< n) message k arrives; INQ + i node i's inquiry returns; WAKE + i
 * node i wakes up; BEGIN + k message k starts (early go-ahead: when the receive it waited for ends).
 */
class DrsNRun {
  private readonly p: number;
  private readonly n: number;
  private readonly tcd: (a: number, b: number) => number;
  private readonly acc: NodeAccounts;
  private readonly tl: TimelineRecorder;
  private readonly issue: Float64Array;
  private readonly end: Float64Array;
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
  private readonly heap: EventHeap;
  private readonly INQ: number;
  private readonly WAKE: number;
  private readonly BEGIN: number;
  private inquiries = 0;
  private last = 0;
  private delivered = 0;
  private nextProgress = DRS_PROGRESS_EVERY;

  private readonly start: Uint32Array;
  private readonly dest: Uint32Array;
  /** Elements of message k. */
  private readonly size: Float64Array;

  constructor(
    private readonly m: CommMatrix,
    private readonly machine: MachineModel,
    msgs: Messages,
    private readonly o: ProtocolOptions,
  ) {
    this.start = msgs.start;
    this.dest = msgs.dest;
    this.size = msgs.size;
    const p = m.p,
      n = msgs.dest.length;
    this.p = p;
    this.n = n;
    this.tcd = perByteCost(o.topology, machine);
    this.acc = new NodeAccounts(p);
    this.tl = new TimelineRecorder(p, o.timeline);
    this.issue = new Float64Array(n);
    this.end = new Float64Array(n);
    this.sent = new Uint8Array(n);
    this.left = new Uint32Array(p);
    this.cursor = new Uint32Array(p);
    this.lockUntil = new Float64Array(p).fill(-1);
    this.avoidUntil = new Float64Array(n);
    this.inquireSince = new Float64Array(p);
    for (let i = 0; i < p; i++) this.left[i] = this.start[i + 1]! - this.start[i]!;
    this.heap = new EventHeap(2 * p + 16);
    this.INQ = n;
    this.WAKE = n + p;
    this.BEGIN = n + 2 * p;
    this.pendingInq = new Int32Array(p).fill(-1);
  }

  /** Runs the protocol to the end. */
  run(): void {
    const { heap, n } = this;
    const progress = this.o.progress;
    for (let i = 0; i < this.p; i++) this.next(i, 0);
    while (heap.size > 0) {
      // events with one key (time rounded to ticks) go in id order (heap.ts); time never runs backwards
      const t = Math.max(heap.topTime(), this.last);
      const id = heap.topId();
      heap.pop();
      this.last = t;
      if (progress && heap.pushed >= this.nextProgress) {
        this.nextProgress += DRS_PROGRESS_EVERY;
        progress(this.delivered, n);
      }
      if (id < n) this.arrive(id, t);
      else if (id >= this.BEGIN) this.begin(id - this.BEGIN, senderOf(this.start, id - this.BEGIN, this.p), t);
      else if (id < this.WAKE) this.inquiryBack(id - this.INQ, t);
      else this.next(id - this.WAKE, t);
    }
  }

  private duration(k: number, i: number): number {
    const d = this.dest[k]!;
    return this.machine.ts + (this.size[k]! * this.m.elementBytes + (this.machine.envelope ?? 0)) * this.tcd(i, d);
  }

  /** Message k of node i goes on the wire at t (the lock is already held). */
  private begin(k: number, i: number, t: number): void {
    this.acc.begin(i, t);
    this.acc.begin(this.dest[k]!, t);
    this.heap.push(this.end[k]!, k);
  }

  /** Message k arrives at t: its destination's lock is freed (unless already taken again) and its sender moves on. */
  private arrive(k: number, t: number): void {
    const p = this.p;
    const i = senderOf(this.start, k, p);
    const d = this.dest[k]!;
    this.acc.end(i, t);
    this.acc.end(d, t);
    if (this.lockUntil[d] === t) this.lockUntil[d] = -1;
    this.tl.add(i, K.send, this.issue[k]!, t, d, this.size[k]!, k);
    this.tl.add(d, K.recv, this.issue[k]!, t, i, this.size[k]!, k);
    this.delivered++;
    this.next(i, t);
  }

  /** Node i's inquiry returns at t: it sends when the lock was free (or frees within one inquiry, with the early go-ahead), else tries another destination. */
  private inquiryBack(i: number, t: number): void {
    const { acc, lockUntil } = this;
    const k = this.pendingInq[i]!;
    const d = this.dest[k]!;
    this.tl.add(i, K.stall, this.inquireSince[i]!, t, d, 0, NONE);
    acc.stalled[i] = acc.stalled[i]! + (t - this.inquireSince[i]!);
    const free = lockUntil[d]! < 0 || lockUntil[d]! <= t;
    const soon = this.o.earlyGoAhead && !free && lockUntil[d]! - t <= this.o.inquiry;
    if (free || soon) {
      const s0 = free ? t : lockUntil[d]!;
      if (soon) {
        // The protocol arranged this wait (the message is not in the network yet): stalled, not contention.
        acc.stalled[i] = acc.stalled[i]! + (s0 - t);
        this.tl.add(i, K.stall, t, s0, d, 0, k);
      }
      this.send(k, i, d, s0, t);
    } else {
      if (this.o.busyMeasure) this.avoidUntil[k] = lockUntil[d]!;
      this.next(i, t);
    }
  }

  /** Node i holds d's lock for message k, which goes on the wire at s0 (>= t, the time of the go-ahead). */
  private send(k: number, i: number, d: number, s0: number, t: number): void {
    const { acc } = this;
    const e = s0 + this.duration(k, i);
    this.lockUntil[d] = e;
    this.sent[k] = 1;
    this.left[i]!--;
    this.issue[k] = s0;
    this.end[k] = e;
    const bytes = this.size[k]! * this.m.elementBytes;
    acc.sentBytes[i] = acc.sentBytes[i]! + bytes;
    acc.recvBytes[d] = acc.recvBytes[d]! + bytes;
    if (s0 > t)
      this.heap.push(s0, this.BEGIN + k); // the accounts only move forward in time
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
    this.heap.push(soonest, this.WAKE + i); // every destination is busy: sleep for the smallest measure
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
        `drs-n: simulated time stopped advancing at ${t.toFixed(3)} us (an inquiry of ${inquiry} us is lost in rounding); use a larger --inquiry`,
        { field: "inquiry" },
      );
    if (++this.inquiries > maxInquiries) {
      throw fail(
        "simulate",
        "UNSUPPORTED",
        `drs-n: more than ${maxInquiries} inquiries (${this.delivered} of ${this.n} messages delivered at ${t.toFixed(3)} us); nodes keep inquiring while their destinations are busy: use a larger --inquiry or --busy-measure`,
        { field: "inquiry" },
      );
    }
    this.heap.push(back, this.INQ + i);
  }

  /** The run's outcome (after `run`). */
  result(): RunOut {
    const { acc, p } = this;
    let totalWait = 0;
    for (let v = 0; v < p; v++) totalWait += acc.wait[v]!;
    return {
      makespan: this.last,
      issue: this.issue,
      end: this.end,
      nodes: acc.times(this.last),
      totalWait,
      inquiries: this.inquiries,
      timeline: this.tl.build(),
    };
  }
}

/** The node whose message list holds message k (binary search over start). */
function senderOf(start: Uint32Array, k: number, p: number): number {
  let lo = 0,
    hi = p - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (start[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Generate_Recv (003 fig. 1): a parallel vector sum of the send masks (ceil(log2 P) rounds of a
 * P-entry vector of 4-byte counts, costed with the machine's flat t_c + t_d), then an AC exchange of
 * one 8-byte entry per message on the run's network.
 */
function generateRecvTime(p: number, machine: MachineModel, msgs: Messages, topology: TopologyName): number {
  if (p <= 1) return 0;
  const rounds = Math.ceil(Math.log2(p));
  const vectorSum = rounds * (machine.ts + (4 * p + (machine.envelope ?? 0)) * (machine.tc + machine.td));
  // every message one element: node i tells each destination it will send (no P x P array)
  const ones = { ...msgs, size: new Float64Array(msgs.dest.length).fill(1) };
  const s = orderSchedule(p, ones, "generate-recv", 8);
  return vectorSum + simulateSchedule(s, { ...machine, barrier: 0 }, { timeline: false, ports: 1, topology }).makespan;
}

/** The realised trace as a timed Schedule: one step per distinct issue time, transfers in issue order. */
function realisedSchedule(
  m: CommMatrix,
  req: ProtocolOptions,
  msgs: Messages,
  issue: Float64Array,
  end: Float64Array,
  offset: number,
): Schedule {
  const p = m.p;
  const { start, dest } = msgs;
  const n = dest.length;
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  order.sort((a, b) => issue[a]! - issue[b]! || a - b);
  const params: { [k: string]: boolean | number | string } = { generateRecv: req.generateRecv, topology: req.topology };
  if (req.protocol === "drs-n") {
    params["busyMeasure"] = req.busyMeasure;
    params["earlyGoAhead"] = req.earlyGoAhead;
    params["inquiry"] = req.inquiry;
  }
  const b = new ScheduleBuilder(
    { p, algorithm: req.protocol, params, seed: req.seed, elementBytes: m.elementBytes, matrixDigest: matrixDigest(m) },
    true,
    n,
    true,
  );
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
    const size = msgs.size[k]!;
    b.transfer(i, j, size);
    b.chunk(i, j, 0, size);
    b.times(offset + issue[k]!, offset + end[k]!);
  }
  return b.build();
}
