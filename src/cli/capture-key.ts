/**
 * The lookup key of a count matrix as libcommplan computes it in MPI_Alltoallv (runtimes/libcommplan/key.c): per rank
 * an FNV-1a over 64-bit words of its rank, P, elementBytes, its send row and its receive column, two splitmix64 mixes
 * of that, summed over the ranks mod 2^64; 32 hex digits.
 */
import type { CommMatrix } from "../model/matrix.js";

const MASK = (1n << 64n) - 1n;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;

function mix64(x: bigint): bigint {
  let z = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

function step(h: bigint, v: number): bigint {
  return ((h ^ BigInt(v)) * FNV_PRIME) & MASK;
}

/** The key libcommplan looks a call up by, for the matrix `m` (counts in elements of m.elementBytes). */
export function captureKey(m: CommMatrix): string {
  const { p, data } = m;
  let a = 0n,
    b = 0n;
  for (let r = 0; r < p; r++) {
    let h = step(step(step(FNV_OFFSET, r), p), m.elementBytes);
    for (let j = 0; j < p; j++) h = step(h, data[r * p + j]! % 2 ** 32);
    for (let j = 0; j < p; j++) h = step(h, data[j * p + r]! % 2 ** 32);
    a = (a + mix64(h ^ 0x9e3779b97f4a7c15n)) & MASK;
    b = (b + mix64((h + 0x632be59bd9b4e019n) & MASK)) & MASK;
  }
  return a.toString(16).padStart(16, "0") + b.toString(16).padStart(16, "0");
}
