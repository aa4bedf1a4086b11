/**
 * R-Distribute and C-Distribute: how many of h elements for destination j go to each bucket (004 sec 3.2.2 C, fig. 11).
 */
import type { NodeArray } from "./node-array.js";

/**
 * R-Distribute (fig. 11): count[j] starts at j mod C and element t of the h elements for node j
 * goes to bucket ((count[j] + t) mod P) mod C. Every P consecutive elements put R into each of
 * the first r buckets and R - 1 into each of the others (all R when r = 0). Fills out[0..C).
 */
export function rDistribute(a: NodeArray, j: number, h: number, out: Float64Array): void {
  const P = a.p,
    C = a.cols;
  const q = Math.floor(h / P),
    rem = h - q * P;
  const s = j % C;
  const wBase = Math.floor(P / C),
    wExtra = P % C;
  // the rem residual elements take the values v = s .. s + rem - 1 (mod P): one range, or two when it wraps
  const len1 = Math.min(rem, P - s),
    len2 = rem - len1;
  const base = Math.floor(len1 / C) + Math.floor(len2 / C);
  for (let c = 0; c < C; c++) out[c] = q * (wBase + (c < wExtra ? 1 : 0)) + base;
  // the last len % C values of each range add one to consecutive residues, starting at the range's start mod C
  addCyclic(out, C, s % C, len1 % C);
  addCyclic(out, C, 0, len2 % C);
}

/** Adds 1 to out[(start + x) mod c] for x in [0, n), n < c. */
function addCyclic(out: Float64Array, c: number, start: number, n: number): void {
  for (let x = 0, k = start; x < n; x++) {
    out[k] = out[k]! + 1;
    if (++k === c) k = 0;
  }
}

/**
 * C-Distribute: in a column of N nodes, count[j] starts at j mod N and element t for node j goes to
 * bucket (count[j] + t) mod N, so every bucket gets floor(h / N) or ceil(h / N). Fills out[0..N).
 */
export function cDistribute(n: number, j: number, h: number, out: Float64Array): void {
  const q = Math.floor(h / n),
    rem = h - q * n,
    s = j % n;
  for (let k = 0; k < n; k++) out[k] = q + ((k - s + n) % n < rem ? 1 : 0);
}
