/**
 * npm run fuzz: builds the corpus with dist/, runs the fuzz campaign on a pool of child processes (options --cases N,
 * --seed S, --budget-ms T, --children K, --dist DIR, --results DIR) and writes bench/results/fuzz.json and fuzz.md,
 * with a checkpoint every 5,000 cases.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCorpus } from "./corpus.js";
import { runFuzz, type FuzzSummary } from "./harness.js";
import { fuzzMarkdown } from "./record.js";

const args = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const k = args.indexOf(`--${name}`);
  return k >= 0 && args[k + 1] !== undefined ? args[k + 1]! : dflt;
};

const cases = Number(opt("cases", "100000"));
const seed = Number(opt("seed", "20261129"));
const budgetMs = Number(opt("budget-ms", "20000"));
const children = Number(opt("children", "2"));
const dist = opt("dist", join(import.meta.dirname, "..", "..", "dist"));
const results = opt("results", join(import.meta.dirname, "..", "results"));
const work = mkdtempSync(join(tmpdir(), "commplan-fuzz-"));
// SIGTERM or SIGINT ends the run after the cases in flight; the record then says how many of those asked for ran
let stopped = false;
for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => void (stopped = true));
const write = (s: FuzzSummary, note: string): void => {
  writeFileSync(join(results, "fuzz.json"), JSON.stringify(s, null, 2) + "\n");
  writeFileSync(join(results, "fuzz.md"), fuzzMarkdown(s) + note);
};
let ok = false;
try {
  const corpus = await buildCorpus(join(work, "corpus"), dist);
  const t0 = Date.now();
  const s = await runFuzz({
    cases,
    seed,
    budgetMs,
    children,
    dist,
    corpus,
    workDir: join(work, "cases"),
    shouldStop: () => stopped,
    progress: (done, sum) => {
      process.stderr.write(`fuzz: ${done}/${cases}: ${JSON.stringify(sum.outcomes)}\n`);
      if (done % 5000 === 0 && done < cases)
        write(
          { ...sum, wallSeconds: (Date.now() - t0) / 1000 },
          `\n(Checkpoint: ${done} of the ${cases} cases asked for.)\n`,
        );
    },
  });
  write(s, s.cases < cases ? `\n(Stopped by a signal after ${s.cases} of the ${cases} cases asked for.)\n` : "");
  process.stderr.write(`fuzz: done: ${JSON.stringify(s.outcomes)} in ${s.wallSeconds.toFixed(0)} s\n`);
  ok = s.outcomes.crash + s.outcomes.hang + s.outcomes.memory + s.outcomes.wrong === 0;
  process.exitCode = ok ? 0 : 1;
} finally {
  if (ok) rmSync(work, { recursive: true, force: true });
  else process.stderr.write(`fuzz: failing cases kept in ${work}\n`);
}
