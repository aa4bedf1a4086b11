/**
 * SparseStructure: the nonzero structure of a sparse matrix (compressed rows, column indices only), read from Matrix
 * Market by src/io and partitioned by the spmv pattern.
 */
import { describeValue } from "./option-checks.js";

/**
 * Rows x cols structure in compressed-row form: row r's columns are `colIndex[rowStart[r] .. rowStart[r + 1])`,
 * ascending and distinct (0-based).
 */
export interface SparseStructure {
  readonly rows: number;
  readonly cols: number;
  /** rows + 1 offsets into colIndex; rowStart[rows] is the number of stored entries. */
  readonly rowStart: Int32Array;
  /** Column of every stored entry, row by row, ascending within a row. */
  readonly colIndex: Int32Array;
  /** Where it came from (a file name), for messages; absent when built in memory. */
  readonly source?: string;
}

/**
 * Builds the compressed-row structure of coordinate entries (0-based; duplicates merged, rows sorted); indices must be
 * in range (the caller checks).
 */
export function sparseFromCoordinates(
  rows: number,
  cols: number,
  rowOf: Int32Array,
  colOf: Int32Array,
  count: number = rowOf.length,
  source?: string,
): SparseStructure {
  const start = new Int32Array(rows + 1);
  for (let k = 0; k < count; k++) start[rowOf[k]! + 1]!++;
  for (let r = 0; r < rows; r++) start[r + 1]! += start[r]!;
  const fill = start.slice(0, rows);
  const col = new Int32Array(count);
  for (let k = 0; k < count; k++) col[fill[rowOf[k]!]!++] = colOf[k]!;
  // sort each row and drop repeated columns, compacting in place
  const rowStart = new Int32Array(rows + 1);
  let out = 0;
  for (let r = 0; r < rows; r++) {
    const a = start[r]!,
      b = start[r + 1]!;
    col.subarray(a, b).sort();
    rowStart[r] = out;
    for (let k = a; k < b; k++) if (k === a || col[k] !== col[k - 1]) col[out++] = col[k]!;
  }
  rowStart[rows] = out;
  const s = { rows, cols, rowStart, colIndex: col.slice(0, out) };
  return source === undefined ? s : { ...s, source };
}

/**
 * What makes `a` no SparseStructure, or null: not an object, rows or cols not integers >= 0, rowStart not an Int32Array
 * of rows + 1 offsets, colIndex not an Int32Array of as many columns as rowStart ends at (O(1)).
 */
export function sparseStructureProblem(a: unknown): string | null {
  if (typeof a !== "object" || a === null || Array.isArray(a))
    return `the sparse structure is not a SparseStructure (readSparseMatrixFile's), got ${describeValue(a)}`;
  const { rows, cols, rowStart, colIndex } = a as Partial<Record<keyof SparseStructure, unknown>>;
  const whole = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && v >= 0;
  if (!whole(rows) || !whole(cols)) return "the sparse structure's rows and cols are not integers >= 0";
  if (!(rowStart instanceof Int32Array) || rowStart.length !== (rows as number) + 1)
    return "the sparse structure's rowStart is not an Int32Array of rows + 1 offsets";
  if (!(colIndex instanceof Int32Array) || colIndex.length !== rowStart[rows as number])
    return "the sparse structure's colIndex is not an Int32Array of the entries rowStart counts";
  return null;
}
