/**
 * Memory budget of a plan: the planners that allocate in proportion to P^2 or to their output estimate it up front and
 * refuse past the budget.
 */
import { memoryBudgetOf } from "../host/memory.js";
import { fail } from "../model/errors.js";
import { raiseBudgetHint } from "../model/memory-budget.js";
import { counted } from "../internal/plural.js";
import { MAX_DENSE_P, matrixBytes, nonzeroCount, type CommMatrix } from "../model/matrix.js";
import type { PlanOptions } from "./types.js";

/**
 * The bytes a plan may allocate: `opts.maxMemory`, else the default budget (half the machine's memory, at most 32 GiB).
 */
export function planMemoryBudget(opts: PlanOptions): number {
  return memoryBudgetOf(opts);
}

/** Formats a byte count (GiB or MiB, one decimal). */
function bytes(n: number): string {
  return n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : `${(n / 2 ** 20).toFixed(1)} MiB`;
}

/**
 * Throws a one-line CommplanError when a plan's estimated allocation passes the budget; `what` says what the estimate
 * counts.
 */
export function refuseOverBudget(algorithm: string, estimate: number, what: string, opts: PlanOptions): void {
  const budget = planMemoryBudget(opts);
  if (estimate <= budget) return;
  throw fail(
    "planner",
    "UNSUPPORTED",
    `${algorithm}: this plan would need about ${bytes(estimate)} (${what}), over the memory budget of ${bytes(budget)} (${raiseBudgetHint(estimate)}), or plan another algorithm`,
    { field: "maxMemory" },
  );
}

/** Below this a P^2 plan of a sparse matrix is not refused (small P: the dense work is cheap). */
export const SPARSE_DENSE_WORK_FLOOR = 256 * 2 ** 20;
/**
 * A P^2 plan of a sparse matrix is refused when its estimate passes this many times the matrix's own bytes (and the
 * floor).
 */
export const SPARSE_DENSE_WORK_FACTOR = 16;

/**
 * The second way on for a refused P^2 plan of a sparse matrix: the matrix in a dense form, which exists only up to
 * MAX_DENSE_P (past it no reader takes one, so the message must not send the user there).
 */
function denseWayOn(p: number): string {
  return p <= MAX_DENSE_P
    ? ", or give the matrix in a dense form (JSON rows or CSV)"
    : ` (the dense form that would plan it holds at most P = ${MAX_DENSE_P})`;
}

/**
 * Refuses up front a plan whose memory grows with P^2 (`estimate`) on a sparse matrix of E entries
 * when it would dwarf the input (past SPARSE_DENSE_WORK_FACTOR times the matrix's own bytes and
 * SPARSE_DENSE_WORK_FLOOR): whoever gave a sparse matrix does not expect gigabytes for ten
 * messages. The message names the estimate and the two ways on: an O(E) planner, or the matrix in a
 * dense form (JSON rows or CSV), which plans as before under the budget (up to P = MAX_DENSE_P: past it only the
 * first).
 */
export function refuseDenseWorkOnSparse(algorithm: string, m: CommMatrix, estimate: number): void {
  if (!m.sparse) return;
  const own = matrixBytes(m);
  if (estimate <= Math.max(SPARSE_DENSE_WORK_FLOOR, SPARSE_DENSE_WORK_FACTOR * own)) return;
  throw fail(
    "planner",
    "UNSUPPORTED",
    `${algorithm}: this plan of a sparse matrix (P = ${m.p}, ${counted(nonzeroCount(m), "entry", "entries")}, ${bytes(own)}) would need about ${bytes(estimate)} (its memory grows with P^2); plan an O(E) algorithm (shift, linear-permutation, coloring, split-coloring, rs-n, rs-nh)${denseWayOn(m.p)}`,
    { field: "algorithm" },
  );
}
