/**
 * auto on today's machine: a finalist's time as an MPI runtime runs its lowered program (the program replay of
 * src/machines/program-replay), in the variant that runs it fastest; MPI's own plans as the library runs them.
 */
import { fail, isCommplanError } from "../model/errors.js";
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { NetworkRoutes } from "../model/network.js";
import type { ProgramVariant } from "../model/program.js";
import type { Schedule } from "../model/schedule.js";
import { lowerSchedule } from "../lower/index.js";
import { replayProgram } from "../machines/program-replay/replay-program.js";
import { replayLibraryAlltoallv } from "../machines/program-replay/library-alltoallv.js";
import { findRuntimeModel, type RuntimeModel } from "../machines/runtime/runtime-model.js";

/** The variants a plan may be run in on a runtime, in tie-break order (the first of equal times wins). */
export const RUNTIME_VARIANTS: readonly ProgramVariant[] = Object.freeze(["dataflow", "nonblocking"]);

/** A finalist's predicted time on the runtime and the program variant that gives it. */
export interface RuntimePrediction {
  /** Makespan (us) of the lowered program replayed as the runtime runs it. */
  readonly makespan: number;
  readonly variant: ProgramVariant;
}

/** What auto predicts with on a runtime. */
export interface RuntimeTarget {
  readonly runtime: RuntimeModel;
  /** The network (rank r on host r); null: the machine's flat cluster. */
  readonly network: NetworkRoutes | null;
}

/** The runtime model named or given (one-line error naming the known ones for an unknown name). */
export function runtimeTarget(
  runtime: RuntimeModel | string,
  network: NetworkRoutes | null | undefined,
): RuntimeTarget {
  const model = typeof runtime === "string" ? findRuntimeModel(runtime) : runtime;
  if (model === null || typeof model !== "object" || typeof model.name !== "string")
    throw fail("compare", "BAD_OPTION", "auto: runtime must be a runtime model or its name", { field: "runtime" });
  return { runtime: model, network: network ?? null };
}

/**
 * The time of `s` on the target: lowered in every variant of RUNTIME_VARIANTS (only nonblocking `asLibrary`: the
 * library posts every round at once and waits) and replayed; the fastest. A message-level plan that relays cannot be
 * lowered (only a payload plan says what a relay forwards): `payload` plans it again with payload chunks.
 */
export function predictOnRuntime(
  m: CommMatrix,
  s: Schedule,
  machine: MachineModel,
  target: RuntimeTarget,
  asLibrary: boolean,
  payload: () => Schedule | null,
): RuntimePrediction {
  let lowerable = s;
  let best: RuntimePrediction | null = null;
  for (const variant of asLibrary ? (["nonblocking"] as const) : RUNTIME_VARIANTS) {
    let program;
    try {
      program = lowerSchedule(m, lowerable, { variant }).program;
    } catch (e) {
      if (!isCommplanError(e) || lowerable.chunks !== null) throw e;
      const again = payload();
      if (again === null) throw e;
      lowerable = again;
      // a relaying plan runs as its nonblocking program: the replay of a dataflow program with relays (posted in
      // order, each waiting for its own dependencies) was measured up to 1.6x faster than the executor under SMPI
      // (docs/auto.md), so its dataflow prediction would pick it where it loses
      if (variant === "dataflow") continue;
      program = lowerSchedule(m, lowerable, { variant }).program;
    }
    const { makespanUs: makespan } = replayProgram(program, {
      machine,
      runtime: target.runtime,
      ...(target.network === null ? {} : { network: target.network }),
    });
    if (best === null || makespan < best.makespan) best = { makespan, variant };
  }
  return best!;
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
