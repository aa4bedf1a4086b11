import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { isCommplanError } from "../../src/model/errors.js";
import { matrixStats } from "../../src/model/matrix-stats.js";
import type { CommMatrix } from "../../src/model/matrix.js";
import { generatePattern, rankaKlSlotSizes } from "../../src/patterns/index.js";

function rowValues(m: CommMatrix, i: number): number[] {
  return Array.from(m.data.subarray(i * m.p, (i + 1) * m.p));
}
const nonZeroSorted = (xs: readonly number[]): number[] => xs.filter((v) => v > 0).sort((a, b) => a - b);

describe("rankaKlSlotSizes", () => {
  it("reproduces the paper's example k = 32, l = 1/32: one destination gets 31/32 of t", () => {
    const s = rankaKlSlotSizes(32, 1 / 32, 1024);
    expect(s.length).toBe(32);
    expect(s[0]).toBe(992);
    expect(s.slice(1).reduce((a, b) => a + b, 0)).toBe(32);
    expect(s.slice(1).every((v) => v === 1 || v === 2)).toBe(true);
  });

  it("gives k = 2, l = 1/2 two equal halves (the paper's uniform worst case)", () => {
    expect(rankaKlSlotSizes(2, 0.5, 1000)).toEqual([500, 500]);
  });

  it("splits evenly when round(l k) is 0 or k (l = 0, l = 1, k = 1)", () => {
    expect(rankaKlSlotSizes(4, 0, 10)).toEqual([3, 3, 2, 2]);
    expect(rankaKlSlotSizes(4, 1, 10)).toEqual([3, 3, 2, 2]);
    expect(rankaKlSlotSizes(1, 0.3, 10)).toEqual([10]);
  });

  it("always sums to t with k parts differing by at most 1 within each group", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (k, l, t) => {
          const s = rankaKlSlotSizes(k, l, t);
          expect(s.length).toBe(k);
          expect(s.reduce((a, b) => a + b, 0)).toBe(t);
          for (const v of s) expect(Number.isInteger(v) && v >= 0).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("ranka-kl (000 section 7)", () => {
  it("gives every row and every column exactly t, fan-out and fan-in at most k, an empty diagonal (property)", () => {
    const arb = fc
      .integer({ min: 2, max: 70 })
      .chain((p) =>
        fc.tuple(
          fc.constant(p),
          fc.integer({ min: 1, max: p - 1 }),
          fc.constantFrom(0, 1 / 32, 0.1, 0.25, 0.5, 0.75, 1),
          fc.integer({ min: 1, max: 5000 }),
          fc.nat(),
        ),
      );
    fc.assert(
      fc.property(arb, ([p, k, l, t, seed]) => {
        const m = generatePattern("ranka-kl", p, { k, l, t }, seed);
        const s = matrixStats(m);
        expect(s.selfTotal).toBe(0);
        const slots = rankaKlSlotSizes(k, l, t);
        const full = slots.every((v) => v > 0);
        for (let i = 0; i < p; i++) {
          expect(s.rowTraffic[i]).toBe(t);
          expect(s.colTraffic[i]).toBe(t);
          expect(s.fanOut[i]).toBeLessThanOrEqual(k);
          expect(s.fanIn[i]).toBeLessThanOrEqual(k);
          if (full) {
            expect(s.fanOut[i]).toBe(k);
            expect(s.fanIn[i]).toBe(k);
          }
          expect(nonZeroSorted(rowValues(m, i))).toEqual(nonZeroSorted(slots));
        }
      }),
      { numRuns: 50 },
    );
  });

  it("builds the k = 32, l = 1/32 case of the paper at p = 64", () => {
    const m = generatePattern("ranka-kl", 64, { k: 32, l: 1 / 32, t: 1024 }, 7);
    const s = matrixStats(m);
    for (let i = 0; i < 64; i++) {
      const row = nonZeroSorted(rowValues(m, i));
      expect(row.length).toBe(32);
      expect(row[31]).toBe(992);
      expect(s.colTraffic[i]).toBe(1024);
    }
  });

  it("is all-to-all at k = p - 1 and works at p = 2", () => {
    expect(matrixStats(generatePattern("ranka-kl", 9, { k: 8, t: 800 }, 1)).classification).toBe("all-to-all");
    const two = generatePattern("ranka-kl", 2, { k: 1, t: 5 }, 1);
    expect(Array.from(two.data)).toEqual([0, 5, 5, 0]);
  });

  it("rejects k >= p with an error naming k (p = 1 has no valid k)", () => {
    for (const [p, k] of [
      [4, 4],
      [4, 9],
      [1, 1],
    ] as const) {
      let caught: unknown;
      try {
        generatePattern("ranka-kl", p, { k }, 1);
      } catch (e) {
        caught = e;
      }
      expect(isCommplanError(caught)).toBe(true);
      expect((caught as Error).message).toMatch(/^patterns: option 'k' of pattern 'ranka-kl' must be less than p/);
    }
  });
});
