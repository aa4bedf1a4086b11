import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { matrixStats } from "../../src/model/matrix-stats.js";
import { generatePattern } from "../../src/patterns/index.js";

describe("uniform", () => {
  it("fills every off-diagonal entry with size and leaves the diagonal 0 (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 0, max: 1000 }), (p, size) => {
        const m = generatePattern("uniform", p, { size }, 0);
        const bad = Array.from(m.data).filter((v, x) => v !== (Math.floor(x / p) === x % p ? 0 : size));
        expect(bad).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });

  it("is all-to-all with uniform messages", () => {
    const s = matrixStats(generatePattern("uniform", 6, { size: 3 }, 0));
    expect(s.classification).toBe("all-to-all");
    expect(s.uniform).toBe(true);
  });
});

describe("zero", () => {
  it("is all zeros at every p", () => {
    for (const p of [1, 2, 17]) {
      const m = generatePattern("zero", p, {}, 0);
      expect(m.data.length).toBe(p * p);
      expect(Array.from(m.data).every((v) => v === 0)).toBe(true);
    }
  });
});

describe("random", () => {
  it("has an empty diagonal and off-diagonal entries 0 or in 1..max (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 500 }),
        fc.nat(),
        (p, density, max, seed) => {
          const m = generatePattern("random", p, { density, max }, seed);
          const bad = Array.from(m.data).filter((v, x) =>
            Math.floor(x / p) === x % p ? v !== 0 : v !== 0 && (v < 1 || v > max),
          );
          expect(bad).toEqual([]);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("is empty at density 0 and all-to-all at density 1", () => {
    expect(matrixStats(generatePattern("random", 10, { density: 0 }, 1)).classification).toBe("empty");
    expect(matrixStats(generatePattern("random", 10, { density: 1 }, 1)).classification).toBe("all-to-all");
    expect(matrixStats(generatePattern("random", 10, { density: 1, max: 1 }, 1)).uniform).toBe(true);
  });

  it("has about density p (p - 1) messages", () => {
    const s = matrixStats(generatePattern("random", 60, { density: 0.3 }, 4));
    expect(s.density).toBeGreaterThan(0.25);
    expect(s.density).toBeLessThan(0.35);
  });
});
