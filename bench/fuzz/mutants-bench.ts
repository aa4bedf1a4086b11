/**
 * npm run bench fuzz-mutants: every mutant (mutants.ts) built as a patched copy of dist/ and fuzzed on its surfaces
 * with a fixed seed until the first failing case or the budget; records which were found, at which case, by what
 * (bench/results/fuzz-mutants.md and .json).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { machineInfo, mdTable, writeResults } from "../lib.js";
import { buildCorpus } from "./corpus.js";
import { findMutant } from "./mutant-find.js";
import { MUTANTS } from "./mutants.js";

/** The seed and the budget (cases per mutant) of the recorded run and of the test. */
export const MUTANT_SEED = 35;
export const MUTANT_BUDGET = 400;

/** Runs every mutant; returns the Markdown record. */
export async function fuzzMutantsBench(log: (s: string) => void): Promise<string> {
  const dist = join(import.meta.dirname, "..", "..", "dist");
  const work = mkdtempSync(join(tmpdir(), "commplan-mutants-"));
  try {
    const corpus = await buildCorpus(join(work, "corpus"), dist);
    const rows = [];
    for (const m of MUTANTS) {
      const f = await findMutant(m, { dist, work, corpus, seed: MUTANT_SEED, budget: MUTANT_BUDGET });
      log(`fuzz-mutants: ${m.name}: ${f.failure === null ? "not found" : `found at case ${f.failure.index}`}`);
      rows.push({
        name: m.name,
        defect: m.defect,
        surfaces: Object.keys(m.surfaces),
        found: f.failure !== null,
        cases: f.cases,
        index: f.failure?.index ?? null,
        seconds: f.seconds,
        outcome: f.failure?.outcome ?? null,
        argv: f.failure?.argv ?? null,
        detail: f.failure?.detail.slice(0, 300) ?? null,
      });
    }
    const found = rows.filter((r) => r.found).length;
    const md =
      `### Fuzz mutants: defects brought back, found by the fuzzer\n\n` +
      `Command: \`npm run bench fuzz-mutants\` (bench/fuzz/mutants-bench.ts). Each mutant is a patch of a copy of dist/ ` +
      `(bench/fuzz/mutants.ts) bringing back one defect class; the fuzzer runs it on its surfaces, seed ${MUTANT_SEED}, ` +
      `at most ${MUTANT_BUDGET} cases, until the first case that fails on the mutant and passes on the product's build ` +
      `(run again on dist/: a case failing on both, such as a hang of a loaded machine, is skipped). ` +
      `Found: ${found} of ${rows.length}.\n\n` +
      mdTable(
        ["mutant", "defect", "surfaces", "found at case", "cases run", "as", "wall (s)"],
        rows.map((r) => [
          r.name,
          r.defect,
          r.surfaces.join(", "),
          r.found ? r.index! : "not found",
          r.cases,
          r.outcome ?? "",
          r.seconds.toFixed(1),
        ]),
      );
    writeResults("fuzz-mutants", { machine: machineInfo(), seed: MUTANT_SEED, budget: MUTANT_BUDGET, found, rows }, md);
    return md;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
