/**
 * compare on an MPI runtime (compare --runtime): every plan's lowered program replayed as the runtime runs it, by the
 * function plan -a auto --runtime predicts its finalists with (predictOnRuntime), and MPI_Alltoallv's default as the
 * library runs it (predictLibraryDefault, auto's answer against MPI).
 */
import { predictLibraryDefault, predictOnRuntime, type RuntimeTarget } from "../auto/index.js";
import { isCommplanError } from "../model/errors.js";
import type { CommMatrix } from "../model/matrix.js";
import type { ProgramVariant } from "../model/program.js";
import type { Schedule } from "../model/schedule.js";
import { PLANNERS, resolvePlanOptions } from "../planner/registry.js";
import type { Candidate, CandidateRequest } from "./candidates.js";

/** One plan's time on the runtime: its makespan (us) and the program variant that gives it, or why it has none. */
export interface RuntimeTime {
  readonly algorithm: string;
  /** Makespan (us) of the plan's program replayed on the runtime, in the faster variant; null when it has none. */
  readonly us: number | null;
  readonly variant: ProgramVariant | null;
  /** Why the plan has no time on the runtime ("" when it has one). */
  readonly note: string;
}

/** The comparison on a runtime (CompareReport.runtime). */
export interface RuntimeComparison {
  /** The runtime model's name. */
  readonly name: string;
  /** MPI_Alltoallv's default on the runtime as the library runs it (every pair posted at once, empty ones too), us. */
  readonly libraryDefaultUs: number;
  /** Per row of the report, in its order. */
  readonly times: readonly RuntimeTime[];
}

/**
 * The plan of `c` with payload chunks (what a relaying plan needs to be lowered), or why its planner refuses it: the
 * candidate's own when it has them.
 */
function payloadPlan(m: CommMatrix, c: Candidate, req: CandidateRequest): { schedule: Schedule | null; error: string } {
  if (c.schedule.chunks !== null) return { schedule: c.schedule, error: "" };
  const planner = (req.planners ?? PLANNERS).find((p) => p.name === c.algorithm)!;
  const budget = req.maxMemory === undefined ? {} : { maxMemory: req.maxMemory };
  try {
    const opts = resolvePlanOptions(planner, { payload: true, seed: req.seed ?? 1, machine: req.machine, ...budget });
    return { schedule: planner.plan(m, opts), error: "" };
  } catch (e) {
    if (!isCommplanError(e)) throw e;
    return { schedule: null, error: e.message };
  }
}

/**
 * Every candidate's time on `target` (its runtime, on its network or else the machine's flat cluster), reporting
 * (done, total) after each replay.
 */
export function runtimeComparison(
  m: CommMatrix,
  candidates: readonly Candidate[],
  req: CandidateRequest,
  target: RuntimeTarget,
  progress: ((done: number, total: number) => void) | null,
): RuntimeComparison {
  const times = candidates.map((c, k): RuntimeTime => {
    const p = predictOnRuntime(m, c.schedule, req.machine, target, () => payloadPlan(m, c, req));
    progress?.(k + 1, candidates.length);
    return typeof p === "string"
      ? { algorithm: c.algorithm, us: null, variant: null, note: p }
      : { algorithm: c.algorithm, us: p.makespan, variant: p.variant, note: "" };
  });
  return { name: target.runtime.name, libraryDefaultUs: predictLibraryDefault(m, req.machine, target), times };
}

/** The index of the fastest time on the runtime (the first on a tie), -1 when none has one. */
export function fastestOnRuntime(times: readonly RuntimeTime[]): number {
  let best = -1;
  times.forEach((t, k) => {
    if (t.us !== null && (best < 0 || t.us < times[best]!.us!)) best = k;
  });
  return best;
}
