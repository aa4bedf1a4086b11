/** The fuzz record as Markdown (bench/results/fuzz.md). */
import type { FuzzSummary, Outcome } from "./harness.js";

const COLS: readonly Outcome[] = ["ok", "check-failed", "refused", "crash", "hang", "memory", "wrong"];

/** The Markdown record of a run. */
export function fuzzMarkdown(s: FuzzSummary): string {
  const mib = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MiB`;
  const rows = Object.entries(s.bySurface)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, o]) => `| ${k} | ${COLS.reduce((n, c) => n + o[c], 0)} | ${COLS.map((c) => o[c]).join(" | ")} |`);
  const fails = s.failures
    .slice(0, 40)
    .map((f) => `- case ${f.index} (${f.surface}, ${f.outcome}): \`${f.argv.join(" ")}\`: ${f.detail}`);
  return [
    "### Fuzz run: every surface in child processes, outputs re-read",
    "",
    `Command: \`npm run fuzz -- --cases ${s.cases} --seed ${s.seed}\` (bench/fuzz/run.ts; docs/formats.md, Fuzzing the readers, writers and commands).`,
    "",
    `Seed ${s.seed}, ${s.cases} cases, wall ${s.wallSeconds.toFixed(0)} s. A hang: a child blocked past ${s.budgetMs} ms, ` +
      `or ${s.budgetMs} ms of CPU in one case, or ten times that in wall time.`,
    `Refused early (exit 2): ${(100 * s.refusedShare).toFixed(1)} % of cases. Output files checked by grammar: ${s.outputsChecked};`,
    `re-reads by commplan's own readers: ${s.rereads}; twins (the same document in another encoding or as raw Arrow): ${s.twins}.`,
    `Children started: ${s.childrenSpawned}; replaced after a case whose peak resident memory passed ${mib(s.recycleBytes)}: ${s.childrenRecycled}; a case run under --max-memory runs on a child that has run nothing before (its peak is its own).`,
    "",
    "| outcome | cases |",
    "|---|---|",
    ...COLS.map((c) => `| ${c} | ${s.outcomes[c]} |`),
    "",
    `| surface | cases | ${COLS.join(" | ")} |`,
    `|---|---|${COLS.map(() => "---").join("|")}|`,
    ...rows,
    "",
    `Slowest case: ${s.maxMs.toFixed(0)} ms (\`${s.maxMsArgv.join(" ")}\`).`,
    `Largest peak resident memory over a case's start: ${mib(s.maxPeakGrowthBytes)} (\`${s.maxPeakArgv.join(" ")}\`).`,
    "",
    s.failures.length === 0 ? "No failing case." : ["Failing cases:", "", ...fails].join("\n"),
    "",
  ].join("\n");
}
