/** Node array of the four-stage algorithm: R x C, complete and incomplete rows and columns (004 sec 3.2, 3.2.2 A). */

/** The logical 2-D array of P nodes in row-major order. */
export interface NodeArray {
  readonly p: number;
  /** Columns C (ceil(sqrt P), or floor(sqrt P) after the rearrangement of 3.2.2 A). */
  readonly cols: number;
  /** Rows R = ceil(P / C). */
  readonly rows: number;
  /** Nodes in the incomplete last row, r = P mod C (0: every row is complete). */
  readonly r: number;
  /** True when C was lowered to floor(sqrt P) so that r <= R - 1 (P = ceil(sqrt P) floor(sqrt P) - 1). */
  readonly rearranged: boolean;
}

/** ceil(sqrt n) and floor(sqrt n) exactly, for integers. */
export function isqrt(n: number): { floor: number; ceil: number } {
  let f = Math.floor(Math.sqrt(n));
  while (f * f > n) f--;
  while ((f + 1) * (f + 1) <= n) f++;
  return { floor: f, ceil: f * f === n ? f : f + 1 };
}

/**
 * The node array for P nodes. C = ceil(sqrt P), R = ceil(P / C), r = P mod C; when r > R - 1
 * there are too few complete rows to receive the pseudo-nodes' messages, and 004 rearranges the
 * array with C = floor(sqrt P) (this happens exactly when P = ceil(sqrt P) floor(sqrt P) - 1).
 */
export function nodeArray(p: number): NodeArray {
  const { floor, ceil } = isqrt(p);
  let cols = ceil;
  let rows = Math.ceil(p / cols);
  let r = p % cols;
  let rearranged = false;
  if (r > 0 && r > rows - 1) {
    cols = floor;
    rows = Math.ceil(p / cols);
    r = p % cols;
    rearranged = true;
  }
  return { p, cols, rows, r, rearranged };
}

/** Nodes in column b: R for a complete column (b < r, or every column when r = 0), else R - 1. */
export function columnSize(a: NodeArray, b: number): number {
  return a.r === 0 || b < a.r ? a.rows : a.rows - 1;
}

/** True when row `row` is the incomplete last row. */
export function isIncompleteRow(a: NodeArray, row: number): boolean {
  return a.r > 0 && row === a.rows - 1;
}

/**
 * Where node u's bucket for column c goes in a row stage (Stages I and III). In a complete row,
 * to (row, c). From the incomplete row, columns c >= r hold pseudo-nodes, and the message for the
 * pseudo-node in column c goes to (b, c), b being the sender's column (fig. 8).
 */
export function rowTarget(a: NodeArray, u: number, c: number): number {
  const row = Math.floor(u / a.cols), b = u % a.cols;
  if (isIncompleteRow(a, row) && c >= a.r) return b * a.cols + c;
  return row * a.cols + c;
}
