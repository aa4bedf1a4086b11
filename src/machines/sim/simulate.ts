/** simulateSchedule: replays a Schedule on the simulated machine and measures it (004 sec 2.3, eqs 3-4, figs 2-3). */
import { fail } from "../../model/errors.js";
import { stageBarrier, type MachineModel } from "../../model/machine.js";
import type { Schedule } from "../../model/schedule.js";
import { DataTracker } from "./data-tracker.js";
import { NodeAccounts } from "./node-accounts.js";
import type { SendWaits, SimMode, SimOptions } from "./options.js";
import { replayRequestOf, type SimRequest } from "./flat-request.js";
import { checkRequestObject, resolveReplay, type ReplayRequest } from "./request.js";
import type { RecvOrder } from "./recv-order.js";
import { ComposeGates } from "./compose-gates.js";
import { replayBlocking } from "./replay-blocking.js";
import type { ReplayOutcome } from "./replay-driver.js";
import { replayNonblocking } from "./replay-nonblocking.js";
import { TimelineRecorder, type Timeline } from "./timeline.js";
import { contentionFactor } from "./contention-factor.js";
import { freeCore, linkStats, type SimNetworkStats } from "./link-contention.js";
import { networkCost, type FabricName } from "./fabric.js";
import { checkSchedule } from "../../model/schedule-check.js";

/** Most transfers a simulation accepts (the event arrays are sized by it). */
export const MAX_SIM_TRANSFERS = 50_000_000;

/** Most transfers a run records a timeline for (each gives two or three intervals). */
export const MAX_TIMELINE_TRANSFERS = 2_000_000;

/** Per-node results of a run, one entry per node. */
export interface NodeTimes {
  /** Time with at least one activity (transfer, copy, compose, start-up) under way (us). */
  readonly busy: Float64Array;
  /** Time the node had nothing to do: makespan - busy - wait - stalled, at least 0 (us). */
  readonly idle: Float64Array;
  /**
   * Time held back by the schedule: a send waiting for earlier receives or for a receiver still composing, or a step
   * the schedule stalls it in (us).
   */
  readonly stalled: Float64Array;
  /** Time its ready messages waited for a receive port that another sender held: node contention (us). */
  readonly wait: Float64Array;
  /** Network bytes sent and received. */
  readonly sentBytes: Float64Array;
  readonly recvBytes: Float64Array;
}

/** The outcome of a simulation. */
export interface SimResult {
  readonly machine: string;
  readonly mode: SimMode;
  readonly lockstep: boolean;
  readonly fabric: FabricName;
  readonly ports: number;
  /** What a send waited for within its stage ("steps" in blocking mode). */
  readonly sendWaits: SendWaits;
  /** Which waiting message a free receive port took: arrival (first come, first served) or step (recv-order.ts). */
  readonly recvOrder: RecvOrder;
  /**
   * Whether every stage ended with a barrier on every node (false: the stages ran as one, as a lowered program runs).
   */
  readonly stageBarriers: boolean;
  /** Nonblocking mode: send buffers per node; null in blocking mode (no send buffers). */
  readonly sendBuffers: number | null;
  /** Time from the first barrier to the last completion (us). */
  readonly makespan: number;
  readonly nodes: NodeTimes;
  /** Sum over nodes of the contention wait (us). */
  readonly totalWait: number;
  /** L_max: most network bytes one node sends or receives (004 sec 2.3). */
  readonly lmax: number;
  /**
   * Measured aggregate node-contention factor: max_v (D_v + W_v) / max_v D_v, where D_v is the
   * node's network time (bytes x t_d of each pair, sends or receives, the larger) and W_v its
   * contention wait; 1 exactly when no message waited (004 eqs 3-4; contention-factor.ts).
   */
  readonly fnc: number;
  /** Events the engine processed. */
  readonly events: number;
  /** Realised start and end time of every transfer (us). */
  readonly transferStart: Float64Array;
  readonly transferEnd: Float64Array;
  /** OCPC: attempts that collided and were resent. */
  readonly collisions: number;
  /** Data mode: null when not run; otherwise the failures (empty: every node holds exactly its elements). */
  readonly dataFailures: readonly string[] | null;
  readonly dataFailureCount: number;
  readonly timeline: Timeline;
  /**
   * On a network only: per-link bytes, busy time and peak flows, the hottest links, the link-contention factor
   * (link-contention.ts).
   */
  readonly network?: SimNetworkStats;
}

/**
 * Replays schedule `s` on `machine` (see docs/simulator.md for the conventions); `req` a ReplayRequest or its flat
 * form, by default a blocking, not lock-step replay with the machine's ports on its own fabric (the result says what
 * ran: `mode`, `lockstep`, `ports`, `fabric`). Times are in microseconds (`makespan`, per-node and per-transfer times).
 * Throws a one-line CommplanError: BAD_INPUT when `s` is not a well-formed Schedule, BAD_OPTION for a bad machine, an
 * unknown key of `req` or a field of the other kind of run.
 */
export function simulateSchedule(s: Schedule, machine: MachineModel, req: ReplayRequest | SimRequest = {}): SimResult {
  checkSchedule(s, "simulate");
  checkRequestObject("simulate", req, true);
  return replaySchedule(s, machine, resolveReplay("kind" in req ? req : replayRequestOf(req), machine));
}

/** Replays schedule `s` on `machine` with options already resolved (resolveReplay). */
export function replaySchedule(s: Schedule, machine: MachineModel, o: SimOptions): SimResult {
  if (s.transferCount > MAX_SIM_TRANSFERS)
    throw fail(
      "simulate",
      "BAD_INPUT",
      `the schedule has ${s.transferCount} transfers; the simulator takes at most ${MAX_SIM_TRANSFERS}`,
      { field: "transfers" },
    );
  const p = s.p;
  for (let x = 0; x < s.transferCount; x++) {
    if (s.src[x]! >= p || s.dst[x]! >= p)
      throw fail(
        "simulate",
        "BAD_INPUT",
        `transfer ${x} (${s.src[x]} -> ${s.dst[x]}) names a node outside 0..${p - 1}`,
        { field: `transfers[${x}]` },
      );
    const z = s.size[x]!;
    if (!(z >= 0) || !Number.isFinite(z))
      throw fail("simulate", "BAD_INPUT", `transfer ${x} has size ${z}`, { field: `transfers[${x}].size` });
  }
  if (o.timeline && s.transferCount > MAX_TIMELINE_TRANSFERS) {
    throw fail(
      "simulate",
      "BAD_OPTION",
      `a timeline of ${s.transferCount} transfers is too large (at most ${MAX_TIMELINE_TRANSFERS}); run without a timeline (timeline: false)`,
      { field: "timeline" },
    );
  }
  if (o.network && o.network.hosts < p)
    throw fail(
      "simulate",
      "BAD_OPTION",
      `the network ${o.network.name} has ${o.network.hosts} hosts; the schedule needs ${p} (rank r runs on host r)`,
      { field: "network" },
    );
  const data = o.data ? new DataTracker(o.data, s) : null;
  const acc = new NodeAccounts(p);
  const tl = new TimelineRecorder(p, o.timeline);
  const runs = o.stageBarriers ? s : oneRun(s, machine, o);
  // without stage barriers there is no barrier to charge, and each node composes when it reaches a stage; a single
  // node has no one to wait for: no barrier at P = 1 either, as the cost model charges (docs/cost-model.md)
  const runMachine = o.stageBarriers && stageBarrier(machine, p) > 0 ? machine : { ...machine, barrier: 0 };
  const gates = runs === s || o.mode !== "blocking" ? null : ComposeGates.of(s, machine);
  const run = replay(runs, runMachine, o, acc, tl, data, gates);
  const dataFailures = data ? data.finish() : null;
  const r = measure(s, machine, o, run, acc, tl.build(), dataFailures, data ? data.failureCount : 0);
  if (!o.network || !run.flows) return r;
  if (!o.linkFactor) return { ...r, network: linkStats(run.flows, o.portSharing, r.makespan, null) };
  // f_lc: the same run with an infinite-bandwidth core (only the hosts' own links keep their bandwidth)
  const free = { ...o, network: freeCore(o.network), timeline: false, data: null, progress: null };
  // the gates' per-node stages start over in every run (ReplayDriver.run)
  const freeRun = replay(runs, runMachine, free, new NodeAccounts(p), new TimelineRecorder(p, false), null, gates);
  return { ...r, network: linkStats(run.flows, o.portSharing, r.makespan, freeRun.makespan) };
}

/**
 * The schedule as one stage of all its steps (stageBarriers false): a node's steps then follow one
 * another across the schedule's stage boundaries under the rules of one stage; in blocking mode the
 * ComposeGates charge each stage's compose. Refuses what needs a stage boundary (see
 * SimRequest.stageBarriers).
 */
function oneRun(s: Schedule, machine: MachineModel, o: SimOptions): Schedule {
  if (s.stages.length <= 1) return s;
  // a rearranging stage with transfers composes at a cost when t_m > 0
  const composing = s.stages.find(
    (st) => st.rearrange !== "none" && s.stepStart[st.firstStep + st.stepCount]! > s.stepStart[st.firstStep]!,
  );
  if (composing && machine.tm > 0 && o.mode === "nonblocking")
    throw fail(
      "simulate",
      "BAD_OPTION",
      `stage '${composing.name}' rearranges (t_m = ${machine.tm} us per byte on ${machine.name}): without the stage barriers only blocking mode places each node's compose (when it reaches the stage); keep the barriers in nonblocking mode`,
      { field: "stageBarriers" },
    );
  if (o.mode === "nonblocking" && o.sendWaits === "data" && s.chunks === null)
    throw fail(
      "simulate",
      "BAD_OPTION",
      "sendWaits data on a plan without payload chunks assumes a stage forwards nothing it receives; without the stage barriers a relay could send before its data arrived: give a payload plan (the option payload) or sendWaits steps",
      { field: "stageBarriers" },
    );
  return { ...s, stages: [{ name: "all", rearrange: "none", firstStep: 0, stepCount: s.stepCount }] };
}

function replay(
  s: Schedule,
  machine: MachineModel,
  o: SimOptions,
  acc: NodeAccounts,
  tl: TimelineRecorder,
  data: DataTracker | null,
  gates: ComposeGates | null,
): ReplayOutcome {
  return o.mode === "blocking"
    ? replayBlocking(s, machine, o, acc, tl, data, gates)
    : replayNonblocking(s, machine, o, acc, tl, data);
}

function measure(
  s: Schedule,
  machine: MachineModel,
  o: SimOptions,
  run: ReplayOutcome,
  acc: NodeAccounts,
  timeline: Timeline,
  dataFailures: readonly string[] | null,
  dataFailureCount: number,
): SimResult {
  const p = s.p;
  let totalWait = 0;
  let lmax = 0;
  for (let v = 0; v < p; v++) {
    totalWait += acc.wait[v]!;
    lmax = Math.max(lmax, acc.sentBytes[v]!, acc.recvBytes[v]!);
  }
  const fnc = contentionFactor(s, networkCost(o.fabric, machine), acc.wait);
  return {
    machine: machine.name,
    mode: o.mode,
    lockstep: o.lockstep,
    fabric: o.fabric,
    ports: o.ports,
    sendWaits: o.sendWaits,
    recvOrder: o.recvOrder,
    stageBarriers: o.stageBarriers,
    sendBuffers: o.mode === "nonblocking" ? o.sendBuffers : null,
    makespan: run.makespan,
    nodes: acc.times(run.makespan),
    totalWait,
    lmax,
    fnc,
    events: run.events,
    transferStart: run.start,
    transferEnd: run.end,
    collisions: run.collisions,
    dataFailures,
    dataFailureCount,
    timeline,
  };
}
