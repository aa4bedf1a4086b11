/** Verifier rows of the permutation planners: coloring's steps with ports > 1, its recomputed sum of step maxima and lower bound, split-coloring's header-model rows. */
import { describe, expect, it } from "vitest";
import { matrixFromRows } from "../../src/model/matrix.js";
import { coloring, splitColoring } from "../../src/planner/permutation/index.js";
import type { JsonValue } from "../../src/model/schedule.js";
import { resolvePlanOptions } from "../../src/planner/registry.js";
import type { Planner, PlanOptions } from "../../src/planner/types.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { wholeMessageSumLowerBound } from "../../src/verifier/permutation-bounds.js";
import { generatePattern } from "../../src/patterns/index.js";
import { matrixStats } from "../../src/model/matrix-stats.js";

const opts = (planner: Planner, params: { readonly [k: string]: JsonValue } = {}): PlanOptions =>
  resolvePlanOptions(planner, { payload: true, seed: 1, params });
const row = (r: ReturnType<typeof verifySchedule>, id: string) => r.checks.find((c) => c.id === id);
// the audit's matrix: lower bound 75, largest row / column traffic t = 71
const AUDIT = matrixFromRows([
  [0, 0, 0, 8, 2],
  [9, 0, 5, 0, 0],
  [1, 58, 0, 0, 12],
  [0, 9, 19, 0, 5],
  [49, 0, 2, 0, 0],
]);

describe("coloring rows", () => {
  it("a single-port coloring plan verifies with --ports 2: exactly h steps, lower bound ceil(h / 2)", () => {
    const m = generatePattern("wang-set1", 32, { d: 16 }, 3);
    const s = coloring.plan(m, opts(coloring));
    const r = verifySchedule(m, s, { ports: 2 });
    expect(r.checks.filter((c) => !c.holds)).toEqual([]);
    expect(row(r, "steps-exact")!.bound).toBe(16);
    expect(row(r, "steps-lower-bound")!.bound).toBe(8);
  });

  it("recomputes the sum of step maxima and the lower bound; a tampered header fails, the rows never read it", () => {
    const s = coloring.plan(AUDIT, opts(coloring));
    expect(wholeMessageSumLowerBound(AUDIT)).toBe(75);
    const r = verifySchedule(AUDIT, s);
    expect(row(r, "sum-of-step-maxima")).toMatchObject({ holds: true, measured: 75, bound: 75 });
    expect(row(r, "coloring-header-sums")!.holds).toBe(true);
    const lied = verifySchedule(AUDIT, { ...s, params: { ...s.params, sumOfMaxima: 70, lowerBound: 70 } });
    expect(row(lied, "sum-of-step-maxima")).toMatchObject({ holds: true, measured: 75, bound: 75 });
    expect(row(lied, "coloring-header-sums")!.holds).toBe(false);
    const bare = verifySchedule(AUDIT, { ...s, params: {} });
    expect(row(bare, "coloring-header-sums")!.title).toContain("not applicable");
    expect(bare.ok).toBe(true);
  });

  it("a plan that splits messages (bvn, sum = t = 71) labelled coloring fails the whole-message lower bound 75", () => {
    const s = splitColoring.plan(AUDIT, opts(splitColoring, { mode: "bvn" }));
    expect(matrixStats(AUDIT).t).toBe(71);
    const r = verifySchedule(AUDIT, { ...s, algorithm: "coloring", params: {} });
    expect(row(r, "sum-of-step-maxima")).toMatchObject({ holds: false, measured: 71, bound: 75 });
  });

  it("the lower bound is the integral of the threshold max degree: ties and a spike", () => {
    // 0->1 and 0->2 (10 each) give node 0 degree 2 for x in (4, 10], 0->3 (4) degree 3 below: 2 x (10 - 4) + 3 x 4 = 24
    expect(
      wholeMessageSumLowerBound(
        matrixFromRows([
          [0, 10, 10, 4],
          [0, 0, 0, 0],
          [0, 0, 0, 0],
          [0, 0, 0, 0],
        ]),
      ),
    ).toBe(24);
    expect(
      wholeMessageSumLowerBound(
        matrixFromRows([
          [7, 0],
          [0, 7],
        ]),
      ),
    ).toBe(0);
  });
});

describe("split-coloring chunk rows", () => {
  it("with a chunk outside [alpha/beta, L/h] the 2x row is shown as not applicable, with the interval", () => {
    const m = matrixFromRows([
      [0, 100, 100],
      [100, 0, 100],
      [100, 100, 0],
    ]);
    const s = splitColoring.plan(m, opts(splitColoring, { chunk: 1 })); // alpha/beta ~ 1400 elements at 8 bytes, L/h = 100
    const r = verifySchedule(m, s);
    const x2 = row(r, "split-chunk-2x")!;
    expect(x2.holds).toBe(true);
    expect(x2.bound).toBeNull();
    expect(x2.title).toMatch(/not applicable: s = 1 lies outside \[100, \d+/);
    expect(row(r, "split-chunk-time")!.title).toContain("header's model");
  });
});
