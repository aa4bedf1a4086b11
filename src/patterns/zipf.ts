/**
 * Zipf popularity and draws from a discrete distribution by its cumulative sums (the skewed workloads moe and shuffle).
 */

/** Zipf weights of n items with exponent s: item r (0-based popularity rank) weighs 1 / (r + 1)^s; s = 0 is uniform. */
export function zipfWeights(n: number, s: number): Float64Array {
  const w = new Float64Array(n);
  for (let r = 0; r < n; r++) w[r] = s === 0 ? 1 : Math.pow(r + 1, -s);
  return w;
}

/** Cumulative sums: out[0] = 0, out[r + 1] = w[0] + ... + w[r] (n + 1 values). */
export function cumulative(w: Float64Array): Float64Array {
  const c = new Float64Array(w.length + 1);
  for (let r = 0; r < w.length; r++) c[r + 1] = c[r]! + w[r]!;
  return c;
}

/** The first index r with cum[r + 1] > x (binary search), clamped to the last item of positive weight. */
export function searchCumulative(cum: Float64Array, x: number): number {
  let lo = 0,
    hi = cum.length - 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cum[mid + 1]! > x) hi = mid;
    else lo = mid + 1;
  }
  while (lo > 0 && cum[lo + 1] === cum[lo]) lo--; // rounding past the end: the last item with weight
  return lo;
}

/**
 * Draws one item with probability proportional to its weight among the items not in `chosen`
 * (indices, ascending, `count` of them): one uniform u scaled to the remaining mass, then the
 * cumulative sums searched with the chosen items' weights skipped. Exact, O(count + log n).
 */
export function drawExcluding(cum: Float64Array, chosen: Int32Array, count: number, u: number): number {
  let removed = 0;
  for (let k = 0; k < count; k++) removed += cum[chosen[k]! + 1]! - cum[chosen[k]!]!;
  let target = u * (cum[cum.length - 1]! - removed);
  for (let k = 0; k < count; k++) {
    const c = chosen[k]!;
    if (cum[c]! <= target) target += cum[c + 1]! - cum[c]!;
    else break;
  }
  let r = searchCumulative(cum, target);
  // Rounding can push the target past the end of the free weight (u close to 1, the last items
  // chosen) and land on a chosen or empty item: the right answer is then the last free item with
  // weight before it (the chosen set is small). Searching forward would wrap to the first one.
  const n = cum.length - 1;
  const free = (i: number): boolean => !isChosen(chosen, count, i) && cum[i + 1]! > cum[i]!;
  if (!free(r)) {
    let back = r - 1;
    while (back >= 0 && !free(back)) back--;
    if (back >= 0) return back;
    while (!free(r)) r = (r + 1) % n;
  }
  return r;
}

function isChosen(chosen: Int32Array, count: number, r: number): boolean {
  for (let k = 0; k < count; k++) if (chosen[k] === r) return true;
  return false;
}
