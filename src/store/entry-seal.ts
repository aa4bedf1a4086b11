/** Entry seal: a SHA-256 of a whole plan file written inside it (as schema metadata), so a flipped byte or a truncation anywhere is found. */
import { createHash } from "node:crypto";

/** The marker before the 64 hex digits of the seal; 0x01 never occurs in JSON text, so no header or parameter can spell it. */
const MARKER = Buffer.from("\x01commplan-sha256=", "latin1");
const HEX = 64;
/** The seal's value as written before sealing: the marker and 64 zeros. */
export const SEAL_PLACEHOLDER = `\x01commplan-sha256=${"0".repeat(HEX)}`;
/** The schema metadata key of the seal. */
export const SEAL_KEY = "commplan.seal";
const ZEROS = Buffer.from("0".repeat(HEX), "latin1");

/** Where the seal's hex digits are (every occurrence of the marker: an Arrow file may hold its schema twice, in the stream and in the footer). */
function sealPositions(b: Buffer): number[] {
  const at: number[] = [];
  let k = b.indexOf(MARKER);
  while (k >= 0) {
    at.push(k + MARKER.length);
    k = b.indexOf(MARKER, k + MARKER.length);
  }
  return at;
}

/** SHA-256 of the bytes with the seal's digits read as zeros (no copy). */
function digestWithoutSeal(b: Buffer, at: readonly number[]): string {
  const h = createHash("sha256");
  let from = 0;
  for (const p of at) {
    h.update(b.subarray(from, p));
    h.update(ZEROS);
    from = p + HEX;
  }
  h.update(b.subarray(from));
  return h.digest("hex");
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Seals bytes that hold SEAL_PLACEHOLDER: writes the SHA-256 of the whole file into every placeholder, in place; returns the digest. */
export function sealBytes(bytes: Uint8Array): string {
  const b = asBuffer(bytes);
  const at = sealPositions(b);
  if (at.length === 0 || at.some((p) => p + HEX > b.length || !b.subarray(p, p + HEX).equals(ZEROS)))
    throw new Error("sealBytes: no seal placeholder in the bytes");
  const digest = digestWithoutSeal(b, at);
  for (const p of at) b.write(digest, p, "latin1");
  return digest;
}

/** The reason a sealed file is damaged, or null when its seal matches its bytes. */
export function sealProblem(bytes: Uint8Array): string | null {
  const b = asBuffer(bytes);
  const at = sealPositions(b);
  if (at.length === 0 || at[at.length - 1]! + HEX > b.length) return "no checksum in the file (truncated or altered)";
  const first = b.toString("latin1", at[0]!, at[0]! + HEX);
  if (!/^[0-9a-f]{64}$/.test(first)) return "the checksum is not 64 hex digits";
  for (const p of at) if (b.toString("latin1", p, p + HEX) !== first) return "the two copies of the checksum differ";
  const digest = digestWithoutSeal(b, at);
  return digest === first ? null : `checksum mismatch (sealed ${first.slice(0, 12)}, bytes ${digest.slice(0, 12)})`;
}
