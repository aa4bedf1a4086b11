/**
 * commplan simulate: replay a schedule (or run a run-time protocol on a matrix) on the simulated machine; exit 1 when
 * data mode finds a delivery failure.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { readScheduleFile } from "../../io/schedule-read.js";
import { checkOutputTargets, refuseOutputOntoInput, writeOutputs } from "../../io/file-output.js";
import { checkMemory, scheduleWorkBytes } from "../../model/memory-budget.js";
import { scheduleToJsonText } from "../../io/schedule-json-write.js";
import { drawsRaster, GANTT_VIEWS, MAX_LANE_ROWS, MAX_SVG_INTERVALS, type GanttView } from "../../export/svg-gantt.js";
import { scheduleCost } from "../../machines/cost-model.js";
import { PROTOCOLS, SEND_WAITS, type NetworkRequest, type SimMode } from "../../machines/sim/options.js";
import {
  simRequestProblem,
  type ProtocolRunRequest,
  type ReplayRequest,
  type SimRequestProblem,
  type SimulatorRequest,
} from "../../machines/sim/request.js";
import type { SimNetworkStats } from "../../machines/sim/link-contention.js";
import type { NetworkRoutes } from "../../model/network.js";
import { linkLoadEntries, linkLoadSvg } from "../../export/svg-link-load.js";
import {
  loadNetworkFlags,
  networkInputFile,
  networkOption,
  portSharingOption,
  type NetworkFlags,
} from "./network-flags.js";
import { RECV_ORDERS } from "../../machines/sim/recv-order.js";
import { runProtocol } from "../../machines/sim/protocols.js";
import { simulateSchedule, type NodeTimes } from "../../machines/sim/simulate.js";
import type { Schedule } from "../../model/schedule.js";
import { networkJson, networkText } from "./simulate-network.js";
import type { Timeline } from "../../machines/sim/timeline.js";
import { FABRICS } from "../../machines/sim/fabric.js";
import { TOPOLOGY_GENERATORS } from "../../topology/registry.js";
import { fail } from "../../model/errors.js";
import { MAX_SEED } from "../../model/param-spec.js";
import { stageBarrier, type MachineModel } from "../../model/machine.js";
import { readMatrixFile } from "../../io/matrix-read.js";
import { checkFilesMatch } from "../made-for.js";
import { matrixBytes } from "../../model/matrix.js";
import { matrixStats } from "../../model/matrix-stats.js";
import type { CliContext } from "../context.js";
import { withProgress } from "../progress.js";
import { ELEMENT_BYTES_HELP, fmt, intOption, matrixReadOptions, numberOption, table } from "../io.js";
import { counted } from "../../internal/plural.js";
import { PROGRAM_OPTION, runProgramFlags } from "./simulate-program.js";
import {
  freeCopiesOption,
  MACHINE_NEEDED,
  MACHINE_OF_RUNTIME_HELP,
  machineOfFlags,
  RUNTIME_OPTION,
} from "./runtime-flags.js";
import { oneLine } from "../../internal/quoted.js";
import { LIBRARY_OPTION, runLibraryFlags } from "./simulate-library.js";
import {
  checkTimelineFlags,
  refuseStdoutTaken,
  svgTooBig,
  timelineDocuments,
  wantsTimeline,
} from "./simulate-timeline.js";
import { portsOption, SIMULATOR_PORTS } from "../ports-option.js";
import { refuseArrowName } from "../output-format.js";

interface SimulateFlags extends NetworkFlags {
  machine?: string;
  mode?: string;
  lockstep?: boolean;
  ports?: string;
  topology?: string;
  buffers?: string;
  sendWaits?: string;
  recvOrder?: string;
  barrier?: string;
  envelope?: string;
  data?: boolean;
  matrix?: string;
  json?: boolean;
  trace?: string;
  svg?: string;
  svgView?: GanttView;
  protocol?: string;
  realised?: string;
  seed?: string;
  generateRecv?: boolean;
  busyMeasure?: boolean;
  earlyGoAhead?: boolean;
  inquiry?: string;
  elementBytes?: string;
  /** false with --no-link-factor (commander's negatable option; true otherwise). */
  linkFactor?: boolean;
  /** false with --no-stage-barriers. */
  stageBarriers?: boolean;
  linkSvg?: string;
  program?: string;
  runtime?: string;
  freeCopies?: boolean;
  library?: string;
}

/** The largest --envelope accepted (bytes). */
const MAX_ENVELOPE = 1 << 20;

/** The values of --mode. */
const SIM_MODES: readonly SimMode[] = ["blocking", "nonblocking"];

const bad = (field: string, text: string): Error => fail("simulate", "BAD_OPTION", text, { field });

/** The network of --network for p ranks, as the request's (null without it). */
function networkFlags(o: SimulateFlags, p: number, machine: MachineModel, maxMemory: number): NetworkRequest | null {
  const { network, portSharing } = loadNetworkFlags(o, p, maxMemory, machine);
  if (network === null) return null;
  return { routes: network, portSharing, ...(o.linkFactor === false ? { linkFactor: false } : {}) };
}

/** The request field each simulator flag sets (the CLI's name for a field in a library error). */
const FLAG_OF: { readonly [field: string]: string } = {
  mode: "--mode",
  lockstep: "--lockstep",
  ports: "--ports",
  sendBuffers: "--buffers",
  sendWaits: "--send-waits",
  recvOrder: "--recv-order",
  data: "--data",
  stageBarriers: "--no-stage-barriers",
  generateRecv: "--generate-recv",
  busyMeasure: "--busy-measure",
  earlyGoAhead: "--early-go-ahead",
  inquiry: "--inquiry",
  fabric: "--topology",
};

/** The key of SimulateFlags a request field comes from where the names differ (the field of the CLI's error). */
const KEY_OF: { readonly [field: string]: string } = { sendBuffers: "buffers", fabric: "topology" };

/** A library problem of the request the flags make, in the CLI's words (the flags' names). */
function flagProblemText(pr: SimRequestProblem): string {
  const flag = FLAG_OF[pr.field] ?? pr.field;
  switch (pr.rule) {
    case "no-stages":
      return `${flag} does not apply to --protocol (the protocols have no stages)`;
    case "replay-only":
      return `${flag} does not apply to --protocol (the protocols run blocking, one port per node, without stage barriers or a schedule)`;
    case "drs-n-only":
      return `${flag} is a drs-n option; async (AC) makes no inquiries`;
    case "ocpc-protocol":
      return `${flag} ocpc is defined per step of a schedule (001 sec 2); the protocols run on flat or cm5-fat-tree`;
    case "protocol-only":
      return `${flag} goes with --protocol`;
    case "nonblocking-only":
      return pr.field === "sendWaits"
        ? `${flag} is a nonblocking-mode option (blocking mode always waits for the receives of earlier steps, 004 sec 2.3)`
        : `${flag} is a nonblocking-mode option (004 sec 3.4)`;
    default:
      return pr.message;
  }
}

/**
 * The request the flags make: every simulator flag given becomes its field (values as given, before
 * any file is read; `values` replaces them once parsed and loaded). The library decides which
 * fields belong to the run (simRequestProblem, resolveSimRequest).
 */
function flagRequest(o: SimulateFlags, values: { readonly [field: string]: unknown } = {}): SimulatorRequest {
  const given: { [field: string]: unknown } = {
    kind: o.protocol !== undefined ? "protocol" : "replay",
    protocol: o.protocol,
    mode: o.protocol === undefined ? (o.mode ?? "blocking") : o.mode,
    lockstep: o.lockstep,
    ports: o.ports,
    sendBuffers: o.buffers,
    sendWaits: o.sendWaits,
    recvOrder: o.recvOrder,
    data: o.data,
    // --no-stage-barriers: commander sets true unless it is given
    stageBarriers: o.stageBarriers === false ? false : undefined,
    generateRecv: o.generateRecv,
    busyMeasure: o.busyMeasure,
    earlyGoAhead: o.earlyGoAhead,
    inquiry: o.inquiry,
    fabric: o.topology,
    ...values,
  };
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as unknown as SimulatorRequest;
}

/**
 * Checks the flags once, before any file is read: the library's rules on the request they make, and the rules of the
 * CLI's own inputs and outputs (stdout carries one document; commander checks the enumerated values).
 */
function checkFlags(o: SimulateFlags): void {
  refuseStdoutTaken("--realised", "realised", o.realised);
  if (o.realised !== undefined) refuseArrowName("simulate", "--realised", "realised", o.realised);
  checkTimelineFlags(o);
  if (o.network === undefined) {
    for (const [k, flag] of [
      ["portSharing", "--port-sharing"],
      ["linkSvg", "--link-svg"],
    ] as const)
      if (o[k] !== undefined) throw bad(k, `${flag} goes with --network (a topology to replay on)`);
    if (o.linkFactor === false)
      throw bad("linkFactor", "--no-link-factor goes with --network (a topology to replay on)");
  }
  refuseStdoutTaken("--link-svg", "linkSvg", o.linkSvg);
  if (o.protocol === undefined && o.realised !== undefined) throw bad("realised", "--realised goes with --protocol");
  const pr = simRequestProblem(flagRequest(o, o.network !== undefined ? { network: { routes: true } } : {}));
  if (pr !== null) throw bad(KEY_OF[pr.field] ?? pr.field, flagProblemText(pr));
  if (o.protocol !== undefined) {
    for (const [k, flag] of [
      ["barrier", "--barrier"],
      ["matrix", "--matrix"],
    ] as const)
      if (o[k] !== undefined)
        throw bad(
          k,
          `${flag} does not apply to --protocol (the protocols run blocking, one port per node, without stage barriers or a schedule)`,
        );
  } else {
    if (o.data && o.matrix === undefined)
      throw bad("matrix", "--data needs --matrix <file> (the elements every node must end with)");
    if (!o.data && o.matrix !== undefined) throw bad("matrix", "--matrix goes with --data");
    if (o.elementBytes !== undefined && o.matrix === undefined)
      throw bad(
        "elementBytes",
        "--element-bytes goes with --protocol, --library or --matrix (a replayed schedule carries its own elementBytes)",
      );
  }
}

/**
 * A schedule without transfers carries its payload vacuously (a file cannot show chunks it has no transfer for): data
 * mode gets an empty chunk table, not the advice to plan with --payload that a plan with --payload already followed.
 */
function payloadIfEmpty(s: Schedule): Schedule {
  if (s.chunks !== null || s.transferCount > 0) return s;
  const none = { origin: new Uint32Array(0), dest: new Uint32Array(0), offset: new Float64Array(0) };
  return { ...s, chunks: { start: new Uint32Array(1), ...none, count: new Float64Array(0) } };
}

/** Per-node times as text: every node when P <= 32, else the maximum and the mean of each column. */
function nodeTable(n: NodeTimes, width: number | undefined): string {
  const p = n.busy.length;
  const cols: [string, Float64Array][] = [
    ["busy", n.busy],
    ["idle", n.idle],
    ["stalled", n.stalled],
    ["contention wait", n.wait],
    ["bytes sent", n.sentBytes],
    ["bytes received", n.recvBytes],
  ];
  if (p <= 32)
    return table(
      [
        ["node", ...cols.map((c) => c[0])],
        ...Array.from({ length: p }, (_, v) => [String(v), ...cols.map((c) => fmt(c[1][v]!))]),
      ],
      width,
    );
  const max = (a: Float64Array): number => a.reduce((x, y) => Math.max(x, y), 0);
  const mean = (a: Float64Array): number => a.reduce((x, y) => x + y, 0) / p;
  return table(
    [
      ["", ...cols.map((c) => c[0])],
      ["max", ...cols.map((c) => fmt(max(c[1])))],
      ["mean", ...cols.map((c) => fmt(mean(c[1])))],
    ],
    width,
  );
}

const perNode = (n: NodeTimes): Record<string, number[]> => ({
  busy: Array.from(n.busy),
  idle: Array.from(n.idle),
  stalled: Array.from(n.stalled),
  wait: Array.from(n.wait),
  sentBytes: Array.from(n.sentBytes),
  recvBytes: Array.from(n.recvBytes),
});

/** What a run hands to the output stage. */
interface RunOutput {
  readonly timeline: Timeline;
  readonly makespan: number;
  /** The run's link books and the network's routes (with --network). */
  readonly network: { readonly stats: SimNetworkStats; readonly routes: NetworkRoutes } | null;
  readonly json: Record<string, unknown>;
  readonly text: string;
  /** The realised trace of a protocol run (written with the other outputs, for --realised). */
  readonly realised?: Schedule;
  /** The --svg chart's title: what ran (algorithm or protocol), P, the mode, the machine and the network or fabric. */
  readonly title: string;
  /** Bytes of an element of the run (its tooltips give bytes beside elements). */
  readonly elementBytes: number;
}

/** Runs --protocol on the matrix file `input`. */
async function runProtocolFlags(
  input: string,
  o: SimulateFlags,
  machine: MachineModel,
  seed: number,
  wantTimeline: boolean,
  ctx: CliContext,
): Promise<RunOutput> {
  const m = readMatrixFile(input, matrixReadOptions(o, ctx.maxMemory));
  // a second copy of the matrix, and per message its queue entries, times and (wanted) timeline entry
  const messages = matrixStats(m).messages;
  checkMemory(
    "simulate",
    2 * matrixBytes(m) + messages * (wantTimeline ? 400 : 160) + m.p * 256,
    `running ${o.protocol} on ${messages} messages of ${m.p} nodes`,
    ctx.maxMemory,
    { file: input },
  );
  const simNet = networkFlags(o, m.p, machine, ctx.maxMemory);
  const r = withProgress(ctx.io.interactive, "simulate", "messages", (progress) =>
    runProtocol(
      m,
      machine,
      flagRequest(o, {
        seed,
        ...(o.inquiry !== undefined ? { inquiry: numberOption("inquiry", o.inquiry) } : {}),
        ...(simNet !== null ? { network: simNet } : {}),
        timeline: wantTimeline,
        progress,
      }) as ProtocolRunRequest,
    ),
  );
  const json = {
    format: "commplan.simulation/v1",
    protocol: r.protocol,
    machine: r.machine,
    topology: r.fabric,
    p: m.p,
    makespan: r.makespan,
    generateRecvTime: r.generateRecvTime,
    inquiries: r.inquiries,
    totalWait: r.totalWait,
    fnc: r.fnc,
    nodes: perNode(r.nodes),
    ...(r.network ? { network: networkJson(r.network) } : {}),
  };
  const text =
    `${r.protocol} on ${r.machine}, P = ${m.p}, ${r.network ? `network ${oneLine(r.network.name)}` : r.fabric}: makespan ${fmt(r.makespan)} us` +
    (r.generateRecvTime > 0 ? ` (Generate_Recv ${fmt(r.generateRecvTime)} us)` : "") +
    `, contention wait ${fmt(r.totalWait)} us, f_nc ${fmt(r.fnc)}` +
    (r.protocol === "drs-n" ? `, ${fmt(r.inquiries)} inquiries` : "") +
    "\n" +
    (r.network ? networkText(r.network, r.makespan) : "") +
    nodeTable(r.nodes, ctx.io.stdoutColumns);
  const network = r.network && simNet !== null ? { stats: r.network, routes: simNet.routes } : null;
  const title = `commplan simulate: ${oneLine(r.protocol)} protocol, P = ${m.p} on ${r.machine}, ${r.network ? `network ${r.network.name}` : r.fabric}`;
  return {
    timeline: r.timeline,
    makespan: r.makespan,
    network,
    json,
    text,
    realised: r.realised,
    title,
    elementBytes: m.elementBytes,
  };
}

/**
 * The intervals a replay of `s` records at least: every transfer between two nodes ends with a send interval at its
 * source and a receive interval at its destination (replay-blocking.ts, replay-nonblocking.ts, ocpc-step.ts), each
 * recorded when it lasts (TimelineRecorder.add drops an empty one). Without --network, a transfer moves its bytes (its
 * elements and the envelope) at t_d per byte, so it lasts when those are above 0 and t_d > 0. With --network the
 * links set the time: 0 (no bound claimed; the count is checked after the run, before any output is written).
 */
function leastIntervals(s: Schedule, machine: MachineModel, network: boolean): number {
  if (network || !(machine.td > 0)) return 0;
  const envelope = machine.envelope ?? 0;
  let n = 0;
  for (let x = 0; x < s.transferCount; x++)
    if (s.src[x] !== s.dst[x] && s.size[x]! * s.elementBytes + envelope > 0) n += 2;
  return n;
}

/** Replays the schedule file `input`. */
async function runReplayFlags(
  input: string,
  o: SimulateFlags,
  machine: MachineModel,
  seed: number,
  wantTimeline: boolean,
  ctx: CliContext,
): Promise<RunOutput> {
  const mode = (o.mode ?? "blocking") as SimMode;
  const m = o.matrix !== undefined ? readMatrixFile(o.matrix, matrixReadOptions(o, ctx.maxMemory)) : null;
  const read = await readScheduleFile(input, { maxMemory: ctx.maxMemory });
  const s = o.data ? payloadIfEmpty(read) : read;
  // as the data mode checks, but naming the two files
  if (m !== null && o.matrix !== undefined)
    checkFilesMatch("simulate", m, s, "data mode: the schedule", { doc: input, matrix: o.matrix });
  if (o.svg !== undefined && !drawsRaster(s.p, o.svgView)) {
    // refused before the replay, which may take long, when the schedule alone shows the chart is too big (the raster
    // view of more than MAX_LANE_ROWS nodes draws any number of intervals)
    const least = leastIntervals(s, machine, o.network !== undefined);
    if (least > MAX_SVG_INTERVALS) throw svgTooBig(o.svg, least, true);
  }
  // per node: the accounts and queues; per transfer: the event queue, times and waits (and a timeline entry); data
  // mode: a holder per element
  const stats = m === null ? null : matrixStats(m);
  const elements = stats === null ? 0 : stats.networkTotal + stats.selfTotal;
  checkMemory(
    "simulate",
    // the step receive order adds each transfer's step, two list slots and flags (recv-order.ts)
    // without stage barriers: each transfer's stage (ComposeGates), for the replay and the f_lc replay
    scheduleWorkBytes(
      s,
      256,
      64,
      (wantTimeline ? 160 : 64) + (o.recvOrder === "step" ? 24 : 0) + (o.stageBarriers === false ? 8 : 0),
    ) +
      (m === null ? 0 : matrixBytes(m)) +
      (o.data && m !== null ? elements * 4 + matrixBytes(m) : 0),
    `simulating ${s.transferCount} transfers on ${s.p} nodes`,
    ctx.maxMemory,
    { file: input },
  );
  const simNet = networkFlags(o, s.p, machine, ctx.maxMemory);
  const r = withProgress(ctx.io.interactive, "simulate", "transfers", (progress) =>
    simulateSchedule(
      s,
      machine,
      flagRequest(o, {
        ...(o.ports !== undefined ? { ports: portsOption(o.ports, { command: "simulate", ...SIMULATOR_PORTS }) } : {}),
        ...(o.buffers !== undefined ? { sendBuffers: Number(o.buffers) } : {}),
        ...(simNet !== null ? { network: simNet } : {}),
        data: o.data ? m : undefined,
        timeline: wantTimeline,
        seed,
        progress,
      }) as ReplayRequest,
    ),
  );
  const analytic = scheduleCost(s, machine, mode).total;
  const json = {
    format: "commplan.simulation/v1",
    algorithm: s.algorithm,
    machine: r.machine,
    p: s.p,
    mode: r.mode,
    lockstep: r.lockstep,
    topology: r.fabric,
    ports: r.ports,
    sendWaits: r.sendWaits,
    sendBuffers: r.sendBuffers,
    recvOrder: r.recvOrder,
    stageBarriers: r.stageBarriers,
    envelope: machine.envelope ?? 0,
    barrier: stageBarrier(machine, s.p),
    makespan: r.makespan,
    analytic,
    totalWait: r.totalWait,
    lmax: r.lmax,
    fnc: r.fnc,
    events: r.events,
    collisions: r.collisions,
    data:
      r.dataFailures === null
        ? null
        : { ok: r.dataFailureCount === 0, failures: r.dataFailureCount, first: r.dataFailures },
    nodes: perNode(r.nodes),
    ...(r.network ? { network: networkJson(r.network) } : {}),
  };
  let text =
    `${oneLine(s.algorithm)} on ${r.machine}, P = ${s.p}, ${r.mode}${r.lockstep ? " lock-step" : ""} (send waits: ${r.sendWaits}${r.recvOrder === "step" ? ", receives in step order" : ""}${r.stageBarriers ? "" : ", no stage barriers"}${r.sendBuffers !== null ? `, ${r.sendBuffers} send buffer${r.sendBuffers === 1 ? "" : "s"}` : ""}), ${r.network ? `network ${oneLine(r.network.name)}` : r.fabric}: makespan ${fmt(r.makespan)} us (analytic ${fmt(analytic)} us)\n` +
    `contention wait ${fmt(r.totalWait)} us in total, f_nc ${fmt(r.fnc)}, L_max ${fmt(r.lmax)} bytes, ${fmt(r.events)} events` +
    (r.fabric === "ocpc" ? `, ${fmt(r.collisions)} collisions` : "") +
    "\n" +
    (r.network ? networkText(r.network, r.makespan) : "") +
    nodeTable(r.nodes, ctx.io.stdoutColumns);
  if (r.dataFailures !== null) {
    if (r.dataFailureCount === 0) text += "data: every node holds exactly its elements\n";
    else
      text +=
        `data: ${counted(r.dataFailureCount, "failure", "failures")}:\n` +
        r.dataFailures.map((f) => `  ${f}\n`).join("");
  }
  if (r.dataFailureCount > 0) ctx.exitCode = 1;
  const network = r.network && simNet !== null ? { stats: r.network, routes: simNet.routes } : null;
  const title = `commplan simulate: ${oneLine(s.algorithm)}, P = ${s.p}, ${r.mode}${r.lockstep ? " lock-step" : ""} on ${r.machine}, ${r.network ? `network ${r.network.name}` : r.fabric}`;
  return { timeline: r.timeline, makespan: r.makespan, network, json, text, title, elementBytes: s.elementBytes };
}

const BARRIER_HELP =
  "cost of a stage barrier in us (default: the machine's, 2 T_s for every preset; 'commplan machines --json' lists it)";
const ENVELOPE_HELP = "bytes added to every network message, e.g. 16 as SMPI (default 0: no machine preset adds one)";

/**
 * --topology's value, one of FABRICS (the node topologies); a network (a generator spec of 'commplan topologies', such
 * as fat-tree:k=8, or a topology JSON file) is refused with the option that takes it, --network.
 */
function fabricOption(value: string): string {
  if ((FABRICS as readonly string[]).includes(value)) return value;
  const network = TOPOLOGY_GENERATORS.some((g) => g.name === value.split(":")[0]) || value.endsWith(".json");
  throw new InvalidArgumentError(
    `Allowed choices are ${FABRICS.join(", ")}.${network ? ` A network is given with --network ${value}.` : ""}`,
  );
}

/** Registers `simulate`. */
export function registerSimulate(program: Command, ctx: CliContext): void {
  program
    .command("simulate")
    .argument(
      "[input]",
      "schedule file, JSON or Arrow (or, with --protocol or --library, a matrix file); - for stdin (JSON)",
    )
    .description(
      "replay a schedule on the event-driven simulated machine (or, with --protocol async or drs-n, run a run-time protocol of 003 (AC fig. 2, DRS_N fig. 5) on a matrix): makespan, per-node times, node-contention factor, timeline; with --network, link contention and the hottest links. With --program: replay a lowered program as SMPI runs it (makespan and per-rank finish times); with --library: MPI_Alltoallv of a matrix as an SMPI algorithm runs it",
    )
    .option(
      "--machine <name>",
      `machine model (see 'commplan machines'); required, but with --program or --library it defaults to ${MACHINE_OF_RUNTIME_HELP}`,
    )
    .addOption(new Option("--mode <mode>", "blocking or nonblocking (default blocking)").choices(SIM_MODES))
    .option("--lockstep", "a barrier after every step (000 fig. 3)")
    .option("--ports <k>", "send and receive ports per node (default: the machine's)")
    .addOption(
      new Option(
        "--topology <name>",
        `node topology: ${FABRICS.join(", ")} (default: the machine's, else flat); ocpc needs --lockstep and blocking mode; --protocol takes flat or cm5-fat-tree; a network of 'commplan topologies' is --network`,
      )
        .choices(FABRICS)
        .argParser(fabricOption),
    )
    .addOption(
      new Option("--buffers <n>", "nonblocking mode: send buffers per node, 1 single or 2 dual (default 2)").choices([
        "1",
        "2",
      ]),
    )
    .addOption(
      new Option(
        "--send-waits <rule>",
        "nonblocking mode: what a send waits for within its stage: data (only the receives that bring what it forwards; default) or steps (every receive of earlier steps)",
      ).choices(SEND_WAITS),
    )
    .addOption(
      new Option(
        "--recv-order <order>",
        "which waiting message a free receive port takes: arrival (first come, first served; default) or step (a node takes one step's messages at a time, as an MPI program posting receives round by round)",
      ).choices(RECV_ORDERS),
    )
    .addOption(
      networkOption(
        "replay on a network with link contention, max-min fair sharing (it replaces the node topology, which must be flat)",
      ),
    )
    .addOption(portSharingOption())
    .option(
      "--link-svg <file>",
      "with --network: write the link load as SVG (a heat map from node to node, or the busiest links)",
    )
    .option(
      "--no-link-factor",
      "with --network: skip the link-contention factor f_lc, and so its second replay (with an infinite-bandwidth core), which the makespan does not need",
    )
    .option(
      "--no-stage-barriers",
      "run the stages as one: a node goes on into the next stage as soon as its own steps allow, as a lowered program runs (no barrier; in blocking mode each node composes when it reaches a stage). Refused with --lockstep and --data; in nonblocking mode with a rearranging stage on a machine with t_m > 0 (every preset), and with --send-waits data (the default there) on a plan of several stages without --payload",
    )
    .option("--barrier <us>", BARRIER_HELP)
    .option("--envelope <bytes>", ENVELOPE_HELP)
    .option("--data", "data mode: move element tags along the payload chunks and check delivery (needs --matrix)")
    .option("-m, --matrix <file>", "with --data: the matrix the schedule was planned for")
    .option("--element-bytes <n>", `with --protocol, --library or --matrix: ${ELEMENT_BYTES_HELP}`)
    .option("--json", "print the result as JSON")
    .option("--trace <file>", "write the timeline as Chrome trace JSON (Perfetto)")
    .option("--svg <file>", "write the timeline as an SVG Gantt chart")
    .addOption(
      new Option(
        "--svg-view <view>",
        `the SVG Gantt chart: lanes (a row per node, a bar per interval), raster (a thin row per node, each cell the kind that fills most of it: any number of intervals) or auto (lanes up to ${MAX_LANE_ROWS} nodes; the default)`,
      ).choices(GANTT_VIEWS),
    )
    .addOption(
      new Option("--protocol <name>", `run a run-time protocol on the matrix <input>: ${PROTOCOLS.join(", ")}`).choices(
        PROTOCOLS,
      ),
    )
    .option("--realised <file>", "with --protocol: write the realised trace as a timed schedule JSON")
    .option("--seed <n>", "seed of random choices (protocol send orders, OCPC backoff) (default 1)")
    .option("--generate-recv", "with --protocol: run Generate_Recv (003 fig. 1) first")
    .option("--busy-measure", "drs-n: 000's first improvement (busy destinations say for how long)")
    .option("--early-go-ahead", "drs-n: 000's second improvement (go-ahead when the current receive is about to end)")
    .option("--inquiry <us>", "drs-n: time of one test-and-set inquiry in us (default 2 T_s, at least 0.001)")
    .addOption(PROGRAM_OPTION)
    .addOption(LIBRARY_OPTION)
    .addOption(RUNTIME_OPTION)
    .addOption(freeCopiesOption())
    .action((arg: string | undefined, o: SimulateFlags) => runSimulate(arg, o, ctx));
}

/** What `simulate` does with its flags: a program replay, a protocol run or a schedule replay, and their outputs. */
async function runSimulate(arg: string | undefined, o: SimulateFlags, ctx: CliContext): Promise<void> {
  if ((await runLibraryFlags(arg, o, ctx)) || (await runProgramFlags(arg, o, ctx))) return;
  const input = arg!;
  checkFlags(o);
  const outputs = [
    ["--trace", o.trace],
    ["--svg", o.svg],
    ["--realised", o.realised],
    ["--link-svg", o.linkSvg],
  ] as const;
  await refuseOutputOntoInput("simulate", [input, o.matrix, networkInputFile(o)], outputs);
  // every output's directory takes a new file, before the run: a bad one fails now, with nothing written
  await checkOutputTargets("simulate", outputs);
  const preset = machineOfFlags("simulate", o, MACHINE_NEEDED);
  const barrier = o.barrier !== undefined ? numberOption("barrier", o.barrier) : preset.barrier;
  if (!(barrier >= 0)) throw bad("barrier", `--barrier must be a time >= 0 in us, got '${o.barrier}'`);
  const envelope =
    o.envelope !== undefined ? intOption("envelope", o.envelope, 0, MAX_ENVELOPE) : (preset.envelope ?? 0);
  const machine: MachineModel = { ...preset, barrier, envelope };
  const seed = intOption("seed", o.seed ?? "1", 0, MAX_SEED);
  const wantTimeline = wantsTimeline(o);
  const out =
    o.protocol !== undefined
      ? await runProtocolFlags(input, o, machine, seed, wantTimeline, ctx)
      : await runReplayFlags(input, o, machine, seed, wantTimeline, ctx);
  const docs = timelineDocuments(o, out.timeline, out.makespan, machine.name, out.title, out.elementBytes);
  const realised = out.realised;
  if (o.realised !== undefined && realised !== undefined)
    docs.push({ target: o.realised, pieces: [scheduleToJsonText(realised)] });
  const net = out.network;
  if (o.linkSvg !== undefined && net !== null)
    docs.push({
      target: o.linkSvg,
      pieces: (function* () {
        yield linkLoadSvg(linkLoadEntries(net.stats.busy, net.routes, out.makespan), {
          title: `link load: ${net.routes.name} on ${machine.name}`,
        });
      })(),
    });
  // all or none: each is filled as a temporary file, then all are renamed into place (writeOutputs)
  await writeOutputs("simulate", docs, { stdout: ctx.stdout });
  ctx.io.out(o.json ? JSON.stringify(out.json, null, 2) + "\n" : out.text);
}
