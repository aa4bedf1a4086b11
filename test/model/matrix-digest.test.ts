// The matrix digests: the default mm3x64 and the legacy fnv1a64 (still accepted when a document carries it).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { checkMadeFor, matrixFromData } from "../../src/model/matrix.js";
import { digestLike, digestSeed, legacyMatrixDigest, matrixDigest } from "../../src/model/matrix-digest.js";
import { generatePattern } from "../../src/patterns/index.js";

const matrixArb = fc.integer({ min: 1, max: 7 }).chain((p) =>
  fc
    .array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1000 }), fc.constant(2 ** 40 + 3)), {
      minLength: p * p,
      maxLength: p * p,
    })
    .map((cells) => matrixFromData(p, Float64Array.from(cells))),
);

describe("matrixDigest", () => {
  it("is pinned (a change would orphan every stored plan)", () => {
    expect(matrixDigest(generatePattern("liu-pattern3", 13, {}, 42))).toMatch(/^mm3x64:[0-9a-f]{16}$/);
    expect(matrixDigest(generatePattern("ranka-fig1", 8, {}, 42))).toBe(
      matrixDigest(generatePattern("ranka-fig1", 8, {}, 42)),
    );
    expect(matrixDigest(matrixFromData(2, Float64Array.from([0, 5, 7, 0])))).toBe("mm3x64:2675af41eab3edca");
    expect(matrixDigest(matrixFromData(3, new Float64Array(9)))).toBe("mm3x64:512a80af4693b5ed");
  });

  it("tells apart matrices that differ in one entry, in P, or in the position of an entry", () => {
    fc.assert(
      fc.property(matrixArb, fc.nat(), fc.integer({ min: 1, max: 2 ** 41 }), (m, at, delta) => {
        const k = at % m.data.length;
        const other = m.data.slice();
        other[k] = other[k]! + delta;
        expect(matrixDigest(matrixFromData(m.p, other))).not.toBe(matrixDigest(m));
      }),
    );
    const a = matrixFromData(2, Float64Array.from([0, 1, 0, 0]));
    const b = matrixFromData(2, Float64Array.from([0, 0, 1, 0]));
    expect(matrixDigest(a)).not.toBe(matrixDigest(b));
    expect(matrixDigest(matrixFromData(2, new Float64Array(4)))).not.toBe(
      matrixDigest(matrixFromData(3, new Float64Array(9))),
    );
  });

  it("accepts a document carrying the legacy digest and refuses one for another matrix", () => {
    fc.assert(
      fc.property(matrixArb, (m) => {
        const legacy = legacyMatrixDigest(m);
        expect(legacy).toMatch(/^fnv1a64:[0-9a-f]{16}$/);
        expect(digestLike(m, legacy)).toBe(legacy);
        expect(digestLike(m, matrixDigest(m))).toBe(matrixDigest(m));
        expect(() => checkMadeFor(m, { p: m.p, matrixDigest: legacy }, "the schedule", "verify")).not.toThrow();
        expect(() =>
          checkMadeFor(m, { p: m.p, matrixDigest: matrixDigest(m) }, "the schedule", "verify"),
        ).not.toThrow();
        const other = m.data.slice();
        other[0] = other[0]! + 1;
        const m2 = matrixFromData(m.p, other);
        expect(() => checkMadeFor(m2, { p: m.p, matrixDigest: legacy }, "the schedule", "verify")).toThrow(
          /another matrix/,
        );
      }),
    );
  });

  it("seeds from the hex digits after the prefix", () => {
    expect(digestSeed("mm3x64:0000002a00000000")).toBe(42);
    expect(digestSeed("fnv1a64:ffffffff00000000")).toBe(0xffffffff);
  });
});
