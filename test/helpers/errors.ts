/** Test helper: the CommplanError a call throws. */
import { isCommplanError, type CommplanError } from "../../src/model/errors.js";

/** Runs f and returns the CommplanError it throws (failing the test when it throws something else or nothing). */
export function errorOf(f: () => unknown): CommplanError {
  try {
    f();
  } catch (e) {
    if (isCommplanError(e)) return e;
    throw e;
  }
  throw new Error("expected a CommplanError");
}
