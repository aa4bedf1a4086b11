import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixFromRows } from "../../src/model/matrix.js";
import { matrixStats } from "../../src/model/matrix-stats.js";
import { lpPartner, lpRounds, plan } from "../../src/planner/index.js";
import { linearPermutationSteps, verifySchedule } from "../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";

describe.each(["linear-permutation", "shift"])("%s", (algorithm) => {
  it("every plan verifies, message level, for P 1..70 (dense, sparse, empty rows, zero, entries up to 2^40)", () => {
    fc.assert(
      fc.property(matrixRecipe(), (r) => {
        const m = buildMatrix(r);
        const rep = verifySchedule(m, plan(m, algorithm));
        expect(rep.checks.filter((c) => !c.holds)).toEqual([]);
      }),
      { numRuns: 120 },
    );
  });

  it("every payload plan verifies element by element", () => {
    fc.assert(
      fc.property(matrixRecipe({ maxP: 40 }), (r) => {
        const m = buildMatrix(r);
        const s = plan(m, algorithm, { payload: true, seed: r.seed });
        const rep = verifySchedule(m, s);
        expect(rep.checks.filter((c) => !c.holds)).toEqual([]);
        expect(rep.checks.map((c) => c.id)).toContain("delivery");
      }),
      { numRuns: 80 },
    );
  });

  it("a uniform all-to-all needs exactly the bound on steps, and no step is empty", () => {
    for (const p of [1, 2, 3, 4, 7, 8, 12, 61, 64]) {
      const m = buildMatrix({ p, kind: "dense", seed: 1, maxEntry: 1 });
      const s = plan(m, algorithm);
      const expected = algorithm === "shift" ? Math.max(0, p - 1) : linearPermutationSteps(p);
      expect(s.stepCount).toBe(expected);
      for (let st = 0; st < s.stepCount; st++) expect(s.stepStart[st + 1]! - s.stepStart[st]!).toBeGreaterThan(0);
      expect(s.transferCount).toBe(p * (p - 1));
    }
  });
});

describe("linear permutation partners", () => {
  it("is the paper's i XOR k when P is a power of two", () => {
    for (let r = 1; r < 16; r++) for (let i = 0; i < 16; i++) expect(lpPartner(16, r, i)).toBe(i ^ r);
  });
  it("the circle method pairs every two nodes exactly once, symmetric in every round, for every P up to 70", () => {
    for (let p = 2; p <= 70; p++) {
      const met = new Uint8Array(p * p);
      const [a, b] = lpRounds(p);
      expect(b - a + 1).toBe(linearPermutationSteps(p));
      for (let r = a; r <= b; r++) {
        for (let i = 0; i < p; i++) {
          const j = lpPartner(p, r, i);
          if (j < 0) continue;
          expect(j).not.toBe(i);
          expect(lpPartner(p, r, j)).toBe(i);
          met[i * p + j]!++;
        }
      }
      for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) expect(met[i * p + j]).toBe(i === j ? 0 : 1);
    }
  });
  it("plans 003 table 1 with partner i XOR k, one step per round that has a message", () => {
    const t1 = [
      [0, 1, 1, 0, 0, 0, 1, 0],
      [1, 0, 1, 1, 0, 0, 0, 1],
      [1, 1, 0, 1, 1, 0, 1, 0],
      [0, 1, 1, 0, 1, 1, 0, 0],
      [0, 0, 1, 1, 0, 1, 1, 1],
      [0, 0, 0, 1, 1, 0, 0, 1],
      [1, 0, 1, 0, 1, 0, 0, 1],
      [0, 1, 0, 0, 1, 1, 1, 0],
    ];
    const m = matrixFromRows(t1);
    const s = plan(m, "linear-permutation", { payload: true });
    const busyRounds = [1, 2, 3, 4, 5, 6, 7].filter((k) => t1.some((row, i) => row[i ^ k]! > 0));
    expect(busyRounds.length).toBeLessThan(7); // round k = 5 has no message: the plan drops it
    expect(s.stepCount).toBe(busyRounds.length);
    expect(s.transferCount).toBe(matrixStats(m).messages);
    expect(verifySchedule(m, s).ok).toBe(true);
  });
  it("rejects parameters it does not take", () => {
    const m = buildMatrix({ p: 4, kind: "dense", seed: 1, maxEntry: 3 });
    expect(() => plan(m, "shift", { params: { x: 1 } })).toThrow(/shift: unknown parameter 'x'; known: \(none\)/);
    expect(() => plan(m, "nope")).toThrow(/unknown algorithm 'nope'; known: linear-permutation, shift/);
  });
});
