/** The kit's options (ScheduleCheckOptions) and their one check, checkScheduleCheckOptions, run before a schedule. */
import { fail } from "../model/errors.js";
import { machineProblem, type MachineModel } from "../model/machine.js";
import { checkBooleanOption, checkOptionKeys, checkOptionsObject, describeValue } from "../model/option-checks.js";
import { findMachine } from "../machines/presets.js";
import { checkVerifyPorts } from "../verifier/verify.js";
import { MAX_P, type CommMatrix } from "../model/matrix.js";
import { COST_MODES, type CostMode } from "../machines/cost-model.js";

/** A bound that is a number or a function of the matrix. */
export type BoundOf = number | ((m: CommMatrix) => number);

/** The modelled-time bound: total cost on `machine` at most `factor` x the kit's traffic lower bound. */
export interface TimeBound {
  /** A MachineModel or the name of a preset (`commplan machines`). */
  readonly machine: MachineModel | string;
  /** Cost mode (default "nonblocking"). */
  readonly mode?: CostMode;
  /** The allowed ratio to trafficLowerBound (e.g. 4). */
  readonly factor: number;
}

/** What the checks of a schedule may be told. */
export interface ScheduleCheckOptions {
  /** Send and receive ports per node (default 1). */
  readonly ports?: number;
  /**
   * Count a delivery the verifier cannot decide (a relaying plan without payload chunks) as passing (default false: it
   * fails).
   */
  readonly allowUnproven?: boolean;
  /** At most this many steps. */
  readonly maxSteps?: BoundOf;
  /** At most this many elements held by one node at a step boundary (the verifier's peak buffer). */
  readonly maxBuffer?: BoundOf;
  /** Modelled time within a factor of a lower bound. */
  readonly time?: TimeBound;
}

const MODULE = "testing";

/** A one-line BAD_OPTION error of the kit on `field`. */
const bad = (field: string, text: string): Error => fail(MODULE, "BAD_OPTION", text, { field });

/** A bound's value: a number >= 0 (Infinity: no bound), else a BAD_OPTION error naming `field`. */
export function checkBoundValue(field: string, v: unknown, from = ""): number {
  if (typeof v === "number" && v >= 0) return v;
  throw bad(field, `${field}${from} must be a number >= 0, got ${describeValue(v)}`);
}

/** A bound option: a number >= 0 or a function of the matrix (its value is checked where it is called). */
function checkBound(field: string, b: BoundOf | undefined): void {
  if (b !== undefined && typeof b !== "function") checkBoundValue(field, b);
}

/** The machine of a time bound: a preset's name or a machine model (machineProblem). */
function timeMachine(machine: unknown): MachineModel {
  if (typeof machine === "string") {
    try {
      return findMachine(machine);
    } catch (e) {
      throw bad("time.machine", `time.machine: ${(e as Error).message.replace(/^machines: /, "")}`);
    }
  }
  const problem = machineProblem(machine as MachineModel);
  if (problem !== null) throw bad("time.machine", `time.machine: ${problem}`);
  return machine as MachineModel;
}

/** The modelled-time bound: an object with a machine, a positive finite factor and a cost mode. */
function checkTimeBound(t: TimeBound): void {
  checkOptionsObject(MODULE, "time", t);
  checkOptionKeys(MODULE, t, ["machine", "mode", "factor"], "time");
  timeMachine(t.machine);
  const f: unknown = t.factor;
  if (!(typeof f === "number" && Number.isFinite(f) && f > 0))
    throw bad("time.factor", `time.factor must be a positive finite number, got ${describeValue(f)}`);
  const mode: unknown = t.mode;
  if (mode !== undefined && !COST_MODES.includes(mode as CostMode))
    throw bad("time.mode", `time.mode must be blocking or nonblocking, got ${describeValue(mode)}`);
}

/**
 * The keys of ScheduleCheckOptions (PlannerPropertyOptions adds `matrices`: checkScheduleCheckOptions' `extraKeys`). An
 * unknown key is refused: a misspelt bound (`maxStep`) would be no bound, a `matrices` given to verifyOrThrow ignored.
 */
const SCHEDULE_CHECK_KEYS: readonly string[] = Object.freeze([
  "ports",
  "allowUnproven",
  "maxSteps",
  "maxBuffer",
  "time",
]);

/**
 * Checks the kit's options up front: an object or undefined with no key but ScheduleCheckOptions' and `extraKeys`;
 * ports a positive integer or Infinity (the verifier's); allowUnproven a boolean; maxSteps and maxBuffer a number >= 0
 * or a function; time a machine, a positive finite factor and a cost mode. Throws a one-line BAD_OPTION CommplanError
 * naming the option, never a check failure of a schedule.
 */
export function checkScheduleCheckOptions(
  o: ScheduleCheckOptions | undefined,
  extraKeys: readonly string[] = [],
): void {
  checkOptionsObject(MODULE, "options", o);
  if (o === undefined) return;
  checkOptionKeys(MODULE, o, [...SCHEDULE_CHECK_KEYS, ...extraKeys]);
  if (o.ports !== undefined) checkVerifyPorts(MODULE, o.ports);
  checkBooleanOption(MODULE, "allowUnproven", o.allowUnproven);
  checkBound("maxSteps", o.maxSteps);
  checkBound("maxBuffer", o.maxBuffer);
  if (o.time !== undefined) checkTimeBound(o.time);
}

/**
 * The P range of an arbitrary `fn` (patternArb, anyMatrixArb): minP a positive integer, maxP an integer in
 * minP..MAX_P; else a one-line BAD_OPTION error naming `fn` and the option, before anything is drawn.
 */
export function checkPRange(fn: string, minP: unknown, maxP: unknown): void {
  if (!(typeof minP === "number" && Number.isInteger(minP) && minP >= 1))
    throw bad("minP", `${fn}: minP must be a positive integer, got ${describeValue(minP)}`);
  if (!(typeof maxP === "number" && Number.isInteger(maxP) && maxP >= minP && maxP <= MAX_P))
    throw bad("maxP", `${fn}: maxP must be an integer in minP..${MAX_P}, got ${describeValue(maxP)}`);
}

/** The planner or executor `fn` was given: a function, else a one-line BAD_OPTION error naming `field`. */
export function checkFunction(fn: string, field: string, f: unknown): void {
  if (typeof f !== "function") throw bad(field, `${fn}: ${field} must be a function, got ${describeValue(f)}`);
}
