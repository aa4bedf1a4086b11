/**
 * CommMatrix: the communication matrix M (M[i][j] = elements node i sends node j), stored dense (P x P doubles) or
 * sparse (compressed rows).
 */
import { fail, type CommplanError } from "./errors.js";
import { DEFAULT_ELEMENT_BYTES, MAX_DENSE_P, MAX_ELEMENT_BYTES, MAX_ENTRIES, MAX_P } from "./limits.js";
import { digestLike } from "./matrix-digest.js";
import { MAX_DEFAULT_BUDGET, checkMemory, denseMatrixBytes } from "./memory-budget.js";
import {
  colsOfRows,
  denseOfRows,
  findInRow,
  rowsOfCoordinates,
  rowsOfDense,
  type MatrixCols,
  type MatrixRows,
} from "./matrix-rows.js";
import { counted } from "../internal/plural.js";
import { checkOptionKeys, checkOptionsObject, describeValue } from "./option-checks.js";

export { matrixDigest } from "./matrix-digest.js";
export type { MatrixCols, MatrixRows } from "./matrix-rows.js";

/**
 * A P x P communication matrix; M[i][j] is a non-negative integer. Dense matrices hold `data`
 * (row-major, `data[i * p + j]`); sparse ones hold `sparse` (compressed rows of the non-zero
 * entries), and their `data` is a dense copy made on first use, refused past the memory budget:
 * code that works in O(P + E) reads `matrixRows(m)` / `matrixCols(m)` / `entry(m, i, j)` instead.
 */
export interface CommMatrix {
  readonly p: number;
  /** Bytes per element (004 uses 48 on T3D, 22 on SP2); costs use it. */
  readonly elementBytes: number;
  /** Row-major P x P entries; integers in [0, 2^53). On a sparse matrix, a dense copy made on first read. */
  readonly data: Float64Array;
  /** The storage of a sparse matrix (absent on a dense one). */
  readonly sparse?: MatrixRows;
}

export { DEFAULT_ELEMENT_BYTES, MAX_DENSE_P, MAX_ELEMENT_BYTES, MAX_ENTRIES, MAX_P } from "./limits.js";

/** Options shared by the matrix constructors. */
export interface MatrixOptions {
  readonly elementBytes?: number;
  /** Where the data came from, for error messages. */
  readonly file?: string;
  /** Bytes a dense copy of a sparse matrix (its `data`) may take; MAX_DEFAULT_BUDGET when not given. */
  readonly maxMemory?: number;
}

/** Checks P (at most MAX_DENSE_P, or MAX_P when `sparse`); throws a CommplanError naming the problem. */
export function checkP(p: unknown, file?: string, sparse = false): number {
  const place = file === undefined ? { field: "p" } : { file, field: "p" };
  if (typeof p !== "number" || !Number.isInteger(p) || p < 1)
    throw fail("matrix", "BAD_INPUT", `p must be a positive integer, got ${describeValue(p)}`, place);
  if (p > MAX_P) throw fail("matrix", "BAD_INPUT", `p = ${p} exceeds the maximum ${MAX_P}`, place);
  if (!sparse && p > MAX_DENSE_P)
    throw fail(
      "matrix",
      "BAD_INPUT",
      `p = ${p} exceeds the maximum ${MAX_DENSE_P} of a dense matrix (give it in a sparse form: JSON "entries" or Matrix Market)`,
      place,
    );
  return p;
}

/** Checks one entry value; throws naming row and column. */
export function checkEntry(v: unknown, i: number, j: number, file?: string, line?: number): number {
  if (typeof v !== "number" || !Number.isFinite(v) || !Number.isInteger(v) || v < 0 || v > Number.MAX_SAFE_INTEGER) {
    const what = describeValue(v);
    const why =
      typeof v !== "number" || !Number.isFinite(v)
        ? "is not a finite number"
        : v < 0
          ? "is negative"
          : !Number.isInteger(v)
            ? "is not an integer"
            : null;
    const place = {
      field: `M[${i}][${j}]`,
      ...(file === undefined ? {} : { file }),
      ...(line === undefined ? {} : { line }),
    };
    // above 2^53 - 1 the number is what the reader rounded the file's digits to (9007199254740993 reads as ...992):
    // printing it would misquote the entry
    const text =
      why === null
        ? `entry M[${i}][${j}] is not an exactly representable integer (above 2^53 - 1)`
        : `entry M[${i}][${j}] = ${what} ${why}`;
    throw fail("matrix", "BAD_INPUT", text, place);
  }
  return v;
}

function checkElementBytes(b: unknown, file?: string): number {
  if (typeof b !== "number" || !Number.isInteger(b) || b < 1) {
    throw fail(
      "matrix",
      "BAD_INPUT",
      `elementBytes must be a positive integer, got ${describeValue(b)}`,
      file === undefined ? { field: "elementBytes" } : { file, field: "elementBytes" },
    );
  }
  if (b > MAX_ELEMENT_BYTES)
    throw fail(
      "matrix",
      "BAD_INPUT",
      `elementBytes = ${b} exceeds the maximum ${MAX_ELEMENT_BYTES}`,
      file === undefined ? { field: "elementBytes" } : { file, field: "elementBytes" },
    );
  return b;
}

/** Checks that no row or column sum exceeds 2^53 - 1 (so every statistic is exact). */
function checkSums(m: CommMatrix, file?: string): void {
  const { p } = m;
  const col = new Float64Array(p);
  const sparse = m.sparse;
  for (let i = 0; i < p; i++) {
    let r = 0;
    if (sparse) {
      for (let k = sparse.rowStart[i]!; k < sparse.rowStart[i + 1]!; k++) {
        const v = sparse.val[k]!;
        r += v;
        col[sparse.col[k]!] = col[sparse.col[k]!]! + v;
      }
    } else {
      const data = m.data;
      for (let j = 0; j < p; j++) {
        const v = data[i * p + j]!;
        r += v;
        col[j] = col[j]! + v;
      }
    }
    if (r > Number.MAX_SAFE_INTEGER)
      throw fail(
        "matrix",
        "BAD_INPUT",
        `row ${i} sums to more than 2^53 - 1 elements`,
        file === undefined ? {} : { file },
      );
  }
  for (let j = 0; j < p; j++) {
    if (col[j]! > Number.MAX_SAFE_INTEGER)
      throw fail(
        "matrix",
        "BAD_INPUT",
        `column ${j} sums to more than 2^53 - 1 elements`,
        file === undefined ? {} : { file },
      );
  }
}

/** Wraps row-major data (taken, not copied) after checking every entry. */
export function matrixFromData(p: number, data: Float64Array, opts: MatrixOptions = {}): CommMatrix {
  checkMatrixOptions(opts);
  checkP(p, opts.file);
  if (!(data instanceof Float64Array))
    throw fail("matrix", "BAD_INPUT", `matrixFromData: data must be a Float64Array, got ${describeValue(data)}`, {
      field: "data",
    });
  if (data.length !== p * p) throw fail("matrix", "BAD_INPUT", `data has ${data.length} entries, expected ${p * p}`);
  for (let k = 0; k < data.length; k++) {
    const v = data[k]!;
    if (!(v >= 0 && Number.isInteger(v) && v <= Number.MAX_SAFE_INTEGER))
      checkEntry(v, Math.floor(k / p), k % p, opts.file);
  }
  const m: CommMatrix = {
    p,
    elementBytes: checkElementBytes(opts.elementBytes ?? DEFAULT_ELEMENT_BYTES, opts.file),
    data,
  };
  checkSums(m, opts.file);
  return m;
}

/** Builds a matrix from dense rows; every row must have P entries. */
export function matrixFromRows(rows: readonly (readonly number[])[], opts: MatrixOptions = {}): CommMatrix {
  checkMatrixOptions(opts);
  if (!Array.isArray(rows))
    throw fail("matrix", "BAD_INPUT", `rows must be an array of rows, got ${describeValue(rows)}`, { field: "rows" });
  if (rows.length === 0)
    throw fail(
      "matrix",
      "BAD_INPUT",
      "the matrix is empty (no rows)",
      opts.file === undefined ? { field: "rows" } : { file: opts.file, field: "rows" },
    );
  const p = checkP(rows.length, opts.file);
  const data = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    const row = rows[i];
    if (!Array.isArray(row)) throw fail("matrix", "BAD_INPUT", `row ${i} is not an array`, { field: `rows[${i}]` });
    if (row.length !== p)
      throw fail(
        "matrix",
        "BAD_INPUT",
        `row ${i} has ${counted(row.length, "entry", "entries")}, expected ${p} (the matrix must be square)`,
        { field: `rows[${i}]`, ...(opts.file === undefined ? {} : { file: opts.file }) },
      );
    for (let j = 0; j < p; j++) data[i * p + j] = checkEntry(row[j], i, j, opts.file);
  }
  return matrixFromData(p, data, opts);
}

/**
 * What makes `m` no CommMatrix, or null: not an object, p not an integer in 1..MAX_P, elementBytes not a positive
 * integer, or neither `sparse` rows nor a Float64Array `data` of p * p entries. O(1): the entries are the makers'
 * to check (matrixFromRows, matrixFromEntries, the readers), and a sparse matrix's dense `data` is not made.
 */
export function matrixArgProblem(m: unknown): string | null {
  if (typeof m !== "object" || m === null || Array.isArray(m))
    return `the matrix is not a CommMatrix, got ${describeValue(m)} (make one with matrixFromRows or matrixFromEntries)`;
  const { p, elementBytes, sparse } = m as { p?: unknown; elementBytes?: unknown; sparse?: unknown };
  if (typeof p !== "number" || !Number.isInteger(p) || p < 1 || p > MAX_P)
    return `the matrix's p is not an integer in 1..${MAX_P}, got ${describeValue(p)}`;
  if (typeof elementBytes !== "number" || !Number.isInteger(elementBytes) || elementBytes < 1)
    return `the matrix's elementBytes is not a positive integer, got ${describeValue(elementBytes)}`;
  if (sparse !== undefined)
    return typeof sparse === "object" && sparse !== null ? null : "the matrix's sparse is not an object";
  const { data } = m as { data?: unknown };
  if (!(data instanceof Float64Array))
    return `the matrix's data is not a Float64Array, got ${describeValue(data)} (make one with matrixFromRows)`;
  return data.length === p * p ? null : `the matrix's data has ${data.length} entries, not p * p = ${p * p}`;
}

/**
 * Throws a one-line BAD_INPUT error of `module` (field "matrix") when matrixArgProblem finds one; after `fn: ` when
 * the public function is named.
 */
export function checkMatrixArg(module: string, m: unknown, fn?: string): void {
  const w = matrixArgProblem(m);
  if (w !== null) throw fail(module, "BAD_INPUT", fn === undefined ? w : `${fn}: ${w}`, { field: "matrix" });
}

/** The keys of MatrixOptions. */
const MATRIX_OPTION_KEYS: readonly string[] = Object.freeze(["elementBytes", "file", "maxMemory"]);

/** Refuses matrix options that are not an object or undefined, or that have a key MatrixOptions has not. */
function checkMatrixOptions(opts: unknown): void {
  checkOptionsObject("matrix", "options", opts);
  checkOptionKeys("matrix", opts, MATRIX_OPTION_KEYS);
}

/** Builds a sparse matrix from `[i, j, m]` entries; a repeated (i, j) is an error. */
export function matrixFromEntries(
  p: number,
  entries: readonly (readonly number[])[],
  opts: MatrixOptions = {},
): CommMatrix {
  checkMatrixOptions(opts);
  checkP(p, opts.file, true);
  if (!Array.isArray(entries))
    throw fail("matrix", "BAD_INPUT", `entries must be an array of [i, j, m], got ${describeValue(entries)}`, {
      field: "entries",
    });
  const n = entries.length;
  const rowOf = new Uint32Array(n),
    colOf = new Uint32Array(n),
    valOf = new Float64Array(n);
  entries.forEach((e, k) => {
    const field = `entries[${k}]`;
    if (!Array.isArray(e) || e.length !== 3) throw fail("matrix", "BAD_INPUT", `${field} must be [i, j, m]`, { field });
    const [i, j, v] = e as [unknown, unknown, unknown];
    for (const [name, x] of [
      ["i", i],
      ["j", j],
    ] as const) {
      if (typeof x !== "number" || !Number.isInteger(x) || x < 0 || x >= p)
        throw fail("matrix", "BAD_INPUT", `${field}: ${name} = ${String(x)} is not a node index in 0..${p - 1}`, {
          field,
        });
    }
    rowOf[k] = i as number;
    colOf[k] = j as number;
    valOf[k] = checkEntry(v, i as number, j as number, opts.file);
  });
  return matrixFromCoordinates(p, rowOf, colOf, valOf, n, opts);
}

/** Refuses matrixFromCoordinates' arrays unless the typed arrays it reads and a count within them; the count. */
function checkCoordinateArrays(rowOf: unknown, colOf: unknown, valOf: unknown, given: unknown): number {
  const fn = "matrixFromCoordinates";
  const bad = (field: string, v: unknown, what: string): CommplanError =>
    fail("matrix", "BAD_INPUT", `${fn}: ${field} must be ${what}, got ${describeValue(v)}`, { field });
  if (!(rowOf instanceof Uint32Array)) throw bad("rowOf", rowOf, "a Uint32Array");
  if (!(colOf instanceof Uint32Array)) throw bad("colOf", colOf, "a Uint32Array");
  if (!(valOf instanceof Float64Array)) throw bad("valOf", valOf, "a Float64Array");
  const most = Math.min(rowOf.length, colOf.length, valOf.length);
  const count = given ?? rowOf.length;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0 || count > most)
    throw bad("count", count, `an integer in 0..${most} (the entries given)`);
  return count;
}

/**
 * Builds a sparse matrix from `count` coordinate entries whose indices are checked (in 0..p-1) and
 * whose values are checked integers (zeros are dropped). A repeated (i, j) is refused naming both
 * positions as `entries[k]` (a reader with lines maps them itself via `duplicateAt`).
 */
export function matrixFromCoordinates(
  p: number,
  rowOf: Uint32Array,
  colOf: Uint32Array,
  valOf: Float64Array,
  count?: number,
  opts: MatrixOptions & {
    /** Where the entry at input position k was (field, line); default `entries[k]`. */
    readonly duplicateAt?: (position: number) => { field?: string; line?: number };
    /** 1 when the format numbers nodes from 1 (Matrix Market), for the duplicate's message. */
    readonly indexBase?: number;
  } = {},
): CommMatrix {
  checkOptionsObject("matrix", "options", opts);
  checkP(p, opts.file, true);
  const n = checkCoordinateArrays(rowOf, colOf, valOf, count);
  const rows = rowsOfCoordinates(p, rowOf, colOf, valOf, n);
  if (!("rowStart" in rows)) {
    const at = opts.duplicateAt?.(rows.second) ?? { field: `entries[${rows.second}]` };
    const base = opts.indexBase ?? 0;
    const pair = `entry (${rows.i + base}, ${rows.j + base}) appears twice`;
    throw fail("matrix", "BAD_INPUT", at.field === undefined ? pair : `${at.field}: ${pair}`, {
      ...(opts.file === undefined ? {} : { file: opts.file }),
      ...at,
    });
  }
  return sparseMatrix(rows, opts);
}

/** Refuses sparseMatrix's rows when not compressed rows: an object with p, rowStart (p + 1 offsets), col and val. */
function checkSparseRows(rows: unknown): void {
  const r = (typeof rows === "object" && rows !== null ? rows : {}) as Partial<Record<keyof MatrixRows, unknown>>;
  const ok =
    typeof rows === "object" &&
    rows !== null &&
    typeof r.p === "number" &&
    r.rowStart instanceof Uint32Array &&
    r.rowStart.length === r.p + 1 &&
    r.col instanceof Uint32Array &&
    r.val instanceof Float64Array &&
    r.col.length === r.val.length &&
    r.col.length >= (r.rowStart[r.p] ?? 0);
  if (!ok)
    throw fail(
      "matrix",
      "BAD_INPUT",
      "sparseMatrix: rows must be compressed rows { p, rowStart: p + 1 offsets, col, val }, got " + describeValue(rows),
      { field: "rows" },
    );
}

/**
 * Wraps compressed rows (taken, not copied; columns ascending and distinct, values checked > 0) as a sparse matrix
 * after checking its sums.
 */
export function sparseMatrix(rows: MatrixRows, opts: MatrixOptions = {}): CommMatrix {
  checkOptionsObject("matrix", "options", opts);
  checkSparseRows(rows);
  checkP(rows.p, opts.file, true);
  if (rows.rowStart[rows.p]! > MAX_ENTRIES)
    throw fail("matrix", "BAD_INPUT", `the matrix has more than ${MAX_ENTRIES} non-zero entries`);
  const elementBytes = checkElementBytes(opts.elementBytes ?? DEFAULT_ELEMENT_BYTES, opts.file);
  const m = new SparseMatrix(rows, elementBytes, opts.maxMemory ?? MAX_DEFAULT_BUDGET);
  checkSums(m, opts.file);
  return m;
}

/**
 * A sparse CommMatrix: compressed rows, plus a dense copy made (within its memory budget) only when code reads `data`.
 */
class SparseMatrix implements CommMatrix {
  private dense: Float64Array | null = null;
  readonly p: number;
  /** Bytes the dense copy may take (kept off the enumerable fields, as the copy is). */
  readonly #maxMemory: number;
  constructor(
    readonly sparse: MatrixRows,
    readonly elementBytes: number,
    maxMemory: number,
  ) {
    this.p = sparse.p;
    this.#maxMemory = maxMemory;
  }
  /** Bytes the dense copy may take. */
  get maxMemory(): number {
    return this.#maxMemory;
  }
  get data(): Float64Array {
    if (this.dense === null) {
      const p = this.sparse.p;
      checkMemory(
        "matrix",
        denseMatrixBytes(p),
        `this step has no sparse path: a dense ${p} x ${p} copy of the sparse matrix`,
        this.#maxMemory,
        { field: "p" },
      );
      this.dense = denseOfRows(this.sparse, new Float64Array(p * p));
    }
    return this.dense;
  }
  /** The dense copy if code has read `data`, else null. */
  get denseIfMade(): Float64Array | null {
    return this.dense;
  }
  /** Own enumerable fields for JSON.stringify, structuredClone and test equality: the storage, not the dense copy. */
  toJSON(): { p: number; elementBytes: number; sparse: MatrixRows } {
    return { p: this.p, elementBytes: this.elementBytes, sparse: this.sparse };
  }
}

/** m with another elementBytes, in the same storage (a spread would drop a sparse matrix's `data`). */
export function withElementBytes(m: CommMatrix, elementBytes: number): CommMatrix {
  checkMatrixArg("matrix", m);
  checkElementBytes(elementBytes);
  return m.sparse
    ? new SparseMatrix(m.sparse, elementBytes, denseCopyBudget(m))
    : { p: m.p, elementBytes, data: m.data };
}

/** The bytes a dense copy of m may take: a sparse matrix's own budget (MatrixOptions.maxMemory), else 32 GiB. */
export function denseCopyBudget(m: CommMatrix): number {
  return m instanceof SparseMatrix ? m.maxMemory : MAX_DEFAULT_BUDGET;
}

/**
 * A copy of m in the same storage with arrays of its own: a dense one's `data`, a sparse one's compressed rows (whose
 * dense copy is made anew on first read, within m's budget). Nothing is checked again.
 */
export function copyMatrix(m: CommMatrix): CommMatrix {
  const s = m.sparse;
  if (s === undefined) return { p: m.p, elementBytes: m.elementBytes, data: m.data.slice() };
  const rows = { p: s.p, rowStart: s.rowStart.slice(), col: s.col.slice(), val: s.val.slice() };
  return new SparseMatrix(rows, m.elementBytes, denseCopyBudget(m));
}

/** The dense copy a sparse matrix made of itself when code read its `data`; null when none was made, or m is dense. */
export function denseCopyMade(m: CommMatrix): Float64Array | null {
  return m instanceof SparseMatrix ? m.denseIfMade : null;
}

/** Whether m is stored sparse. */
export function isSparse(m: CommMatrix): boolean {
  return m.sparse !== undefined;
}

const rowsCache = new WeakMap<CommMatrix, MatrixRows>();
const colsCache = new WeakMap<CommMatrix, MatrixCols>();

/**
 * The non-zero entries of m in compressed rows (diagonal included): the storage of a sparse matrix, a one-pass scan of
 * a dense one (kept with m).
 */
export function matrixRows(m: CommMatrix): MatrixRows {
  if (m.sparse) return m.sparse;
  let r = rowsCache.get(m);
  if (r === undefined) {
    r = rowsOfDense(m.p, m.data);
    rowsCache.set(m, r);
  }
  return r;
}

/** The non-zero entries of m in compressed columns, rows ascending (O(P + E), kept with m). */
export function matrixCols(m: CommMatrix): MatrixCols {
  let c = colsCache.get(m);
  if (c === undefined) {
    c = colsOfRows(matrixRows(m));
    colsCache.set(m, c);
  }
  return c;
}

/** Bytes the matrix's storage holds: P^2 doubles dense; offsets, columns and values sparse (for memory estimates). */
export function matrixBytes(m: CommMatrix): number {
  const s = m.sparse;
  return s ? s.rowStart.byteLength + s.col.byteLength + s.val.byteLength : m.p * m.p * 8;
}

/** The number of non-zero entries (diagonal included). */
export function nonzeroCount(m: CommMatrix): number {
  return matrixRows(m).rowStart[m.p]!;
}

/** The same matrix stored dense (m itself when it is; refused past the memory budget). */
export function toDense(m: CommMatrix): CommMatrix {
  checkMatrixArg("matrix", m);
  return m.sparse ? { p: m.p, elementBytes: m.elementBytes, data: m.data } : m;
}

/** The same matrix stored sparse (m itself when it is). */
export function toSparse(m: CommMatrix): CommMatrix {
  checkMatrixArg("matrix", m);
  return m.sparse ? m : new SparseMatrix(matrixRows(m), m.elementBytes, MAX_DEFAULT_BUDGET);
}

/** An all-zero P x P matrix (sparse past MAX_DENSE_P). */
export function zeroMatrix(p: number, elementBytes = DEFAULT_ELEMENT_BYTES): CommMatrix {
  checkP(p, undefined, true);
  if (p > MAX_DENSE_P)
    return sparseMatrix(
      { p, rowStart: new Uint32Array(p + 1), col: new Uint32Array(0), val: new Float64Array(0) },
      {
        elementBytes,
      },
    );
  return matrixFromData(p, new Float64Array(p * p), { elementBytes });
}

/** M[i][j] (a binary search in row i of a sparse matrix). */
export function entry(m: CommMatrix, i: number, j: number): number {
  const s = m.sparse;
  if (s === undefined) return m.data[i * m.p + j]!;
  const k = findInRow(s, i, j);
  return k < 0 ? 0 : s.val[k]!;
}

/** The rows as plain arrays (for JSON output and tests). */
export function matrixToRows(m: CommMatrix): number[][] {
  checkMatrixArg("matrix", m);
  const rows: number[][] = [];
  for (let i = 0; i < m.p; i++) rows.push(Array.from(m.data.subarray(i * m.p, (i + 1) * m.p)));
  return rows;
}

/**
 * Throws MISMATCH (module `module`) when a document planned for a matrix (a schedule, a program) was
 * made for another one: its P or its matrix digest differ from m's. `what` names the document in the
 * message ("schedule", "program", "data mode: the schedule"...). First BAD_INPUT when m is no CommMatrix
 * (checkMatrixArg) or the document no object with a matrixDigest string.
 */
export function checkMadeFor(
  m: CommMatrix,
  doc: { readonly p: number; readonly matrixDigest: string },
  what: string,
  module: string,
): void {
  checkMatrixArg(module, m);
  if (typeof doc !== "object" || doc === null)
    throw fail(module, "BAD_INPUT", `${what} is not an object, got ${describeValue(doc)}`, { field: "p" });
  if (typeof doc.matrixDigest !== "string")
    throw fail(module, "BAD_INPUT", `${what} has no matrixDigest string (got ${describeValue(doc.matrixDigest)})`, {
      field: "matrixDigest",
    });
  if (doc.p !== m.p)
    throw fail(module, "MISMATCH", `${what} is for P = ${doc.p}, the matrix has P = ${m.p}`, { field: "p" });
  const digest = digestLike(m, doc.matrixDigest);
  if (doc.matrixDigest !== digest)
    throw fail(
      module,
      "MISMATCH",
      `${what} was made for another matrix (digest ${doc.matrixDigest}, this matrix has ${digest})`,
      { field: "matrixDigest" },
    );
}
