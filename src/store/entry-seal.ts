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
  return b.length < 24 ? [] : rangesOfEnds(b.length, b.subarray(0, 16), b.subarray(b.length - 10));
}

/** metadataRanges of a file of `len` (at least 24) bytes from its first 16 bytes and its last 10 alone. */
function rangesOfEnds(len: number, head: Buffer, tail: Buffer): [number, number][] {
  if (head.toString("latin1", 0, 6) !== "ARROW1" || tail.toString("latin1", 4) !== "ARROW1") return [];
  const ranges: [number, number][] = [];
  const footer = tail.readInt32LE(0);
  if (footer > 0 && footer <= len - 18) ranges.push([len - 10 - footer, len - 10]);
  const first = head.readUInt32LE(8) === 0xffffffff ? head.readInt32LE(12) : -1;
  if (first > 0 && 16 + first <= len) ranges.push([16, 16 + first]);
  return ranges;
}

/** The bytes of each end of a file that sealFrameProblem judges. */
export const SEAL_FRAME_BYTES = 16;

/** Why a file has no seal that can be checked (sealOf's verdict when no metadata range is found). */
const NO_SEAL = "no checksum in the file (truncated or altered)";

/**
 * Why a file of `size` bytes can hold no seal, judged from its first and last SEAL_FRAME_BYTES bytes (`head`, `tail`;
 * fewer for a smaller file) alone: the Arrow magic missing at either end, or neither the footer's length nor the first
 * message's fits the file, so metadataRanges would find no range and sealProblem would say NO_SEAL after the whole
 * file was read. Null when the file may hold a seal (then the whole file is read and checked).
 */
export function sealFrameProblem(size: number, head: Uint8Array, tail: Uint8Array): string | null {
  const h = asBuffer(head),
    t = asBuffer(tail);
  if (size < 24 || h.length < 16 || t.length < 10) return NO_SEAL;
  if (h.toString("latin1", 0, 6) !== "ARROW1" || t.toString("latin1", t.length - 6) !== "ARROW1") return NO_SEAL;
  const footer = t.readInt32LE(t.length - 10);
  const first = h.readUInt32LE(8) === 0xffffffff ? h.readInt32LE(12) : -1;
  const footerFits = footer > 0 && footer <= size - 18;
  const firstFits = first > 0 && 16 + first <= size;
  return footerFits || firstFits ? null : NO_SEAL;
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

/** The first lanes of checksum128 for `len` bytes (the length enters every lane, so a truncation changes them). */
function seedLanes(len: number): Int32Array {
  return Int32Array.of(0x811c9dc5 ^ len, 0x5bd1e995 ^ len, 0x9e3779b9 ^ len, 0x85ebca6b ^ len);
}

/**
 * Feeds bytes [from, to) (both multiples of 16 from the start) into the lanes, each an FNV-style multiply-xor over
 * every fourth little-endian 32-bit word. Read through a DataView: no alignment needed (no copy of unaligned bytes),
 * and faster in V8 than a Uint32Array's elements once compiled (docs/architecture.md has the figures).
 */
function feedLanes(view: DataView, lanes: Int32Array, from: number, to: number): void {
  let h0 = lanes[0]!,
    h1 = lanes[1]!,
    h2 = lanes[2]!,
    h3 = lanes[3]!;
  for (let k = from; k < to; k += 16) {
    h0 = Math.imul(h0 ^ view.getInt32(k, true), 0x01000193);
    h1 = Math.imul(h1 ^ view.getInt32(k + 4, true), 0x010001bd);
    h2 = Math.imul(h2 ^ view.getInt32(k + 8, true), 0x85ebca6b);
    h3 = Math.imul(h3 ^ view.getInt32(k + 12, true), 0xc2b2ae35);
  }
  lanes[0] = h0;
  lanes[1] = h1;
  lanes[2] = h2;
  lanes[3] = h3;
}

/** The digest of lanes fed every whole 16 bytes of a file: its last bytes (under 16), `rest`, go into lane 0. */
function finishLanes(rest: Uint8Array, lanes: Int32Array): string {
  let h0 = lanes[0]!;
  for (let k = 0; k < rest.length; k++) h0 = Math.imul(h0 ^ rest[k]!, 0x01000193);
  const [h1, h2, h3] = [lanes[1]!, lanes[2]!, lanes[3]!];
  return [fmix(h0 ^ h2), fmix(h1 ^ h3), fmix(h2 + h0), fmix(h3 + h1)]
    .map((h) => h.toString(16).padStart(8, "0"))
    .join("");
}

function viewOf(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * A 128-bit checksum of the bytes, at memory speed: four lanes, each an FNV-style multiply-xor over
 * every fourth 32-bit word (little-endian), so any change of one word changes its lane for certain (each step is a
 * bijection of the lane's state), and the length enters every lane (a truncation changes it).
 * Not a cryptographic hash: it finds damage, not forgery.
 */
export function checksum128(b: Uint8Array): string {
  const lanes = seedLanes(b.length);
  feedLanes(viewOf(b), lanes, 0, b.length & ~15);
  return finishLanes(b.subarray(b.length & ~15), lanes);
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

/**
 * Where a sealed file's seal is (its digits' positions) and what it says, or why it has none that can be checked (no
 * marker, digits cut off, not hex, copies that differ).
 */
function sealOf(b: Buffer): { at: number[]; first: string } | string {
  const at = sealPositions(b);
  if (at.length === 0 || at[at.length - 1]! + HEX > b.length) return NO_SEAL;
  const first = b.toString("latin1", at[0]!, at[0]! + HEX);
  if (!/^[0-9a-f]{32}$/.test(first)) return "the checksum is not 32 hex digits";
  for (const p of at) if (b.toString("latin1", p, p + HEX) !== first) return "the copies of the checksum differ";
  return { at, first };
}

/** The verdict on a seal `first` and the digest of the bytes: null when they match. */
function mismatch(first: string, digest: string): string | null {
  return digest === first ? null : `checksum mismatch (sealed ${first.slice(0, 12)}, bytes ${digest.slice(0, 12)})`;
}

/** The reason a sealed file is damaged, or null when its seal matches its bytes. */
export function sealProblem(bytes: Uint8Array): string | null {
  const b = asBuffer(bytes);
  const seal = sealOf(b);
  return typeof seal === "string" ? seal : mismatch(seal.first, checksumWithoutSeal(b, seal.at));
}

/** What readRegularInPieces reads first for sealStream: the file's footer (its seal's last copy, length) is there. */
export const SEAL_TAIL = 64 * 1024;

/** sealProblem of a file whose bytes arrive in order (see sealStream). */
export interface SealStream {
  /** Bytes [0, upTo) are in place. */
  feed(upTo: number): void;
  /** All bytes are in place: the reason the file is damaged, or null when its seal matches (sealProblem's verdict). */
  end(): string | null;
}

/**
 * sealProblem, computed as the file arrives: `bytes` has the file's length, with [0, upTo) and [tailFrom, end) in
 * place, and the rest arrives from the start on (feed). The seal's digits are read as zeros until end() puts them
 * back. Null when the seal cannot be checked this way (its metadata is not all in place yet, or there is no seal to
 * check: sealProblem of the whole file then says why).
 */
export function sealStream(bytes: Uint8Array, upTo: number, tailFrom: number): SealStream | null {
  const b = asBuffer(bytes);
  const len = b.length;
  const inPlace = (from: number, to: number): boolean => to <= upTo || from >= tailFrom;
  // metadataRanges reads the first 16 and the last 10 bytes, then the ranges it finds
  if (!inPlace(0, Math.min(16, len)) || !inPlace(Math.max(0, len - 10), len)) return null;
  if (!metadataRanges(b).every(([from, to]) => inPlace(from, to))) return null;
  const seal = sealOf(b);
  if (typeof seal === "string" || !seal.at.every((p) => inPlace(p, p + HEX))) return null;
  const { at, first } = seal;
  for (const p of at) ZEROS.copy(b, p);
  const lanes = seedLanes(len);
  const view = viewOf(b);
  let fed = 0;
  const feed = (to: number): void => {
    const whole = Math.min(to, len) & ~15;
    if (whole > fed) feedLanes(view, lanes, fed, whole);
    fed = Math.max(fed, whole);
  };
  feed(Math.min(upTo, tailFrom));
  return {
    feed: (to) => feed(Math.min(to, tailFrom)),
    end: () => {
      feed(len);
      const digest = finishLanes(b.subarray(len & ~15), lanes);
      for (const p of at) b.write(first, p, "latin1");
      return mismatch(first, digest);
    },
  };
}

/** Reads up to `n` bytes of a file at `pos` into the start of `into`: the count read (fewer only at its end). */
export type ReadAt = (into: Uint8Array, pos: number, n: number) => number;

/** The piece sealProblemInPieces reads at once: 1 MiB, a multiple of the lanes' 16 bytes. */
export const SEAL_PIECE = 1 << 20;

/** The problem of a file that reads shorter than the size it had when it was opened. */
const SHORTER = "shorter than its size when it was read (changed while read)";

/** Where the marker ends (the seal's digits start) in bytes [from, to) of the file, read a piece at a time. */
function markersIn(readAt: ReadAt, piece: Buffer, from: number, to: number): number[] | string {
  const at: number[] = [];
  for (let start = from; start < to;) {
    const n = Math.min(piece.length, to - start);
    if (readAt(piece, start, n) < n) return SHORTER;
    const region = piece.subarray(0, n);
    for (let k = region.indexOf(MARKER); k >= 0; k = region.indexOf(MARKER, k + MARKER.length))
      at.push(start + k + MARKER.length);
    // the next piece starts where a marker cut by this one's end would start (the marker never overlaps itself)
    start = start + n >= to ? to : start + n - (MARKER.length - 1);
  }
  return at;
}

/**
 * The seal of a file of `size` bytes read a piece at a time (sealOf's verdict): its digits' positions and what they
 * say, or why it has none that can be checked.
 */
function sealOfFile(size: number, readAt: ReadAt, piece: Buffer): { at: number[]; first: string } | string {
  if (size < 24) return NO_SEAL;
  const head = Buffer.alloc(16),
    tail = Buffer.alloc(10);
  if (readAt(head, 0, 16) < 16 || readAt(tail, size - 10, 10) < 10) return SHORTER;
  const at: number[] = [];
  for (const [from, to] of rangesOfEnds(size, head, tail)) {
    const found = markersIn(readAt, piece, from, to);
    if (typeof found === "string") return found;
    at.push(...found);
  }
  at.sort((x, y) => x - y);
  if (at.length === 0 || at[at.length - 1]! + HEX > size) return NO_SEAL;
  const digits = Buffer.alloc(HEX);
  let first = "";
  for (const p of at) {
    if (readAt(digits, p, HEX) < HEX) return SHORTER;
    const text = digits.toString("latin1");
    if (first === "" && !/^[0-9a-f]{32}$/.test(text)) return "the checksum is not 32 hex digits";
    if (first === "") first = text;
    else if (text !== first) return "the copies of the checksum differ";
  }
  return { at, first };
}

/**
 * sealProblem of a file of `size` bytes that is never held whole: read by `readAt` in pieces of `pieceBytes` (a
 * multiple of 16; its metadata once to find the seal, then every byte once for the checksum), so its memory does not
 * grow with the file.
 */
export function sealProblemInPieces(size: number, readAt: ReadAt, pieceBytes = SEAL_PIECE): string | null {
  if (pieceBytes % 16 !== 0 || pieceBytes < MARKER.length) throw new RangeError(`sealProblemInPieces: ${pieceBytes}`);
  const piece = Buffer.allocUnsafeSlow(pieceBytes); // its own ArrayBuffer: 16-byte words read in place
  const seal = sealOfFile(size, readAt, piece);
  if (typeof seal === "string") return seal;
  const lanes = seedLanes(size);
  const view = viewOf(piece);
  let next = 0; // the first seal copy whose digits end past the piece's start
  for (let start = 0; start < size; start += pieceBytes) {
    const n = Math.min(pieceBytes, size - start);
    if (readAt(piece, start, n) < n) return SHORTER;
    while (next < seal.at.length && seal.at[next]! + HEX <= start) next++;
    for (let k = next; k < seal.at.length && seal.at[k]! < start + n; k++) {
      const p = seal.at[k]!;
      piece.fill(0x30, Math.max(p, start) - start, Math.min(p + HEX, start + n) - start); // the digits read as "0"
    }
    feedLanes(view, lanes, 0, n & ~15);
    if (start + n === size) return mismatch(seal.first, finishLanes(piece.subarray(n & ~15, n), lanes));
  }
  return mismatch(seal.first, finishLanes(new Uint8Array(0), lanes)); // an empty file: sealOfFile refused it
}
