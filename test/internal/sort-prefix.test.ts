/** sortPrefix sorts the first n entries in place, on both sides of its insertion-sort cut-off, and leaves the rest. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortPrefix } from "../../src/internal/sort-prefix.js";

describe("sortPrefix", () => {
  it("sorts a[0 .. n) ascending and leaves a[n ..] as it was", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 40 }), fc.nat(40), (xs, cut) => {
        const n = Math.min(cut, xs.length);
        const a = Int32Array.from(xs);
        sortPrefix(a, n);
        expect(Array.from(a.subarray(0, n))).toEqual(xs.slice(0, n).sort((x, y) => x - y));
        expect(Array.from(a.subarray(n))).toEqual(xs.slice(n));
      }),
      { numRuns: 300, seed: 3 },
    );
  });
});
