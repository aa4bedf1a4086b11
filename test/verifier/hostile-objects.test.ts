/** The verifiers take objects a user's planner or runtime built by hand: any mutation of a schedule's or a program's fields ends in a report or a CommplanError, never another exception. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCommplanError } from "../../src/model/errors.js";
import type { CommMatrix } from "../../src/model/matrix.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { plan } from "../../src/planner/index.js";
import { ScheduleCheckError, verifyOrThrow } from "../../src/testing/index.js";
import { verifyProgram } from "../../src/verifier/index.js";

const m: CommMatrix = {
  p: 4,
  elementBytes: 8,
  data: Float64Array.from({ length: 16 }, (_, k) => (k % 5 === 0 ? 0 : 2)),
};
const schedules = [plan(m, "shift", {}), plan(m, "four-stage", { payload: true })];
const programs = schedules.map((s) => lowerSchedule(m, s).program);

/** A value of any JSON-ish kind, numbers at the edges included. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, undefined, NaN, Infinity, -1, 0.5, 2 ** 40, "", "x", true, {}, []),
  fc.integer({ min: -3, max: 20 }),
  fc.array(fc.oneof(fc.integer({ min: -2, max: 2 ** 31 }), fc.constant(undefined), fc.double()), { maxLength: 6 }),
);

/** Replaces element k of a column by v, in a copy (a plain array when `plain`, else the same typed array class). */
function mutateColumn(col: ArrayLike<number>, k: number, v: unknown, plain: boolean): unknown {
  const out: unknown[] | Float64Array = plain ? Array.from(col) : (col as Float64Array).slice();
  (out as unknown[])[k % Math.max(1, col.length)] = v;
  return out;
}

/** Runs f: true when it ended in a result or a CommplanError / ScheduleCheckError. */
function endsCleanly(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (isCommplanError(e) || e instanceof ScheduleCheckError) return true;
    throw e;
  }
}

describe("verifiers on hand-built objects", () => {
  it("a schedule with any field replaced, or any column element", () => {
    const fields = ["p", "stepCount", "transferCount", "elementBytes", "stages", "chunks", "times"] as const;
    const columns = ["stepStart", "stallStart", "stallNode", "src", "dst", "size"] as const;
    fc.assert(
      fc.property(
        fc.nat(1),
        fc.oneof(fc.constantFrom(...fields), fc.constantFrom(...columns)),
        hostile,
        fc.nat(),
        fc.boolean(),
        (i, key, v, k, plain) => {
          const s = schedules[i]!;
          const value = (columns as readonly string[]).includes(key)
            ? mutateColumn(s[key as (typeof columns)[number]], k, typeof v === "number" ? v : k, plain)
            : v;
          expect(endsCleanly(() => verifyOrThrow(m, { ...s, [key]: value } as never))).toBe(true);
        },
      ),
      { numRuns: 400, seed: 20261126 },
    );
  });

  it("a program with any column element replaced", () => {
    const columns: [string, string][] = [["", "rankStart"]];
    for (const t of ["ops", "pieces", "layout"] as const)
      for (const k of Object.keys(programs[0]![t])) columns.push([t, k]);
    fc.assert(
      fc.property(
        fc.nat(1),
        fc.constantFrom(...columns),
        fc.constantFrom(-1, 1.5, NaN, 2 ** 40, 7, undefined),
        fc.nat(),
        fc.boolean(),
        (i, [t, key], v, k, plain) => {
          const prog = programs[i]! as unknown as Record<string, Record<string, unknown>>;
          const col = (t === "" ? prog[key] : prog[t]![key]) as ArrayLike<number> | null;
          if (col === null) return;
          const value = mutateColumn(col, k, v, plain);
          const mutated = t === "" ? { ...prog, [key]: value } : { ...prog, [t]: { ...prog[t], [key]: value } };
          expect(endsCleanly(() => verifyProgram(m, mutated as never))).toBe(true);
        },
      ),
      { numRuns: 400, seed: 20261126 },
    );
  });
});
