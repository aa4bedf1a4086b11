/** CommMatrix: the communication matrix M (M[i][j] = elements node i sends node j), dense typed storage. */
import { fail } from "./errors.js";
import { digestLike } from "./matrix-digest.js";

export { matrixDigest } from "./matrix-digest.js";

/** A P x P communication matrix; `data[i * p + j]` is M[i][j], a non-negative integer. */
export interface CommMatrix {
  readonly p: number;
  /** Bytes per element (004 uses 48 on T3D, 22 on SP2); costs use it. */
  readonly elementBytes: number;
  /** Row-major P x P entries; integers in [0, 2^53). */
  readonly data: Float64Array;
}

/** The largest P commplan accepts (dense storage of P^2 doubles). */
export const MAX_P = 16384;
/** The largest elementBytes a matrix or schedule file (or --element-bytes) may give. */
export const MAX_ELEMENT_BYTES = 1 << 20;
/** The default bytes per element when a matrix does not say. */
export const DEFAULT_ELEMENT_BYTES = 8;

/** Options shared by the matrix constructors. */
export interface MatrixOptions {
  readonly elementBytes?: number;
  /** Where the data came from, for error messages. */
  readonly file?: string;
}

/** Checks P; throws a CommplanError naming the problem. */
export function checkP(p: unknown, file?: string): number {
  const place = file === undefined ? { field: "p" } : { file, field: "p" };
  if (typeof p !== "number" || !Number.isInteger(p) || p < 1)
    throw fail("matrix", "BAD_INPUT", `p must be a positive integer, got ${String(p)}`, place);
  if (p > MAX_P) throw fail("matrix", "BAD_INPUT", `p = ${p} exceeds the maximum ${MAX_P}`, place);
  return p;
}

/** Checks one entry value; throws naming row and column. */
export function checkEntry(v: unknown, i: number, j: number, file?: string, line?: number): number {
  if (typeof v !== "number" || !Number.isFinite(v) || !Number.isInteger(v) || v < 0 || v > Number.MAX_SAFE_INTEGER) {
    const what = typeof v === "number" && Number.isNaN(v) ? "NaN" : String(v);
    const why =
      typeof v !== "number" || !Number.isFinite(v)
        ? "is not a finite number"
        : v < 0
          ? "is negative"
          : !Number.isInteger(v)
            ? "is not an integer"
            : "exceeds 2^53 - 1";
    const place = {
      field: `M[${i}][${j}]`,
      ...(file === undefined ? {} : { file }),
      ...(line === undefined ? {} : { line }),
    };
    throw fail("matrix", "BAD_INPUT", `entry M[${i}][${j}] = ${what} ${why}`, place);
  }
  return v;
}

function checkElementBytes(b: unknown, file?: string): number {
  if (typeof b !== "number" || !Number.isInteger(b) || b < 1) {
    throw fail(
      "matrix",
      "BAD_INPUT",
      `elementBytes must be a positive integer, got ${String(b)}`,
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
  const { p, data } = m;
  const col = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    let r = 0;
    for (let j = 0; j < p; j++) {
      const v = data[i * p + j]!;
      r += v;
      col[j] = col[j]! + v;
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
  checkP(p, opts.file);
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
  if (!Array.isArray(rows) || rows.length === 0)
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
        `row ${i} has ${row.length} entries, expected ${p} (the matrix must be square)`,
        { field: `rows[${i}]`, ...(opts.file === undefined ? {} : { file: opts.file }) },
      );
    for (let j = 0; j < p; j++) data[i * p + j] = checkEntry(row[j], i, j, opts.file);
  }
  return matrixFromData(p, data, opts);
}

/** Builds a matrix from sparse `[i, j, m]` entries; a repeated (i, j) is an error. */
export function matrixFromEntries(
  p: number,
  entries: readonly (readonly number[])[],
  opts: MatrixOptions = {},
): CommMatrix {
  checkP(p, opts.file);
  const data = new Float64Array(p * p);
  const seen = new Uint8Array(p * p);
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
    const idx = (i as number) * p + (j as number);
    if (seen[idx])
      throw fail("matrix", "BAD_INPUT", `${field}: entry (${String(i)}, ${String(j)}) appears twice`, { field });
    seen[idx] = 1;
    data[idx] = checkEntry(v, i as number, j as number, opts.file);
  });
  return matrixFromData(p, data, opts);
}

/** An all-zero P x P matrix. */
export function zeroMatrix(p: number, elementBytes = DEFAULT_ELEMENT_BYTES): CommMatrix {
  return matrixFromData(checkP(p), new Float64Array(p * p), { elementBytes });
}

/** M[i][j]. */
export function entry(m: CommMatrix, i: number, j: number): number {
  return m.data[i * m.p + j]!;
}

/** The rows as plain arrays (for JSON output and tests). */
export function matrixToRows(m: CommMatrix): number[][] {
  const rows: number[][] = [];
  for (let i = 0; i < m.p; i++) rows.push(Array.from(m.data.subarray(i * m.p, (i + 1) * m.p)));
  return rows;
}

/**
 * Throws MISMATCH (module `module`) when a document planned for a matrix (a schedule, a program) was
 * made for another one: its P or its matrix digest differ from m's. `what` names the document in the
 * message ("schedule", "program", "data mode: the schedule"...).
 */
export function checkMadeFor(
  m: CommMatrix,
  doc: { readonly p: number; readonly matrixDigest: string },
  what: string,
  module: string,
): void {
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
