/**
 * npm run bench [name ...]: runs every bench (or the named ones), records bench/results/<name>.json
 * and .md, then rebuilds bench/results/SUMMARY.md from every recorded section and pastes it into
 * the README between the bench markers.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { foundationBench } from "./foundation.js";
import { fourStageBench } from "./four-stage.js";
import { permutationBench } from "./permutation.js";
import { simulateBench } from "./simulate.js";
import { totalExchangeBench } from "./total-exchange.js";
import { twoStageBench } from "./two-stage.js";

const log = (s: string): void => void process.stderr.write(s + "\n");
const benches: [string, () => string | Promise<string>][] = [
  ["foundation", () => foundationBench(log)],
  ["four-stage", () => fourStageBench(log)],
  ["two-stage", () => twoStageBench(log)],
  ["permutation", () => permutationBench(log)],
  ["simulate", () => simulateBench(log)],
  ["total-exchange", () => totalExchangeBench(log)],
];
// `npm run bench -- --summary-only` rebuilds SUMMARY.md and the README block from the recorded results.
const summaryOnly = process.argv.includes("--summary-only");
const only = process.argv.slice(2).filter((a) => a !== "--summary-only");
for (const name of only) {
  if (!benches.some(([n]) => n === name)) {
    process.stderr.write(`bench: unknown bench '${name}'; known: ${benches.map(([n]) => n).join(", ")}\n`);
    process.exit(2);
  }
}
for (const [name, run] of summaryOnly ? [] : benches) {
  if (only.length > 0 && !only.includes(name)) continue;
  const t0 = Date.now();
  await run();
  log(`bench: ${name} done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
const results = join(import.meta.dirname, "results");
const sections = benches.map(([name]) => join(results, `${name}.md`)).filter((f) => existsSync(f)).map((f) => readFileSync(f, "utf8").trimEnd() + "\n");
const summary = sections.join("\n");
writeFileSync(join(results, "SUMMARY.md"), summary);
const readmePath = join(import.meta.dirname, "..", "README.md");
const readme = readFileSync(readmePath, "utf8");
const start = "<!-- bench:start -->", end = "<!-- bench:end -->";
const a = readme.indexOf(start), b = readme.indexOf(end);
if (a >= 0 && b > a) writeFileSync(readmePath, readme.slice(0, a + start.length) + "\n" + summary + readme.slice(b));
process.stdout.write(summary);
