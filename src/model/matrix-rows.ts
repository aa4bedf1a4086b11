/**
 * Compressed rows and columns of a matrix's non-zero entries: the sparse storage of CommMatrix, and
 * the O(P + E) views every sparse-aware planner, verifier and machine reads (E = non-zero entries).
 */

/**
 * The non-zero entries in compressed-row form: row i's are k in rowStart[i] .. rowStart[i + 1] - 1, columns ascending
 * and distinct.
 */
export interface MatrixRows {
  readonly p: number;
  /** p + 1 offsets; rowStart[p] is the number of non-zero entries. */
  readonly rowStart: Uint32Array;
  /** Column of each entry. */
  readonly col: Uint32Array;
  /** Value (elements) of each entry, > 0. */
  readonly val: Float64Array;
}

/**
 * The same entries in compressed-column form: column j's are k in colStart[j] .. colStart[j + 1] - 1, rows ascending.
 */
export interface MatrixCols {
  readonly p: number;
  readonly colStart: Uint32Array;
  readonly row: Uint32Array;
  readonly val: Float64Array;
}

/** Builds compressed rows from a dense row-major P x P array (one pass; zeros dropped). */
export function rowsOfDense(p: number, data: Float64Array): MatrixRows {
  const rowStart = new Uint32Array(p + 1);
  let n = 0;
  for (let x = 0; x < data.length; x++) if (data[x] !== 0) n++;
  const col = new Uint32Array(n);
  const val = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < p; i++) {
    rowStart[i] = k;
    const base = i * p;
    for (let j = 0; j < p; j++) {
      const v = data[base + j]!;
      if (v === 0) continue;
      col[k] = j;
      val[k++] = v;
    }
  }
  rowStart[p] = k;
  return { p, rowStart, col, val };
}

/** The compressed-column view of compressed rows (a counting sort, O(P + E)). */
export function colsOfRows(r: MatrixRows): MatrixCols {
  const { p, rowStart, col, val } = r;
  const n = rowStart[p]!;
  const colStart = new Uint32Array(p + 1);
  for (let k = 0; k < n; k++) colStart[col[k]! + 1]!++;
  for (let j = 0; j < p; j++) colStart[j + 1]! += colStart[j]!;
  const fill = colStart.slice(0, p);
  const row = new Uint32Array(n);
  const cval = new Float64Array(n);
  for (let i = 0; i < p; i++) {
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const at = fill[col[k]!]!++;
      row[at] = i;
      cval[at] = val[k]!;
    }
  }
  return { p, colStart, row, val: cval };
}

/** Writes compressed rows into a dense row-major array (zeroed by the caller). */
export function denseOfRows(r: MatrixRows, out: Float64Array): Float64Array {
  const { p, rowStart, col, val } = r;
  for (let i = 0; i < p; i++) {
    const base = i * p;
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) out[base + col[k]!] = val[k]!;
  }
  return out;
}

/** The index k of entry (i, j) in compressed rows, or -1 when it is zero (binary search in row i). */
export function findInRow(r: MatrixRows, i: number, j: number): number {
  let lo = r.rowStart[i]!,
    hi = r.rowStart[i + 1]!;
  const col = r.col;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = col[mid]!;
    if (c === j) return mid;
    if (c < j) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/** What a coordinate list breaks, for the caller's error: a duplicate (i, j) at input positions first and second. */
export interface DuplicateEntry {
  readonly i: number;
  readonly j: number;
  /** Input positions (0-based) of the two occurrences, in input order. */
  readonly first: number;
  readonly second: number;
}

/**
 * Compressed rows of `count` coordinate entries (i, j, v), indices already checked in 0..p-1 and
 * values checked >= 0 (zeros are dropped). colOf and valOf may become the result's columns (not
 * copied) when they hold exactly `count` entries in row-major order: the caller hands them over. Entries in row-major
 * order are taken in one pass; others are
 * sorted by a counting sort on rows and a sort within each row. A repeated (i, j) is returned as a
 * DuplicateEntry (nothing built) for the caller to report with its own file, line and field.
 */
export function rowsOfCoordinates(
  p: number,
  rowOf: Uint32Array,
  colOf: Uint32Array,
  valOf: Float64Array,
  count: number = rowOf.length,
): MatrixRows | DuplicateEntry {
  let ordered = true,
    zeros = 0,
    pi = -1,
    pj = -1;
  for (let k = 0; k < count; k++) {
    const i = rowOf[k]!,
      j = colOf[k]!;
    if (i < pi || (i === pi && j <= pj)) ordered = false;
    pi = i;
    pj = j;
    if (valOf[k] === 0) zeros++;
  }
  const rowStart = new Uint32Array(p + 1);
  for (let k = 0; k < count; k++) rowStart[rowOf[k]! + 1]!++;
  for (let i = 0; i < p; i++) rowStart[i + 1]! += rowStart[i]!;
  let col: Uint32Array, val: Float64Array;
  if (ordered) {
    // taken as they are when they hold exactly the entries (a reader's columns), else copied
    col = colOf.length === count ? colOf : colOf.slice(0, count);
    val = valOf.length === count ? valOf : valOf.slice(0, count);
  } else {
    // counting sort by row (stable), keeping each entry's input position for duplicate reports
    col = new Uint32Array(count);
    val = new Float64Array(count);
    const fill = rowStart.slice(0, p);
    const pos = new Uint32Array(count);
    for (let k = 0; k < count; k++) {
      const at = fill[rowOf[k]!]!++;
      col[at] = colOf[k]!;
      val[at] = valOf[k]!;
      pos[at] = k;
    }
    for (let i = 0; i < p; i++) {
      const a = rowStart[i]!,
        b = rowStart[i + 1]!;
      sortRow(col, val, pos, a, b);
      for (let k = a + 1; k < b; k++) {
        if (col[k] === col[k - 1]) {
          const x = Math.min(pos[k]!, pos[k - 1]!),
            y = Math.max(pos[k]!, pos[k - 1]!);
          return { i, j: col[k]!, first: x, second: y };
        }
      }
    }
  }
  if (zeros === 0) return { p, rowStart, col, val };
  // drop explicit zeros (they were kept until here so that a repeated (i, j) is found whatever its value)
  let out = 0;
  for (let i = 0; i < p; i++) {
    const a = rowStart[i]!,
      b = rowStart[i + 1]!;
    rowStart[i] = out;
    for (let k = a; k < b; k++) {
      if (val[k] === 0) continue;
      col[out] = col[k]!;
      val[out++] = val[k]!;
    }
  }
  rowStart[p] = out;
  return { p, rowStart, col: col.slice(0, out), val: val.slice(0, out) };
}

/** Sorts entries a..b-1 by column (then input position), moving val and pos along. */
function sortRow(col: Uint32Array, val: Float64Array, pos: Uint32Array, a: number, b: number): void {
  const n = b - a;
  if (n < 2) return;
  if (n <= 32) {
    for (let x = a + 1; x < b; x++) {
      const c = col[x]!,
        v = val[x]!,
        q = pos[x]!;
      let y = x - 1;
      while (y >= a && (col[y]! > c || (col[y] === c && pos[y]! > q))) {
        col[y + 1] = col[y]!;
        val[y + 1] = val[y]!;
        pos[y + 1] = pos[y]!;
        y--;
      }
      col[y + 1] = c;
      val[y + 1] = v;
      pos[y + 1] = q;
    }
    return;
  }
  const order = new Uint32Array(n);
  for (let x = 0; x < n; x++) order[x] = a + x;
  order.sort((x, y) => col[x]! - col[y]! || pos[x]! - pos[y]!);
  const c2 = new Uint32Array(n),
    v2 = new Float64Array(n),
    q2 = new Uint32Array(n);
  for (let x = 0; x < n; x++) {
    c2[x] = col[order[x]!]!;
    v2[x] = val[order[x]!]!;
    q2[x] = pos[order[x]!]!;
  }
  col.set(c2, a);
  val.set(v2, a);
  pos.set(q2, a);
}
