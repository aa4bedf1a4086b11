import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { isCommplanError } from "../../src/model/errors.js";
import { MAX_P } from "../../src/model/matrix.js";
import { createRng } from "../../src/model/rng.js";
import { readSparseMatrixFile } from "../../src/io/sparse-matrix-read.js";
import {
  PATTERNS,
  findPattern,
  generatePattern,
  patternOptionList,
  resolvePatternOptions,
  MAX_SEED,
} from "../../src/patterns/index.js";

/** Runs fn, expects a BAD_OPTION CommplanError whose message starts with "patterns:" and contains `needle`. */
function expectPatternError(fn: () => unknown, needle: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(isCommplanError(caught)).toBe(true);
  if (!isCommplanError(caught)) return;
  expect(caught.code).toBe("BAD_OPTION");
  expect(caught.message).toMatch(/^patterns: /);
  expect(caught.message).toContain(needle);
}

const NAMES = [
  "ranka-fig1",
  "wang-table1",
  "ranka-kl",
  "wang-set1",
  "wang-set2",
  "liu-pattern1",
  "liu-pattern2",
  "liu-pattern3",
  "pattern1",
  "pattern2",
  "h-relation",
  "uniform",
  "zero",
  "random",
  "moe",
  "halo",
  "shuffle",
  "spmv",
];

describe("registry", () => {
  it("lists exactly the documented patterns, with unique names", () => {
    expect(PATTERNS.map((d) => d.name)).toEqual(NAMES);
  });

  it("gives every pattern a title, a source, an elementBytes option and defaults inside their own bounds", () => {
    for (const def of PATTERNS) {
      expect(def.title.length).toBeGreaterThan(0);
      expect(def.source.length).toBeGreaterThan(0);
      expect(Object.keys(def.options)).toContain("elementBytes");
      for (const o of patternOptionList(def)) {
        expect(o.min).toBeDefined();
        expect(o.default).toBeGreaterThanOrEqual(o.min!);
        if (o.max !== undefined) expect(o.default).toBeLessThanOrEqual(o.max);
        if (o.type === "integer") expect(Number.isInteger(o.default)).toBe(true);
      }
    }
  });

  it("uses 22-byte elements for the 002 and 004 patterns", () => {
    for (const name of ["liu-pattern1", "liu-pattern2", "liu-pattern3", "pattern1", "pattern2"]) {
      expect(generatePattern(name, 8, {}, 1).elementBytes).toBe(22);
    }
    expect(generatePattern("uniform", 8, {}, 1).elementBytes).toBe(8);
    expect(generatePattern("uniform", 8, { elementBytes: 48 }, 1).elementBytes).toBe(48);
  });

  it("findPattern names the unknown pattern and lists the known ones", () => {
    expect(findPattern("ranka-kl").name).toBe("ranka-kl");
    expectPatternError(() => findPattern("nope"), "unknown pattern 'nope'; known: ranka-fig1, wang-table1");
  });

  it("resolvePatternOptions fills defaults and keeps given values", () => {
    const def = findPattern("ranka-kl");
    expect(resolvePatternOptions(def, {})).toEqual({ k: 4, l: 0.25, t: 1024, elementBytes: 8 });
    expect(resolvePatternOptions(def, { k: 7, l: 0 })).toEqual({ k: 7, l: 0, t: 1024, elementBytes: 8 });
  });

  it("rejects unknown, non-integer, non-finite and out-of-range options, naming the option", () => {
    const kl = findPattern("ranka-kl");
    expectPatternError(() => resolvePatternOptions(kl, { q: 1 }), "unknown option 'q'");
    expectPatternError(
      () => resolvePatternOptions(kl, { k: 2.5 }),
      "option 'k' of pattern 'ranka-kl' must be an integer in 1..16383, got 2.5",
    );
    expectPatternError(
      () => resolvePatternOptions(kl, { t: Number.NaN }),
      "option 't' of pattern 'ranka-kl' must be an integer in 1..4294967296, got NaN",
    );
    expectPatternError(() => resolvePatternOptions(kl, { k: 2.5 }), "option 'k'");
    expectPatternError(() => resolvePatternOptions(kl, { k: 0 }), "option 'k'");
    expectPatternError(() => resolvePatternOptions(kl, { l: 1.5 }), "option 'l'");
    expectPatternError(() => resolvePatternOptions(kl, { l: -0.1 }), "option 'l'");
    expectPatternError(() => resolvePatternOptions(kl, { t: Number.NaN }), "option 't'");
    expectPatternError(() => resolvePatternOptions(kl, { t: Number.POSITIVE_INFINITY }), "option 't'");
    expectPatternError(() => resolvePatternOptions(findPattern("random"), { density: 2 }), "option 'density'");
    expectPatternError(() => resolvePatternOptions(findPattern("zero"), { elementBytes: 0 }), "option 'elementBytes'");
    expectPatternError(() => resolvePatternOptions(findPattern("h-relation"), { self: 2 }), "option 'self'");
  });
});

describe("registry (continued)", () => {
  it("accepts options exactly at their bounds", () => {
    for (const def of PATTERNS) {
      for (const o of patternOptionList(def)) {
        expect(resolvePatternOptions(def, { [o.name]: o.min })[o.name]).toBe(o.min);
        if (o.max !== undefined) expect(resolvePatternOptions(def, { [o.name]: o.max })[o.name]).toBe(o.max);
      }
    }
  });

  it("checks p and the seed", () => {
    expectPatternError(() => generatePattern("uniform", 0, {}, 1), "p must be");
    expectPatternError(() => generatePattern("uniform", 2.5, {}, 1), "p must be");
    expectPatternError(() => generatePattern("uniform", MAX_P + 1, {}, 1), "p must be");
    expectPatternError(() => generatePattern("ranka-fig1", 9, {}, 1), "p must be 8");
    expectPatternError(() => generatePattern("wang-table1", 4, {}, 1), "p must be 8");
    expectPatternError(() => generatePattern("uniform", 4, {}, -1), "seed");
    expectPatternError(() => generatePattern("uniform", 4, {}, 1.5), "seed");
    expectPatternError(() => generatePattern("uniform", 4, {}, MAX_SEED + 1), "seed");
    expect(generatePattern("uniform", 4, {}, MAX_SEED).p).toBe(4);
    expectPatternError(() => findPattern("ranka-fig1").generate(5, { elementBytes: 8 }, createRng(1)), "p must be 8");
  });

  it("gives every pattern a P x P matrix of non-negative integers at p = 8 with default options", () => {
    for (const def of PATTERNS) {
      const m = generatePattern(def.name, 8, {}, 3, inputOf(def.name));
      expect(m.p).toBe(8);
      expect(m.data.length).toBe(64);
      for (const v of m.data) expect(Number.isInteger(v) && v >= 0).toBe(true);
    }
  });

  it("is deterministic: the same seed gives the same bytes for every pattern (property over p in 1..70)", () => {
    const free = PATTERNS.filter((d) => d.fixedP === undefined);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 0, max: MAX_SEED }),
        fc.constantFrom(...free),
        (p, seed, def) => {
          fc.pre(!(def.name === "ranka-kl" && p === 1)); // k >= 1 must be < p
          const opts = smallOptions(def.name, p);
          const a = generatePattern(def.name, p, opts, seed, inputOf(def.name));
          const b = generatePattern(def.name, p, opts, seed, inputOf(def.name));
          expect(Buffer.from(a.data.buffer).equals(Buffer.from(b.data.buffer))).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("gives different matrices for different seeds on the random patterns", () => {
    for (const name of [
      "ranka-kl",
      "wang-set1",
      "wang-set2",
      "liu-pattern3",
      "pattern1",
      "h-relation",
      "random",
      "moe",
      "shuffle",
    ]) {
      const a = generatePattern(name, 16, {}, 1);
      const b = generatePattern(name, 16, {}, 2);
      expect(Array.from(a.data)).not.toEqual(Array.from(b.data));
    }
  });

  it("ignores the seed on the deterministic patterns", () => {
    for (const name of [
      "ranka-fig1",
      "wang-table1",
      "liu-pattern1",
      "liu-pattern2",
      "pattern2",
      "uniform",
      "zero",
      "halo",
      "spmv",
    ]) {
      expect(Array.from(generatePattern(name, 8, {}, 1, inputOf(name)).data)).toEqual(
        Array.from(generatePattern(name, 8, {}, 99, inputOf(name)).data),
      );
    }
  });
});

const sparse = readSparseMatrixFile(new URL("../fixtures/matrices/west0479.mtx", import.meta.url).pathname);

/** The input a pattern reads (spmv: the west0479 fixture). */
function inputOf(name: string): { sparse?: typeof sparse } {
  return name === "spmv" ? { sparse } : {};
}

/** Options valid for every p >= 1 (the k and d defaults need p >= 5; moe's k = 2 needs two experts). */
function smallOptions(name: string, p: number): Record<string, number> {
  if (name === "moe") return { k: Math.min(2, p), tokens: 64 };
  if (name === "shuffle") return { rows: 64 };
  if (name === "ranka-kl") return { k: Math.max(1, Math.min(4, p - 1)) };
  if (name === "wang-set1" || name === "wang-set2") return { d: Math.min(4, p - 1) };
  return {};
}
