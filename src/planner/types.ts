/** Planner: the interface every planning algorithm implements, its parameter declarations and its options. */
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { JsonValue, Schedule } from "../model/schedule.js";

/** A value a planner parameter takes once resolved. */
export type ParamValue = number | boolean | string;

/** Resolved parameters: every declared input, defaults filled (an input without a default is absent when not given). */
export type PlanParams = { readonly [k: string]: ParamValue };

/**
 * An input parameter of a planner (`--param name=value`). `type` "integer" or "number" takes a number
 * in min..max (bounds inclusive, either may be absent); with `values` it also takes those strings (a union,
 * e.g. a positive integer or one of auto|mean|median|none). "boolean" takes true or false; "enum" one of `values`.
 */
export interface InputParam {
  readonly name: string;
  /** One line: what the parameter does. */
  readonly description: string;
  readonly type: "integer" | "number" | "boolean" | "enum";
  readonly values?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** The unit of a number, named in messages and listings (e.g. "elements"). */
  readonly unit?: string;
  /** The value used when the parameter is not given; absent when the planner derives it (then `derived` says how). */
  readonly default?: ParamValue;
  /** How the planner chooses the value when the parameter has no default and is not given. */
  readonly derived?: string;
  readonly output?: false;
}

/** A key the planner writes into the schedule header's params: accepted on input (so a header's params can be given back) and ignored. */
export interface OutputParam {
  readonly name: string;
  /** One line: what the planner reports under this key. */
  readonly description: string;
  readonly output: true;
}

/** One parameter declaration of a planner. */
export type PlannerParam = InputParam | OutputParam;

/** Options every planner receives, made by `resolvePlanOptions` (defaults filled, params checked against the declaration). */
export interface PlanOptions {
  /** Emit payload chunks (element-level plan) as well as message sizes. */
  readonly payload: boolean;
  /** Seed for every random choice. */
  readonly seed: number;
  /** Machine model for planners that use a cost model; others ignore it. */
  readonly machine: MachineModel | null;
  /** The planner's input parameters, checked and with defaults filled (output keys dropped). */
  readonly params: PlanParams;
  /** The params exactly as the caller gave them (output keys included); planners whose header echoes the request copy these. */
  readonly givenParams: { readonly [k: string]: JsonValue };
  /** Bytes the plan may allocate (planners that estimate their memory refuse past it); default half the machine's memory (plan-memory.ts). */
  readonly maxMemory?: number;
}

/** A named planning algorithm. */
export interface Planner {
  /** Name used on the command line and in schedule files (kebab-case). */
  readonly name: string;
  /** One-line description. */
  readonly title: string;
  /** The paper section it follows. */
  readonly source: string;
  /** Its parameters: inputs, then the keys it writes into the header's params. */
  readonly params: readonly PlannerParam[];
  /** Makes a schedule for the matrix; `opts` must come from `resolvePlanOptions`; throws CommplanError for matrices it cannot plan. */
  plan(m: CommMatrix, opts: PlanOptions): Schedule;
}
