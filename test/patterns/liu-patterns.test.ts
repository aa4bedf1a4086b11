import { describe, it, expect } from "vitest";
import fc from "fast-check";
import type { CommMatrix } from "../../src/model/matrix.js";
import { ceilSqrt, generatePattern } from "../../src/patterns/index.js";

/** Cells (i, j) holding `v`, as "i>j" strings. */
function cellsWith(m: CommMatrix, v: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < m.p; i++) for (let j = 0; j < m.p; j++) if (m.data[i * m.p + j] === v) out.push(`${i}>${j}`);
  return out;
}
/** The off-diagonal cells for which `spike` holds. */
function expected(p: number, spike: (i: number, j: number) => boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j && spike(i, j)) out.push(`${i}>${j}`);
  return out;
}

describe("liu-pattern1 (002 Pattern1)", () => {
  it("sends lmax to (i + 1) mod P, 1 to every other node, 0 to itself (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 2, max: 5000 }), (p, lmax) => {
        const m = generatePattern("liu-pattern1", p, { lmax }, 0);
        expect(cellsWith(m, lmax)).toEqual(expected(p, (i, j) => j === (i + 1) % p));
        expect(cellsWith(m, 1)).toEqual(expected(p, (i, j) => j !== (i + 1) % p));
        for (let i = 0; i < p; i++) expect(m.data[i * p + i]).toBe(0);
      }),
      { numRuns: 50 },
    );
  });

  it("is the zero matrix at p = 1 and has two spikes at p = 2", () => {
    expect(Array.from(generatePattern("liu-pattern1", 1, {}, 0).data)).toEqual([0]);
    expect(Array.from(generatePattern("liu-pattern1", 2, { lmax: 9 }, 0).data)).toEqual([0, 9, 9, 0]);
  });
});

describe("liu-pattern2 (002 Pattern2)", () => {
  it("sends lmax to (i + 1) mod P and to every j with j mod ceil(sqrt P) = 0, 1 elsewhere (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 2, max: 5000 }), (p, lmax) => {
        const c = ceilSqrt(p);
        const m = generatePattern("liu-pattern2", p, { lmax }, 0);
        const spike = (i: number, j: number): boolean => j === (i + 1) % p || j % c === 0;
        expect(cellsWith(m, lmax)).toEqual(expected(p, spike));
        expect(cellsWith(m, 1)).toEqual(expected(p, (i, j) => !spike(i, j)));
      }),
      { numRuns: 50 },
    );
  });

  it("at P = 16 (C = 4) makes columns 0, 4, 8, 12 hot", () => {
    const m = generatePattern("liu-pattern2", 16, { lmax: 100 }, 0);
    expect(m.data[5 * 16 + 0]).toBe(100);
    expect(m.data[5 * 16 + 12]).toBe(100);
    expect(m.data[5 * 16 + 6]).toBe(100); // (i + 1) mod P
    expect(m.data[5 * 16 + 7]).toBe(1);
    expect(m.data[4 * 16 + 4]).toBe(0); // never to itself
  });
});

describe("liu-pattern3 (002 Pattern3)", () => {
  it("sends every other node a number of tokens in 1..lmax (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 300 }), fc.nat(), (p, lmax, seed) => {
        const m = generatePattern("liu-pattern3", p, { lmax }, seed);
        const bad: number[] = [];
        for (let i = 0; i < p; i++) {
          for (let j = 0; j < p; j++) {
            const v = m.data[i * p + j]!;
            if (i === j ? v !== 0 : v < 1 || v > lmax) bad.push(i * p + j);
          }
        }
        expect(bad).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });

  it("reaches both ends of 1..lmax and is uniform 1 at lmax = 1", () => {
    const m = generatePattern("liu-pattern3", 40, { lmax: 4 }, 3);
    expect(new Set(Array.from(m.data).filter((v) => v > 0))).toEqual(new Set([1, 2, 3, 4]));
    expect(new Set(Array.from(generatePattern("liu-pattern3", 10, { lmax: 1 }, 3).data))).toEqual(new Set([0, 1]));
  });
});
