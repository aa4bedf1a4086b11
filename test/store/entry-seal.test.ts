/** Entry seal: every single-byte change and every truncation of a sealed plan file is found. */
import { describe, expect, it } from "vitest";
import { encodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { plan } from "../../src/planner/registry.js";
import { SEAL_KEY, SEAL_PLACEHOLDER, checksum128, sealBytes, sealProblem } from "../../src/store/entry-seal.js";

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
});
