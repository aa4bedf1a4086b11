/**
 * npm run fuzz -- mutants (bench/fuzz/mutant-run.ts): builds each mutant's copy of dist/, fuzzes its surfaces with a
 * fixed seed until the first failing case or the budget, and prints which mutants were found (options --budget N
 * cases, --seed S, --only NAME).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCorpus } from "./corpus.js";
import { findMutant } from "./mutant-find.js";
import { MUTANTS } from "./mutants.js";

const args = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const k = args.indexOf(`--${name}`);
  return k >= 0 && args[k + 1] !== undefined ? args[k + 1]! : dflt;
};
const dist = join(import.meta.dirname, "..", "..", "dist");
const work = mkdtempSync(join(tmpdir(), "commplan-mutants-"));
try {
  const corpus = await buildCorpus(join(work, "corpus"), dist);
  let found = 0;
  const list = MUTANTS.filter((m) => opt("only", m.name) === m.name);
  for (const m of list) {
    const f = await findMutant(m, {
      dist,
      work,
      corpus,
      seed: Number(opt("seed", "35")),
      budget: Number(opt("budget", "300")),
    });
    if (f.failure !== null) found++;
    process.stdout.write(
      `${m.name}: ${f.failure === null ? "NOT FOUND" : `found at case ${f.cases} (${f.failure.outcome}: ${f.failure.argv.join(" ")}: ${f.failure.detail.slice(0, 200)})`} [${f.seconds.toFixed(1)} s]\n`,
    );
  }
  process.stdout.write(`${found} of ${list.length} mutants found\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
