/**
 * runCandidates: every applicable planner run on a matrix and measured (steps, start-ups, traffic, scratch, modelled
 * and simulated time, lower bound).
 */
import { fail } from "../model/errors.js";
import { checkMachine } from "../model/machine.js";
import { checkMaxMemory } from "../model/memory-budget.js";
import { checkBooleanOption, checkOptionKeys, checkOptionsObject, describeValue } from "../model/option-checks.js";
import { checkSeed } from "../model/param-spec.js";
import { MAX_SIM_PORTS } from "../machines/sim/request.js";
import {
  bestBound,
  busiestLinkBound,
  hostLinkBound,
  lowerBounds,
  scheduleClass,
  type LowerBound,
  type ScheduleClass,
} from "../bounds/index.js";
import { lowerSchedule } from "../lower/lower-schedule.js";
import { relayPeak } from "../lower/relay-peak.js";
import { scheduleCost } from "../machines/cost-model.js";
import { simulateSchedule, type SimResult } from "../machines/sim/simulate.js";
import { checkProgress } from "../model/progress.js";
import type { PortSharing, SimMode } from "../machines/sim/options.js";
import type { NetworkRoutes } from "../model/network.js";
import { checkFlatForNetwork, networkOptions } from "../machines/sim/network-options.js";
import { isCommplanError } from "../model/errors.js";
import type { MachineModel } from "../model/machine.js";
import { checkMatrixArg, type CommMatrix } from "../model/matrix.js";
import { matrixStats } from "../model/matrix-stats.js";
import type { Schedule } from "../model/schedule.js";
import { checkPlanners, PLANNERS, resolvePlanOptions } from "../planner/registry.js";
import type { Planner } from "../planner/types.js";
import { predictMakespan } from "../auto/index.js";
import type { RuntimeModel } from "../machines/runtime/runtime-model.js";

/** What to run and how to measure. */
export interface CandidateRequest {
  readonly machine: MachineModel;
  /** Seed of the planners and the simulator (default 1). */
  readonly seed?: number;
  /** Simulated machine mode (default blocking). */
  readonly mode?: SimMode;
  /** Send and receive ports on the simulated machine (default the machine's). */
  readonly ports?: number;
  /** The planners to try (default every registered one). */
  readonly planners?: readonly Planner[];
  /** Plan with payload chunks (default true: needed for the peak scratch buffer and the nonblocking send rule). */
  readonly payload?: boolean;
  /** Keep each candidate's simulation result with its timeline (default false). */
  readonly timeline?: boolean;
  /** Called after each planner with (planners done, planners in all, its name). */
  readonly progress?: ((done: number, total: number, algorithm: string) => void) | null;
  /**
   * Simulate on this network with link contention (rank r on host r; the machine's fabric must be flat). Default
   * none.
   */
  readonly network?: NetworkRoutes | null;
  /** With a network: how a node's ports serve concurrent messages (default serial). */
  readonly portSharing?: PortSharing;
  /** Bytes each plan and lowering may allocate (PlanOptions.maxMemory); default: half the memory, <= 32 GiB. */
  readonly maxMemory?: number;
  /**
   * Also time every plan on this MPI runtime (a runtime model or its name): its lowered program replayed as the runtime
   * runs it, as plan -a auto --runtime predicts its finalists (compareMatrix; on `network` or the machine's flat
   * cluster), and rank by that time. Default none.
   */
  readonly runtime?: RuntimeModel | string | null;
}

/**
 * What is measured of one planner's plan (times in us, sizes in bytes unless named elements); a compare row carries the
 * same.
 */
export interface CandidateMeasures {
  readonly algorithm: string;
  readonly stages: number;
  readonly steps: number;
  readonly transfers: number;
  /** Sum over stages of the most network messages one node sends (the cost model's start-ups). */
  readonly startups: number;
  /** The longest network message (elements). */
  readonly longestElements: number;
  /** Bytes moved over the network, relays counted at every hop. */
  readonly trafficBytes: number;
  /** Most network bytes one node sends or receives. */
  readonly busiestNodeBytes: number;
  /**
   * Most relayed elements one node holds at once (lowering's scratch peak); 0 for direct plans, null when not measured
   * (no payload).
   */
  readonly peakBufferElements: number | null;
  readonly blockingUs: number;
  readonly nonblockingUs: number;
  readonly simulatedUs: number;
  /**
   * What the MPI library does, for a planner that mirrors it (traits.mpi): which library and algorithm, whether it is
   * MPI_Alltoallv's default, and its makespan (us) as the library runs it (nonblocking, auto's predictMakespan);
   * null for commplan's own plans.
   */
  readonly mpi: { readonly does: string; readonly isDefault: boolean; readonly libraryUs: number } | null;
}

/** One planner's plan and its measurements. */
export interface Candidate extends CandidateMeasures {
  readonly schedule: Schedule;
  readonly cls: ScheduleClass;
  /** The simulation (with its timeline when asked for). */
  readonly sim: SimResult;
}

/** The outcome of runCandidates. */
export interface CandidateRun {
  readonly candidates: readonly Candidate[];
  readonly skipped: readonly { readonly algorithm: string; readonly reason: string }[];
  readonly mode: SimMode;
  readonly ports: number;
  /** Bounds of the simulated target (sim-<mode>), every scope. */
  readonly simBounds: readonly LowerBound[];
  /**
   * The best bound valid for every schedule on the simulated machine (the ratio's denominator); null without traffic.
   */
  readonly bound: LowerBound | null;
}

/**
 * The bounds of the simulated machine on a network (docs/bounds.md): the node bounds price bytes
 * at t_d, which a network replaces by its links, so only the link bounds hold there: the host
 * links for every schedule, the busiest link for direct ones.
 */
function networkBounds(m: CommMatrix, net: NetworkRoutes, machine: MachineModel, mode: SimMode): LowerBound[] {
  const target = `sim-${mode}` as const;
  // every network message starts up before its first byte flows: T_s blocking, T_s,send nonblocking
  const host = hostLinkBound(m, net, machine.barrier, mode === "blocking" ? machine.ts : machine.tsSend);
  const link = busiestLinkBound(m, net, machine.barrier);
  return [
    { name: host.name, target, scope: host.scope, contentionFree: false, value: host.value, formula: host.formula },
    { name: link.name, target, scope: link.scope, contentionFree: false, value: link.value, formula: link.formula },
  ];
}

/**
 * The bounds of the simulated target in `mode` (sim-<mode>, every scope): the network's link bounds with one, else the
 * machine's node bounds with `ports` (the machine's fabric gives the per-pair t_d).
 */
export function simulatedBounds(m: CommMatrix, req: CandidateRequest, mode: SimMode, ports: number): LowerBound[] {
  return req.network
    ? networkBounds(m, req.network, req.machine, mode)
    : lowerBounds(m, `sim-${mode}`, { machine: req.machine, ports });
}

/** Network elements of m (off the diagonal). */
function networkElements(m: CommMatrix): number {
  return matrixStats(m).networkTotal;
}

/** The keys of a CandidateRequest. */
const CANDIDATE_REQUEST_KEYS: readonly string[] = Object.freeze([
  "machine",
  "seed",
  "mode",
  "ports",
  "planners",
  "payload",
  "timeline",
  "progress",
  "network",
  "portSharing",
  "maxMemory",
  "runtime",
]);

/**
 * The simulated machine's ports, checked here as compare's (not under the lower bounds' or simulate's name, and
 * before every planner would be skipped for it): an integer in 1..MAX_SIM_PORTS, the option's or the machine's.
 */
function checkPorts(ports: unknown, fromMachine: boolean): number {
  if (typeof ports === "number" && Number.isInteger(ports) && ports >= 1 && ports <= MAX_SIM_PORTS) return ports;
  const field = fromMachine ? "machine.ports" : "ports";
  throw fail(
    "compare",
    "BAD_OPTION",
    `${field} must be an integer in 1..${MAX_SIM_PORTS} (the simulated machine's ports per node), got ${describeValue(ports)}`,
    { field },
  );
}

/** Refuses a request that is not an options object (undefined included), naming `options`. */
export function checkCandidateRequestObject(req: CandidateRequest): void {
  checkOptionsObject("compare", "options", req);
  if (req === undefined)
    throw fail("compare", "BAD_OPTION", "compare needs options: { machine, ... }", { field: "options" });
}

/**
 * Plans m with every applicable planner (a planner that refuses the matrix is skipped with its reason) and measures
 * each plan. Deterministic for a seed.
 */
export function runCandidates(m: CommMatrix, req: CandidateRequest): CandidateRun {
  checkCandidateRequestObject(req);
  checkOptionKeys("compare", req, CANDIDATE_REQUEST_KEYS);
  checkMatrixArg("compare", m);
  const { machine } = req;
  checkMachine(machine, "compare");
  const progress = checkProgress(req.progress, "compare");
  const seed = checkSeed("compare", req.seed ?? 1);
  checkBooleanOption("compare", "payload", req.payload);
  checkMaxMemory("compare", req.maxMemory);
  const mode = req.mode ?? "blocking";
  if (mode !== "blocking" && mode !== "nonblocking")
    throw fail("compare", "BAD_OPTION", `unknown mode '${String(mode)}'; known: blocking, nonblocking`, {
      field: "mode",
    });
  const ports = checkPorts(req.ports ?? machine.ports, req.ports === undefined);
  checkPlanners("compare", req.planners);
  const planners = req.planners ?? PLANNERS;
  const elements = networkElements(m);
  checkFlatForNetwork(machine, req.network, "the option network");
  const simBounds = simulatedBounds(m, req, mode, ports);
  const all = bestBound(simBounds, { direct: false, contentionFree: false });
  const candidates: Candidate[] = [];
  const skipped: { algorithm: string; reason: string }[] = [];
  planners.forEach((planner, k) => {
    const limit = planner.traits.elementLimit;
    if (limit !== undefined && elements > limit)
      skipped.push({
        algorithm: planner.name,
        reason: `moves every element as a transfer; the matrix has ${elements} network elements (at most ${limit})`,
      });
    else {
      try {
        candidates.push(measure(m, planner, req, seed, mode, ports));
      } catch (e) {
        if (!isCommplanError(e)) throw e;
        skipped.push({ algorithm: planner.name, reason: e.message });
      }
    }
    progress?.(k + 1, planners.length, planner.name);
  });
  return { candidates, skipped, mode, ports, simBounds, bound: all !== null && all.value > 0 ? all : null };
}

/** Plans with one planner and measures the plan. */
function measure(
  m: CommMatrix,
  planner: Planner,
  req: CandidateRequest,
  seed: number,
  mode: SimMode,
  ports: number,
): Candidate {
  const { machine } = req;
  const payload = req.payload ?? true;
  const budget = req.maxMemory === undefined ? {} : { maxMemory: req.maxMemory };
  const s = planner.plan(m, resolvePlanOptions(planner, { payload, seed, machine, ...budget }));
  const blocking = scheduleCost(s, machine, "blocking");
  const nonblocking = scheduleCost(s, machine, "nonblocking");
  const sim = simulateSchedule(s, machine, {
    mode,
    ports,
    seed,
    timeline: req.timeline ?? false,
    ...networkOptions(req),
  });
  let longest = 0,
    traffic = 0;
  for (let x = 0; x < s.transferCount; x++) {
    if (s.src[x] === s.dst[x]) continue;
    const z = s.size[x]!;
    if (z > longest) longest = z;
    traffic += z * s.elementBytes;
  }
  let busiest = 0;
  for (let v = 0; v < s.p; v++) busiest = Math.max(busiest, sim.nodes.sentBytes[v]!, sim.nodes.recvBytes[v]!);
  return {
    algorithm: planner.name,
    schedule: s,
    stages: s.stages.length,
    steps: s.stepCount,
    transfers: s.transferCount,
    startups: blocking.startups,
    longestElements: longest,
    trafficBytes: traffic,
    busiestNodeBytes: busiest,
    peakBufferElements: peakBuffer(m, s, budget),
    blockingUs: blocking.total,
    nonblockingUs: nonblocking.total,
    simulatedUs: sim.makespan,
    mpi: libraryRun(s, planner, req, { mode, seed, ports, makespan: sim.makespan }),
    // one port, whatever `ports`: contentionFree means one message per node and step (docs/bounds.md), the class the
    // cost model's blocking bounds need, not the k-port class
    cls: scheduleClass(m, s),
    sim,
  };
}

/** The row's `mpi` entry: the library's makespan, the plan's own when it was simulated nonblocking already. */
function libraryRun(
  s: Schedule,
  planner: Planner,
  req: CandidateRequest,
  o: { readonly mode: SimMode; readonly seed: number; readonly ports: number; readonly makespan: number },
): CandidateMeasures["mpi"] {
  const mpi = planner.traits.mpi;
  if (mpi === undefined) return null;
  const libraryUs =
    o.mode === "nonblocking"
      ? o.makespan
      : predictMakespan(s, req.machine, {
          mode: o.mode,
          seed: o.seed,
          ports: o.ports,
          simNet: networkOptions(req),
          asLibrary: true,
          progress: null,
        });
  return { does: mpi.does, isDefault: mpi.isDefault, libraryUs };
}

/**
 * The most relayed elements one rank holds at once (lowering's scratch peak: from the chunks when relayPeak can, else
 * by lowering the plan); null without payloads or when the plan cannot be lowered.
 */
function peakBuffer(m: CommMatrix, s: Schedule, budget: { readonly maxMemory?: number }): number | null {
  if (s.chunks === null) return null;
  try {
    const peak = relayPeak(s) ?? lowerSchedule(m, s, budget).scratchPeak;
    let most = 0;
    for (let v = 0; v < peak.length; v++) most = Math.max(most, peak[v]!);
    return most;
  } catch (e) {
    if (!isCommplanError(e)) throw e;
    return null;
  }
}
