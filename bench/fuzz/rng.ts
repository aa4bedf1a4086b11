/** A small seeded random source for the fuzzer (mulberry32): every draw of a run follows from its seed. */

/** Draws of one seeded stream. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  /** A float in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  /** True with probability q. */
  chance(q: number): boolean {
    return this.next() < q;
  }
  /** One element of a non-empty list. */
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  /** One key of a table of weights, drawn in proportion to its weight. */
  weighted<K extends string>(w: Readonly<Record<K, number>>): K {
    const keys = Object.keys(w) as K[];
    let total = 0;
    for (const k of keys) total += w[k];
    let x = this.next() * total;
    for (const k of keys) if ((x -= w[k]) < 0) return k;
    return keys[keys.length - 1]!;
  }
  /** An integer drawn log-uniformly in [1, max] (small values common, large ones reached). */
  logInt(max: number): number {
    return Math.max(1, Math.min(max, Math.floor(Math.exp(this.next() * Math.log(max + 1)))));
  }
}
