/** Fuzzes one mutant's build on its surfaces with a fixed seed until the first failing case or the budget. */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Corpus } from "./corpus.js";
import { runFuzz, type FuzzFailure } from "./harness.js";
import { makeMutantDist, type Mutant } from "./mutants.js";

/** Where a mutant is built and fuzzed, with what seed and how many cases at most. */
export interface MutantRun {
  readonly dist: string;
  readonly work: string;
  readonly corpus: Corpus;
  readonly seed: number;
  readonly budget: number;
}

/** The first failing case of a mutant (null: not found within the budget), the cases run and the wall time. */
export async function findMutant(
  m: Mutant,
  o: MutantRun,
): Promise<{ failure: FuzzFailure | null; cases: number; seconds: number }> {
  const t0 = performance.now();
  const mdist = makeMutantDist(m, o.dist, join(o.work, "mutants"));
  const s = await runFuzz({
    cases: o.budget,
    seed: o.seed,
    workDir: join(o.work, "cases", m.name),
    corpus: o.corpus,
    dist: mdist,
    budgetMs: 5000,
    children: 2,
    weights: m.surfaces,
    stopAtFirst: true,
  });
  return { failure: s.failures[0] ?? null, cases: s.cases, seconds: (performance.now() - t0) / 1000 };
}
