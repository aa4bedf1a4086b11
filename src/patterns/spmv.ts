/**
 * spmv: the communication of a distributed sparse matrix-vector product y = A x under a block-row partition (each rank
 * gathers the x entries its rows touch).
 */
import { memoryBudgetOf } from "../host/memory.js";
import { fail } from "../model/errors.js";
import { growF64, growU32 } from "../internal/growable.js";
import { counted } from "../internal/plural.js";
import { matrixFromCoordinates, matrixRows, type CommMatrix } from "../model/matrix.js";
import type { SparseStructure } from "../model/sparse-structure.js";
import { elementBytesOption, definePattern } from "./pattern-options.js";
import { checkArg, isIntIn } from "../model/option-checks.js";
import { MAX_ELEMENT_BYTES, MAX_P } from "../model/limits.js";
import { sparseStructureProblem } from "../model/sparse-structure.js";

/** blockOwner without its checks: the spmv pattern's per-column lookup (its arguments checked once by the caller). */
function ownerOf(n: number, p: number, c: number): number {
  const q = Math.floor(n / p),
    r = n % p;
  return c < r * (q + 1) ? Math.floor(c / (q + 1)) : r + Math.floor((c - r * (q + 1)) / q);
}

/** blockStart without its checks: the spmv pattern's per-rank lookup. */
function startOf(n: number, p: number, i: number): number {
  const q = Math.floor(n / p),
    r = n % p;
  return i * q + Math.min(i, r);
}

/** Refuses, naming `fn`, an `n` that is not an integer in lo..2^53 - 1 or a `p` that is not an integer in 1..MAX_P. */
function checkSplit(fn: string, n: unknown, p: unknown, lo: number): void {
  const what = `an integer in ${lo}..${Number.MAX_SAFE_INTEGER}`;
  checkArg("patterns", fn, "n", n, isIntIn(n, lo, Number.MAX_SAFE_INTEGER), what, "BAD_OPTION");
  checkArg("patterns", fn, "p", p, isIntIn(p, 1, MAX_P), `an integer in 1..${MAX_P}`, "BAD_OPTION");
}

/**
 * The rank owning index c of n split over p ranks as PETSc's PetscSplitOwnership does (the first n mod p ranks own one
 * more). Refuses in one line an n that is not an integer >= 1, a p not in 1..MAX_P or a c that is not an index in
 * 0..n-1.
 */
export function blockOwner(n: number, p: number, c: number): number {
  checkSplit("blockOwner", n, p, 1);
  checkArg("patterns", "blockOwner", "c", c, isIntIn(c, 0, n - 1), `an index in 0..${n - 1}`, "BAD_OPTION");
  return ownerOf(n, p, c);
}

/**
 * The first index rank i owns under blockOwner's split (i = p: n, the end of the last). Refuses in one line an n that
 * is not an integer >= 0, a p not in 1..MAX_P or an i that is not a rank in 0..p.
 */
export function blockStart(n: number, p: number, i: number): number {
  checkSplit("blockStart", n, p, 0);
  checkArg(
    "patterns",
    "blockStart",
    "i",
    i,
    isIntIn(i, 0, p),
    `a rank in 0..${p} (p: the end of the last)`,
    "BAD_OPTION",
  );
  return startOf(n, p, i);
}

/**
 * The spmv matrix of a sparse structure on p ranks: rows and x entries split in blocks (blockOwner);
 * M[j][i] = distinct columns owned by j (j != i) that the rows of rank i touch, so each entry is the
 * count of x values rank j sends rank i before the product; the diagonal is 0 (local x needs no message).
 * A dense copy of it is refused past `maxMemory` (default: half the machine's memory, at most 32 GiB).
 */
export function spmvFromStructure(p: number, a: SparseStructure, elementBytes = 8, maxMemory?: number): CommMatrix {
  checkArg("patterns", "spmvFromStructure", "p", p, isIntIn(p, 1, MAX_P), `an integer in 1..${MAX_P}`, "BAD_OPTION");
  const problem = sparseStructureProblem(a);
  if (problem !== null) throw fail("patterns", "BAD_INPUT", `spmvFromStructure: ${problem}`, { field: "a" });
  checkArg(
    "patterns",
    "spmvFromStructure",
    "elementBytes",
    elementBytes,
    isIntIn(elementBytes, 1, MAX_ELEMENT_BYTES),
    "a positive integer",
    "BAD_OPTION",
  );
  const memOk = maxMemory === undefined || (typeof maxMemory === "number" && maxMemory > 0);
  checkArg(
    "patterns",
    "spmvFromStructure",
    "maxMemory",
    maxMemory,
    memOk,
    "a number of bytes above 0 or undefined",
    "BAD_OPTION",
  );
  // sparse: per rank i, the owners it gathers from (a touched list over a per-owner counter)
  const stamp = new Int32Array(a.cols);
  const count = new Float64Array(p);
  const touched = new Uint32Array(p);
  const from = growU32(),
    to = growU32(),
    size = growF64();
  for (let i = 0; i < p; i++) {
    const lo = startOf(a.rows, p, i),
      hi = startOf(a.rows, p, i + 1);
    let n = 0;
    for (let row = lo; row < hi; row++)
      for (let e = a.rowStart[row]!; e < a.rowStart[row + 1]!; e++) {
        const c = a.colIndex[e]!;
        if (stamp[c] === i + 1) continue;
        stamp[c] = i + 1;
        const j = ownerOf(a.cols, p, c);
        if (j === i) continue;
        if (count[j] === 0) touched[n++] = j;
        count[j] = count[j]! + 1;
      }
    for (let k = 0; k < n; k++) {
      const j = touched[k]!;
      from.push(j);
      to.push(i);
      size.push(count[j]!);
      count[j] = 0;
    }
  }
  return matrixFromCoordinates(p, from.toArray(), to.toArray(), size.toArray(), from.length, {
    elementBytes,
    maxMemory: memoryBudgetOf({ maxMemory }),
  });
}

/** The pattern `spmv`: the Matrix Market file given by `--file`, partitioned onto p ranks. No randomness. */
export const spmvPattern = definePattern({
  name: "spmv",
  title:
    "Sparse matrix-vector product: x entries each rank gathers under a block-row partition of a Matrix Market matrix",
  source:
    "block-row (PETSc MPIAIJ) partition, Balay et al., PETSc/TAO Users Manual ANL-21/39; format: Boisvert, Pozo, Remington, NISTIR 5935 (1996)",
  file: { kind: "sparse-matrix", description: "a Matrix Market coordinate file: the sparse matrix A of y = A x" },
  options: { elementBytes: elementBytesOption(8) },
  sparse: true,
  generate(p, opts, _rng, input) {
    const a = input?.sparse;
    if (a === undefined)
      throw fail(
        "patterns",
        "BAD_OPTION",
        "pattern 'spmv' needs a sparse matrix: input sparse, a Matrix Market structure",
        { field: "file" },
      );
    return spmvFromStructure(p, a, opts.elementBytes, input?.maxMemory);
  },
  notes(m, _opts, input) {
    const a = input?.sparse;
    if (a === undefined) return [];
    const { val } = matrixRows(m);
    let ghosts = 0;
    for (let x = 0; x < val.length; x++) ghosts += val[x]!;
    const messages = val.length;
    return [
      `${a.rows} x ${a.cols} matrix, ${counted(a.rowStart[a.rows]!, "stored entry", "stored entries")}; ` +
        `${counted(messages, "message carries", "messages carry")} ${counted(ghosts, "x entry", "x entries")}`,
    ];
  },
});
