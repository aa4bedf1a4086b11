/**
 * scheduleClass: whether a schedule is direct (a transfer for every pair of the matrix) and contention-free (at most k
 * sends and k receives per node per step).
 */
import { fail } from "../model/errors.js";
import { checkMatrixArg, matrixRows, type CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import { scheduleArgProblem } from "../model/schedule-check.js";

/** The class of a schedule that decides which bounds apply to it (lower-bounds.ts bestBound). */
export interface ScheduleClass {
  /** Every pair i != j with M[i][j] > 0 has at least one transfer i -> j (in any stage). */
  readonly direct: boolean;
  /** No step has a node sending, or receiving, more than `ports` network messages. */
  readonly contentionFree: boolean;
}

/**
 * The class of `s` (made for `m`) with `ports` send and receive ports per node (1 for the cost model). O(transfers +
 * P^2).
 */
export function scheduleClass(m: CommMatrix, s: Schedule, ports = 1): ScheduleClass {
  checkMatrixArg("bounds", m);
  const arg = scheduleArgProblem(s);
  if (arg !== null) throw fail("bounds", "BAD_INPUT", arg, { field: "schedule" });
  const p = m.p;
  if (s.p !== p)
    throw fail("bounds", "MISMATCH", `the schedule is for P = ${s.p}, the matrix has P = ${p}`, { field: "p" });
  // the pairs the schedule carries, sorted (a P x P table would be the only P^2 term)
  const pairKeys = new Float64Array(s.transferCount);
  let nKeys = 0;
  const sends = new Uint32Array(p);
  const recvs = new Uint32Array(p);
  let contentionFree = true;
  for (let step = 0; step < s.stepCount; step++) {
    const lo = s.stepStart[step]!,
      hi = s.stepStart[step + 1]!;
    for (let x = lo; x < hi; x++) {
      const a = s.src[x]!,
        b = s.dst[x]!;
      if (a === b || s.size[x] === 0) continue;
      pairKeys[nKeys++] = a * p + b;
      if (++sends[a]! > ports || ++recvs[b]! > ports) contentionFree = false;
    }
    for (let x = lo; x < hi; x++) {
      sends[s.src[x]!] = 0;
      recvs[s.dst[x]!] = 0;
    }
  }
  const covered = pairKeys.subarray(0, nKeys).sort();
  let direct = true;
  const { rowStart, col } = matrixRows(m);
  for (let i = 0, c = 0; i < p && direct; i++)
    for (let k = rowStart[i]!; k < rowStart[i + 1]! && direct; k++) {
      if (col[k] === i) continue;
      const key = i * p + col[k]!;
      while (c < covered.length && covered[c]! < key) c++;
      if (c >= covered.length || covered[c] !== key) direct = false;
    }
  return { direct, contentionFree };
}
