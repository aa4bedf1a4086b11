/**
 * Rng: a small seeded generator (xoshiro128**, seeded by a 32-bit golden-ratio counter through MurmurHash3's fmix32),
 * the only source of randomness.
 */
import { checkArg } from "./option-checks.js";

/** A seeded random generator; same seed, same sequence on every platform. */
export interface Rng {
  /** A uniform 32-bit unsigned integer. */
  nextU32(): number;
  /** A uniform float in [0, 1). */
  next(): number;
  /** A uniform integer in [0, n) for 0 < n <= 2^32. */
  int(n: number): number;
}

/**
 * Creates a seeded Rng: xoshiro128** whose four state words are successive outputs of a 32-bit
 * SplitMix-style generator (a counter starting at the seed mod 2^32, stepped by 0x9e3779b9, each
 * value mixed by MurmurHash3's fmix32 finalizer).
 */
export function createRng(seed: number): Rng {
  checkArg(
    "rng",
    "createRng",
    "seed",
    seed,
    typeof seed === "number" && Number.isFinite(seed),
    "a finite number",
    "BAD_OPTION",
  );
  let x = (Math.floor(Math.abs(seed)) % 0x100000000) >>> 0;
  const splitmix = (): number => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix(),
    b = splitmix(),
    c = splitmix(),
    d = splitmix();
  if ((a | b | c | d) === 0) a = 1;
  const nextU32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5) >>> 0, 7), 9) >>> 0;
    const t = (b << 9) >>> 0;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  return {
    nextU32,
    next: () => nextU32() / 0x100000000,
    int(n: number): number {
      // rejection sampling for an unbiased result
      const limit = 0x100000000 - (0x100000000 % n);
      for (;;) {
        const v = nextU32();
        if (v < limit) return v % n;
      }
    },
  };
}

function rotl(v: number, k: number): number {
  return ((v << k) | (v >>> (32 - k))) >>> 0;
}

/** Fisher-Yates shuffle of a typed or plain array in place. */
export function shuffleInPlace<T extends { length: number; [i: number]: number }>(rng: Rng, a: T): T {
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
  return a;
}
