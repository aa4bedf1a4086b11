/**
 * commplanMatchers: `expect(schedule).toBeValidScheduleFor(matrix)` for vitest and jest (plain functions, no test
 * runner imported).
 */
import type { CommMatrix } from "../model/matrix.js";
import { checkScheduleFor, failureLine, type ScheduleCheckOptions } from "./schedule-check.js";

/** What a matcher returns to expect.extend. */
export interface MatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
}

/** The matchers; install them with `expect.extend(commplanMatchers)`. */
export const commplanMatchers = {
  /**
   * Passes when `received` (a Schedule, plain schedule JSON or its text) passes the verifier for `matrix` and the
   * stated bounds; fails with the check's name and witness.
   */
  toBeValidScheduleFor(received: unknown, matrix: CommMatrix, options: ScheduleCheckOptions = {}): MatcherResult {
    const r = checkScheduleFor(matrix, received, options);
    if (r.failure === null)
      return {
        pass: true,
        message: () =>
          `expected the schedule not to be valid for the ${matrix.p} x ${matrix.p} matrix, but every check holds`,
      };
    const f = r.failure;
    return {
      pass: false,
      message: () => `expected a valid schedule for the ${matrix.p} x ${matrix.p} matrix: ${failureLine(f)}`,
    };
  },
};

/** The type to merge into vitest's or jest's `Assertion` / `Matchers` interface for typed use. */
export interface CommplanMatchers<R = unknown> {
  /** The schedule passes the verifier for `matrix` (and the stated bounds). */
  toBeValidScheduleFor(matrix: CommMatrix, options?: ScheduleCheckOptions): R;
}
