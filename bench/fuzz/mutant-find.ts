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

/**
 * The first failing case of a mutant that passes on the product's build (null: none within the budget), the cases
 * run and the wall time. A case that fails on both (a hang on a loaded machine) is not the mutant's doing: skipped.
 */
export async function findMutant(
  m: Mutant,
  o: MutantRun,
): Promise<{ failure: FuzzFailure | null; cases: number; seconds: number }> {
  const t0 = performance.now();
  const mdist = makeMutantDist(m, o.dist, join(o.work, "mutants"));
  const common = { seed: o.seed, corpus: o.corpus, budgetMs: 20_000, children: 2, weights: m.surfaces };
  let from = 0;
  let cases = 0;
  while (from < o.budget) {
    const s = await runFuzz({
      ...common,
      cases: o.budget,
      firstIndex: from,
      workDir: join(o.work, "cases", m.name),
      dist: mdist,
      stopAtFirst: true,
    });
    cases += s.cases;
    const f = s.failures[0];
    if (f === undefined) break;
    const product = await runFuzz({
      ...common,
      cases: f.index + 1,
      firstIndex: f.index,
      workDir: join(o.work, "cases", `${m.name}-product`),
      dist: o.dist,
      children: 1,
    });
    if (product.failures.length === 0) return { failure: f, cases, seconds: (performance.now() - t0) / 1000 };
    from = f.index + 1;
  }
  return { failure: null, cases, seconds: (performance.now() - t0) / 1000 };
}
