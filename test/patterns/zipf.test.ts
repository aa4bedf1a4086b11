/** Zipf weights and the exact draw without replacement that moe and shuffle use, against a direct scan of the remaining items. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { cumulative, drawExcluding, searchCumulative, zipfWeights } from "../../src/patterns/index.js";

/** The item a uniform u picks among the items not chosen, by a plain scan (weights are integers, so sums are exact). */
function scan(w: readonly number[], chosen: readonly number[], u: number): number {
  const free = w.map((x, k) => (chosen.includes(k) ? 0 : x));
  const target = u * free.reduce((a, b) => a + b, 0);
  let acc = 0;
  for (let k = 0; k < free.length; k++) {
    acc += free[k]!;
    if (acc > target) return k;
  }
  return free.length - 1 - [...free].reverse().findIndex((x) => x > 0);
}

describe("zipf helpers", () => {
  it("zipfWeights: 1 / r^s, uniform at s = 0", () => {
    expect(Array.from(zipfWeights(3, 0))).toEqual([1, 1, 1]);
    expect(Array.from(zipfWeights(4, 1))).toEqual([1, 1 / 2, 1 / 3, 1 / 4]);
    expect(Array.from(zipfWeights(3, 2))).toEqual([1, 1 / 4, 1 / 9]);
  });

  it("searchCumulative finds the first item whose cumulative sum exceeds x, skipping empty items", () => {
    const cum = cumulative(Float64Array.from([2, 0, 3, 0]));
    expect([0, 1.9, 2, 4.9, 5, 7].map((x) => searchCumulative(cum, x))).toEqual([0, 0, 2, 2, 2, 2]);
  });

  it("drawExcluding with u just below 1 and the last item chosen picks the last free item (rounding pushed the target past the end)", () => {
    // u * 2 = 1.9999999999999998; adding the first chosen weight rounds to exactly 3, past the free weight
    expect(
      drawExcluding(cumulative(Float64Array.from([1, 1, 1, 1])), Int32Array.from([0, 3]), 2, 0.9999999999999999),
    ).toBe(2);
  });

  it("drawExcluding picks exactly the item a scan of the remaining weights picks, never a chosen one (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 2, maxLength: 12 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (w, u, pick) => {
          const chosen = [...new Set([pick % w.length, (pick >>> 8) % w.length])]
            .slice(0, w.length - 1)
            .sort((a, b) => a - b);
          const r = drawExcluding(cumulative(Float64Array.from(w)), Int32Array.from(chosen), chosen.length, u);
          expect(chosen).not.toContain(r);
          expect(r).toBe(scan(w, chosen, u));
        },
      ),
      { numRuns: 300 },
    );
  });
});
