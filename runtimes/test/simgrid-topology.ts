/**
 * SimGrid topology platform test: for every generator (and a user JSON network) at P = 16, the
 * platform of `commplan platform` must load in smpirun and route: (1) one message from rank 0 to
 * rank P-1 takes the latency sum + (bytes + 16) / bottleneck bandwidth of commplan's own route (exact
 * for explicit platforms; printed for <cluster> ones, whose internal routing is SimGrid's), and (2) a
 * planned all-to-all replays without deadlock. (3) On a D-mod-k fat tree an all-to-all takes the
 * same time on SimGrid's FAT_TREE cluster as on the explicit platform of commplan's routes.
 * Run: npx tsx runtimes/test/simgrid-topology.ts [P]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { simgridTopologyHostfile, simgridTopologyPlatformPieces } from "../../src/export/simgrid-topology-platform.js";
import { SIMGRID_INDEX } from "../../src/export/simgrid-trace.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { findMachine } from "../../src/machines/presets.js";
import type { MachineModel } from "../../src/model/machine.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { buildTopology, compileRoutes, describeTopology, graphFromDescription } from "../../src/topology/index.js";
import type { TopologyGraph } from "../../src/topology/index.js";
import { replay, testMatrix, tryPlan, writeSimgridExport } from "./simgrid.js";

/** The networks tried: each generator with defaults, its SimGrid cluster forms forced explicit too, a JSON network. */
const SPECS: readonly (readonly [string, boolean])[] = [
  ["flat", false],
  ["flat", true],
  ["fat-tree", false],
  ["fat-tree", true],
  ["fat-tree:routing=dmodk", false],
  ["fat-tree:k=4,oversub=2/1", false],
  // more hosts than ranks: the platform lists the ranks' hosts and the links on their routes
  ["fat-tree:k=8,oversub=2", false],
  ["torus:dims=4x4", false],
  ["torus:dims=4x4", true],
  ["torus", false],
  ["dragonfly", false],
  ["rail:gpus=4", false],
  ["cm5-fat-tree", false],
];

/** A small user network: two switches joined by two cables, eight hosts on each, an explicit route. */
function userNetwork(p: number): TopologyGraph {
  const hosts = Array.from({ length: p }, (_, i) => `n${i}`);
  const links = hosts.map((h, i) => ({ a: h, b: i < p / 2 ? "left" : "right", bandwidth: 1000, latency: 0.5 }));
  links.push(
    { a: "left", b: "right", bandwidth: 500, latency: 2 },
    { a: "left", b: "right", bandwidth: 500, latency: 2 },
  );
  return graphFromDescription({
    name: "user",
    hosts,
    switches: ["left", "right"],
    links,
    routes: [{ src: "n0", dst: `n${p - 1}`, path: ["left", "right"] }],
  });
}

/** Writes the platform and hostfile of `graph` into `dir`; returns the expected time (us) of one message of `bytes` from 0 to p-1. */
function writePlatform(graph: TopologyGraph, p: number, explicit: boolean, dir: string, bytes: number): number {
  const routes = compileRoutes(graph);
  const d = describeTopology(graph);
  writeFileSync(
    join(dir, "platform.xml"),
    [...simgridTopologyPlatformPieces(d, routes, { ...(explicit ? { explicit } : {}), ranks: p })].join(""),
  );
  writeFileSync(join(dir, "hosts"), simgridTopologyHostfile(d, p));
  const out = new Int32Array(routes.maxHops);
  const n = routes.route(0, p - 1, out);
  let lat = 0,
    bw = Infinity;
  for (let k = 0; k < n; k++) {
    lat += routes.latency[out[k]!]!;
    bw = Math.min(bw, routes.bandwidth[out[k]!]!);
  }
  return lat + (bytes + 16) / bw;
}

/** One message from rank 0 to rank p-1 as a replay in `dir`. */
function writeOneMessage(dir: string, p: number, bytes: number): void {
  const index: string[] = [];
  for (let r = 0; r < p; r++) {
    const body = r === 0 ? `0 send ${p - 1} 0 ${bytes}\n` : r === p - 1 ? `${r} recv 0 0 ${bytes}\n` : "";
    writeFileSync(join(dir, `rank-${r}.txt`), `${r} init\n${body}${r} finalize\n`);
    index.push(`rank-${r}.txt`);
  }
  writeFileSync(join(dir, SIMGRID_INDEX), index.join("\n") + "\n");
}

/**
 * (3): a bandwidth-bound uniform all-to-all (shift, 512 KiB per pair) on SimGrid's FAT_TREE cluster,
 * on the explicit platform of commplan's D-mod-k routes and on that of its ECMP routes: the first two
 * must take the same time (SimGrid routes its fat tree D-mod-k), the third longer (the check can fail).
 */
function dmodkMatches(root: string, p: number, machine: MachineModel): boolean {
  const m = generatePattern("uniform", p, { size: 65536 }, 1);
  const s = tryPlan(m, "shift");
  if (typeof s === "string") throw new Error(s);
  const prog = lowerSchedule(m, s).program;
  const time = (spec: string, explicit: boolean): number => {
    const dir = mkdtempSync(join(root, "dmodk-"));
    writeSimgridExport(prog, machine, dir);
    writePlatform(buildTopology(spec, p, machine), p, explicit, dir, 0);
    const r = replay(dir, p, true, 120);
    return r.ok ? r.simulatedUs : NaN;
  };
  const cluster = time("fat-tree:routing=dmodk", false),
    explicit = time("fat-tree:routing=dmodk", true),
    ecmp = time("fat-tree", true);
  // the ECMP routes of the 16-host tree collide on this exchange (measured: 740.9 against 323.6 us); at
  // another P they may not, so the third half of the check holds at P = 16 only
  const ok = Math.abs(cluster - explicit) <= 1e-6 * explicit && (p !== 16 || ecmp > 1.01 * explicit);
  process.stdout.write(
    `simgrid-topology: D-mod-k fat tree: ${ok ? "ok" : "FAIL"}: uniform all-to-all (shift) ${cluster.toFixed(3)} us on SimGrid's cluster, ${explicit.toFixed(3)} us on commplan's D-mod-k routes, ${ecmp.toFixed(3)} us on its ECMP routes\n`,
  );
  return ok;
}

function main(argv: readonly string[]): number {
  const p = argv.length > 0 ? Number(argv[0]) : 16;
  const machine = findMachine("ib-hdr-200");
  const root = mkdtempSync(join(tmpdir(), "commplan-topo-"));
  const bytes = 1 << 20;
  let failures = 0;
  try {
    const cases: [string, TopologyGraph, boolean][] = SPECS.map(([s, e]) => [s, buildTopology(s, p, machine), e]);
    cases.push(["user.json", userNetwork(p), false]);
    const schedule = tryPlan(testMatrix(p), "shift");
    if (typeof schedule === "string") throw new Error(schedule);
    const prog = lowerSchedule(testMatrix(p), schedule, { variant: "nonblocking" }).program;
    for (const [name, graph, explicit] of cases) {
      const form =
        explicit || !graph.graph().simgridCluster ? "explicit" : `cluster ${graph.graph().simgridCluster!.topology}`;
      const one = mkdtempSync(join(root, "one-"));
      const expected = writePlatform(graph, p, explicit, one, bytes);
      writeOneMessage(one, p, bytes);
      const r1 = replay(one, p, true, 120);
      const all = mkdtempSync(join(root, "all-"));
      writeSimgridExport(prog, machine, all);
      writePlatform(graph, p, explicit, all, bytes);
      const r2 = replay(all, p, false, 120);
      const rel = Math.abs(r1.simulatedUs - expected) / expected;
      const bad = !r1.ok || !r2.ok || (form === "explicit" && !(rel < 1e-3));
      if (bad) failures++;
      process.stdout.write(
        `simgrid-topology: ${name} (${form}): ${bad ? "FAIL" : "ok"}: one message ${r1.ok ? `${r1.simulatedUs.toFixed(3)} us, commplan's route ${expected.toFixed(3)} us` : r1.problem}; shift schedule ${r2.ok ? `${r2.simulatedUs.toFixed(1)} us (${(r2.wallMs / 1000).toFixed(1)} s)` : r2.problem}\n`,
      );
    }
    const dmodkOk = dmodkMatches(root, p, machine);
    process.stdout.write(`simgrid-topology: ${cases.length - failures} of ${cases.length} networks ok (P = ${p})\n`);
    if (!dmodkOk) failures++;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return failures === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.slice(2));
