/**
 * The R x C node array of the four-stage algorithm (004 sec 3.2, 3.2.2 A), shared by the planner and the exports (the
 * verifier derives its own).
 */

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
