/** ceilSqrt: ceil(sqrt(P)), the column count C of the logical node array (004 section 3.2). */
/** ceil(sqrt(n)) computed exactly for integers n >= 0. */
export function ceilSqrt(n: number): number {
  let c = Math.ceil(Math.sqrt(n));
  while (c > 0 && (c - 1) * (c - 1) >= n) c--;
  while (c * c < n) c++;
  return c;
}
