/**
 * Run-time protocols without a static schedule: AC, the asynchronous send-everything algorithm (003 fig. 2), and DRS_N
 * (003 fig. 5, 000 sec. 5 fig. 4 with its two improvements), both on the replay engine; Generate_Recv (003 fig. 1) as
 * an optional first phase.
 */
import { checkMachine } from "../../model/machine.js";
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import { checkMatrixArg, entry, matrixDigest, matrixRows, type CommMatrix } from "../../model/matrix.js";
import { createRng, shuffleInPlace } from "../../model/rng.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import type { FabricName } from "../../model/machine.js";
import { contentionFactor } from "./contention-factor.js";
import { DrsNMode, senderOf, type ProtocolMessages } from "./drs-n-mode.js";
import { protocolRequestOf, type ProtocolRequest } from "./flat-request.js";
import { NodeAccounts } from "./node-accounts.js";
import type { SimNetworkStats } from "./link-contention.js";
import type { ProtocolName, ProtocolOptions } from "./options.js";
import { ReplayDriver } from "./replay-driver.js";
import { checkRequestObject, resolveProtocol, resolveReplay, type ProtocolRunRequest } from "./request.js";
import { simulateSchedule, type NodeTimes } from "./simulate.js";
import { TimelineRecorder, type Timeline } from "./timeline.js";
import { networkCost, perByteCost } from "./fabric.js";

/** The outcome of a protocol run. */
export interface ProtocolResult {
  readonly protocol: ProtocolName;
  readonly machine: string;
  readonly fabric: FabricName;
  /** Time of the whole run, Generate_Recv included (us). */
  readonly makespan: number;
  /** Time of the Generate_Recv phase (0 when not run). */
  readonly generateRecvTime: number;
  /** DRS_N: test-and-set inquiries made (0 for async). */
  readonly inquiries: number;
  /**
   * Sum over nodes of the contention wait (us); 0 for DRS_N, whose lock admits one message per receiver (an early
   * go-ahead's wait is stalled time).
   */
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

/**
 * Runs a run-time protocol for matrix m on machine (blocking, one send and one receive port per node; flat or CM-5
 * fat-tree network).
 */
export function runProtocol(
  m: CommMatrix,
  machine: MachineModel,
  req: ProtocolRunRequest | ProtocolRequest,
): ProtocolResult {
  checkMachine(machine, "protocols");
  checkRequestObject("protocols", req, false);
  checkMatrixArg("protocols", m);
  const o = resolveProtocol("kind" in req ? req : protocolRequestOf(req), machine);
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
  const genRecv = o.generateRecv ? generateRecvTime(p, machine, msgs, o.fabric) : 0;
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
    fabric: o.fabric,
    makespan: genRecv + run.makespan,
    generateRecvTime: genRecv,
    inquiries: run.inquiries,
    totalWait: run.totalWait,
    fnc: contentionFactor(realised, networkCost(o.fabric, machine), run.nodes.wait),
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

/** Node i's messages in the order it sends them (ProtocolMessages). */
type Messages = ProtocolMessages;

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
      kind: "replay",
      mode: "blocking",
      timeline: o.timeline,
      ports: 1,
      fabric: o.fabric,
      progress: o.progress,
      network: o.network,
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

/**
 * DRS_N: test-and-set the destination's busy lock, send if free, else try another destination (003 fig. 5; 000 sec. 5),
 * as DrsNMode on the replay driver.
 */
function runDrsN(m: CommMatrix, machine: MachineModel, msgs: Messages, o: ProtocolOptions): RunOut {
  const s = orderSchedule(m.p, msgs, "drs-n", m.elementBytes);
  const free = { ...machine, barrier: 0 };
  const so = resolveReplay(
    { kind: "replay", mode: "blocking", ports: 1, fabric: o.fabric, timeline: o.timeline, progress: o.progress },
    free,
  );
  const acc = new NodeAccounts(m.p);
  const tl = new TimelineRecorder(m.p, o.timeline);
  const n = msgs.dest.length;
  const driver = new ReplayDriver(s, so, acc, tl, null, 2 * n + 2 * m.p);
  const mode = new DrsNMode(driver, machine, msgs, perByteCost(o.fabric, machine), o);
  const makespan = driver.run(free, mode);
  let totalWait = 0;
  for (let v = 0; v < m.p; v++) totalWait += acc.wait[v]!;
  return {
    makespan,
    issue: mode.issue,
    end: mode.end,
    nodes: acc.times(makespan),
    totalWait,
    inquiries: mode.inquiries,
    timeline: tl.build(),
  };
}

/**
 * Generate_Recv (003 fig. 1): a parallel vector sum of the send masks (ceil(log2 P) rounds of a
 * P-entry vector of 4-byte counts, costed with the machine's flat t_c + t_d), then an AC exchange of
 * one 8-byte entry per message on the run's network.
 */
function generateRecvTime(p: number, machine: MachineModel, msgs: Messages, fabric: FabricName): number {
  if (p <= 1) return 0;
  const rounds = Math.ceil(Math.log2(p));
  const vectorSum = rounds * (machine.ts + (4 * p + (machine.envelope ?? 0)) * (machine.tc + machine.td));
  // every message one element: node i tells each destination it will send (no P x P array)
  const ones = { ...msgs, size: new Float64Array(msgs.dest.length).fill(1) };
  const s = orderSchedule(p, ones, "generate-recv", 8);
  return (
    vectorSum +
    simulateSchedule(
      s,
      { ...machine, barrier: 0 },
      { kind: "replay", mode: "blocking", timeline: false, ports: 1, fabric },
    ).makespan
  );
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
  const params: { [k: string]: boolean | number | string } = { generateRecv: req.generateRecv, topology: req.fabric };
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
