/** shuffle: row conservation, hand cases (one key, one rank), hash vs range skew, determinism and option errors. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixToRows } from "../../src/model/matrix.js";
import { fmix32, generatePattern, generatePatternWithNotes } from "../../src/patterns/index.js";
import { errorOf } from "../helpers/errors.js";

const sum = (a: ArrayLike<number>): number => Array.from(a).reduce((x, y) => x + y, 0);
const colSums = (m: { p: number; data: Float64Array }): number[] =>
  Array.from({ length: m.p }, (_, j) => sum(Array.from({ length: m.p }, (_, i) => m.data[i * m.p + j]!)));

describe("shuffle", () => {
  it("every rank sends exactly its rows; the total is p x rows (property over both partitionings)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.integer({ min: 0, max: 1 }),
        fc.integer({ min: 0, max: 99 }),
        (p, rows, keys, skew, range, seed) => {
          const m = generatePattern("shuffle", p, { rows, keys, skew, range, samples: 4 }, seed);
          for (let i = 0; i < p; i++) expect(sum(m.data.subarray(i * p, (i + 1) * p))).toBe(rows);
          expect(sum(m.data)).toBe(p * rows);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("P = 1 keeps every row; rows are 100-byte records by default", () => {
    const m = generatePattern("shuffle", 1, { rows: 7 }, 1);
    expect(matrixToRows(m)).toEqual([[7]]);
    expect(m.elementBytes).toBe(100);
  });

  it("one key: hash partitioning sends everything to rank fmix32(0) mod p; range partitioning to bucket 0", () => {
    const hash = generatePattern("shuffle", 5, { rows: 3, keys: 1 }, 1);
    const target = fmix32(0) % 5;
    expect(colSums(hash)).toEqual([0, 1, 2, 3, 4].map((j) => (j === target ? 15 : 0)));
    expect(colSums(generatePattern("shuffle", 5, { rows: 3, keys: 1, range: 1 }, 1))).toEqual([15, 0, 0, 0, 0]);
  });

  it("no skew: hash-partitioned columns are near-uniform; strong skew makes one rank the hot spot", () => {
    const flat = colSums(generatePattern("shuffle", 8, { rows: 4000, skew: 0 }, 3));
    for (const c of flat) expect(Math.abs(c - 4000)).toBeLessThan(400);
    const r = generatePatternWithNotes("shuffle", 8, { rows: 4000, skew: 2 }, 3);
    expect(Math.max(...colSums(r.matrix))).toBeGreaterThan(4000 * 8 * 0.5); // the top key alone has 1/zeta(2) ~ 61%
    expect(r.notes[0]).toMatch(/^the busiest rank receives \d+ rows, \d+\.\d\d x the mean$/);
  });

  it("range partitioning with sampled splitters balances uniform keys (sample sort)", () => {
    const cols = colSums(generatePattern("shuffle", 8, { rows: 4000, skew: 0, range: 1, samples: 64 }, 3));
    for (const c of cols) expect(c).toBeLessThan(4000 * 1.5);
  });

  it("is deterministic for a seed and changes with it", () => {
    const a = generatePattern("shuffle", 6, { rows: 50, range: 1 }, 8);
    expect(Array.from(generatePattern("shuffle", 6, { rows: 50, range: 1 }, 8).data)).toEqual(Array.from(a.data));
    expect(Array.from(generatePattern("shuffle", 6, { rows: 50, range: 1 }, 9).data)).not.toEqual(Array.from(a.data));
  });

  it("refuses bad options in one line naming the option", () => {
    expect(errorOf(() => generatePattern("shuffle", 4, { range: 2 }, 1)).message).toBe(
      "patterns: option 'range' of pattern 'shuffle' must be an integer in 0..1, got 2",
    );
    expect(errorOf(() => generatePattern("shuffle", 4, { keys: 0 }, 1)).place.field).toBe("keys");
    expect(errorOf(() => generatePattern("shuffle", 4, { skew: -1 }, 1)).message).toContain("option 'skew'");
  });
});
