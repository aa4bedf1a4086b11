/** moe: hand-computed dispatches, token conservation (kept + dropped = p x tokens x k), capacity, skew, determinism and option errors. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixToRows } from "../../src/model/matrix.js";
import { generatePattern, generatePatternWithNotes, moeCapacity } from "../../src/patterns/index.js";
import { errorOf } from "../helpers/errors.js";

const sum = (a: ArrayLike<number>): number => Array.from(a).reduce((x, y) => x + y, 0);
const rowSums = (m: { p: number; data: Float64Array }): number[] =>
  Array.from({ length: m.p }, (_, i) => sum(m.data.subarray(i * m.p, (i + 1) * m.p)));
const colSums = (m: { p: number; data: Float64Array }): number[] =>
  Array.from({ length: m.p }, (_, j) => sum(Array.from({ length: m.p }, (_, i) => m.data[i * m.p + j]!)));

describe("moe", () => {
  it("P = 2, one expert per rank, k = 2: every token goes to both experts (any seed, any skew)", () => {
    for (const seed of [1, 2, 3]) {
      const m = generatePattern("moe", 2, { tokens: 10, hidden: 3, k: 2, skew: 2, capacityFactor: 0 }, seed);
      expect(matrixToRows(m)).toEqual([
        [30, 30],
        [30, 30],
      ]);
      expect(m.elementBytes).toBe(2);
    }
  });

  it("P = 1, k = 1, capacityFactor 0.5: capacity ceil(0.5 x 10 / 1) = 5 kept, 5 dropped (told in the notes)", () => {
    const r = generatePatternWithNotes("moe", 1, { tokens: 10, hidden: 4, k: 1, capacityFactor: 0.5 }, 1);
    expect(matrixToRows(r.matrix)).toEqual([[20]]);
    expect(r.notes).toEqual(["5 of 10 token copies dropped (50.00%); capacity 5 copies per expert per rank"]);
  });

  it("P = 4, k = 1, s = 0, no capacity: every row sums to tokens x hidden, columns are near-uniform", () => {
    const m = generatePattern("moe", 4, { tokens: 4000, hidden: 1, k: 1, skew: 0, capacityFactor: 0 }, 9);
    expect(rowSums(m)).toEqual([4000, 4000, 4000, 4000]);
    for (const c of colSums(m)) expect(Math.abs(c - 4000)).toBeLessThan(400); // 4000 +- 6.3 sigma
  });

  it("kept + dropped = p x tokens x k, no rank sends an expert more than its capacity (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 4 }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.constantFrom(0, 0.5, 1, 1.25, 2),
        fc.integer({ min: 0, max: 1000 }),
        (p, experts, tokens, k, skew, capacityFactor, seed) => {
          fc.pre(k <= p * experts);
          const o = { tokens, hidden: 3, experts, k, skew, capacityFactor };
          const { matrix: m, notes } = generatePatternWithNotes("moe", p, o, seed);
          const kept = sum(m.data) / 3;
          const dropped = Number(/^(\d+) of (\d+) /.exec(notes[0]!)![1]);
          expect(kept + dropped).toBe(p * tokens * k);
          const cap = moeCapacity(p, o);
          if (capacityFactor === 0) expect(dropped).toBe(0);
          for (const v of m.data) expect(v / 3).toBeLessThanOrEqual(Math.min(experts * cap, tokens * experts));
          for (const r of rowSums(m)) expect(r).toBeLessThanOrEqual(tokens * k * 3);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("skew concentrates traffic: the busiest destination gets more at s = 2 than at s = 0", () => {
    const busiest = (s: number): number =>
      Math.max(...colSums(generatePattern("moe", 16, { tokens: 512, hidden: 1, skew: s, capacityFactor: 0 }, 4)));
    expect(busiest(2)).toBeGreaterThan(2 * busiest(0));
  });

  it("is deterministic for a seed and changes with it", () => {
    const a = generatePattern("moe", 8, { tokens: 64 }, 5);
    expect(Array.from(generatePattern("moe", 8, { tokens: 64 }, 5).data)).toEqual(Array.from(a.data));
    expect(Array.from(generatePattern("moe", 8, { tokens: 64 }, 6).data)).not.toEqual(Array.from(a.data));
  });

  it("refuses bad options in one line naming the option", () => {
    expect(errorOf(() => generatePattern("moe", 2, { k: 3 }, 1)).message).toBe(
      "patterns: option 'k' of pattern 'moe' must be at most the number of experts p x experts = 2 (p = 2), got 3",
    );
    expect(errorOf(() => generatePattern("moe", 4, { skew: 5 }, 1)).message).toMatch(
      /^patterns: option 'skew' of pattern 'moe' must be/,
    );
    expect(errorOf(() => generatePattern("moe", 4, { capacityFactor: -1 }, 1)).place.field).toBe("capacityFactor");
    expect(errorOf(() => generatePattern("moe", 4, { tokens: 0 }, 1)).message).toContain("option 'tokens'");
  });
});
