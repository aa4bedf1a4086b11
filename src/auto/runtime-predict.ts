/**
 * auto on today's machine: a finalist's time as an MPI runtime runs its lowered program (the program replay of
 * src/machines/program-replay), in the variant that runs it fastest; MPI's own plans as the library runs them.
 */
import { fail, isCommplanError } from "../model/errors.js";
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { NetworkRoutes } from "../model/network.js";
import type { Program, ProgramVariant } from "../model/program.js";
import type { Schedule } from "../model/schedule.js";
import { dataflowProgram, lowerSchedule } from "../lower/index.js";
import { replayProgram } from "../machines/program-replay/replay-program.js";
import { replayLibraryAlltoallv } from "../machines/program-replay/library-alltoallv.js";
import { findRuntimeModel, type RuntimeModel } from "../machines/runtime/runtime-model.js";
import { roundsLowerBound, type RuntimeTarget } from "./runtime-bound.js";

export type { RuntimeTarget } from "./runtime-bound.js";
import { beyond } from "./rule-out.js";

/** A finalist's predicted time on the runtime and the program variant that gives it. */
export interface RuntimePrediction {
  /** Makespan (us) of the lowered program replayed as the runtime runs it. */
  readonly makespan: number;
  readonly variant: ProgramVariant;
}

/** The runtime model named or given (one-line error naming the known ones for an unknown name). */
export function runtimeTarget(
  runtime: RuntimeModel | string,
  network: NetworkRoutes | null | undefined,
): RuntimeTarget {
  const model = typeof runtime === "string" ? findRuntimeModel(runtime) : runtime;
  if (model === null || typeof model !== "object" || typeof model.name !== "string")
    throw fail("auto", "BAD_OPTION", "runtime must be a runtime model or its name", { field: "runtime" });
  return { runtime: model, network: network ?? null };
}

/**
 * The time of `s` on the target: lowered once (nonblocking) and replayed as its dataflow variant (posted from ready
 * queues, as the executor runs it) and as that program, unless its rounds' lower bound (roundsLowerBound) is above the
 * dataflow time (`exhaustive`: replayed whatever its bound); the faster. A message-level plan that relays cannot be
 * lowered (only a payload plan says what a relay forwards): `payload` plans it again with payload chunks; when its
 * planner refuses that, the answer is why (a string), and the plan has no time here.
 */
export function predictOnRuntime(
  m: CommMatrix,
  s: Schedule,
  machine: MachineModel,
  target: RuntimeTarget,
  payload: () => { readonly schedule: Schedule | null; readonly error: string },
  exhaustive = false,
): RuntimePrediction | string {
  let nonblocking = lowerDirect(m, s);
  if (nonblocking === null) {
    const again = payload();
    if (again.schedule === null)
      return `${s.algorithm} relays and cannot be planned with payload chunks${again.error === "" ? "" : ` (${again.error})`}`;
    nonblocking = lowerSchedule(m, again.schedule).program;
  }
  const replay = (program: Program): number =>
    replayProgram(program, {
      machine,
      runtime: target.runtime,
      ...(target.network === null ? {} : { network: target.network }),
    }).makespanUs;
  const df = replay(dataflowProgram(nonblocking));
  // the nonblocking program is replayed only where its bound leaves it a chance to be faster (runtime-bound.ts);
  // ties go to dataflow: it never waits for a round it does not need
  if (!exhaustive && beyond(roundsLowerBound(nonblocking, machine, target), df))
    return { makespan: df, variant: "dataflow" };
  const nb = replay(nonblocking);
  return df <= nb ? { makespan: df, variant: "dataflow" } : { makespan: nb, variant: "nonblocking" };
}

/** The nonblocking program of a message-level plan, or null when it relays (the lowering refuses it). */
function lowerDirect(m: CommMatrix, s: Schedule): Program | null {
  try {
    return lowerSchedule(m, s).program;
  } catch (e) {
    if (isCommplanError(e) && s.chunks === null) return null;
    throw e;
  }
}

/**
 * MPI_Alltoallv's default on the target as the library runs it: every pair's message posted at once, empty ones
 * included (each costs its overheads), then a wait for all (replayLibraryAlltoallv); makespan in us.
 */
export function predictLibraryDefault(m: CommMatrix, machine: MachineModel, target: RuntimeTarget): number {
  return replayLibraryAlltoallv(m, {
    machine,
    runtime: target.runtime,
    ...(target.network === null ? {} : { network: target.network }),
  }).makespanUs;
}
