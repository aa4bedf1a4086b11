/**
 * Entry seal: a 128-bit checksum of a whole plan file written inside it (as schema metadata), so a flipped byte or a
 * truncation anywhere is found.
 */

/** The marker before the seal's hex digits; 0x01 never occurs in JSON text, so no header or parameter can spell it. */
const MARKER = Buffer.from("\x01commplan-seal=", "latin1");
/** Hex digits of the seal (4 lanes of 32 bits). */
const HEX = 32;
/** The seal's value as written before sealing: the marker and 32 zeros. */
export const SEAL_PLACEHOLDER = `\x01commplan-seal=${"0".repeat(HEX)}`;
/** The schema metadata key of the seal. */
export const SEAL_KEY = "commplan.seal";
const ZEROS = Buffer.from("0".repeat(HEX), "latin1");

/**
 * The byte ranges of an Arrow IPC file's schema metadata: its first message (after the magic) and its footer; empty
 * when the framing is broken.
 */
function metadataRanges(b: Buffer): [number, number][] {
  const len = b.length;
  if (len < 24 || b.toString("latin1", 0, 6) !== "ARROW1" || b.toString("latin1", len - 6) !== "ARROW1") return [];
  const ranges: [number, number][] = [];
  const footer = b.readInt32LE(len - 10);
  if (footer > 0 && footer <= len - 18) ranges.push([len - 10 - footer, len - 10]);
  const first = b.readUInt32LE(8) === 0xffffffff ? b.readInt32LE(12) : -1;
  if (first > 0 && 16 + first <= len) ranges.push([16, 16 + first]);
  return ranges;
}

/**
 * Where the seal's hex digits are: every occurrence of the marker in the schema metadata (the file's footer, and its
 * first message when the writer repeats the schema there).
 */
function sealPositions(b: Buffer): number[] {
  const at: number[] = [];
  for (const [from, to] of metadataRanges(b)) {
    const region = b.subarray(from, to);
    let k = region.indexOf(MARKER);
    while (k >= 0) {
      at.push(from + k + MARKER.length);
      k = region.indexOf(MARKER, k + MARKER.length);
    }
  }
  return at.sort((x, y) => x - y);
}

/** murmur3's 32-bit finaliser. */
function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A 128-bit checksum of the bytes, at memory speed: four lanes, each an FNV-style multiply-xor over
 * every fourth 32-bit word, so any change of one word changes its lane for certain (each step is a
 * bijection of the lane's state), and the length enters every lane (a truncation changes it).
 * Not a cryptographic hash: it finds damage, not forgery.
 */
export function checksum128(b: Uint8Array): string {
  const aligned = b.byteOffset % 4 === 0 ? b : b.slice();
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length >>> 2);
  const len = b.length;
  let h0 = 0x811c9dc5 ^ len,
    h1 = 0x5bd1e995 ^ len,
    h2 = 0x9e3779b9 ^ len,
    h3 = 0x85ebca6b ^ len;
  const n = words.length & ~3;
  for (let k = 0; k < n; k += 4) {
    h0 = Math.imul(h0 ^ words[k]!, 0x01000193);
    h1 = Math.imul(h1 ^ words[k + 1]!, 0x010001bd);
    h2 = Math.imul(h2 ^ words[k + 2]!, 0x85ebca6b);
    h3 = Math.imul(h3 ^ words[k + 3]!, 0xc2b2ae35);
  }
  for (let k = n * 4; k < len; k++) h0 = Math.imul(h0 ^ b[k]!, 0x01000193);
  return [fmix(h0 ^ h2), fmix(h1 ^ h3), fmix(h2 + h0), fmix(h3 + h1)]
    .map((h) => h.toString(16).padStart(8, "0"))
    .join("");
}

/** The checksum of the bytes with the seal's digits read as zeros (they are zeroed for the pass and put back). */
function checksumWithoutSeal(b: Buffer, at: readonly number[]): string {
  const saved = at.map((p) => Buffer.from(b.subarray(p, p + HEX)));
  for (const p of at) ZEROS.copy(b, p);
  try {
    return checksum128(b);
  } finally {
    at.forEach((p, k) => saved[k]!.copy(b, p));
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Seals bytes that hold SEAL_PLACEHOLDER: writes the checksum of the whole file into every placeholder, in place;
 * returns it.
 */
export function sealBytes(bytes: Uint8Array): string {
  const b = asBuffer(bytes);
  const at = sealPositions(b);
  if (at.length === 0 || at.some((p) => p + HEX > b.length || !b.subarray(p, p + HEX).equals(ZEROS)))
    throw new Error("sealBytes: no seal placeholder in the bytes");
  const digest = checksumWithoutSeal(b, at);
  for (const p of at) b.write(digest, p, "latin1");
  return digest;
}

/** The reason a sealed file is damaged, or null when its seal matches its bytes. */
export function sealProblem(bytes: Uint8Array): string | null {
  const b = asBuffer(bytes);
  const at = sealPositions(b);
  if (at.length === 0 || at[at.length - 1]! + HEX > b.length) return "no checksum in the file (truncated or altered)";
  const first = b.toString("latin1", at[0]!, at[0]! + HEX);
  if (!/^[0-9a-f]{32}$/.test(first)) return "the checksum is not 32 hex digits";
  for (const p of at) if (b.toString("latin1", p, p + HEX) !== first) return "the copies of the checksum differ";
  const digest = checksumWithoutSeal(b, at);
  return digest === first ? null : `checksum mismatch (sealed ${first.slice(0, 12)}, bytes ${digest.slice(0, 12)})`;
}
