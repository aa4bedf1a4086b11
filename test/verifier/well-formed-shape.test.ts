/** The well-formed check refuses a hand-built schedule object whose columns or offset tables are not the IR's shape, by name, before any other check reads them. */
import { describe, expect, it } from "vitest";
import type { CommMatrix } from "../../src/model/matrix.js";
import type { Schedule } from "../../src/model/schedule.js";
import { plan } from "../../src/planner/index.js";
import { ScheduleCheckError, verifyOrThrow } from "../../src/testing/index.js";
import { verifySchedule } from "../../src/verifier/index.js";

const m: CommMatrix = {
  p: 4,
  elementBytes: 8,
  data: Float64Array.from({ length: 16 }, (_, k) => (k % 5 === 0 ? 0 : 3)),
};
const shift = plan(m, "shift", {});
const relay = plan(m, "four-stage", { payload: true });

/** The well-formed row of the report of `s` (which must be its only failing row). */
function wellFormed(s: object): { holds: boolean; witness: string | null } {
  const r = verifySchedule(m, s as Schedule);
  const row = r.checks.find((c) => c.id === "well-formed")!;
  expect(r.checks.filter((c) => !c.holds).map((c) => c.id)).toEqual(row.holds ? [] : ["well-formed"]);
  return { holds: row.holds, witness: row.witness ?? null };
}

describe("the shape of a schedule object", () => {
  it("holds for planners' schedules, with and without payloads", () => {
    expect(wellFormed(shift).holds).toBe(true);
    expect(relay.chunks).not.toBeNull();
    expect(wellFormed(relay).holds).toBe(true);
  });

  const cases: [string, (s: Schedule) => object, RegExp][] = [
    // before: the stall loop ran from 0 to 10^8 over undefined nodes (2^40: no end) and the plan verified
    [
      "stall offsets past the stall table",
      (s) => ({ ...s, stallStart: Uint32Array.of(0, 1, 100_000_000, 100_000_000) }),
      /^stallStart ends at 100000000, not at the 0 stalls$/,
    ],
    [
      "stall offsets that decrease",
      (s) => ({ ...s, stallStart: Uint32Array.of(0, 2, 1, 2), stallNode: Uint32Array.of(0, 1) }),
      /^stallStart\[2\] is below stallStart\[1\]$/,
    ],
    [
      "a step table not starting at 0",
      (s) => ({ ...s, stepStart: Uint32Array.of(4, 4, 8, 12) }),
      /^stepStart\[0\] is 4, not 0$/,
    ],
    ["a step table too short", (s) => ({ ...s, stepStart: Uint32Array.of(0, 12) }), /^stepStart has 2 entries, not 4$/],
    [
      "a src column shorter than transferCount",
      (s) => ({ ...s, src: s.src.subarray(0, 5) }),
      /^src has 5 entries, not 12$/,
    ],
    ["a plain array for a column", (s) => ({ ...s, dst: Array.from(s.dst) }), /^dst is not a Uint32Array$/],
    ["sizes as integers", (s) => ({ ...s, size: Uint32Array.from(s.size) }), /^size is not a Float64Array$/],
    [
      "a fractional transfer count",
      (s) => ({ ...s, transferCount: 11.5 }),
      /^transferCount 11.5 is not a non-negative integer$/,
    ],
    ["a negative element size", (s) => ({ ...s, elementBytes: -8 }), /^elementBytes -8 is not a positive integer$/],
    [
      "a stage without a step count",
      (s) => ({ ...s, stages: [{ name: "x", rearrange: "none", firstStep: 0 }] }),
      /^stage 1 has no whole firstStep and stepCount$/,
    ],
  ];
  for (const [what, mutate, witness] of cases)
    it(`refuses ${what}`, () => {
      const r = wellFormed(mutate(shift));
      expect(r.holds).toBe(false);
      expect(r.witness).toMatch(witness);
    });

  it("refuses chunk tables whose offsets do not end at the chunk count, or whose columns differ in length", () => {
    const c = relay.chunks!;
    const cut = { ...relay, chunks: { ...c, origin: c.origin.subarray(1), dest: c.dest.subarray(1) } };
    expect(wellFormed(cut).witness).toMatch(/^chunks\.offset has \d+ entries, not \d+$/);
    const ends = {
      ...relay,
      chunks: { ...c, start: Uint32Array.from(c.start, (v, k) => (k === c.start.length - 1 ? v + 1 : v)) },
    };
    expect(wellFormed(ends).witness).toMatch(/^chunks\.start ends at \d+, not at the \d+ chunks$/);
  });

  it("fails verifyOrThrow on the check's name and witness (the testing kit's entry for a user's planner)", () => {
    const bad = { ...shift, stallStart: Uint32Array.of(0, 0, 0, 2 ** 31) };
    expect(() => verifyOrThrow(m, bad)).toThrow(ScheduleCheckError);
    expect(() => verifyOrThrow(m, bad)).toThrow(/well-formed.*stallStart ends at 2147483648, not at the 0 stalls/);
  });
});
