/**
 * Matrix digests: "mm3x64:" (two murmur3 lanes, the default) and the legacy byte-wise "fnv1a64:", both over P and the
 * non-zero entries.
 */

import type { MatrixRows } from "./matrix-rows.js";

/**
 * What a digest reads of a matrix (structural, so that matrix.ts can re-export without a cycle): the compressed rows of
 * a sparse one, else the dense data.
 */
interface Digestible {
  readonly p: number;
  readonly data: Float64Array;
  readonly sparse?: MatrixRows;
}

/** Calls f(k, v) for every non-zero entry in row-major order, k = i * p + j (O(E) on sparse storage). */
function forEachNonzero(m: Digestible, f: (k: number, v: number) => void): void {
  const s = m.sparse;
  if (s) {
    const { p, rowStart, col, val } = s;
    for (let i = 0; i < p; i++) for (let x = rowStart[i]!; x < rowStart[i + 1]!; x++) f(i * p + col[x]!, val[x]!);
    return;
  }
  const data = m.data;
  for (let k = 0; k < data.length; k++) if (data[k] !== 0) f(k, data[k]!);
}

/** The prefix of the default digest. */
export const DIGEST_PREFIX = "mm3x64:";
/** The prefix of the legacy digest, accepted where a document carries it (docs/matrix.md). */
export const LEGACY_DIGEST_PREFIX = "fnv1a64:";

const hex8 = (h: number): string => (h >>> 0).toString(16).padStart(8, "0");
const C1 = 0xcc9e2d51,
  C2 = 0x1b873593,
  C3 = 0x85ebca6b,
  C4 = 0xc2b2ae35;

/** murmur3's 32-bit finaliser. */
function fmix(hIn: number): number {
  let h = hIn;
  h ^= h >>> 16;
  h = Math.imul(h, C3);
  h ^= h >>> 13;
  h = Math.imul(h, C4);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Lane 1: murmur3-32's block step for word w. */
function lane1(h: number, w: number): number {
  let a = Math.imul(w, C1);
  a = Math.imul((a << 15) | (a >>> 17), C2);
  const x = h ^ a;
  return (Math.imul((x << 13) | (x >>> 19), 5) + 0xe6546b64) | 0;
}

/** Lane 2: the same step with other constants and rotations, so that the lanes are independent. */
function lane2(h: number, w: number): number {
  let b = Math.imul(w ^ 0x5bd1e995, C4);
  b = Math.imul((b << 13) | (b >>> 19), C1);
  const x = h ^ b;
  return (Math.imul((x << 17) | (x >>> 15), 5) + 0x561ccd1b) | 0;
}

/**
 * A stable digest of P and the (index, value) pairs of the non-zero entries: "mm3x64:<16 hex>",
 * two murmur3-32 lanes with different word mixes, each word hashed whole: 3 multiplies per lane and
 * entry in the chain, against the 24 of the byte-wise legacy FNV-1a digest (docs/matrix.md); schedules
 * carrying the legacy digest are checked with it (`digestLike`).
 */
export function matrixDigest(m: Digestible): string {
  // a matrix does not change once made (its storage is taken, never written): one digest per storage
  const key: object = m.sparse ?? m.data;
  let d = cache.get(key);
  if (d === undefined || d.p !== m.p) {
    d = { p: m.p, digest: computeDigest(m) };
    cache.set(key, d);
  }
  return d.digest;
}

/** Digests by storage (the dense data or the compressed rows) and P. */
const cache = new WeakMap<object, { p: number; digest: string }>();

/** matrixDigest without the cache. */
function computeDigest(m: Digestible): string {
  const p = m.p;
  let h1 = 0x9747b28c ^ p,
    h2 = 0x3c6ef372 ^ Math.imul(p, C3);
  let words = 1;
  // Three words per entry: index, low and high half of the value. Values are integers below 2^53
  // (hi < 2^21); an index past 2^32 puts its high part above hi. The loop is written twice (dense,
  // sparse) to keep the dense one, a hot path, free of a closure over h1 and h2.
  const s = m.sparse;
  if (s) {
    const { rowStart, col, val } = s;
    for (let i = 0; i < p; i++) {
      for (let x = rowStart[i]!; x < rowStart[i + 1]!; x++) {
        const k = i * p + col[x]!,
          v = val[x]!;
        const vhi = Math.floor(v / 0x100000000),
          lo = v - vhi * 0x100000000,
          hi = vhi + Math.floor(k / 0x100000000) * 0x200000;
        h1 = lane1(lane1(lane1(h1, k), lo | 0), hi | 0);
        h2 = lane2(lane2(lane2(h2, k), lo | 0), hi | 0);
        words += 3;
      }
    }
  } else {
    // a dense index is below 2^28 (P <= 16384): its high part is 0
    const data = m.data;
    for (let k = 0; k < data.length; k++) {
      const v = data[k]!;
      if (v === 0) continue;
      const hi = Math.floor(v / 0x100000000),
        lo = v - hi * 0x100000000;
      h1 = lane1(lane1(lane1(h1, k), lo | 0), hi);
      h2 = lane2(lane2(lane2(h2, k), lo | 0), hi);
      words += 3;
    }
  }
  h1 ^= words;
  h2 ^= words;
  h1 = (h1 + h2) | 0;
  h2 = (h2 + h1) | 0;
  return `${DIGEST_PREFIX}${hex8(fmix(h1))}${hex8(fmix(h2))}`;
}

/** The legacy digest "fnv1a64:<16 hex>": two 32-bit FNV-1a lanes over the little-endian bytes of the same words. */
export function legacyMatrixDigest(m: Digestible): string {
  const M1 = 0x01000193,
    M2 = 0x01000193 + 0x2a;
  let h1 = 0x811c9dc5,
    h2 = 0x01000193 ^ 0x5bd1e995;
  const words = new Float64Array(3);
  const hash = (n: number): void => {
    for (let x = 0; x < n; x++) {
      const w = words[x]!;
      for (let sh = 0; sh < 32; sh += 8) {
        const b = (w >>> sh) & 0xff;
        h1 = Math.imul(h1 ^ b, M1) >>> 0;
        h2 = Math.imul(h2 ^ b, M2) >>> 0;
      }
    }
  };
  words[0] = m.p;
  hash(1);
  forEachNonzero(m, (k, v) => {
    words[0] = k;
    words[1] = v % 0x100000000;
    words[2] = Math.floor(v / 0x100000000);
    hash(3);
  });
  return `${LEGACY_DIGEST_PREFIX}${hex8(h1)}${hex8(h2)}`;
}

/**
 * m's digest in the scheme of `other` (the legacy one when `other` starts with "fnv1a64:", else the default), for
 * comparing with it.
 */
export function digestLike(m: Digestible, other: string): string {
  return other.startsWith(LEGACY_DIGEST_PREFIX) ? legacyMatrixDigest(m) : matrixDigest(m);
}

/** The 32 bits after the digest's prefix, as an unsigned integer (a seed derived from the matrix). */
export function digestSeed(digest: string): number {
  return Number.parseInt(digest.slice(digest.indexOf(":") + 1, digest.indexOf(":") + 9), 16) >>> 0;
}
