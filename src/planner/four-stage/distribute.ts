/** R-Distribute and C-Distribute: how many of h elements for destination j go to each bucket (004 sec 3.2.2 C, fig. 11). */
import type { NodeArray } from "./node-array.js";

/** Number of v in [0, x) with v mod c == k. */
function residues(x: number, c: number, k: number): number {
  return Math.floor(x / c) + (k < x % c ? 1 : 0);
}

/**
 * R-Distribute (fig. 11): count[j] starts at j mod C and element t of the h elements for node j
 * goes to bucket ((count[j] + t) mod P) mod C. Every P consecutive elements put R into each of
 * the first r buckets and R - 1 into each of the others (all R when r = 0). Fills out[0..C).
 */
export function rDistribute(a: NodeArray, j: number, h: number, out: Float64Array): void {
  const P = a.p, C = a.cols;
  const q = Math.floor(h / P), rem = h - q * P;
  const s = j % C;
  const wBase = Math.floor(P / C), wExtra = P % C;
  const end = s + rem;
  for (let c = 0; c < C; c++) {
    let n = q * (wBase + (c < wExtra ? 1 : 0));
    if (end <= P) n += residues(end, C, c) - residues(s, C, c);
    else n += residues(P, C, c) - residues(s, C, c) + residues(end - P, C, c);
    out[c] = n;
  }
}

/**
 * C-Distribute: in a column of N nodes, count[j] starts at j mod N and element t for node j goes to
 * bucket (count[j] + t) mod N, so every bucket gets floor(h / N) or ceil(h / N). Fills out[0..N).
 */
export function cDistribute(n: number, j: number, h: number, out: Float64Array): void {
  const q = Math.floor(h / n), rem = h - q * n, s = j % n;
  for (let k = 0; k < n; k++) out[k] = q + ((k - s + n) % n < rem ? 1 : 0);
}
