import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isCommplanError } from "../../src/model/errors.js";
import {
  matrixDigest,
  matrixFromData,
  matrixFromEntries,
  matrixFromRows,
  matrixToRows,
  zeroMatrix,
} from "../../src/model/matrix.js";
import { matrixStats } from "../../src/model/matrix-stats.js";
import { matrixArb } from "../helpers/arbitraries.js";

// 000 figure 1: all-to-many with equal traffic 10 (blank = 0)
const FIG1 = [
  [0, 3, 1, 0, 2, 1, 2, 1],
  [1, 0, 2, 2, 1, 1, 3, 0],
  [4, 1, 0, 2, 0, 2, 0, 1],
  [0, 2, 0, 0, 0, 3, 1, 4],
  [3, 0, 4, 0, 0, 2, 1, 0],
  [1, 2, 1, 2, 0, 0, 0, 4],
  [0, 2, 1, 0, 7, 0, 0, 0],
  [1, 0, 1, 4, 0, 1, 3, 0],
];

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(isCommplanError(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error("expected a CommplanError");
}

describe("matrix constructors", () => {
  it("rejects non-square, negative, NaN, fractional, empty input and P = 0 with a message naming the problem", () => {
    expect(message(() => matrixFromRows([[1, 2], [3]]))).toMatch(/^matrix: row 1 has 1 entry, expected 2/);
    expect(
      message(() =>
        matrixFromRows([
          [0, -1],
          [0, 0],
        ]),
      ),
    ).toMatch(/M\[0\]\[1\] = -1 is negative/);
    expect(
      message(() =>
        matrixFromRows([
          [0, NaN],
          [0, 0],
        ]),
      ),
    ).toMatch(/M\[0\]\[1\] = NaN/);
    expect(
      message(() =>
        matrixFromRows([
          [0, 1.5],
          [0, 0],
        ]),
      ),
    ).toMatch(/not an integer/);
    expect(message(() => matrixFromRows([]))).toMatch(/empty/);
    expect(message(() => matrixFromEntries(0, []))).toMatch(/p must be a positive integer, got 0/);
    expect(message(() => matrixFromEntries(3, [[0, 3, 1]]))).toMatch(/entries\[0\]: j = 3 is not a node index in 0..2/);
    expect(
      message(() =>
        matrixFromEntries(3, [
          [0, 1, 1],
          [0, 1, 2],
        ]),
      ),
    ).toMatch(/appears twice/);
    expect(
      message(() =>
        matrixFromRows([
          [2 ** 52, 2 ** 52],
          [0, 0],
        ]),
      ),
    ).toMatch(/row 0 sums to more than 2\^53/);
  });

  it("dense and sparse forms give the same matrix and digest", () => {
    const dense = matrixFromRows(FIG1);
    const entries: number[][] = [];
    FIG1.forEach((row, i) => row.forEach((v, j) => v > 0 && entries.push([i, j, v])));
    const sparse = matrixFromEntries(8, entries);
    expect(matrixToRows(sparse)).toEqual(FIG1);
    expect(matrixDigest(sparse)).toBe(matrixDigest(dense));
  });

  it("the digest changes when one entry changes", () => {
    fc.assert(
      fc.property(matrixArb({ maxP: 20, kinds: ["dense", "sparse"] }), fc.nat(), (m, k) => {
        const d = m.data.slice();
        const idx = k % d.length;
        d[idx] = d[idx]! + 1;
        expect(matrixDigest(matrixFromData(m.p, d))).not.toBe(matrixDigest(m));
      }),
      { numRuns: 50 },
    );
  });
});

describe("matrix statistics (000 sec 2, 004 sec 3)", () => {
  it("reproduces figure 1 of 000: equal traffic 10 at every node, all-to-many", () => {
    const s = matrixStats(matrixFromRows(FIG1));
    expect(Array.from(s.rowTraffic)).toEqual(Array(8).fill(10));
    expect(Array.from(s.colTraffic)).toEqual(Array(8).fill(10));
    expect([s.r, s.c, s.t]).toEqual([10, 10, 10]);
    expect(Array.from(s.fanOut)).toEqual([6, 6, 5, 4, 4, 5, 3, 5]);
    expect(s.f).toBe(6);
    expect(s.mMax).toBe(7);
    expect(s.classification).toBe("all-to-many");
    expect(s.uniform).toBe(false);
  });

  it("classifies all-to-all, uniform, empty and counts the diagonal only in L_max", () => {
    const a = matrixStats(
      matrixFromRows([
        [5, 1, 1],
        [1, 0, 1],
        [1, 1, 0],
      ]),
    );
    expect(a.classification).toBe("all-to-all");
    expect(a.uniform).toBe(true);
    expect(a.t).toBe(2);
    expect(a.lMax).toBe(7);
    expect(a.selfTotal).toBe(5);
    expect(matrixStats(zeroMatrix(4)).classification).toBe("empty");
    expect(
      matrixStats(
        matrixFromRows([
          [0, 1, 0],
          [0, 0, 0],
          [0, 1, 0],
        ]),
      ).classification,
    ).toBe("many-to-many");
  });
});

describe("matrix statistics (000 sec 2, 004 sec 3) (continued)", () => {
  it("each class of 000 sec 2, the diagonal left out (f_i = P - 1 is 000's f_i = p)", () => {
    const cls = (rows: number[][]): string => matrixStats(matrixFromRows(rows)).classification;
    // all-to-all: every node sends to every other node (a diagonal changes nothing)
    expect(
      cls([
        [0, 1, 2],
        [3, 0, 4],
        [5, 6, 0],
      ]),
    ).toBe("all-to-all");
    expect(
      cls([
        [9, 1, 2],
        [3, 9, 4],
        [5, 6, 9],
      ]),
    ).toBe("all-to-all");
    // all-to-many: every node sends to some other node
    expect(
      cls([
        [0, 1, 0],
        [0, 0, 1],
        [1, 0, 0],
      ]),
    ).toBe("all-to-many");
    // many-to-all: nodes 0 and 1 send to every other node, node 2 to none; every node receives
    expect(
      cls([
        [0, 1, 1],
        [1, 0, 1],
        [0, 0, 0],
      ]),
    ).toBe("many-to-all");
    // ... and not when a receiver is missing (a lone scatter: node 0 receives from nobody else)
    expect(
      cls([
        [0, 1, 1],
        [0, 0, 0],
        [0, 0, 0],
      ]),
    ).toBe("many-to-many");
    expect(
      cls([
        [7, 1, 1],
        [0, 0, 0],
        [0, 0, 0],
      ]),
    ).toBe("many-to-many");
    // ... and not when a sender is partial (f_i neither 0 nor P - 1), although every node receives
    expect(
      cls([
        [0, 1, 1],
        [1, 0, 0],
        [0, 0, 0],
      ]),
    ).toBe("many-to-many");
    expect(
      cls([
        [0, 1, 1, 1],
        [1, 0, 1, 1],
        [0, 0, 0, 1],
        [0, 0, 0, 0],
      ]),
    ).toBe("many-to-many");
    // many-to-many: the rest
    expect(
      cls([
        [0, 1, 0],
        [0, 0, 0],
        [0, 1, 0],
      ]),
    ).toBe("many-to-many");
    expect(cls([[0]])).toBe("empty");
    expect(matrixStats(zeroMatrix(4)).classification).toBe("empty");
  });

  it("density is the fill messages / P(P - 1); d is 003's active entries per row", () => {
    const s = matrixStats(
      matrixFromRows([
        [0, 1, 0, 1],
        [0, 0, 0, 0],
        [1, 1, 0, 0],
        [0, 0, 3, 0],
      ]),
    );
    expect(s.messages).toBe(5);
    expect(s.density).toBe(5 / 12);
    expect(s.d).toBe(5 / 4);
  });

  it("h = max(f, g) and t = max(r, c) for every matrix; totals add up", () => {
    fc.assert(
      fc.property(matrixArb({ maxP: 40 }), (m) => {
        const s = matrixStats(m);
        expect(s.h).toBe(Math.max(s.f, s.g));
        expect(s.t).toBe(Math.max(s.r, s.c));
        const rows = s.rowTraffic.reduce((a, b) => a + b, 0);
        const cols = s.colTraffic.reduce((a, b) => a + b, 0);
        expect(rows).toBe(cols);
        expect(rows).toBe(s.networkTotal);
        expect(s.fanOut.reduce((a, b) => a + b, 0)).toBe(s.messages);
        expect(s.lMax).toBeGreaterThanOrEqual(s.t);
      }),
      { numRuns: 100 },
    );
  });
});
