/**
 * Well-formedness: the IR's shape, indices in range, positive integer sizes, chunks that add up to their transfer
 * (docs/formats.md, Schedule; the check itself is scheduleProblem in src/model/schedule-check.ts, which the functions
 * that take a schedule also run).
 */
import type { Schedule } from "../model/schedule.js";
import { scheduleProblem } from "../model/schedule-check.js";
import { check, type Check } from "./report.js";

const SOURCE = "docs/formats.md, Schedule";

/** Checks the columns of a schedule against P; later checks run only when this holds. */
export function checkWellFormed(s: Schedule): Check {
  const w = scheduleProblem(s);
  return check(
    "well-formed",
    "indices in range, sizes positive integers, chunks add up",
    SOURCE,
    w === null,
    null,
    null,
    w,
  );
}
