/** The max pair load model (independent Binomial(h, 1/N) pairs) against sampled random h-relations. */
import { describe, expect, it } from "vitest";
import { generatePattern } from "../../src/patterns/index.js";
import { maxPairLoadModel, meanSd } from "../../src/experiments/index.js";
import { relationLoad } from "../../src/planner/total-exchange/index.js";

describe("maxPairLoadModel", () => {
  it.each([
    [16, 4, 400],
    [32, 8, 300],
  ] as const)(
    "N = %i, h = %iN: the mean max pair load of %i sampled relations is within 3 SE of the model; the sds agree to 15 percent",
    (n, k, samples) => {
      const xs: number[] = [];
      for (let s = 1; s <= samples; s++)
        xs.push(relationLoad(generatePattern("h-relation", n, { h: k * n }, 1000 + s)).maxPair);
      const { mean, sd } = meanSd(xs);
      const model = maxPairLoadModel(n, k * n);
      expect(Math.abs(mean - model.mean)).toBeLessThanOrEqual((3 * sd) / Math.sqrt(samples));
      expect(Math.abs(sd / model.sd - 1)).toBeLessThan(0.15);
    },
  );

  it("is a distribution: cdf rises from 0 to 1; a single pair (N = 2) is Binomial(h, 1/2)", () => {
    const m = maxPairLoadModel(64, 640);
    expect(m.cdf(-1)).toBe(0);
    expect(m.cdf(640)).toBe(1);
    for (let k = 1; k < 60; k++) expect(m.cdf(k)).toBeGreaterThanOrEqual(m.cdf(k - 1));
    // N = 2: max of 2 pairs, each Binomial(4, 1/2): P(max <= 1) = (5/16)^2
    expect(maxPairLoadModel(2, 4).cdf(1)).toBeCloseTo((5 / 16) ** 2, 12);
    expect(maxPairLoadModel(1, 4).mean).toBe(0);
  });
});
