/** npm run bench: runs every bench, records bench/results/*, prints the summary (also pasted into the README). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { foundationBench } from "./foundation.js";
import { fourStageBench } from "./four-stage.js";
import { permutationBench } from "./permutation.js";
import { simulateBench } from "./simulate.js";
import { twoStageBench } from "./two-stage.js";

const only = process.argv.slice(2);
const log = (s: string): void => void process.stderr.write(s + "\n");
const sections: string[] = [];
const benches: [string, () => string | Promise<string>][] = [
  ["foundation", () => foundationBench(log)],
  ["four-stage", () => fourStageBench(log)],
  ["two-stage", () => twoStageBench(log)],
  ["permutation", () => permutationBench(log)],
  ["simulate", () => simulateBench(log)],
];
for (const [name, run] of benches) {
  if (only.length > 0 && !only.includes(name)) continue;
  sections.push(await run());
}
const summary = sections.join("\n");
writeFileSync(join(import.meta.dirname, "results", "SUMMARY.md"), summary);
process.stdout.write(summary);
