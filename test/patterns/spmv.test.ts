/** spmv: hand-computed partitions, the real fixture against a direct count, P beyond the rows, and the --file requirement. */
import { describe, expect, it } from "vitest";
import { matrixToRows } from "../../src/model/matrix.js";
import { sparseFromCoordinates, type SparseStructure } from "../../src/model/sparse-structure.js";
import {
  blockOwner,
  blockStart,
  generatePattern,
  generatePatternWithNotes,
  spmvFromStructure,
} from "../../src/patterns/index.js";
import { readSparseMatrixFile } from "../../src/io/sparse-matrix-read.js";
import { errorOf, loose, refused } from "../helpers/errors.js";

const FIXTURE = new URL("../fixtures/matrices/west0479.mtx", import.meta.url).pathname;

/** A structure from (row, col) pairs. */
function structure(n: number, cells: [number, number][]): SparseStructure {
  return sparseFromCoordinates(n, n, Int32Array.from(cells.map((c) => c[0])), Int32Array.from(cells.map((c) => c[1])));
}

/** The spmv matrix counted directly: for every rank, the set of foreign columns its rows touch. */
function direct(p: number, a: SparseStructure): number[][] {
  const m = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let i = 0; i < p; i++) {
    const need = new Set<number>();
    for (let r = 0; r < a.rows; r++) {
      if (blockOwner(a.rows, p, r) !== i) continue;
      for (let e = a.rowStart[r]!; e < a.rowStart[r + 1]!; e++) need.add(a.colIndex[e]!);
    }
    for (const c of need) if (blockOwner(a.cols, p, c) !== i) m[blockOwner(a.cols, p, c)]![i]! += 1;
  }
  return m;
}

describe("spmv", () => {
  it("a 4 x 4 tridiagonal matrix on 2 ranks: each rank needs one x entry of the other", () => {
    const cells: [number, number][] = [];
    for (let i = 0; i < 4; i++) for (const j of [i - 1, i, i + 1]) if (j >= 0 && j < 4) cells.push([i, j]);
    expect(matrixToRows(spmvFromStructure(2, structure(4, cells)))).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it("an arrow matrix (dense first row and column) on 3 ranks: rank 0 gathers everything, sends x_0 to all", () => {
    const cells: [number, number][] = [];
    for (let k = 0; k < 6; k++) cells.push([0, k], [k, 0], [k, k]);
    expect(matrixToRows(spmvFromStructure(3, structure(6, cells)))).toEqual([
      [0, 1, 1],
      [2, 0, 0],
      [2, 0, 0],
    ]);
  });

  it("a diagonal matrix needs no communication; P larger than the rows leaves ranks idle", () => {
    const diag = structure(3, [
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    expect(Array.from(spmvFromStructure(2, diag).data)).toEqual([0, 0, 0, 0]);
    const full = structure(
      3,
      [0, 1, 2].flatMap((i) => [0, 1, 2].map((j): [number, number] => [i, j])),
    );
    expect(matrixToRows(spmvFromStructure(5, full))).toEqual([
      [0, 1, 1, 0, 0],
      [1, 0, 1, 0, 0],
      [1, 1, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
    ]);
  });

  it("the real fixture west0479 agrees with a direct count at p = 1, 4, 7, 16, 479, 600", () => {
    const a = readSparseMatrixFile(FIXTURE);
    for (const p of [1, 4, 7, 16, 479, 600])
      expect(matrixToRows(generatePattern("spmv", p, {}, 1, { sparse: a }))).toEqual(direct(p, a));
    const r = generatePatternWithNotes("spmv", 8, { elementBytes: 4 }, 1, { sparse: a });
    expect(r.matrix.elementBytes).toBe(4);
    expect(r.notes).toEqual(["479 x 479 matrix, 1910 stored entries; 30 messages carry 506 x entries"]);
  });

  it("needs its sparse matrix, and no other pattern takes one", () => {
    const e = errorOf(() => generatePattern("spmv", 4, {}, 1));
    expect(e.message).toMatch(
      /^patterns: pattern 'spmv' needs a sparse matrix: input sparse, a Matrix Market structure/,
    );
    expect(e.place.field).toBe("file");
    const a = structure(2, [[0, 1]]);
    expect(errorOf(() => generatePattern("uniform", 4, {}, 1, { sparse: a })).message).toBe(
      "patterns: pattern 'uniform' reads no file; it takes no input sparse",
    );
  });

  it("blockOwner and blockStart: PETSc's split (the first n mod p ranks own one more), each index owned once", () => {
    for (const [n, p] of [
      [10, 3],
      [3, 5],
      [12, 4],
      [1, 1],
    ] as const) {
      const starts = Array.from({ length: p + 1 }, (_, i) => blockStart(n, p, i));
      expect(starts[0]).toBe(0);
      expect(starts[p]).toBe(n);
      for (let c = 0; c < n; c++) {
        const o = blockOwner(n, p, c);
        expect(c >= starts[o]! && c < starts[o + 1]!, `n ${n} p ${p} c ${c}`).toBe(true);
      }
    }
    expect([0, 1, 2, 3].map((i) => blockStart(10, 3, i))).toEqual([0, 4, 7, 10]);
  });

  it("blockOwner and blockStart refuse what is not a split in one line naming the argument, never NaN", () => {
    expect(refused(() => blockOwner(10, 0, 1), "BAD_OPTION", "p")).toBe(
      "patterns: blockOwner: p must be an integer in 1..1048576, got 0",
    );
    expect(refused(() => blockOwner(10, 3, 10), "BAD_OPTION", "c")).toBe(
      "patterns: blockOwner: c must be an index in 0..9, got 10",
    );
    expect(refused(() => blockOwner(10, 3, 1.5), "BAD_OPTION", "c")).toMatch(/got 1\.5$/);
    expect(refused(() => blockOwner(0, 3, 0), "BAD_OPTION", "n")).toMatch(
      /^patterns: blockOwner: n must be an integer in 1\.\./,
    );
    expect(refused(() => loose(blockOwner)("10", 3, 1), "BAD_OPTION", "n")).toMatch(/got "10"$/);
    expect(refused(() => blockStart(10, 3, 4), "BAD_OPTION", "i")).toBe(
      "patterns: blockStart: i must be a rank in 0..3 (p: the end of the last), got 4",
    );
    expect(refused(() => blockStart(-1, 3, 0), "BAD_OPTION", "n")).toMatch(/^patterns: blockStart: n must be/);
    expect(refused(() => blockStart(NaN, 3, 0), "BAD_OPTION", "n")).toMatch(/got NaN$/);
    expect(refused(() => loose(blockStart)(10, null, 0), "BAD_OPTION", "p")).toMatch(/got null$/);
    expect(blockStart(0, 3, 3)).toBe(0); // an empty split is a split
  });
});
