/**
 * plannerProperty: a fast-check property that a user's planner returns schedules that pass the verifier (and stated
 * bounds).
 */
import fc from "fast-check";
import { copyMatrix, type CommMatrix } from "../model/matrix.js";
import { anyMatrixArb } from "./planner-matrices.js";
import { checkScheduleFor, failureOfError, type CheckFailure, type ScheduleCheckOptions } from "./schedule-check.js";
import { ScheduleCheckError } from "./verify-or-throw.js";
import { DETERMINISM_SAMPLE, determinismFailure, type PlanOutcome } from "./determinism.js";
import { inputChangeFailure } from "./input-change.js";
import { checkFunction, checkScheduleCheckOptions } from "./check-options.js";
import { checkArg } from "../model/option-checks.js";
import { checkMatrixArg } from "../model/matrix.js";

/** A planner under test: a matrix to a Schedule, a plain schedule JSON object or its text. */
export type PlanFn = (matrix: CommMatrix) => unknown;

/** Options of plannerProperty: the checks, and the matrices to try (default anyMatrixArb()). */
export interface PlannerPropertyOptions extends ScheduleCheckOptions {
  readonly matrices?: fc.Arbitrary<CommMatrix>;
}

/** The first failure of one planner output for `m` (a throwing planner fails check 'planner'), or null. */
export function plannerOutputFailure(
  m: CommMatrix,
  output: unknown,
  options: ScheduleCheckOptions = {},
): CheckFailure | null {
  checkMatrixArg("testing", m, "plannerOutputFailure");
  return checkScheduleFor(m, output, options).failure;
}

/** Runs the planner on a copy of `m` and checks what it returns against `m`; the failure, or null. */
export function planFailure(plan: PlanFn, m: CommMatrix, options: ScheduleCheckOptions = {}): CheckFailure | null {
  checkArg(
    "testing",
    "planFailure",
    "plan",
    plan,
    typeof plan === "function",
    "a planner function (m) => schedule",
    "BAD_OPTION",
  );
  checkMatrixArg("testing", m, "planFailure");
  return callFailure(m, callPlan(plan, m), options);
}

/** One call of a planner: what it returned or threw, and its failure of check 'input-unchanged' (or null). */
interface PlanCall {
  readonly outcome: PlanOutcome;
  readonly changed: CheckFailure | null;
}

/** Calls the planner once on a copy of `m` (its own arrays); its output or what it threw, and what it changed. */
function callPlan(plan: PlanFn, m: CommMatrix): PlanCall {
  const given = copyMatrix(m);
  let outcome: PlanOutcome;
  try {
    outcome = { output: plan(given) };
  } catch (e) {
    outcome = { thrown: e };
  }
  return { outcome, changed: inputChangeFailure(m, given) };
}

/** The same for an asynchronous planner (what it changed is read once its promise settles). */
async function callAsyncPlan(plan: PlanFn, m: CommMatrix): Promise<PlanCall> {
  const given = copyMatrix(m);
  let outcome: PlanOutcome;
  try {
    outcome = { output: await plan(given) };
  } catch (e) {
    outcome = { thrown: e };
  }
  return { outcome, changed: inputChangeFailure(m, given) };
}

/**
 * The failure of one call: a change to its input (check 'input-unchanged'), the planner's throw (check 'planner'), or
 * the first failing check of its output, verified against the untouched `m`.
 */
function callFailure(m: CommMatrix, c: PlanCall, options: ScheduleCheckOptions): CheckFailure | null {
  if (c.changed !== null) return c.changed;
  const o = c.outcome;
  if ("thrown" in o) return failureOfError("planner", "the planner returns a schedule", o.thrown);
  return plannerOutputFailure(m, o.output, options);
}

/**
 * Whether a run plans its matrix twice (`failed`: its first plan failed), what to note when the two differ, and the
 * start of a new run of fast-check (`reset`).
 */
interface Sampler {
  readonly twice: (failed: boolean) => boolean;
  readonly differed: () => void;
  readonly reset: () => void;
}

/**
 * Which runs plan their matrix a second time: every failing run, every DETERMINISM_SAMPLE-th run from the first (a
 * counter per run of fast-check, so that the same seed samples the same runs), and every run once two plans have
 * differed (so that shrinking a nondeterministic failure sees it on every candidate). `reset` starts both afresh.
 */
function sampler(): Sampler {
  let runs = 0,
    seen = false;
  return {
    twice: (failed) => runs++ % DETERMINISM_SAMPLE === 0 || failed || seen,
    differed: () => {
      seen = true;
    },
    reset: () => {
      runs = 0;
      seen = false;
    },
  };
}

/**
 * What perRun needs of a fast-check property: its generate, which fast-check calls with the run's index (undefined
 * under `unbiased: true`), and isAsync, which fc.check calls before it draws the first matrix.
 */
interface Generating {
  generate(mrng: fc.Random, runId?: number): fc.Value<[CommMatrix]>;
  isAsync(): boolean;
}

/**
 * Makes the property `prop` start its sampler afresh at every fc.assert or fc.check it is given to, so a property
 * object run twice samples the same runs as a new one, not the second run carrying on the first's counter and flag.
 * fast-check draws the first matrix of each run with run index 0, where `s` is reset. Under `unbiased: true` it passes
 * no run index (fast-check's UnbiasedProperty); there the first matrix drawn after fc.check asked the property whether
 * it is async (which it does before it draws any) resets `s`. (With `unbiased` and `ignoreEqualValues` or
 * `skipEqualValues`, fast-check also asks that when it skips a repeated matrix, and the next one then starts afresh;
 * with `unbiased` and `interruptAfterTimeLimit` it asks before every run, so every run is sampled: twice the planning.)
 */
function perRun<P extends Generating>(prop: P, s: Sampler): P {
  const generate = prop.generate.bind(prop);
  const isAsync = prop.isAsync.bind(prop);
  let asked = true;
  prop.isAsync = () => {
    asked = true;
    return isAsync();
  };
  prop.generate = (mrng, runId) => {
    if (runId === 0 || (runId === undefined && asked)) s.reset();
    asked = false;
    return generate(mrng, runId);
  };
  return prop;
}

/** The options of each run's check: the property's without `matrices` (which the check would refuse). */
function checkOptionsOf(options: PlannerPropertyOptions): ScheduleCheckOptions {
  const { matrices: _matrices, ...check } = options;
  return check;
}

/**
 * A property over matrices (options.matrices, default anyMatrixArb()) that `plan` returns a schedule
 * passing every check of the verifier and the stated bounds, and the same schedule when a matrix is
 * planned twice (every failing matrix is, and every DETERMINISM_SAMPLE-th passing one). Each call
 * gets a copy of the matrix in its storage; the schedule is verified against the drawn matrix, and a
 * copy changed by the call fails check 'input-unchanged'. A failing run throws a ScheduleCheckError
 * naming the check ('deterministic' for a planner whose two outputs differ) and its witness;
 * fast-check shrinks the matrix. Use with `fc.assert(plannerProperty(plan))` or `fc.check(...)`; the same property may
 * be run again (its sampling starts afresh with each run: perRun).
 */
export function plannerProperty(
  plan: PlanFn,
  options: PlannerPropertyOptions = {},
): fc.IPropertyWithHooks<[CommMatrix]> {
  checkFunction("plannerProperty", "plan", plan);
  checkScheduleCheckOptions(options, ["matrices"]);
  const check = checkOptionsOf(options);
  const s = sampler();
  const prop = fc.property(options.matrices ?? anyMatrixArb(), (m) => {
    const first = callPlan(plan, m);
    const f = callFailure(m, first, check);
    const g = s.twice(f !== null) ? determinismFailure(m, first.outcome, callPlan(plan, m).outcome) : null;
    if (g !== null) s.differed();
    if (g !== null || f !== null) throw new ScheduleCheckError((g ?? f)!, null);
  });
  return perRun(prop, s);
}

/**
 * The same for a planner that returns a Promise (a worker, a child process, a service): use with `await
 * fc.assert(...)`.
 */
export function asyncPlannerProperty(
  plan: (matrix: CommMatrix) => Promise<unknown>,
  options: PlannerPropertyOptions = {},
): fc.IAsyncPropertyWithHooks<[CommMatrix]> {
  checkFunction("asyncPlannerProperty", "plan", plan);
  checkScheduleCheckOptions(options, ["matrices"]);
  const check = checkOptionsOf(options);
  const s = sampler();
  const prop = fc.asyncProperty(options.matrices ?? anyMatrixArb(), async (m) => {
    const first = await callAsyncPlan(plan, m);
    const f = callFailure(m, first, check);
    const g = s.twice(f !== null) ? determinismFailure(m, first.outcome, (await callAsyncPlan(plan, m)).outcome) : null;
    if (g !== null) s.differed();
    if (g !== null || f !== null) throw new ScheduleCheckError((g ?? f)!, null);
  });
  return perRun(prop, s);
}

/**
 * Plans `m` twice more and returns what that shows: a 'deterministic' failure when the two outputs differ, else the
 * failure both share, or null when both pass (a counterexample that does not reproduce). `plan` may be the planner of
 * plannerProperty or of asyncPlannerProperty (its promise is awaited).
 */
export async function replayFailure(
  plan: PlanFn,
  m: CommMatrix,
  options: ScheduleCheckOptions = {},
): Promise<CheckFailure | null> {
  checkArg(
    "testing",
    "replayFailure",
    "plan",
    plan,
    typeof plan === "function",
    "a planner function (m) => schedule",
    "BAD_OPTION",
  );
  checkMatrixArg("testing", m, "replayFailure");
  const a = await callAsyncPlan(plan, m);
  const b = await callAsyncPlan(plan, m);
  return determinismFailure(m, a.outcome, b.outcome) ?? callFailure(m, a, options);
}
