/** AsciiWriter writes numbers exactly as String does, and hands over what it wrote piece by piece. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { AsciiWriter } from "../../src/internal/ascii-writer.js";

function written(xs: readonly number[], capacity = 8): string {
  const w = new AsciiWriter(capacity);
  const parts: string[] = [];
  xs.forEach((x, k) => {
    if (k > 0) w.char(0x2c);
    w.num(x);
    if (w.length >= capacity) parts.push(w.take().toString("latin1"));
  });
  parts.push(w.take().toString("latin1"));
  return parts.join("");
}

describe("AsciiWriter", () => {
  it("writes the numbers a program holds as String does, at the edges of its integer path", () => {
    const edges = [0, -0, 1, 9, 10, 99, 100, 4294967295, 4294967296, 2 ** 53, 1e21, 1.5, -1, 1e-7, 123456789];
    expect(written(edges)).toBe(edges.map(String).join(","));
  });

  it("writes any double as String does, across Buffer growth and takes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.nat(), fc.integer({ min: 0, max: 0xffffffff }), fc.double({ noNaN: false })), {
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 64 }),
        (xs, capacity) => {
          expect(written(xs, capacity)).toBe(xs.map(String).join(","));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("text and take: the pieces concatenate to what was written, and a take starts afresh", () => {
    const w = new AsciiWriter(4);
    w.text('{"ranks":[');
    const first = w.take();
    w.text("]}");
    expect(first.toString("latin1")).toBe('{"ranks":[');
    expect(w.take().toString("latin1")).toBe("]}");
    expect(w.length).toBe(0);
  });
});
