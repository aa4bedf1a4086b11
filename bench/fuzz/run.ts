/** npm run fuzz: runs the fuzz harness (options --cases N, --seed S, --budget-ms T, --max-memory SIZE, --trace FILE) and writes bench/results/fuzz.json and fuzz.md. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fuzzMarkdown, runFuzz } from "./harness.js";

const args = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const k = args.indexOf(`--${name}`);
  return k >= 0 && args[k + 1] !== undefined ? args[k + 1]! : dflt;
};

const cases = Number(opt("cases", "100000"));
const seed = Number(opt("seed", "20261123"));
const budgetMs = Number(opt("budget-ms", "10000"));
const maxMemory = opt("max-memory", "256M");
const results = opt("results", join(import.meta.dirname, "..", "results"));
const t0 = performance.now();
const work = mkdtempSync(join(tmpdir(), "commplan-fuzz-"));
try {
  const s = await runFuzz({
    cases,
    seed,
    budgetMs,
    maxMemory,
    workDir: work,
    ...(args.includes("--trace") ? { traceFile: opt("trace", "") } : {}),
    failuresDir: join(results, "fuzz-failures"),
    progress: (done, sum) => {
      process.stderr.write(`fuzz: ${done}/${cases} cases: ${JSON.stringify(sum.outcomes)}\n`);
      // a checkpoint every 5000 cases, so a long run that is stopped still leaves its figures
      if (done % 5000 === 0) {
        const partial = { ...sum, wallSeconds: (performance.now() - t0) / 1000, partial: `${done} of ${cases} cases` };
        writeFileSync(join(results, "fuzz.json"), JSON.stringify(partial, null, 2) + "\n");
        writeFileSync(
          join(results, "fuzz.md"),
          fuzzMarkdown(partial) + `\n(Checkpoint: ${done} of the ${cases} cases asked for.)\n`,
        );
      }
    },
  });
  writeFileSync(join(results, "fuzz.json"), JSON.stringify(s, null, 2) + "\n");
  writeFileSync(join(results, "fuzz.md"), fuzzMarkdown(s));
  process.stderr.write(`fuzz: done: ${JSON.stringify(s.outcomes)} in ${s.wallSeconds.toFixed(0)} s\n`);
  process.exitCode = s.outcomes.crash + s.outcomes.hang + s.outcomes.memory + s.outcomes.wrong > 0 ? 1 : 0;
} finally {
  rmSync(work, { recursive: true, force: true });
}
