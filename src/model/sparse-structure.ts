/**
 * SparseStructure: the nonzero structure of a sparse matrix (compressed rows, column indices only), read from Matrix
 * Market by src/io and partitioned by the spmv pattern.
 */

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
