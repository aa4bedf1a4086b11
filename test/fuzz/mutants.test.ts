/**
 * The fuzzer finds defects brought back: a subset of the mutants (bench/fuzz/mutants.ts), each a patched copy of
 * dist/, fuzzed with the recorded seed until its first failing case. Every mutant is run by npm run bench
 * fuzz-mutants (bench/results/fuzz-mutants.md); here six that are each found within a few cases, to keep npm test short.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildCorpus, type Corpus } from "../../bench/fuzz/corpus.js";
import { findMutant } from "../../bench/fuzz/mutant-find.js";
import { MUTANT_BUDGET, MUTANT_SEED } from "../../bench/fuzz/mutants-bench.js";
import { makeMutantDist, MUTANTS } from "../../bench/fuzz/mutants.js";
import { tempDir } from "../helpers/temp-dir.js";

const dist = join(import.meta.dirname, "..", "..", "dist");
const work = tempDir("mutants-test");

const SUBSET = [
  "store-id-path",
  "split-index-out",
  "split-onto-input",
  "arrow-header-unchecked",
  "simgrid-infinite-bandwidth",
  "topology-prototype-names",
];

let corpus: Corpus | null = null;

describe("fuzz mutants", () => {
  it("every mutant's edits apply to the build exactly (a patch that no longer matches fails here)", () => {
    for (const m of MUTANTS) expect(() => makeMutantDist(m, dist, join(work, "check"))).not.toThrow();
    expect(MUTANTS.length).toBeGreaterThanOrEqual(15);
  });

  for (const name of SUBSET)
    it(`${name}: found within the recorded seed's budget`, async () => {
      corpus ??= await buildCorpus(join(work, "corpus"), dist);
      const m = MUTANTS.find((x) => x.name === name)!;
      const f = await findMutant(m, { dist, work, corpus, seed: MUTANT_SEED, budget: MUTANT_BUDGET });
      expect(f.failure, `${m.defect}: not found in ${f.cases} cases`).not.toBeNull();
    });
});
