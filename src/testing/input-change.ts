/**
 * The input check of the planner properties: a planner is called on a copy of the matrix, and a copy that differs
 * afterwards from the original is a failure (a planner that changes its input changes its caller's matrix).
 */
import { denseCopyMade, type CommMatrix } from "../model/matrix.js";
import { denseOfRows, type MatrixRows } from "../model/matrix-rows.js";
import type { CheckFailure } from "./schedule-check.js";

/** The id of the input check. */
export const INPUT_CHECK = "input-unchanged";

/** The title of the input check. */
const TITLE = "the planner leaves the matrix it is given unchanged";

/** Where two arrays first differ (index), or -1; `b` may be anything a planner left in the field. */
function firstDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return k;
  return -1;
}

/** Whether `x` is a typed array of `kind` with `n` elements. */
function isArrayOf(x: unknown, kind: typeof Float64Array | typeof Uint32Array, n: number): boolean {
  return x instanceof kind && x.length === n;
}

/** What changed in dense data `d` against `was` (row-major P x P), or null; `where` ends the line. */
function denseChange(was: ArrayLike<number>, d: unknown, p: number, where = ""): string | null {
  if (!isArrayOf(d, Float64Array, p * p)) return `its data was replaced by ${describe(d)}`;
  const x = firstDiff(was, d as Float64Array);
  if (x < 0) return null;
  const i = Math.floor(x / p),
    j = x % p;
  return `M[${i}][${j}] was ${was[x]}, is ${String((d as Float64Array)[x])} after the call${where}`;
}

/** What changed in sparse storage `s` against `was`, or null. */
function sparseChange(was: MatrixRows, s: unknown): string | null {
  const n = was.rowStart[was.p]!;
  const t = s as Partial<MatrixRows> | null | undefined;
  if (
    typeof t !== "object" ||
    t === null ||
    !isArrayOf(t.rowStart, Uint32Array, was.p + 1) ||
    !isArrayOf(t.col, Uint32Array, n) ||
    !isArrayOf(t.val, Float64Array, n)
  )
    return `its sparse storage (rowStart, col, val) was replaced by ${describe(s)}`;
  const r = firstDiff(was.rowStart, t.rowStart!);
  if (r >= 0) return `sparse.rowStart[${r}] was ${was.rowStart[r]}, is ${t.rowStart![r]} after the call`;
  let k = firstDiff(was.col, t.col!);
  const v = firstDiff(was.val, t.val!);
  if (k < 0 || (v >= 0 && v < k)) k = v;
  if (k < 0) return null;
  let i = 0;
  while (was.rowStart[i + 1]! <= k) i++;
  const at = (c: number, x: number): string => `M[${i}][${c}] = ${x}`;
  return `sparse entry ${k} was ${at(was.col[k]!, was.val[k]!)}, is ${at(t.col![k]!, t.val![k]!)} after the call`;
}

/** A short description of what a planner left where an array belongs. */
function describe(x: unknown): string {
  if (x === null || x === undefined) return String(x);
  const name = (x as object).constructor?.name ?? typeof x;
  const length = (x as { length?: unknown }).length;
  return typeof length === "number" ? `a ${name} of length ${length}` : `a ${name}`;
}

/**
 * What the planner changed in `given` (the copy of `original` it was called on), as a witness, or null: P,
 * elementBytes, the dense data, or a sparse matrix's compressed rows and the dense copy it made when the planner read
 * its `data`.
 */
export function inputChange(original: CommMatrix, given: CommMatrix): string | null {
  const { p } = original;
  if (!Object.is(given.p, p)) return `p was ${p}, is ${String(given.p)} after the call`;
  if (!Object.is(given.elementBytes, original.elementBytes))
    return `elementBytes was ${original.elementBytes}, is ${String(given.elementBytes)} after the call`;
  const s = original.sparse;
  if (s === undefined) return denseChange(original.data, given.data, p);
  const change = sparseChange(s, given.sparse);
  if (change !== null) return change;
  const made = denseCopyMade(given);
  const where = " (in its data, the dense copy of its sparse storage)";
  return made === null ? null : denseChange(denseOfRows(s, new Float64Array(p * p)), made, p, where);
}

/** The failure of check 'input-unchanged' when the planner changed the copy `given` of `original`, else null. */
export function inputChangeFailure(original: CommMatrix, given: CommMatrix): CheckFailure | null {
  const change = inputChange(original, given);
  if (change === null) return null;
  const storage = original.sparse === undefined ? "dense" : "sparse";
  return {
    check: INPUT_CHECK,
    title: TITLE,
    witness: `the planner changed its input (P = ${original.p}, ${storage} storage): ${change}`,
  };
}
