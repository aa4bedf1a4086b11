/**
 * Words for program witnesses: an operation as (rank, round, kind, peer, tag, count), an element as (origin, dest,
 * offset).
 */
import { matrixCols, type CommMatrix } from "../../model/matrix.js";
import type { MatrixCols } from "../../model/matrix-rows.js";
import type { Program } from "../../model/program.js";
import { counted } from "../../internal/plural.js";

/** The source every program check cites. */
export const PROGRAM_SOURCE =
  "docs/verifier.md, Program checks (MPI_Alltoallv buffers, MPI matching and rendezvous semantics)";

/** Operation x in words: `rank 3, round 1: send to 4 (tag 1, 12 elements)`. */
export function describeOp(prog: Program, x: number): string {
  const { ops } = prog;
  const kind = ops.kind[x]!;
  const what = kind === 0 ? `send to ${ops.peer[x]}` : kind === 1 ? `recv from ${ops.peer[x]}` : "copy";
  return `rank ${ops.rank[x]}, round ${ops.round[x]}: ${what} (tag ${ops.tag[x]}, ${counted(ops.count[x]!, "element", "elements")})`;
}

/** Operation x with its place in its rank's program: `rank 3, operation 5 (round 1: send to 4 ...)`. */
export function describeOpAt(prog: Program, x: number): string {
  const r = prog.ops.rank[x]!;
  return `${describeOp(prog, x)}, operation ${x - prog.rankStart[r]!} of rank ${r}`;
}

/**
 * Element codes, numbered column by column: element (o, d, x) is prefix[k] + x for the entry k of
 * (o, d) in the compressed columns of M (O(P + E) whatever the storage); EMPTY marks a slot that
 * holds no element.
 */
export interface ElementCodes {
  readonly cols: MatrixCols;
  readonly prefix: Float64Array;
  readonly total: number;
}

/** The code of "no element". */
export const EMPTY = -1;

/** Prefix sums of the matrix's entries in column order (E + 1 values). */
export function elementCodes(m: CommMatrix): ElementCodes {
  const cols = matrixCols(m);
  const n = cols.val.length;
  const prefix = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) prefix[k + 1] = prefix[k]! + cols.val[k]!;
  return { cols, prefix, total: prefix[n]! };
}

/** The last index k of a sorted array with a[k] <= v (a[0] <= v). */
function lastAtMost(a: Float64Array | Uint32Array, v: number, hi: number): number {
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (a[mid]! <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** An element code in words: `(o, d, x)`, or `nothing` for EMPTY. */
export function describeElement(codes: ElementCodes, g: number): string {
  if (g === EMPTY) return "nothing";
  const { prefix, cols } = codes;
  // Entries are non-zero (prefix is strictly increasing); the column holding entry k is the last
  // with colStart <= k (an empty column before it starts at the same place).
  const k = lastAtMost(prefix, g, prefix.length - 2);
  const d = lastAtMost(cols.colStart, k, cols.p - 1);
  return `(${cols.row[k]}, ${d}, ${g - prefix[k]!})`;
}

/**
 * The rounds the operations use, numbered in order: idx[x] is op x's round when the rounds are
 * few (under 4 per operation: some numbers may go unused), else the rank of its round among the
 * distinct ones; count is one past the largest idx. Work and memory follow the operations, not the
 * `rounds` field (up to 2^32 - 1): a program that declares four billion rounds and uses three
 * costs three.
 */
export function denseRounds(round: Uint32Array): { readonly idx: Uint32Array; readonly count: number } {
  // the usual case (rounds 0 .. R - 1, R no larger than a few per operation): the rounds themselves
  let most = 0;
  for (let x = 0; x < round.length; x++) if (round[x]! > most) most = round[x]!;
  if (most < 4 * round.length + 16) return { idx: round, count: round.length === 0 ? 0 : most + 1 };
  const sorted = round.slice().sort();
  let u = 0;
  for (let k = 0; k < sorted.length; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) sorted[u++] = sorted[k]!;
  const values = sorted.subarray(0, u);
  const idx = new Uint32Array(round.length);
  for (let x = 0; x < round.length; x++) {
    const v = round[x]!;
    let lo = 0,
      hi = u - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    idx[x] = lo;
  }
  return { idx, count: u };
}
