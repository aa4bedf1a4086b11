/**
 * Topology bench (npx tsx bench/topology.ts): building and compiling every generator's network for
 * P = 4096 hosts (the target is well under a second), and the cost of one route(a, b) call over
 * 2^20 seeded random pairs. Writes bench/results/topology.md (bench/run.ts gathers it into SUMMARY.md).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRng } from "../src/model/rng.js";
import { buildTopology, compileRoutes } from "../src/topology/index.js";

const P = 4096;
const SPECS = [
  "flat",
  "fat-tree",
  "fat-tree:oversub=4",
  "torus",
  "dragonfly:routers=16,globals=8",
  "rail",
  "cm5-fat-tree",
];

/** Best of three runs of f: the process's CPU time (user + system) in ms, steadier than wall time on a shared machine. */
function best(f: () => void): number {
  let ms = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = process.cpuUsage();
    f();
    const d = process.cpuUsage(t0);
    ms = Math.min(ms, (d.user + d.system) / 1000);
  }
  return ms;
}

const rows: string[] = [];
for (const spec of SPECS) {
  const g = buildTopology(spec, P);
  const l = g.graph();
  const buildMs = best(() => buildTopology(spec, P));
  const compileMs = best(() => compileRoutes(buildTopology(spec, P))) - buildMs;
  const r = compileRoutes(g);
  const rng = createRng(1);
  const pairs = new Int32Array(2 << 20);
  for (let i = 0; i < pairs.length; i += 2) {
    pairs[i] = rng.int(P);
    pairs[i + 1] = (pairs[i]! + 1 + rng.int(P - 1)) % P;
  }
  const out = new Int32Array(r.maxHops);
  let hops = 0;
  const routeMs = best(() => {
    hops = 0;
    for (let i = 0; i < pairs.length; i += 2) hops += r.route(pairs[i]!, pairs[i + 1]!, out);
  });
  const ns = (routeMs * 1e6) / (pairs.length / 2);
  rows.push(
    `| ${spec} | ${l.hosts} | ${l.switches} | ${l.cables} | ${buildMs.toFixed(0)} | ${compileMs.toFixed(0)} | ${(buildMs + compileMs).toFixed(0)} | ${(hops / (pairs.length / 2)).toFixed(2)} | ${ns.toFixed(0)} |`,
  );
  process.stderr.write(rows.at(-1)! + "\n");
}
const md =
  `### Topology: build and compile for P = ${P}, route cost\n\n` +
  "Best of 3 runs each, in one process, as CPU time (user + system: the machine is shared by several sessions, so wall time runs up to 4x longer). build = the generator's graphlib graph; compile = `compileRoutes` (tables, distances, next-hop tables); route = one `route(a, b, out)` call, averaged over 2^20 seeded random pairs.\n\n" +
  "| spec | hosts | switches | cables | build ms | compile ms | total ms | mean links per route | ns per route |\n|---|---|---|---|---|---|---|---|---|\n" +
  rows.join("\n") +
  "\n";
writeFileSync(join(import.meta.dirname, "results", "topology.md"), md);
