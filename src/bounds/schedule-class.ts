/** scheduleClass: whether a schedule is direct (a transfer for every pair of the matrix) and contention-free (at most k sends and k receives per node per step). */
import { fail } from "../model/errors.js";
import type { CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";

/** The class of a schedule that decides which bounds apply to it (lower-bounds.ts bestBound). */
export interface ScheduleClass {
  /** Every pair i != j with M[i][j] > 0 has at least one transfer i -> j (in any stage). */
  readonly direct: boolean;
  /** No step has a node sending, or receiving, more than `ports` network messages. */
  readonly contentionFree: boolean;
}

/** The class of `s` (made for `m`) with `ports` send and receive ports per node (1 for the cost model). O(transfers + P^2). */
export function scheduleClass(m: CommMatrix, s: Schedule, ports = 1): ScheduleClass {
  const p = m.p;
  if (s.p !== p)
    throw fail("bounds", "MISMATCH", `the schedule is for P = ${s.p}, the matrix has P = ${p}`, { field: "p" });
  const covered = new Uint8Array(p * p);
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
      covered[a * p + b] = 1;
      if (++sends[a]! > ports || ++recvs[b]! > ports) contentionFree = false;
    }
    for (let x = lo; x < hi; x++) {
      sends[s.src[x]!] = 0;
      recvs[s.dst[x]!] = 0;
    }
  }
  let direct = true;
  for (let k = 0; k < p * p && direct; k++)
    if (m.data[k]! > 0 && Math.floor(k / p) !== k % p && !covered[k]) direct = false;
  return { direct, contentionFree };
}
