/** Planner: the interface every planning algorithm implements, its parameter declarations and its options. */
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { InputSpec, OutputSpec, ParamValue, Specs } from "../model/param-spec.js";
import type { ProgressCallback } from "../model/progress.js";
import type { JsonValue, Schedule } from "../model/schedule.js";

export type { ParamValue } from "../model/param-spec.js";

/** Resolved parameters before typing: every declared input, defaults filled (an input without a default is absent when not given). */
export type PlanParams = { readonly [k: string]: ParamValue };

/** An input parameter of a planner (`--param name=value`) with its name: see InputSpec. */
export type InputParam = InputSpec & { readonly name: string };

/** A key the planner writes into the schedule header's params, with its name: accepted on input (so a header's params can be given back) and ignored. */
export type OutputParam = OutputSpec & { readonly name: string };

/** One parameter declaration of a planner. */
export type PlannerParam = InputParam | OutputParam;

/** Options every planner receives, made by `resolvePlanOptions` (defaults filled, params checked against the declaration). */
export interface PlanOptions<P = PlanParams> {
  /** Emit payload chunks (element-level plan) as well as message sizes. */
  readonly payload: boolean;
  /** Seed for every random choice. */
  readonly seed: number;
  /** Machine model for planners that use a cost model; others ignore it. */
  readonly machine: MachineModel | null;
  /** The planner's input parameters, checked and with defaults filled (output keys dropped); typed inside a planner made by definePlanner. */
  readonly params: P;
  /** The params exactly as the caller gave them (output keys included); planners whose header echoes the request copy these. */
  readonly givenParams: { readonly [k: string]: JsonValue };
  /** Bytes the plan may allocate (planners that estimate their memory refuse past it); default half the machine's memory (plan-memory.ts). */
  readonly maxMemory?: number;
  /**
   * Called now and then while the plan is made (planners that can take long report: see ProgressCallback),
   * `done` of `total` units of the planner's own; a planner that does not report never calls it.
   */
  readonly progress?: ProgressCallback | null;
}

/** A named planning algorithm. */
export interface Planner {
  /** Name used on the command line and in schedule files (kebab-case). */
  readonly name: string;
  /** One-line description. */
  readonly title: string;
  /** The paper section it follows. */
  readonly source: string;
  /** Its parameters with their names: inputs, then the keys it writes into the header's params. */
  readonly params: readonly PlannerParam[];
  /** The same declaration by name (what `resolvePlanOptions` checks params against). */
  readonly specs: Specs;
  /** Makes a schedule for the matrix; `opts` must come from `resolvePlanOptions`; throws CommplanError for matrices it cannot plan. */
  plan(m: CommMatrix, opts: PlanOptions): Schedule;
}
