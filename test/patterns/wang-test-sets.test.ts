import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { isCommplanError } from "../../src/model/errors.js";
import { matrixStats } from "../../src/model/matrix-stats.js";
import { generatePattern } from "../../src/patterns/index.js";

const pAndD = fc
  .integer({ min: 1, max: 70 })
  .chain((p) => fc.tuple(fc.constant(p), fc.integer({ min: 0, max: p - 1 }), fc.nat()));

/** Expects a CommplanError from the patterns module whose message contains `needle`. */
function expectOptionError(fn: () => unknown, needle: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(isCommplanError(caught)).toBe(true);
  expect((caught as Error).message).toMatch(/^patterns: /);
  expect((caught as Error).message).toContain(needle);
}

describe("wang-set1 (003 test set 1)", () => {
  it("has exactly d messages of `unit` elements in every row and column, none on the diagonal (property)", () => {
    fc.assert(
      fc.property(pAndD, fc.integer({ min: 1, max: 1000 }), ([p, d, seed], unit) => {
        const m = generatePattern("wang-set1", p, { d, unit }, seed);
        const s = matrixStats(m);
        expect(s.selfTotal).toBe(0);
        for (let i = 0; i < p; i++) {
          expect(s.fanOut[i]).toBe(d);
          expect(s.fanIn[i]).toBe(d);
        }
        expect(Array.from(m.data).filter((v) => v !== 0 && v !== unit)).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });

  it("handles the bounds: d = 0 is empty, d = p - 1 is all-to-all, p = 1 and p = 2", () => {
    expect(matrixStats(generatePattern("wang-set1", 6, { d: 0 }, 1)).classification).toBe("empty");
    expect(matrixStats(generatePattern("wang-set1", 6, { d: 5 }, 1)).classification).toBe("all-to-all");
    expect(Array.from(generatePattern("wang-set1", 1, { d: 0 }, 1).data)).toEqual([0]);
    expect(Array.from(generatePattern("wang-set1", 2, { d: 1, unit: 3 }, 1).data)).toEqual([0, 3, 3, 0]);
  });

  it("rejects d > p - 1, naming d", () => {
    expectOptionError(
      () => generatePattern("wang-set1", 4, { d: 4 }, 1),
      "option 'd' of pattern 'wang-set1' must be at most p - 1",
    );
    expectOptionError(() => generatePattern("wang-set1", 4, {}, 1), "option 'd'"); // default d = 4 needs p >= 5
    expectOptionError(() => generatePattern("wang-set1", 8, { d: -1 }, 1), "option 'd'");
  });
});

describe("wang-set2 (003 test set 2)", () => {
  it("has the d-regular support with sizes COM(i, j) x unit, COM(i, j) in 1..maxFactor (property)", () => {
    fc.assert(
      fc.property(
        pAndD,
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 40 }),
        ([p, d, seed], unit, maxFactor) => {
          const m = generatePattern("wang-set2", p, { d, unit, maxFactor }, seed);
          const s = matrixStats(m);
          expect(s.selfTotal).toBe(0);
          for (let i = 0; i < p; i++) {
            expect(s.fanOut[i]).toBe(d);
            expect(s.fanIn[i]).toBe(d);
          }
          const bad = Array.from(m.data).filter(
            (v) => v !== 0 && !(v % unit === 0 && v / unit >= 1 && v / unit <= maxFactor),
          );
          expect(bad).toEqual([]);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("shares its support with wang-set1 for the same seed and d", () => {
    const a = generatePattern("wang-set1", 32, { d: 8 }, 5);
    const b = generatePattern("wang-set2", 32, { d: 8 }, 5);
    expect(Array.from(a.data, (v) => v > 0)).toEqual(Array.from(b.data, (v) => v > 0));
  });

  it("uses non-uniform sizes with the default maxFactor 32 and is uniform at maxFactor 1", () => {
    expect(matrixStats(generatePattern("wang-set2", 32, { d: 16 }, 5)).uniform).toBe(false);
    expect(matrixStats(generatePattern("wang-set2", 32, { d: 16, maxFactor: 1, unit: 4 }, 5)).uniform).toBe(true);
  });

  it("rejects maxFactor x unit beyond the size bound, naming maxFactor", () => {
    expectOptionError(
      () => generatePattern("wang-set2", 8, { d: 2, maxFactor: 2 ** 20, unit: 2 ** 20 }, 1),
      "options 'maxFactor' x 'unit'",
    );
  });
});
