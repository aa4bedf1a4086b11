/** The kit's arbitraries: ranges and shapes as stated, and shrinking to the nodes that matter. */
import { describe, expect, it } from "vitest";
import {
  anyMatrixArb,
  anyPatternArb,
  dRegularArb,
  fc,
  hRelationArb,
  matrixArb,
  patternArb,
  type CommMatrix,
} from "../../src/testing/index.js";
import { PATTERNS } from "../../src/patterns/index.js";
import { readSparseMatrixFile } from "../../src/io/sparse-matrix-read.js";

const SPARSE = readSparseMatrixFile(new URL("../fixtures/matrices/west0479.mtx", import.meta.url).pathname);

const entries = (m: CommMatrix): number[] => Array.from(m.data);

describe("matrixArb", () => {
  it("keeps P, entries and the diagonal within the options", () => {
    fc.assert(
      fc.property(matrixArb({ minP: 2, maxP: 5, minEntry: 3, maxEntry: 9, diagonal: false }), (m) => {
        expect(m.p).toBeGreaterThanOrEqual(2);
        expect(m.p).toBeLessThanOrEqual(5);
        for (const v of entries(m)) expect(v === 0 || (v >= 3 && v <= 9)).toBe(true);
        for (let i = 0; i < m.p; i++) expect(m.data[i * m.p + i]).toBe(0);
      }),
      { seed: 3, numRuns: 200 },
    );
  });

  it("draws the zero matrix, dense matrices, empty rows and entries past 2^32 up to 2^40", () => {
    const ms = fc.sample(matrixArb({ maxP: 6, maxEntry: 2 ** 40 }), { seed: 5, numRuns: 400 });
    expect(ms.some((m) => m.p > 1 && entries(m).every((v) => v === 0))).toBe(true);
    expect(ms.some((m) => m.p >= 4 && entries(m).every((v) => v > 0))).toBe(true);
    const emptyRow = (m: CommMatrix): boolean =>
      Array.from({ length: m.p }, (_, i) => m.data.subarray(i * m.p, (i + 1) * m.p).every((v) => v === 0)).some(
        Boolean,
      );
    expect(ms.some((m) => m.p >= 3 && entries(m).some((v) => v > 0) && emptyRow(m))).toBe(true);
    expect(ms.some((m) => entries(m).some((v) => v > 2 ** 32))).toBe(true);
    expect(Math.max(...ms.flatMap(entries))).toBeLessThanOrEqual(2 ** 40);
  });

  it("refuses options out of range with one line naming the option", () => {
    expect(() => matrixArb({ minP: 4, maxP: 2 })).toThrow(/^testing: matrixArb: maxP must be/);
    expect(() => matrixArb({ maxEntry: 2 ** 41 })).toThrow(/maxEntry/);
    expect(() => matrixArb({ densities: [1.5] })).toThrow(/densities/);
    expect(() => matrixArb({ storage: "csr" as "sparse" })).toThrow(/^testing: matrixArb: storage must be/);
    // elementBytes was taken as given and failed only when a matrix was drawn
    expect(() => matrixArb({ elementBytes: 0 })).toThrow(
      /^testing: matrixArb: elementBytes must be a positive integer/,
    );
    expect(() => matrixArb({ elementBytes: 1.5 })).toThrow(/elementBytes .* got 1\.5$/);
  });

  it("anyMatrixArb and patternArb refuse a bad P range, entry bound or option range in one line naming the option", () => {
    const line = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      return "accepted";
    };
    expect(line(() => anyMatrixArb({ maxP: "8" as unknown as number }))).toBe(
      'testing: anyMatrixArb: maxP must be an integer in minP..1048576, got "8"',
    );
    expect(line(() => anyMatrixArb({ maxEntry: 0 }))).toMatch(/^testing: anyMatrixArb: maxEntry must be/);
    expect(line(() => anyMatrixArb(null as unknown as object))).toMatch(/^testing: options must be an object/);
    expect(line(() => patternArb("uniform", { minP: 0 }))).toMatch(/^testing: patternArb: minP must be a positive/);
    expect(line(() => patternArb("uniform", { minP: 5, maxP: 3 }))).toMatch(/^testing: patternArb: maxP must be/);
    expect(line(() => hRelationArb({ h: [5, 2] }))).toMatch(
      /^testing: patternArb: option 'h' of pattern 'h-relation' must be a value or a \[min, max\] range of integers/,
    );
    // a value no P allows is refused rather than drawn as the option's minimum (h = 0: the zero matrix) every time
    expect(line(() => hRelationArb({ h: -3 }))).toMatch(/option 'h' .* must allow a value in 0\.\./);
    expect(line(() => dRegularArb({ d: [1.5, 3] }))).toMatch(/option 'd' of pattern 'wang-set1'/);
    expect(line(() => patternArb("uniform", { minP: 2, maxP: 4 }))).toBe("accepted");
  });

  it("storage: sparse draws compressed rows, mixed draws both, and a shrunk matrix keeps its storage", () => {
    const sparse = fc.sample(matrixArb({ maxP: 6, storage: "sparse" }), { seed: 7, numRuns: 50 });
    expect(sparse.every((m) => m.sparse !== undefined)).toBe(true);
    const mixed = fc.sample(matrixArb({ maxP: 6, storage: "mixed" }), { seed: 7, numRuns: 100 });
    expect(mixed.some((m) => m.sparse !== undefined) && mixed.some((m) => m.sparse === undefined)).toBe(true);
    const r = fc.check(
      fc.property(matrixArb({ maxP: 7, storage: "sparse" }), (m) => m.sparse!.rowStart[m.p]! < 3),
      { seed: 11, numRuns: 300 },
    );
    expect(r.failed).toBe(true);
    const m = r.counterexample![0];
    expect(m.sparse).toBeDefined();
    expect(m.sparse!.rowStart[m.p]).toBe(3);
    expect(Array.from(m.sparse!.val)).toEqual([1, 1, 1]);
  });

  it("shrinks a failure to the nodes that matter: a two-hop chain i -> j -> k shrinks to P = 3 with two unit entries", () => {
    const chain = (m: CommMatrix): boolean => {
      const { p, data } = m;
      for (let i = 0; i < p; i++)
        for (let j = 0; j < p; j++)
          for (let k = 0; k < p; k++)
            if (i !== j && j !== k && i !== k && data[i * p + j]! > 0 && data[j * p + k]! > 0) return true;
      return false;
    };
    const r = fc.check(
      fc.property(matrixArb({ maxP: 9 }), (m) => !chain(m)),
      { seed: 11, numRuns: 300 },
    );
    expect(r.failed).toBe(true);
    const m = r.counterexample![0];
    expect(m.p).toBe(3);
    expect(entries(m).filter((v) => v > 0)).toEqual([1, 1]);
  });
});

describe("pattern arbitraries", () => {
  it("every pattern of commplan gen draws valid matrices of its P range (fixed-size ones at their own P)", () => {
    for (const def of PATTERNS) {
      const input = def.file === undefined ? {} : { input: { sparse: SPARSE } };
      const ms = fc.sample(patternArb(def.name, { maxP: 9, ...input }), { seed: 2, numRuns: 15 });
      expect(ms.length, def.name).toBe(15);
      for (const m of ms) {
        if (def.fixedP !== undefined) expect(m.p).toBe(def.fixedP);
        else expect(m.p).toBeLessThanOrEqual(9);
      }
    }
    expect(fc.sample(anyPatternArb({ maxP: 4 }), { seed: 1, numRuns: 30 }).every((m) => m.p <= 4)).toBe(true);
  });

  it("densities governs the grid half of the draws; the other half are entry lists (as docs/testing-kit.md says)", () => {
    const full = fc.sample(matrixArb({ minP: 3, maxP: 5, densities: [1], emptyRows: false }), {
      seed: 2,
      numRuns: 100,
    });
    const zeros = full.filter((m) => entries(m).some((v) => v === 0)).length;
    expect(zeros).toBeGreaterThan(20);
    expect(zeros).toBeLessThan(80);
    const empty = fc.sample(matrixArb({ minP: 3, maxP: 5, densities: [0] }), { seed: 2, numRuns: 100 });
    const some = empty.filter((m) => entries(m).some((v) => v > 0)).length;
    expect(some).toBeGreaterThan(20);
    expect(some).toBeLessThan(80);
  });

  it("a pattern that makes no matrix in the P range is refused, not drawn again forever; anyPatternArb leaves it out", () => {
    // ranka-kl needs k < p (k >= 1): at P = 1 every draw was refused and redrawn, and fc.sample never returned
    expect(() => patternArb("ranka-kl", { minP: 1, maxP: 1 })).toThrow(
      /^testing: patternArb: pattern 'ranka-kl' makes no matrix for P in 1\.\.1/,
    );
    expect(fc.sample(patternArb("ranka-kl", { minP: 1, maxP: 2 }), { seed: 1, numRuns: 5 }).map((m) => m.p)).toEqual([
      2, 2, 2, 2, 2,
    ]);
    const ones = fc.sample(anyPatternArb({ minP: 1, maxP: 1 }), { seed: 1, numRuns: 50 });
    expect(ones.every((m) => m.p === 1)).toBe(true);
  });

  it("anyPatternArb keeps P within minP..maxP: a fixed-size pattern outside the range is not drawn", () => {
    // ranka-fig1 and wang-table1 have P = 8: they were drawn with minP = 10
    for (const o of [{ minP: 10, maxP: 12 }, { minP: 10 }]) {
      const ps = fc.sample(anyPatternArb(o), { seed: 1, numRuns: 200 }).map((m) => m.p);
      expect(Math.min(...ps)).toBe(10);
      expect(Math.max(...ps)).toBeLessThanOrEqual(o.maxP ?? 10);
    }
    expect(() => anyPatternArb({ minP: 0 })).toThrow(/^testing: anyPatternArb: minP must be a positive integer/);
  });

  it("h-relations send and receive h units at every node; d-regular sets have d messages per row and column", () => {
    fc.assert(
      fc.property(hRelationArb({ h: 3, maxP: 7 }), (m) => {
        for (let i = 0; i < m.p; i++)
          expect(
            entries(m)
              .slice(i * m.p, (i + 1) * m.p)
              .reduce((a, b) => a + b),
          ).toBe(3);
      }),
      { seed: 1, numRuns: 40 },
    );
    fc.assert(
      fc.property(dRegularArb({ d: 2, minP: 3, maxP: 7, maxFactor: [1, 5] }), (m) => {
        for (let i = 0; i < m.p; i++) {
          expect(entries(m).filter((v, x) => Math.floor(x / m.p) === i && v > 0)).toHaveLength(2);
          expect(entries(m).filter((v, x) => x % m.p === i && v > 0)).toHaveLength(2);
        }
      }),
      { seed: 1, numRuns: 40 },
    );
  });

  it("a failure shrinks on the matrix itself after the pattern's parameters, within the arbitrary's P range", () => {
    // fails when node 0 receives from two nodes: a uniform matrix has every entry, and only two matter
    const intoNode0 = (m: CommMatrix): boolean => entries(m).filter((v, x) => x % m.p === 0 && v > 0).length < 2;
    for (const [minP, p] of [
      [8, 8],
      [1, 3],
    ] as const) {
      const r = fc.check(fc.property(patternArb("uniform", { minP, maxP: 16 }), intoNode0), { seed: 1, numRuns: 50 });
      expect(r.failed).toBe(true);
      const m = r.counterexample![0];
      expect(m.p).toBe(p);
      expect(entries(m).filter((v) => v > 0)).toEqual([1, 1]);
    }
    // a fixed-size pattern keeps its own P; its entries shrink
    const r = fc.check(fc.property(patternArb("ranka-fig1"), intoNode0), { seed: 1, numRuns: 20 });
    expect(r.failed).toBe(true);
    expect(r.counterexample![0].p).toBe(8);
    expect(entries(r.counterexample![0]).filter((v) => v > 0)).toEqual([1, 1]);
  });

  it("an option that P does not allow falls back to its minimum (d <= p - 1), and unknown options are refused", () => {
    const ms = fc.sample(dRegularArb({ d: 5, minP: 2, maxP: 3 }), { seed: 4, numRuns: 20 });
    expect(ms.every((m) => entries(m).every((v) => v === 0))).toBe(true);
    expect(() => patternArb("uniform", { options: { nope: 1 } })).toThrow(
      /unknown option 'nope' for pattern 'uniform'/,
    );
    expect(() => patternArb("no-such")).toThrow(/unknown pattern/);
    // a pattern that reads a file cannot be drawn without its data (it would be refused forever)
    expect(() => patternArb("spmv")).toThrow(/^testing: patternArb: pattern 'spmv' reads a file .*options.input/);
  });
});

describe("shrinking on the matrix itself", () => {
  it("a dense failure whose P cannot shrink loses its irrelevant entries in blocks, not one shrink per entry", () => {
    // P = 48 fixed and dense: zeroing one entry per shrink took about 48 x 48 shrinks (check-planner --min-p 200 did
    // not finish); zeroing halves, quarters, ... of the non-zero entries first takes a few dozen
    const dense = matrixArb({ minP: 48, maxP: 48, densities: [1], emptyRows: false, diagonal: false });
    const intoZero = (m: CommMatrix): number => entries(m).filter((v, x) => x % m.p === 0 && v > 0).length;
    const r = fc.check(
      fc.property(dense, (m) => intoZero(m) < 2),
      { seed: 3, numRuns: 10 },
    );
    expect(r.failed).toBe(true);
    const c = r.counterexample![0];
    expect(c.p).toBe(48);
    expect(entries(c).filter((v) => v > 0)).toEqual([1, 1]);
    expect(r.numShrinks).toBeLessThan(200);
  });

  it("a large sparse failure shrinks on its entries, never through a dense copy", () => {
    // halo at P = 50000: shrinking read m.data, and the dense copy (18.6 GiB) was refused past the memory budget, so
    // fc.check threw instead of reporting a counterexample
    const r = fc.check(
      fc.property(patternArb("halo", { minP: 50000, maxP: 50000 }), (m) => m.sparse!.rowStart[m.p] === 0),
      { seed: 1, numRuns: 3 },
    );
    expect(r.failed).toBe(true);
    const c = r.counterexample![0];
    expect(c.p).toBe(50000);
    expect(Array.from(c.sparse!.val)).toEqual([1]);
  });
});
