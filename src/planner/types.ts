/** Planner: the interface every planning algorithm implements, and its options. */
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { JsonValue, Schedule } from "../model/schedule.js";

/** Options every planner receives, defaults filled in by `resolvePlanOptions`. */
export interface PlanOptions {
  /** Emit payload chunks (element-level plan) as well as message sizes. */
  readonly payload: boolean;
  /** Seed for every random choice. */
  readonly seed: number;
  /** Machine model for planners that use a cost model; others ignore it. */
  readonly machine: MachineModel | null;
  /** Algorithm-specific parameters (already checked by the planner's `checkParams`). */
  readonly params: { readonly [k: string]: JsonValue };
}

/** A named planning algorithm. */
export interface Planner {
  /** Name used on the command line and in schedule files (kebab-case). */
  readonly name: string;
  /** One-line description. */
  readonly title: string;
  /** The paper section it follows. */
  readonly source: string;
  /** Makes a schedule for the matrix; throws CommplanError for matrices it cannot plan. */
  plan(m: CommMatrix, opts: PlanOptions): Schedule;
}
