/**
 * plannerProperty: a fast-check property that a user's planner returns schedules that pass the verifier (and stated
 * bounds).
 */
import fc from "fast-check";
import type { CommMatrix } from "../model/matrix.js";
import { matrixArb } from "./matrix-arbitraries.js";
import { checkScheduleFor, failureOfError, type CheckFailure, type ScheduleCheckOptions } from "./schedule-check.js";
import { ScheduleCheckError } from "./verify-or-throw.js";

/** A planner under test: a matrix to a Schedule, a plain schedule JSON object or its text. */
export type PlanFn = (matrix: CommMatrix) => unknown;

/** Options of plannerProperty: the checks, and the matrices to try (default matrixArb()). */
export interface PlannerPropertyOptions extends ScheduleCheckOptions {
  readonly matrices?: fc.Arbitrary<CommMatrix>;
}

/** The first failure of one planner output for `m` (a throwing planner fails check 'planner'), or null. */
export function plannerOutputFailure(
  m: CommMatrix,
  output: unknown,
  options: ScheduleCheckOptions = {},
): CheckFailure | null {
  return checkScheduleFor(m, output, options).failure;
}

/** Runs the planner on `m` and checks what it returns; the failure, or null. */
export function planFailure(plan: PlanFn, m: CommMatrix, options: ScheduleCheckOptions = {}): CheckFailure | null {
  let out: unknown;
  try {
    out = plan(m);
  } catch (e) {
    return failureOfError("planner", "the planner returns a schedule", e);
  }
  return plannerOutputFailure(m, out, options);
}

/**
 * A property over matrices (options.matrices, default matrixArb()) that `plan` returns a schedule
 * passing every check of the verifier and the stated bounds. A failing run throws a
 * ScheduleCheckError naming the check and its witness; fast-check shrinks the matrix.
 * Use with `fc.assert(plannerProperty(plan))` or `fc.check(...)`.
 */
export function plannerProperty(
  plan: PlanFn,
  options: PlannerPropertyOptions = {},
): fc.IPropertyWithHooks<[CommMatrix]> {
  return fc.property(options.matrices ?? matrixArb(), (m) => {
    const f = planFailure(plan, m, options);
    if (f !== null) throw new ScheduleCheckError(f, null);
  });
}

/**
 * The same for a planner that returns a Promise (a worker, a child process, a service): use with `await
 * fc.assert(...)`.
 */
export function asyncPlannerProperty(
  plan: (matrix: CommMatrix) => Promise<unknown>,
  options: PlannerPropertyOptions = {},
): fc.IAsyncPropertyWithHooks<[CommMatrix]> {
  return fc.asyncProperty(options.matrices ?? matrixArb(), async (m) => {
    let out: unknown;
    try {
      out = await plan(m);
    } catch (e) {
      throw new ScheduleCheckError(failureOfError("planner", "the planner returns a schedule", e), null);
    }
    const f = plannerOutputFailure(m, out, options);
    if (f !== null) throw new ScheduleCheckError(f, null);
  });
}
