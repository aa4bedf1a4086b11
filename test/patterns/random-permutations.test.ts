import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { isCommplanError } from "../../src/model/errors.js";
import { createRng } from "../../src/model/rng.js";
import { ceilSqrt, disjointPermutations, randomDerangement, randomPermutation } from "../../src/patterns/index.js";

const isPermutation = (a: Int32Array): boolean => [...a].sort((x, y) => x - y).every((v, i) => v === i);

describe("random permutations", () => {
  it("randomPermutation and randomDerangement return permutations; derangements have no fixed point", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 70 }), fc.nat(), (p, seed) => {
        const rng = createRng(seed);
        expect(isPermutation(randomPermutation(rng, p))).toBe(true);
        const d = randomDerangement(rng, p);
        expect(isPermutation(d)).toBe(true);
        expect(d.every((v, i) => v !== i)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("disjointPermutations gives d permutations with distinct off-diagonal cells for every d <= p - 1", () => {
    const arb = fc
      .integer({ min: 1, max: 70 })
      .chain((p) => fc.tuple(fc.constant(p), fc.integer({ min: 0, max: p - 1 }), fc.nat()));
    fc.assert(
      fc.property(arb, ([p, d, seed]) => {
        const perms = disjointPermutations(createRng(seed), p, d);
        expect(perms.length).toBe(d);
        const cells = new Set<number>();
        for (const perm of perms) {
          expect(isPermutation(perm)).toBe(true);
          expect(perm.every((j, i) => j !== i)).toBe(true);
          perm.forEach((j, i) => cells.add(i * p + j));
        }
        expect(cells.size).toBe(d * p);
      }),
      { numRuns: 50 },
    );
  });

  it("disjointPermutations rejects d >= p", () => {
    let caught: unknown;
    try {
      disjointPermutations(createRng(1), 4, 4);
    } catch (e) {
      caught = e;
    }
    expect(isCommplanError(caught)).toBe(true);
  });

  it("ceilSqrt is exact", () => {
    for (let n = 1; n <= 5000; n++) {
      const c = ceilSqrt(n);
      expect(c * c >= n && (c - 1) * (c - 1) < n).toBe(true);
    }
  });
});
