/**
 * A plannerProperty (or asyncPlannerProperty) object given to fast-check twice samples its determinism check as a new
 * one would: the run counter and the "two plans differed" flag start afresh with each fc.assert or fc.check, with
 * fast-check's `unbiased: true` (which passes no run index) as without.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asyncPlannerProperty, plannerProperty } from "../../src/testing/index.js";
import { plan } from "../../src/planner/index.js";
import type { CommMatrix } from "../../src/model/matrix.js";
import { scheduleToJsonText } from "../../src/io/index.js";

/** A shift planner that counts its calls, and plans differently each call (another seed) while `unstable` is set. */
function countingPlanner(): { calls: number; unstable: boolean; plan: (m: CommMatrix) => unknown } {
  const c = {
    calls: 0,
    unstable: false,
    plan: (m: CommMatrix): unknown => {
      const text = scheduleToJsonText(plan(m, "shift"));
      return c.unstable ? text.replace('"seed":null', `"seed":${++c.calls}`) : (c.calls++, text);
    },
  };
  return c;
}

const RUNS = { numRuns: 25, seed: 7 };

describe("a property object run twice", () => {
  it("plans each run as often as a new property does (the sampling counter starts afresh)", () => {
    const fresh = countingPlanner();
    fc.assert(plannerProperty(fresh.plan), RUNS);
    expect(fresh.calls).toBe(25 + 3); // runs 1, 11 and 21 planned twice

    const reused = countingPlanner();
    const prop = plannerProperty(reused.plan);
    fc.assert(prop, RUNS);
    expect(reused.calls).toBe(fresh.calls);
    reused.calls = 0;
    fc.assert(prop, RUNS);
    expect(reused.calls).toBe(fresh.calls);
  });

  it("a nondeterminism seen in one run does not make the next plan every matrix twice", async () => {
    const c = countingPlanner();
    const prop = asyncPlannerProperty(async (m) => c.plan(m));
    c.unstable = true;
    const failed = await fc.check(prop, RUNS);
    expect(failed.failed).toBe(true);
    expect(String(failed.errorInstance)).toMatch(/check 'deterministic' fails/);
    c.unstable = false;
    c.calls = 0;
    await fc.assert(prop, RUNS);
    expect(c.calls).toBe(25 + 3);
  });

  it.each([
    ["biased", {}],
    ["unbiased", { unbiased: true }],
  ] as const)("%s: a reused property samples as a new one, and forgets a nondeterminism", (_, bias) => {
    const runs = { ...RUNS, ...bias };
    const fresh = countingPlanner();
    fc.assert(plannerProperty(fresh.plan), runs);
    expect(fresh.calls).toBe(25 + 3);
    const c = countingPlanner();
    const prop = plannerProperty(c.plan);
    for (let i = 0; i < 2; i++) {
      c.calls = 0;
      fc.assert(prop, runs);
      expect(c.calls).toBe(fresh.calls);
    }
    c.unstable = true;
    expect(fc.check(prop, runs).failed).toBe(true);
    c.unstable = false;
    c.calls = 0;
    fc.assert(prop, runs);
    expect(c.calls).toBe(fresh.calls);
  });
});
