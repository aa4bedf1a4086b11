/**
 * Stage-1 split of 000 sec 6.1 (fig. 7): a_ij in p parts of floor(a_ij / p), the a_ij mod p residual elements dealt
 * round robin.
 */

/**
 * The residual elements of one source are dealt with one counter that runs on across
 * destinations (fig. 7: `k` is set to 0 once, not per j). commplan starts source i's counter
 * at intermediate i (not 0), so that in the equal-traffic case every intermediate ends stage 1
 * with exactly t elements (docs/algorithms/two-stage.md).
 */
export function residualStart(i: number): number {
  return i;
}

/** Elements of part k (0 <= k < p) of a message of `a` elements whose residual interval starts at `st`. */
export function partCount(a: number, p: number, st: number, k: number): number {
  const q = Math.floor(a / p);
  const res = a - q * p;
  const d = k - st;
  return q + ((d < 0 ? d + p : d) < res ? 1 : 0);
}

/** Offset of part k in its message: parts are laid out in order k = 0..p-1 (fig. 7's send_msg_start). */
export function partOffset(a: number, p: number, st: number, k: number): number {
  const q = Math.floor(a / p);
  const res = a - q * p;
  const end = st + res;
  let extra: number;
  if (end <= p) extra = Math.min(res, Math.max(0, k - st));
  else extra = Math.min(k, end - p) + Math.max(0, k - st);
  return k * q + extra;
}
