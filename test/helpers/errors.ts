/** Test helper: the CommplanError a call throws. */
import { expect } from "vitest";
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

/** The error f throws, asserted one line with the code and field given; its message. */
export function refused(f: () => unknown, code: string, field: string): string {
  const e = errorOf(f);
  expect({ code: e.code, field: e.place.field, oneLine: !e.message.includes("\n") }).toEqual({
    code,
    field,
    oneLine: true,
  });
  return e.message;
}

/** Calls a public function as plain JavaScript would, with arguments TypeScript refuses. */
export const loose = <F extends (...args: never[]) => unknown>(f: F): ((...args: unknown[]) => unknown) =>
  f as unknown as (...args: unknown[]) => unknown;
