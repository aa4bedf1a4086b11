/**
 * The kit against its own suite of mutant planners (test/fixtures/mutants): each is caught on every seed of a fixed
 * set within the default run count, deterministic bugs shrink to their smallest known failing input, the
 * parity-triggered collision is found early, and nondeterministic planners are reported as such.
 */
import { describe, expect, it } from "vitest";
import { fc, plannerProperty, type CommMatrix } from "../../src/testing/index.js";
import { MUTANTS, correct } from "../fixtures/mutants/mutant-planners.js";
import { firstDifference } from "../../src/testing/determinism.js";

const SEEDS = Array.from({ length: 10 }, (_, k) => k + 1);
const DEFAULT_RUNS = 100;
const nonZero = (m: CommMatrix): number[] => Array.from(m.data).filter((v) => v > 0);
const mutant = (start: string) => MUTANTS.find((m) => m.name.startsWith(start))!;

/** fc.check of one mutant on one seed: whether it failed, after how many runs, the check and the counterexample. */
function check(make: () => (m: CommMatrix) => unknown, seed: number, numRuns = DEFAULT_RUNS) {
  const r = fc.check(plannerProperty(make()), { seed, numRuns });
  return {
    failed: r.failed,
    runs: r.numRuns,
    check: (r.errorInstance as { check?: string } | null)?.check,
    witness: (r.errorInstance as { witness?: string } | null)?.witness ?? "",
    m: r.counterexample?.[0],
  };
}

describe("the kit's mutant planners", () => {
  it("has the eight kinds of bug, and the planner they derive from passes", () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(9);
    for (const seed of SEEDS.slice(0, 3)) expect(check(() => correct, seed).failed).toBe(false);
  });

  for (const mu of MUTANTS)
    it(`catches '${mu.name}' on every seed within ${DEFAULT_RUNS} runs, shrunk to its smallest failure`, () => {
      for (const seed of SEEDS) {
        const r = check(mu.make, seed);
        expect({ seed, failed: r.failed }).toEqual({ seed, failed: true });
        if (mu.smallest !== null) expect({ seed, p: r.m!.p, entries: nonZero(r.m!) }).toEqual({ seed, ...mu.smallest });
      }
    });

  it("finds the parity-triggered collision early: median runs to failure on 20 seeds <= 12, none past 100", () => {
    const runs = Array.from({ length: 20 }, (_, k) => check(mutant("parity").make, k + 1, 1000))
      .map((r) => (r.failed ? r.runs : Infinity))
      .sort((a, b) => a - b);
    expect((runs[9]! + runs[10]!) / 2).toBeLessThanOrEqual(12);
    expect(runs[19]).toBeLessThanOrEqual(DEFAULT_RUNS);
  });

  it("shrinks the odd-P drop to P = 3 with M[0][2] = 3 on 20 seeds (P halved and in twos, entries to least)", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = check(mutant("odd-P").make, seed);
      expect({ seed, rows: r.m && Array.from(r.m.data) }).toEqual({ seed, rows: [0, 0, 3, 0, 0, 0, 0, 0, 0] });
    }
  });

  it("reports a planner that reorders its steps at random as nondeterministic, shrunk to P = 3", () => {
    for (const seed of SEEDS) {
      const r = check(mutant("nondeterministic reorder").make, seed);
      expect({ seed, check: r.check, p: r.m?.p }).toEqual({ seed, check: "deterministic", p: 3 });
      expect(r.witness).toMatch(
        /^nondeterministic planner: P = 3 planned twice gives two different schedules; line \d+: /,
      );
    }
  });

  it("reports the planner that drops an element on one call in ten as nondeterministic on most seeds", () => {
    const checks = SEEDS.map((seed) => check(mutant("one call in ten").make, seed).check);
    expect(checks.filter((c) => c === "deterministic").length).toBeGreaterThanOrEqual(8);
  });

  it("names the first difference of two outputs by line, with both excerpts", () => {
    expect(firstDifference("a\nb\nc", "a\nb\nc")).toBeNull();
    expect(firstDifference('{\n"x": 1\n}', '{\n"x": 2\n}')).toBe('line 2: first "\\"x\\": 1", then "\\"x\\": 2"');
    expect(firstDifference("a", "a\nb")).toBe('line 2: first "(end of output)", then "b"');
  });
});
