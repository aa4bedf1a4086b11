/**
 * Node array of the four-stage algorithm: R x C, complete and incomplete rows and columns (004 sec 3.2, 3.2.2 A); the
 * array itself is in src/model.
 */

import type { NodeArray } from "../../internal/node-array.js";

export { isqrt, nodeArray, type NodeArray } from "../../internal/node-array.js";

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
  const row = Math.floor(u / a.cols),
    b = u % a.cols;
  if (isIncompleteRow(a, row) && c >= a.r) return b * a.cols + c;
  return row * a.cols + c;
}
