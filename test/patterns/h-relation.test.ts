import { describe, it, expect } from "vitest";
import fc from "fast-check";
import type { CommMatrix } from "../../src/model/matrix.js";
import { generatePattern } from "../../src/patterns/index.js";

/** Row and column sums including the diagonal. */
function sums(m: CommMatrix): { rows: number[]; cols: number[] } {
  const rows = new Array<number>(m.p).fill(0),
    cols = new Array<number>(m.p).fill(0);
  for (let i = 0; i < m.p; i++) {
    for (let j = 0; j < m.p; j++) {
      const v = m.data[i * m.p + j]!;
      rows[i]! += v;
      cols[j]! += v;
    }
  }
  return { rows, cols };
}

describe("h-relation (001)", () => {
  it("has every node send and receive exactly h unit messages (property, both self modes)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 70 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom(0, 1),
        fc.nat(),
        (p, h, self, seed) => {
          const m = generatePattern("h-relation", p, { h, self }, seed);
          const { rows, cols } = sums(m);
          expect(rows).toEqual(new Array<number>(p).fill(h));
          expect(cols).toEqual(new Array<number>(p).fill(h));
          if (self === 0) for (let i = 0; i < p; i++) expect(m.data[i * p + i]).toBe(0);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("with self = 1 includes messages to self (001 draws destinations among all N nodes)", () => {
    const m = generatePattern("h-relation", 8, { h: 64, self: 1 }, 1);
    let diag = 0;
    for (let i = 0; i < 8; i++) diag += m.data[i * 8 + i]!;
    expect(diag).toBeGreaterThan(0);
  });

  it("has multiplicities: with h > p some entries exceed 1", () => {
    const m = generatePattern("h-relation", 4, { h: 32 }, 1);
    expect(Math.max(...m.data)).toBeGreaterThan(1);
  });

  it("handles the bounds: h = 0 is empty; p = 1 gives h to itself, or nothing with self = 0; p = 2 with self = 0 is forced", () => {
    expect(Array.from(generatePattern("h-relation", 5, { h: 0 }, 1).data).every((v) => v === 0)).toBe(true);
    expect(Array.from(generatePattern("h-relation", 1, { h: 6 }, 1).data)).toEqual([6]);
    expect(Array.from(generatePattern("h-relation", 1, { h: 6, self: 0 }, 1).data)).toEqual([0]);
    expect(Array.from(generatePattern("h-relation", 2, { h: 3, self: 0 }, 1).data)).toEqual([0, 3, 3, 0]);
  });
});
