/** Sparse CommMatrix: compressed rows built from any coordinate order, the same statistics and digest as dense storage, and no dense copy unless asked. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  entry,
  matrixCols,
  matrixDigest,
  matrixFromCoordinates,
  matrixFromData,
  matrixRows,
  nonzeroCount,
  toDense,
  toSparse,
  zeroMatrix,
  MAX_P,
} from "../../src/model/matrix.js";
import { legacyMatrixDigest } from "../../src/model/matrix-digest.js";
import { matrixStats } from "../../src/model/matrix-stats.js";
import { isCommplanError } from "../../src/model/errors.js";
import { matrixArb } from "../helpers/arbitraries.js";

/** Coordinates of a dense matrix's non-zero entries, shuffled, with some explicit zeros added. */
const coordinates = fc.tuple(matrixArb({ maxP: 12 }), fc.integer({ min: 0, max: 2 ** 31 - 1 })).map(([m, seed]) => {
  const p = m.p;
  const list: [number, number, number][] = [];
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++) if (m.data[i * p + j] !== 0) list.push([i, j, m.data[i * p + j]!]);
  let s = seed;
  for (let k = list.length - 1; k > 0; k--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const x = s % (k + 1);
    [list[k], list[x]] = [list[x]!, list[k]!];
  }
  // explicit zeros on pairs that are zero
  for (let i = 0; i < p && list.length < p * p; i += 3) if (m.data[i * p] === 0) list.push([i, 0, 0]);
  return { m, list };
});

const arrays = (list: [number, number, number][]): [Uint32Array, Uint32Array, Float64Array] => [
  Uint32Array.from(list.map((e) => e[0])),
  Uint32Array.from(list.map((e) => e[1])),
  Float64Array.from(list.map((e) => e[2])),
];

describe("sparse matrices", () => {
  it("coordinates in any order give the dense matrix's entries, rows, columns, statistics and digests", () => {
    fc.assert(
      fc.property(coordinates, ({ m, list }) => {
        const s = matrixFromCoordinates(m.p, ...arrays(list), list.length, { elementBytes: m.elementBytes });
        expect(s.sparse).toBeDefined();
        expect(nonzeroCount(s)).toBe(nonzeroCount(m));
        for (let i = 0; i < m.p; i++) for (let j = 0; j < m.p; j++) expect(entry(s, i, j)).toBe(m.data[i * m.p + j]);
        expect(matrixRows(s)).toEqual(matrixRows(m));
        expect(matrixCols(s)).toEqual(matrixCols(m));
        expect(matrixStats(s)).toEqual(matrixStats(m));
        expect(matrixDigest(s)).toBe(matrixDigest(m));
        expect(legacyMatrixDigest(s)).toBe(legacyMatrixDigest(m));
        expect(Array.from(toDense(s).data)).toEqual(Array.from(m.data));
        expect(toSparse(m).sparse).toEqual(s.sparse);
      }),
      { seed: 16, numRuns: 200 },
    );
  });

  it("a repeated (i, j) is refused naming both places, whatever the values", () => {
    const [r, c, v] = arrays([
      [1, 2, 5],
      [0, 0, 1],
      [1, 2, 0],
    ]);
    expect(() => matrixFromCoordinates(3, r, c, v)).toThrow(/^matrix: entries\[2\]: entry \(1, 2\) appears twice$/);
  });

  it("a sparse matrix at P = 2^20 costs its entries, not P^2; reading data is refused past the budget", () => {
    const p = MAX_P;
    {
      const m = matrixFromCoordinates(p, Uint32Array.of(p - 1, 0), Uint32Array.of(0, p - 1), Float64Array.of(3, 4), 2, {
        maxMemory: 64 * 2 ** 20,
      });
      expect(matrixStats(m).messages).toBe(2);
      expect(entry(m, p - 1, 0)).toBe(3);
      expect(matrixDigest(m)).toMatch(/^mm3x64:[0-9a-f]{16}$/);
      let message = "";
      try {
        void m.data;
      } catch (e) {
        expect(isCommplanError(e)).toBe(true);
        message = (e as Error).message;
      }
      expect(message).toMatch(
        /^matrix: this step has no sparse path: a dense 1048576 x 1048576 copy .* past the memory budget/,
      );
      expect(zeroMatrix(p).sparse).toBeDefined();
    }
  });

  it("the digest of an index past 2^32 carries its high part (P = 2^20: the last pair is index 2^40 - 1)", () => {
    const p = MAX_P;
    const a = matrixFromCoordinates(p, Uint32Array.of(p - 1), Uint32Array.of(p - 1), Float64Array.of(1), 1);
    const b = matrixFromCoordinates(p, Uint32Array.of(4095), Uint32Array.of(p - 1), Float64Array.of(1), 1);
    // (p - 1) * p + p - 1 and 4095 * p + p - 1 agree in their low 32 bits
    expect(((p - 1) * p + p - 1) % 2 ** 32).toBe((4095 * p + p - 1) % 2 ** 32);
    expect(matrixDigest(a)).not.toBe(matrixDigest(b));
  });

  it("a dense matrix past 16384 is refused before its P^2 array, naming the sparse forms", () => {
    expect(() => matrixFromData(16385, new Float64Array(0))).toThrow(
      /maximum 16384 of a dense matrix \(give it in a sparse form/,
    );
  });
});
