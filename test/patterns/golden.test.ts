import { describe, it, expect } from "vitest";
import { legacyMatrixDigest } from "../../src/model/matrix-digest.js";
import { generatePattern, type PatternInput } from "../../src/patterns/index.js";
import { readSparseMatrixFile } from "../../src/io/sparse-matrix-read.js";

/**
 * Recorded digests of every pattern with default options and seed 42. A published seed must keep
 * giving the same matrix across versions: if a generator changes on purpose, update these values
 * and say so in docs/patterns.md and the changelog. The values are the legacy FNV digest, recorded
 * before the default digest changed (test/model/matrix-digest.test.ts pins the new one).
 */
const GOLDEN: readonly (readonly [string, number, string])[] = [
  ["ranka-fig1", 8, "fnv1a64:49f23b3ce988c2af"],
  ["wang-table1", 8, "fnv1a64:13abce3607d56ca5"],
  ["ranka-kl", 13, "fnv1a64:2fc8e1bfe030f686"],
  ["wang-set1", 13, "fnv1a64:534aa4c4c84cafd7"],
  ["wang-set2", 13, "fnv1a64:4919893b354532e8"],
  ["liu-pattern1", 13, "fnv1a64:debb153a03356e6f"],
  ["liu-pattern2", 13, "fnv1a64:372788266788eaff"],
  ["liu-pattern3", 13, "fnv1a64:c9fab0ba0ea63bff"],
  ["pattern1", 13, "fnv1a64:c61faf850514e13e"],
  ["pattern2", 13, "fnv1a64:075567f83091caab"],
  ["h-relation", 13, "fnv1a64:4a95b87b5baed0b8"],
  ["uniform", 13, "fnv1a64:34a572e063dd8a13"],
  ["zero", 13, "fnv1a64:3c1ab2484dc56c7b"],
  ["random", 13, "fnv1a64:6b3a57aa95c06579"],
  ["moe", 13, "fnv1a64:08c628a7a14d7174"],
  ["halo", 13, "fnv1a64:448841f89e92a1eb"],
  ["shuffle", 13, "fnv1a64:71bcccbeb72d7109"],
  ["spmv", 13, "fnv1a64:e97f85310c7ddcb2"],
];

/** The file input of a pattern that reads one (spmv: the west0479 fixture). */
const INPUT: Readonly<Record<string, PatternInput>> = {
  spmv: { sparse: readSparseMatrixFile(new URL("../fixtures/matrices/west0479.mtx", import.meta.url).pathname) },
};

describe("golden matrices (reproducibility across versions)", () => {
  for (const [name, p, digest] of GOLDEN) {
    it(`${name} at p = ${p}, seed 42`, () => {
      expect(legacyMatrixDigest(generatePattern(name, p, {}, 42, INPUT[name]))).toBe(digest);
    });
  }
});
