/** The verifiers, and every function that takes a schedule, take objects a user's planner or runtime built by hand: any mutation of a schedule's or a program's fields ends in a report, a result or a CommplanError, never another exception. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCommplanError } from "../../src/model/errors.js";
import type { CommMatrix } from "../../src/model/matrix.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { plan } from "../../src/planner/index.js";
import { ScheduleCheckError, verifyOrThrow } from "../../src/testing/index.js";
import { verifyProgram } from "../../src/verifier/index.js";
import { findMachine, scheduleCost } from "../../src/machines/index.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { encodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { stepGrid } from "../../src/export/step-grid.js";
import { scheduleProblem } from "../../src/model/schedule-check.js";

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

const SCHEDULE_FIELDS = ["p", "stepCount", "transferCount", "elementBytes", "stages", "chunks", "times"] as const;
const SCHEDULE_COLUMNS = ["stepStart", "stallStart", "stallNode", "src", "dst", "size"] as const;

/** A property over schedules with one field, or one column element, replaced by a hostile value. */
function mutatedSchedules(f: (s: unknown) => void): fc.IPropertyWithHooks<[number, string, unknown, number, boolean]> {
  return fc.property(
    fc.nat(1),
    fc.oneof(fc.constantFrom(...SCHEDULE_FIELDS), fc.constantFrom(...SCHEDULE_COLUMNS)),
    hostile,
    fc.nat(),
    fc.boolean(),
    (i, key, v, k, plain) => {
      const s = schedules[i]!;
      const value = (SCHEDULE_COLUMNS as readonly string[]).includes(key)
        ? mutateColumn(s[key as (typeof SCHEDULE_COLUMNS)[number]], k, typeof v === "number" ? v : k, plain)
        : v;
      f({ ...s, [key]: value });
    },
  );
}

describe("verifiers on hand-built objects", () => {
  it("a schedule with any field replaced, or any column element", () => {
    fc.assert(
      mutatedSchedules((s) => expect(endsCleanly(() => verifyOrThrow(m, s as never))).toBe(true)),
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

describe("the functions that take a schedule, on hand-built ones", () => {
  const t3d = findMachine("t3d-004");
  const entries: [string, (s: never) => unknown][] = [
    ["simulateSchedule", (s) => simulateSchedule(s, t3d)],
    ["scheduleCost", (s) => scheduleCost(s, t3d, "blocking")],
    ["lowerSchedule", (s) => lowerSchedule(m, s)],
    ["scheduleToJsonText", (s) => scheduleToJsonText(s)],
    ["encodeScheduleArrow", (s) => encodeScheduleArrow(s)],
    ["stepGrid", (s) => stepGrid(s, 0)],
  ];
  it("refuse a schedule that is not well formed in one line, and take one that is", () => {
    // before: TypeErrors, RangeErrors (an array of P = 2^40), "undefined" written into the JSON
    fc.assert(
      mutatedSchedules((s) => {
        const problem = scheduleProblem(s as never);
        for (const [name, f] of entries) {
          if (problem === null) {
            expect(
              endsCleanly(() => f(s as never)),
              name,
            ).toBe(true);
            continue;
          }
          const e = (() => {
            try {
              f(s as never);
            } catch (x) {
              return x as Error;
            }
            return null;
          })();
          // the module, then (where the function names itself) the function called, never another one
          expect(e?.message, name).toMatch(
            new RegExp(`^[a-z-]+: (${name}: )?the schedule is not well formed: [^\\n]+$`),
          );
        }
      }),
      { numRuns: 300, seed: 20261126 },
    );
  });
});
