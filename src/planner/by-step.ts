/**
 * Network messages of a sparse matrix grouped by the step a planner gives each pair: a counting sort in O(P + E +
 * steps), instead of a loop over steps x nodes.
 */
import { matrixRows, type CommMatrix } from "../model/matrix.js";

/**
 * The messages of step s are x in start[s] .. start[s + 1] - 1: from src[x], the matrix's non-zero entry `at[x]` (its
 * column and value in matrixRows).
 */
export interface MessagesByStep {
  readonly start: Uint32Array;
  readonly src: Uint32Array;
  readonly at: Uint32Array;
}

/**
 * Groups the off-diagonal non-zero entries of m by `stepOf(i, j)` (0..steps-1); within a step, in row order (then
 * column order).
 */
export function messagesByStep(m: CommMatrix, steps: number, stepOf: (i: number, j: number) => number): MessagesByStep {
  const { p } = m;
  const { rowStart, col } = matrixRows(m);
  const n = rowStart[p]!;
  const start = new Uint32Array(steps + 1);
  const key = new Int32Array(n);
  for (let i = 0; i < p; i++)
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const s = col[k] === i ? -1 : stepOf(i, col[k]!);
      key[k] = s;
      if (s >= 0) start[s + 1]!++;
    }
  for (let s = 0; s < steps; s++) start[s + 1]! += start[s]!;
  const fill = start.slice(0, steps);
  const src = new Uint32Array(start[steps]!),
    at = new Uint32Array(start[steps]!);
  for (let i = 0; i < p; i++)
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const s = key[k]!;
      if (s < 0) continue;
      const x = fill[s]!++;
      src[x] = i;
      at[x] = k;
    }
  return { start, src, at };
}
