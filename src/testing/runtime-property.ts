/**
 * runtimeProperty: a fast-check property that a user's executor realises lowered schedules with delivery and without
 * timed contention.
 */
import fc from "fast-check";
import type { CommMatrix } from "../model/matrix.js";
import type { Program, ProgramVariant } from "../model/program.js";
import type { Schedule } from "../model/schedule.js";
import { lowerSchedule } from "../lower/index.js";
import { plan } from "../planner/index.js";
import { verifySchedule } from "../verifier/index.js";
import { matrixArb } from "./matrix-arbitraries.js";
import { failureOfError, type CheckFailure } from "./schedule-check.js";
import { checkTimedCausality } from "./timed-causality.js";
import { scheduleFromOutput, type PlannerOutput } from "./schedule-input.js";
import { ScheduleCheckError } from "./verify-or-throw.js";
import { fail } from "../model/errors.js";
import {
  checkArg,
  checkOptionKeys,
  checkOptionsObject,
  describeValue,
  isOptionsObject,
} from "../model/option-checks.js";
import { checkVerifyPorts } from "../verifier/verify.js";
import { checkFunction } from "./check-options.js";
import { checkMatrixArg } from "../model/matrix.js";
import { checkScheduleArg } from "../model/schedule-check.js";

/** The lowering variants runtimeProperty accepts. */
const VARIANTS: readonly ProgramVariant[] = ["nonblocking", "blocking", "dataflow"];

/** What an executor receives: the matrix, the schedule and its lowered program. */
export interface RuntimeInput {
  readonly matrix: CommMatrix;
  readonly schedule: Schedule;
  readonly program: Program;
}

/**
 * What an executor returns: the realised start and end time (us) of every transfer of the schedule, in schedule order.
 */
export interface RealisedTimes {
  readonly start: ArrayLike<number>;
  readonly end: ArrayLike<number>;
}

/** An executor under test (may return a Promise). */
export type ExecFn = (input: RuntimeInput) => RealisedTimes | Promise<RealisedTimes>;

/** Options of runtimeProperty. */
export interface RuntimePropertyOptions {
  /** Matrices to try (default matrixArb()). */
  readonly matrices?: fc.Arbitrary<CommMatrix>;
  /**
   * Makes the schedule of a matrix (default commplan's linear-permutation with payloads, which relays nothing): a
   * Schedule, or what a planner under test may return (plain schedule JSON or its text); the verifier checks it before
   * it is lowered, a failing check is the run's failure.
   */
  readonly plan?: (m: CommMatrix) => PlannerOutput;
  /** The lowering variant (default "nonblocking"). */
  readonly variant?: ProgramVariant;
  /** Send and receive ports per node the executor may use at once (default 1). */
  readonly ports?: number;
}

/**
 * The realised times as a Float64Array pair, or the failure that they are not one finite 0 <= start <= end pair per
 * transfer.
 */
function timesOf(s: Schedule, r: RealisedTimes): { start: Float64Array; end: Float64Array } | CheckFailure {
  const title = "the executor returns a start <= end time for every transfer";
  if (r === null || typeof r !== "object" || r.start == null || r.end == null)
    return { check: "runtime-times", title, witness: "the executor returned no { start, end } arrays" };
  if (r.start.length !== s.transferCount || r.end.length !== s.transferCount)
    return {
      check: "runtime-times",
      title,
      witness: `${r.start.length} start and ${r.end.length} end times for ${s.transferCount} transfers`,
    };
  const start = Float64Array.from(r.start),
    end = Float64Array.from(r.end);
  for (let x = 0; x < s.transferCount; x++)
    if (!(Number.isFinite(start[x]) && Number.isFinite(end[x]) && start[x]! >= 0 && start[x]! <= end[x]!))
      return {
        check: "runtime-times",
        title,
        witness: `transfer ${x} (${s.src[x]} -> ${s.dst[x]}): start ${r.start[x]}, end ${r.end[x]}`,
      };
  return { start, end };
}

/**
 * Checks realised times against the schedule: delivery (the verifier), timed contention and timed causality; the
 * failure or null.
 */
export function realisedFailure(m: CommMatrix, s: Schedule, r: RealisedTimes, ports = 1): CheckFailure | null {
  checkMatrixArg("testing", m, "realisedFailure");
  checkScheduleArg("testing", s, "realisedFailure");
  checkArg("testing", "realisedFailure", "r", r, isOptionsObject(r), "realised times { start, end }", "BAD_OPTION");
  const times = timesOf(s, r);
  if ("check" in times) return times;
  const timed: Schedule = { ...s, times };
  const report = verifySchedule(m, timed, { ports });
  const bad = report.checks.find((c) => !c.holds);
  if (bad) return { check: bad.id, title: bad.title, witness: bad.witness ?? "(no witness)" };
  return checkTimedCausality(timed);
}

/** One run: plan, lower, execute, check; the failure or null. */
export async function runtimeFailure(
  exec: ExecFn,
  m: CommMatrix,
  o: RuntimePropertyOptions = {},
): Promise<CheckFailure | null> {
  checkArg(
    "testing",
    "runtimeFailure",
    "exec",
    exec,
    typeof exec === "function",
    "a runtime function (m, schedule) => times",
    "BAD_OPTION",
  );
  checkMatrixArg("testing", m, "runtimeFailure");
  checkOptionsObject("testing", "options", o);
  let schedule: Schedule;
  if (o.plan) {
    // the user's plan is checked before it is lowered: the lowering trusts the IR's shape and delivery
    try {
      schedule = scheduleFromOutput(o.plan(m), m);
      const bad = verifySchedule(m, schedule).checks.find((c) => !c.holds);
      if (bad)
        return {
          check: bad.id,
          title: `the plan option's schedule: ${bad.title}`,
          witness: bad.witness ?? "(no witness)",
        };
    } catch (e) {
      return failureOfError("runtime-plan", "the plan option returns a schedule of the matrix", e);
    }
  } else schedule = plan(m, "linear-permutation", { payload: true });
  const { program } = lowerSchedule(m, schedule, { variant: o.variant ?? "nonblocking" });
  let r: RealisedTimes;
  try {
    r = await exec({ matrix: m, schedule, program });
  } catch (e) {
    return failureOfError("runtime", "the executor runs the program", e);
  }
  return realisedFailure(m, schedule, r, o.ports ?? 1);
}

/**
 * A property over matrices that `exec`, given a planned and lowered schedule, returns realised
 * times under which every element is delivered, no node exceeds its ports at any instant, and no
 * relay forwards data before it arrived. Asynchronous: use `await fc.assert(runtimeProperty(exec))`. Bad options
 * (ports, variant) are refused up front with a one-line BAD_OPTION error.
 */
export function runtimeProperty(
  exec: ExecFn,
  options: RuntimePropertyOptions = {},
): fc.IAsyncPropertyWithHooks<[CommMatrix]> {
  checkFunction("runtimeProperty", "exec", exec);
  checkOptionsObject("testing", "options", options);
  checkOptionKeys("testing", options, ["matrices", "plan", "variant", "ports"], "runtimeProperty");
  if (options.ports !== undefined) checkVerifyPorts("testing", options.ports);
  const variant: unknown = options.variant;
  if (variant !== undefined && !VARIANTS.includes(variant as ProgramVariant))
    throw fail("testing", "BAD_OPTION", `variant must be ${VARIANTS.join(", ")}, got ${describeValue(variant)}`, {
      field: "variant",
    });
  return fc.asyncProperty(options.matrices ?? matrixArb(), async (m) => {
    const f = await runtimeFailure(exec, m, options);
    if (f !== null) throw new ScheduleCheckError(f, null);
  });
}
