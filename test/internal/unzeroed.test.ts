// unzeroed: typed arrays of the asked type and length on a buffer of their own.
import { describe, expect, it } from "vitest";
import { unzeroed } from "../../src/internal/unzeroed.js";

describe("unzeroed", () => {
  it("makes arrays of the given type and length, each on its own buffer at offset 0", () => {
    const check = (
      a: Float64Array | Uint32Array | Uint8Array,
      ctor: abstract new (n: number) => unknown,
      n: number,
      bytes: number,
    ): void => {
      expect(a).toBeInstanceOf(ctor);
      expect(a.length).toBe(n);
      expect(a.byteOffset).toBe(0);
      expect(a.buffer.byteLength).toBe(n * bytes);
      a.fill(3);
      expect(a.every((v) => v === 3)).toBe(true);
    };
    check(unzeroed(Float64Array, 1000), Float64Array, 1000, 8);
    check(unzeroed(Uint32Array, 7), Uint32Array, 7, 4);
    check(unzeroed(Uint8Array, 0), Uint8Array, 0, 1);
    const a = unzeroed(Uint32Array, 64),
      b = unzeroed(Uint32Array, 64);
    expect(a.buffer).not.toBe(b.buffer);
  });
});
