/** Revised R-Schedule: the row schedule of Stages I and III with priority stalls (004 sec 3.2.2 B, figs 9-10). */
import type { NodeArray } from "./node-array.js";

/** Which stall formula: the one figure 10 shows (default), or the one printed in the text (one step later). */
export type StallRule = "figure" | "printed";
/** Every StallRule value. */
export const STALL_RULES: readonly StallRule[] = ["figure", "printed"];

/**
 * The step (1-based) in which node u stalls in a row stage, or 0 when it never stalls.
 *
 * In step s (1..C) the node in column b sends its bucket for column (b + s) mod C (step C: to
 * itself). The node of the incomplete row in column m sends its pseudo-node messages into complete
 * row m, reaching column c >= r in step c - m, where the row's own node in column m also sends to c.
 * The incoming message has priority: node (m - k) mod C of row m stalls once, in step r - m + k,
 * for 0 <= k <= C - r + m, and sends the rest of its sequence one step later. This reproduces
 * figure 10 (node 18 stalls in step 3). The printed formula "step (r - m + 1 + k)" is one step
 * later than the figure and is not contention-free: with it node 18 still collides with node 58
 * in step 3 (docs/algorithms/four-stage.md).
 */
export function stallStep(a: NodeArray, u: number, rule: StallRule = "figure"): number {
  const row = Math.floor(u / a.cols),
    b = u % a.cols;
  if (a.r === 0 || row >= a.r) return 0; // only complete rows m < r receive pseudo-node messages
  const m = row,
    C = a.cols;
  const k = (((m - b) % C) + C) % C;
  return k <= C - a.r + m ? a.r - m + k + (rule === "printed" ? 1 : 0) : 0;
}

/** Steps of a row stage: C, plus one when some row stalls (r > 0). */
export function rowStageSteps(a: NodeArray): number {
  return a.cols + (a.r > 0 ? 1 : 0);
}

/**
 * What node u does in step `step` (1-based) of a row stage: the bucket (column) it sends, -1 for a
 * stall, or -2 for nothing (its sequence is over).
 */
export function rowAction(a: NodeArray, u: number, step: number, stall: number): number {
  let s = step;
  if (stall > 0) {
    if (step === stall) return -1;
    if (step > stall) s = step - 1;
  }
  if (s < 1 || s > a.cols) return -2;
  return ((u % a.cols) + s) % a.cols;
}
