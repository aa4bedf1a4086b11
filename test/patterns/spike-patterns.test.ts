import { describe, it, expect } from "vitest";
import fc from "fast-check";
import type { CommMatrix } from "../../src/model/matrix.js";
import { ceilSqrt, generatePattern, transposePartner } from "../../src/patterns/index.js";

/** Column of the mmax entry in each row (-1 if none); asserts at most one per row. */
function spikes(m: CommMatrix, mmax: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < m.p; i++) {
    const cols: number[] = [];
    for (let j = 0; j < m.p; j++) if (m.data[i * m.p + j] === mmax) cols.push(j);
    expect(cols.length).toBeLessThanOrEqual(1);
    out.push(cols[0] ?? -1);
  }
  return out;
}
/** True when every off-diagonal entry that is not the row's spike equals `small` and the diagonal is 0. */
function restIsSmall(m: CommMatrix, spike: readonly number[], small: number): boolean {
  for (let i = 0; i < m.p; i++) {
    for (let j = 0; j < m.p; j++) {
      const v = m.data[i * m.p + j]!;
      if (i === j ? v !== 0 : j !== spike[i] && v !== small) return false;
    }
  }
  return true;
}

describe("pattern1 (004 figure 14, one spike)", () => {
  it("sends mmax to exactly one other node and `small` to the rest (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 70 }), fc.integer({ min: 0, max: 5 }), fc.nat(), (p, small, seed) => {
        const m = generatePattern("pattern1", p, { mmax: 1024, small }, seed);
        const s = spikes(m, 1024);
        for (let i = 0; i < p; i++) {
          expect(s[i]).toBeGreaterThanOrEqual(0);
          expect(s[i]).not.toBe(i);
        }
        expect(restIsSmall(m, s, small)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("chooses the spike at random: over many nodes every other destination occurs", () => {
    const seen = new Set<number>();
    for (let seed = 0; seed < 60; seed++) seen.add(spikes(generatePattern("pattern1", 5, {}, seed), 1024)[0]!);
    expect(seen).toEqual(new Set([1, 2, 3, 4]));
  });

  it("has no spike at p = 1 and the only possible ones at p = 2", () => {
    expect(Array.from(generatePattern("pattern1", 1, {}, 1).data)).toEqual([0]);
    expect(Array.from(generatePattern("pattern1", 2, { mmax: 7 }, 1).data)).toEqual([0, 7, 7, 0]);
  });
});

describe("pattern2 (004 figure 14, 2-D array transpose)", () => {
  it("puts the spike at (i % C) C + floor(i / C), none when that is i or >= P; spikes are symmetric (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 0, max: 5 }), (p, small) => {
        const c = ceilSqrt(p);
        const m = generatePattern("pattern2", p, { mmax: 999, small }, 0);
        const s = spikes(m, 999);
        for (let i = 0; i < p; i++) {
          const j = (i % c) * c + Math.floor(i / c);
          expect(s[i]).toBe(j === i || j >= p ? -1 : j);
          expect(transposePartner(p, i)).toBe(s[i]);
          if (s[i]! >= 0) expect(s[s[i]!]).toBe(i); // an involution: each node receives at most one spike
        }
        expect(restIsSmall(m, s, small)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it("at P = 9 (perfect square) transposes the 3 x 3 array; the diagonal nodes 0, 4, 8 have no spike", () => {
    expect(spikes(generatePattern("pattern2", 9, {}, 0), 1024)).toEqual([-1, 3, 6, 1, -1, 7, 2, 5, -1]);
  });

  it("at P = 7 (C = 3) drops the spike of node 5, whose partner 7 does not exist, and of the diagonal nodes 0, 4", () => {
    expect(spikes(generatePattern("pattern2", 7, {}, 0), 1024)).toEqual([-1, 3, 6, 1, -1, -1, 2]);
  });

  it("has no spike at p = 1 and p = 2 (C = 2: node 1's partner is 2 >= P)", () => {
    expect(Array.from(generatePattern("pattern2", 1, {}, 0).data)).toEqual([0]);
    expect(Array.from(generatePattern("pattern2", 2, { small: 3 }, 0).data)).toEqual([0, 3, 3, 0]);
  });
});
