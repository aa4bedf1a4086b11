// Growable: the append-only typed-array column of builders on hot paths (Uint32, Int32, Float64).
import { describe, expect, it } from "vitest";
import { growF64, growI32, growU32 } from "../../src/internal/growable.js";

describe("Growable", () => {
  it("push returns each value's index and the column grows past its initial size, keeping the values", () => {
    const c = growI32(16);
    for (let i = 0; i < 100; i++) expect(c.push(i - 50)).toBe(i);
    expect(c.length).toBe(100);
    expect(c.data.length).toBeGreaterThanOrEqual(100);
    expect(Array.from(c.toArray())).toEqual(Array.from({ length: 100 }, (_, i) => i - 50));
    expect(c.toArray()).toBeInstanceOf(Int32Array);
  });

  it("data is read and overwritten in place; toArray and take are right-sized", () => {
    const f = growF64(16);
    f.push(1.5);
    f.push(2.5);
    f.data[1] = f.data[1]! + 1;
    expect(Array.from(f.toArray())).toEqual([1.5, 3.5]);
    expect(f.last()).toBe(3.5);
    const u = growU32(16);
    for (let i = 0; i < 16; i++) u.push(i);
    expect(u.take()).toBe(u.data); // exactly full: no copy
    u.push(16);
    expect(u.take()).not.toBe(u.data);
    expect(u.take().length).toBe(17);
  });
});
