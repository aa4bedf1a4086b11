/** The delivery row names what it checks, and elements that pass through their destination are reported as a measure. */
import { describe, expect, it } from "vitest";
import { matrixFromRows } from "../../src/model/matrix.js";
import { plan } from "../../src/planner/registry.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { pack, unpack } from "../helpers/schedule-edit.js";

/** The row `id` of a report. */
const row = (r: ReturnType<typeof verifySchedule>, id: string) => r.checks.find((c) => c.id === id)!;

describe("delivery and pass-through", () => {
  it("the delivery row says what it checks: ends at its destination, delivered once", () => {
    const m = matrixFromRows([
      [0, 1],
      [2, 0],
    ]);
    const r = verifySchedule(m, plan(m, "shift", { payload: true }), { ports: 1 });
    expect(row(r, "delivery").title).toBe(
      "every element ends at its destination, delivered once (none missing, none twice, no stranger)",
    );
    expect(row(r, "pass-through")).toMatchObject({ holds: true, measured: 0, bound: null });
  });

  it("counts each departure of an element from its destination, exactly", () => {
    const m = matrixFromRows([
      [0, 3],
      [0, 0],
    ]);
    const s = plan(m, "shift", { payload: true });
    const stages = unpack(s);
    const steps = stages[0]!.steps;
    // elements 1..2 of 0 -> 1 leave node 1 and come back, twice; element 0 stays
    for (let k = 0; k < 2; k++) {
      steps.push({ transfers: [{ src: 1, dst: 0, size: 2, chunks: [[0, 1, 1, 2]] }], stalls: [] });
      steps.push({ transfers: [{ src: 0, dst: 1, size: 2, chunks: [[0, 1, 1, 2]] }], stalls: [] });
    }
    const r = verifySchedule(m, pack({ ...s, algorithm: "hand" }, stages), { ports: 1 });
    expect(r.checks.filter((c) => !c.holds).map((c) => c.id)).toEqual([]);
    expect(row(r, "pass-through").measured).toBe(4);
    expect(row(verifySchedule(m, s, { ports: 1 }), "pass-through").measured).toBe(0);
  });

  it("counts four-stage elements that reach their destination and leave it again (P = 3 dense, arrived=forward)", () => {
    let seen = 0;
    for (let a = 1; a <= 4; a++)
      for (let b = 1; b <= 4; b++) {
        const m = matrixFromRows([
          [a, b, 1],
          [b, 1, a],
          [1, a, b],
        ]);
        const r = verifySchedule(m, plan(m, "four-stage", { payload: true, params: { arrived: "forward" } }), {
          ports: 1,
        });
        expect(r.ok).toBe(true);
        const measured = row(r, "pass-through").measured!;
        expect(row(r, "pass-through").holds).toBe(true);
        if (measured > 0) seen++;
      }
    expect(seen).toBeGreaterThan(0);
  });
});
