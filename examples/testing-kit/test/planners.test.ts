// The example's suite: the kit catches the greedy planner with a shrunk counterexample of at most 4
// nodes, and the shift planner passes every check on random matrices and every pattern family.
import { describe, expect, it } from "vitest";
import {
  anyPatternArb,
  commplanMatchers,
  fc,
  matrixArb,
  matrixFromRows,
  plannerProperty,
  type CommMatrix,
  type CommplanMatchers,
  type ScheduleCheckError,
} from "commplan/testing";
import { greedyPlanner, shiftPlanner } from "../src/planners.js";

expect.extend(commplanMatchers);
declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Assertion<T = any> extends CommplanMatchers<T> {}
}

const plan = (f: (m: { p: number; data: Float64Array }) => object) => (m: CommMatrix) => f(m);

describe("the shift planner", () => {
  it("passes on random matrices (empty rows, the zero matrix, entries up to 2^40)", () => {
    fc.assert(plannerProperty(plan(shiftPlanner), { matrices: matrixArb({ maxP: 10, maxEntry: 2 ** 40 }) }), {
      seed: 1,
      numRuns: 200,
    });
  });

  it("passes on every pattern family of commplan gen, within P - 1 steps", () => {
    fc.assert(plannerProperty(plan(shiftPlanner), { matrices: anyPatternArb({ maxP: 9 }), maxSteps: (m) => m.p - 1 }), {
      seed: 2,
      numRuns: 100,
    });
  });

  it("plans a valid schedule for one matrix (the matcher)", () => {
    const m = matrixFromRows([
      [0, 3, 1],
      [2, 0, 0],
      [0, 4, 0],
    ]);
    expect(shiftPlanner(m)).toBeValidScheduleFor(m);
  });
});

describe("the greedy planner", () => {
  it("is caught: two senders meet at one receiver, shown on a matrix of at most 4 nodes", () => {
    const r = fc.check(plannerProperty(plan(greedyPlanner)), { seed: 1, numRuns: 200 });
    expect(r.failed).toBe(true);
    const e = r.errorInstance as ScheduleCheckError;
    expect(e.check).toBe("node-contention");
    expect(e.witness).toMatch(/receives 2 messages/);
    const [m] = r.counterexample!;
    expect(m.p).toBeLessThanOrEqual(4);
    expect(greedyPlanner(m)).not.toBeValidScheduleFor(m);
  });
});
