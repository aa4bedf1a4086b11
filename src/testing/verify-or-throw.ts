/** verifyOrThrow: verifies a schedule against its matrix and throws the failed check's name and witness. */
import type { CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import type { Report } from "../verifier/index.js";
import { checkScheduleFor, failureLine, type CheckFailure, type ScheduleCheckOptions } from "./schedule-check.js";
import { checkMatrixArg } from "../model/matrix.js";

/**
 * Thrown by verifyOrThrow (and the kit's properties): `check` is the failed check's id, `witness` its counterexample;
 * its message starts with the module, as the kit's other errors do: `testing: check 'causality' fails (...): ...`.
 */
export class ScheduleCheckError extends Error {
  override readonly name = "ScheduleCheckError";
  /**
   * The id of the failed check (a verifier row such as "causality", or the kit's "max-steps", "modelled-time", ...).
   */
  readonly check: string;
  /** What the failed check states. */
  readonly title: string;
  /** The failed check's witness. */
  readonly witness: string;
  /**
   * The verifier's report from verifyOrThrow (null when the schedule could not be read or was made for another matrix);
   * always null in the errors of the planner and runtime properties, which carry the check and its witness only.
   */
  readonly report: Report | null;
  constructor(failure: CheckFailure, report: Report | null) {
    super(`testing: ${failureLine(failure)}`);
    this.check = failure.check;
    this.title = failure.title;
    this.witness = failure.witness;
    this.report = report;
  }
}

/**
 * Verifies `schedule` (a Schedule, plain schedule JSON object or JSON text) against `matrix`, with
 * the bounds of `options`; returns the report when every check holds, else throws a
 * ScheduleCheckError naming the first failed check and its witness.
 */
export function verifyOrThrow(
  matrix: CommMatrix,
  schedule: Schedule | object | string,
  options: ScheduleCheckOptions = {},
): Report {
  checkMatrixArg("testing", matrix, "verifyOrThrow");
  const r = checkScheduleFor(matrix, schedule, options);
  if (r.failure !== null || r.report === null)
    throw new ScheduleCheckError(r.failure ?? { check: "verify", title: "verify", witness: "no report" }, r.report);
  return r.report;
}
