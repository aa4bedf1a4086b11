/** Entry seal: every single-byte change and every truncation of a sealed plan file is found. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { plan } from "../../src/planner/registry.js";
import {
  SEAL_KEY,
  SEAL_PLACEHOLDER,
  SEAL_TAIL,
  checksum128,
  sealBytes,
  sealProblem,
  sealProblemInPieces,
  sealStream,
} from "../../src/store/entry-seal.js";

function sealed(): Uint8Array {
  const m = { p: 5, elementBytes: 8, data: new Float64Array(25).fill(2) };
  const bytes = encodeScheduleArrow(plan(m, "four-stage", { payload: true }), {}, { [SEAL_KEY]: SEAL_PLACEHOLDER });
  sealBytes(bytes);
  return bytes;
}

describe("entry seal", () => {
  it("a sealed file passes; every flipped bit of every byte is found", () => {
    const b = sealed();
    expect(sealProblem(b)).toBeNull();
    for (let k = 0; k < b.length; k++) {
      for (const bit of [0x01, 0x80]) {
        b[k]! ^= bit;
        expect(sealProblem(b), `byte ${k}`).not.toBeNull();
        b[k]! ^= bit;
      }
    }
    expect(sealProblem(b)).toBeNull();
  });

  it("every truncation is found", () => {
    const b = sealed();
    for (let n = 0; n < b.length; n++) expect(sealProblem(b.subarray(0, n)), `length ${n}`).not.toBeNull();
  });

  it("the checksum depends on the length and on every word, also unaligned", () => {
    const a = new Uint8Array(64);
    expect(checksum128(a)).not.toBe(checksum128(new Uint8Array(65)));
    const seen = new Set([checksum128(a)]);
    for (let k = 0; k < 64; k++) {
      const c = a.slice();
      c[k] = 1;
      seen.add(checksum128(c));
    }
    expect(seen.size).toBe(65);
    const big = new Uint8Array(70).fill(3);
    expect(checksum128(big.subarray(1, 66))).toBe(checksum128(big.slice(1, 66)));
  });

  it("is the checksum stores were sealed with: four lanes over little-endian words, the rest bytewise into lane 0", () => {
    // written out plainly, word by word: an entry sealed by an earlier build must still verify
    const reference = (b: Uint8Array): string => {
      const len = b.length;
      const h = [0x811c9dc5 ^ len, 0x5bd1e995 ^ len, 0x9e3779b9 ^ len, 0x85ebca6b ^ len];
      const mul = [0x01000193, 0x010001bd, 0x85ebca6b, 0xc2b2ae35];
      const whole = len - (len % 16);
      for (let k = 0; k < whole; k += 4) {
        const word = b[k]! | (b[k + 1]! << 8) | (b[k + 2]! << 16) | (b[k + 3]! << 24);
        const lane = (k >> 2) & 3;
        h[lane] = Math.imul(h[lane]! ^ word, mul[lane]!);
      }
      for (let k = whole; k < len; k++) h[0] = Math.imul(h[0]! ^ b[k]!, mul[0]!);
      const fmix = (x: number): number => {
        x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
        x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
        return (x ^ (x >>> 16)) >>> 0;
      };
      const [h0, h1, h2, h3] = h as [number, number, number, number];
      return [fmix(h0 ^ h2), fmix(h1 ^ h3), fmix(h2 + h0), fmix(h3 + h1)]
        .map((x) => x.toString(16).padStart(8, "0"))
        .join("");
    };
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(7), (bytes, shift) => {
        const padded = new Uint8Array(bytes.length + shift);
        padded.set(bytes, shift);
        expect(checksum128(padded.subarray(shift))).toBe(reference(bytes));
      }),
    );
    // digests computed by the build before this checksum was rewritten (commit 3c29bb2), one of them unaligned
    expect(checksum128(Uint8Array.from({ length: 40 }, (_, k) => k))).toBe("ba09ba45f97493fb9f22d4aaffd311a6");
    const odd = Uint8Array.from({ length: 1000 }, (_, k) => (k * 7919) & 255).subarray(3);
    expect(checksum128(odd)).toBe("58cf9a6ea84d3fac0ecd3a7fe0091866");
  });

  it("sealStream, fed in any pieces, finds what sealProblem finds", () => {
    const b = sealed();
    const len = b.length;
    let streamed = 0;
    fc.assert(
      fc.property(
        fc.nat(len - 1),
        fc.array(fc.nat(len), { maxLength: 6 }),
        fc.option(fc.nat(len - 1), { nil: null }),
        fc.integer({ min: 16, max: SEAL_TAIL }),
        (head, cuts, flip, tail) => {
          const c = b.slice();
          if (flip !== null) c[flip]! ^= 0x20;
          const want = sealProblem(c.slice());
          const tailFrom = Math.max(0, len - tail);
          const upTo = Math.min(head, tailFrom);
          const check = sealStream(c, upTo, tailFrom);
          // the seal's metadata (the schema's first message and the footer) not yet in place: the whole file is checked
          if (check === null) return;
          streamed++;
          for (const at of [...cuts].sort((x, y) => x - y)) check.feed(Math.max(upTo, Math.min(at, tailFrom)));
          const got = check.end();
          if (want === null) expect(got).toBeNull();
          else expect(got).not.toBeNull();
          // the bytes are as they were (the seal's digits, zeroed for the pass, are put back)
          const again = b.slice();
          if (flip !== null) again[flip]! ^= 0x20;
          expect(c).toEqual(again);
        },
      ),
    );
    expect(streamed).toBeGreaterThan(10);
    // with all of the file in place the seal is checked in one go
    expect(sealStream(b, len, len)!.end()).toBeNull();
  });
});

describe("entry seal read in pieces", () => {
  it("sealProblemInPieces, read in pieces of any size, says what sealProblem says of every flip and truncation", () => {
    const b = sealed();
    const pieces = { reads: 0, most: 0 };
    /** A reader of `c` that counts its reads and the largest. */
    const readerOf =
      (c: Uint8Array) =>
      (into: Uint8Array, pos: number, n: number): number => {
        pieces.reads++;
        pieces.most = Math.max(pieces.most, n);
        const got = c.subarray(pos, pos + n);
        into.set(got);
        return got.length;
      };
    const cases: Uint8Array[] = [b];
    for (let k = 0; k < b.length; k++) {
      const c = b.slice();
      c[k]! ^= 0x01;
      cases.push(c);
    }
    for (let n = 0; n < b.length; n += 7) cases.push(b.subarray(0, n));
    for (const piece of [16, 32, 48, 1024]) {
      pieces.most = 0;
      for (const c of cases)
        expect(sealProblemInPieces(c.length, readerOf(c), piece), `${c.length} bytes`).toBe(sealProblem(c.slice()));
      expect(pieces.most, `piece ${piece}`).toBeLessThanOrEqual(Math.max(piece, 32)); // 32: the seal's digits
    }
    // a file shorter when read than when it was opened (it changed meanwhile) is refused, not judged from stale bytes
    expect(sealProblemInPieces(b.length + 16, readerOf(b))).toBe(
      "shorter than its size when it was read (changed while read)",
    );
  });
});
