/** Words for program witnesses: an operation as (rank, round, kind, peer, tag, count), an element as (origin, dest, offset). */
import type { CommMatrix } from "../../model/matrix.js";
import type { Program } from "../../model/program.js";

/** The source every program check cites. */
export const PROGRAM_SOURCE =
  "docs/verifier.md, Program checks (MPI_Alltoallv buffers, MPI matching and rendezvous semantics)";

/** Operation x in words: `rank 3, round 1: send to 4 (tag 1, 12 elements)`. */
export function describeOp(prog: Program, x: number): string {
  const { ops } = prog;
  const kind = ops.kind[x]!;
  const what = kind === 0 ? `send to ${ops.peer[x]}` : kind === 1 ? `recv from ${ops.peer[x]}` : "copy";
  return `rank ${ops.rank[x]}, round ${ops.round[x]}: ${what} (tag ${ops.tag[x]}, ${ops.count[x]} elements)`;
}

/** Element codes: element (o, d, x) of the matrix is prefix[o * p + d] + x; EMPTY marks a slot that holds no element. */
export interface ElementCodes {
  readonly prefix: Float64Array;
  readonly total: number;
}

/** The code of "no element". */
export const EMPTY = -1;

/** Prefix sums of the matrix in row-major order (p^2 + 1 entries). */
export function elementCodes(m: CommMatrix): ElementCodes {
  const n = m.p * m.p;
  const prefix = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) prefix[k + 1] = prefix[k]! + m.data[k]!;
  return { prefix, total: prefix[n]! };
}

/** An element code in words: `(o, d, x)`, or `nothing` for EMPTY. */
export function describeElement(m: CommMatrix, codes: ElementCodes, g: number): string {
  if (g === EMPTY) return "nothing";
  const { prefix } = codes;
  let lo = 0,
    hi = m.p * m.p; // last k with prefix[k] <= g
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (prefix[mid]! <= g) lo = mid;
    else hi = mid - 1;
  }
  return `(${Math.floor(lo / m.p)}, ${lo % m.p}, ${g - prefix[lo]!})`;
}
