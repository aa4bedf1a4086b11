import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bucketItems, bucketStarts, groupByKey, prefixSums } from "../../src/internal/buckets.js";

/** Naive grouping: for each key, the indices with that key in increasing order. */
function naive(key: readonly number[], range: number, idx: readonly number[]): number[][] {
  const out: number[][] = Array.from({ length: range }, () => []);
  for (const x of idx) out[key[x]!]!.push(x);
  return out;
}

const keysArb = fc
  .integer({ min: 1, max: 12 })
  .chain((range) => fc.tuple(fc.constant(range), fc.array(fc.integer({ min: 0, max: range - 1 }), { maxLength: 60 })));

describe("buckets", () => {
  it("prefixSums turns counts one slot up into offsets", () => {
    const a = new Int32Array([0, 2, 0, 3, 1]);
    prefixSums(a, 4);
    expect(Array.from(a)).toEqual([0, 2, 2, 5, 6]);
  });

  it("groupByKey matches a naive stable grouping", () => {
    fc.assert(
      fc.property(keysArb, ([range, keys]) => {
        const { start, items } = groupByKey(Int32Array.from(keys), range);
        const want = naive(
          keys,
          range,
          keys.map((_, i) => i),
        );
        expect(start.length).toBe(range + 1);
        expect(start[0]).toBe(0);
        for (let k = 0; k < range; k++) expect(Array.from(items.subarray(start[k]!, start[k + 1]!))).toEqual(want[k]);
      }),
    );
  });

  it("bucketStarts and bucketItems over a range lo..hi and into given Uint32Arrays", () => {
    fc.assert(
      fc.property(keysArb, fc.nat(), fc.nat(), ([range, keys], a, b) => {
        const lo = keys.length === 0 ? 0 : a % (keys.length + 1),
          hi = lo + (keys.length - lo === 0 ? 0 : b % (keys.length - lo + 1));
        const key = Uint32Array.from(keys);
        const start = bucketStarts(key, range, lo, hi, new Uint32Array(range + 1));
        expect(start).toBeInstanceOf(Uint32Array);
        const items = bucketItems(key, start, null, lo, hi, new Uint32Array(hi - lo));
        const want = naive(
          keys,
          range,
          Array.from({ length: hi - lo }, (_, t) => lo + t),
        );
        expect(start[range]).toBe(hi - lo);
        for (let k = 0; k < range; k++) expect(Array.from(items.subarray(start[k]!, start[k + 1]!))).toEqual(want[k]);
      }),
    );
  });

  it("bucketItems keeps a given order within each bucket (a two-pass radix sort)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 6 })), { maxLength: 50 }),
        (pairs) => {
          const hiKey = Int32Array.from(pairs.map((x) => x[0])),
            loKey = Int32Array.from(pairs.map((x) => x[1]));
          const first = groupByKey(loKey, 7).items;
          const byHi = bucketItems(hiKey, bucketStarts(hiKey, 5), first);
          const want = pairs
            .map((_, i) => i)
            .sort((x, y) => pairs[x]![0] - pairs[y]![0] || pairs[x]![1] - pairs[y]![1] || x - y);
          expect(Array.from(byHi)).toEqual(want);
        },
      ),
    );
  });

  it("empty input gives zero offsets", () => {
    const { start, items } = groupByKey(new Int32Array(0), 3);
    expect(Array.from(start)).toEqual([0, 0, 0, 0]);
    expect(items.length).toBe(0);
  });
});
