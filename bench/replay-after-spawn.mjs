// The program replay's cost right after the process spawned a child, as the program-replay bench times it (each
// case's smpirun run by spawnSync, then its replays in the same process): a warm replay of one bench case, timed in
// groups of three: four groups with no child spawned yet in the process, then four each after `sleep 0.3` run by
// spawnSync; with each replay's user and system CPU time, minor page faults and wall time.
//
//   node bench/replay-after-spawn.mjs DIST [network] [P] [runtime] [variant] [--big]
//
// e.g. node bench/replay-after-spawn.mjs ./dist fat-tree:k=8,oversub=4 64 ib-hdr-200-mpi blocking. --big keeps about
// 300 MB alive first, as a process that holds more (the bench's) does. Nothing is replayed but the bench's two-stage
// program of the "wang-set2" matrix (bench/program-replay.ts, bench/ab-replay.mjs build it the same way).
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";

const args = process.argv.slice(2);
const big = args.includes("--big");
const [dist, network = "fat-tree:k=8,oversub=4", pArg = "64", runtimeName = "ib-hdr-200-mpi", variant = "blocking"] =
  args.filter((a) => !a.startsWith("--"));
if (!dist) {
  process.stderr.write("usage: node bench/replay-after-spawn.mjs DIST [network] [P] [runtime] [variant] [--big]\n");
  process.exit(2);
}
const load = (p) => import(resolve(dist, p));
const low = await load("lower/index.js");
const rp = await load("machines/program-replay/replay-program.js");
const pre = await load("machines/presets.js");
const rt = await load("machines/runtime/runtime-model.js");
const topo = await load("topology/index.js");
const pat = await load("patterns/registry.js");
const mat = await load("model/matrix.js");
const pl = await load("planner/registry.js");

const machine = pre.findMachine("ib-hdr-200");
const p = Number(pArg);
const m = mat.withElementBytes(pat.generatePattern("wang-set2", p, { d: Math.min(8, p - 1), unit: 4 }, 7), 256);
const prog = low.lowerSchedule(m, pl.plan(m, "two-stage", { payload: true }), { variant }).program;
const runtime = rt.findRuntimeModel(runtimeName);
const routes = network === "flat" ? undefined : topo.compileRoutes(topo.buildTopology(network, p, machine));
const opts = { machine, runtime, ...(routes ? { network: routes } : {}) };

function once() {
  const t0 = performance.now();
  const r0 = process.resourceUsage();
  rp.replayProgram(prog, opts);
  const r = process.resourceUsage();
  return {
    user: (r.userCPUTime - r0.userCPUTime) / 1000,
    system: (r.systemCPUTime - r0.systemCPUTime) / 1000,
    faults: r.minorPageFault - r0.minorPageFault,
    wall: performance.now() - t0,
  };
}

const kept = big ? [new Float64Array(25e6).fill(1), Array.from({ length: 2e6 }, (_, i) => ({ i }))] : [];
for (let k = 0; k < 20; k++) once();
// Every "none" group runs before the first spawn: a group after an earlier spawn would still fault on the pages that
// fork left copy-on-write, so it would be no control.
for (const kind of ["none", "spawn"])
  for (let i = 0; i < 4; i++) {
    if (kind === "spawn") spawnSync("sleep", ["0.3"]);
    const runs = [once(), once(), once()].map(
      (x) => `user ${x.user.toFixed(1)} sys ${x.system.toFixed(1)} faults ${x.faults} wall ${x.wall.toFixed(1)}`,
    );
    process.stdout.write(`${kind.padEnd(5)} ${runs.join(" | ")}\n`);
  }
process.stdout.write(`load average ${loadavg()[0].toFixed(1)}${kept.length > 0 ? ", about 300 MB kept alive" : ""}\n`);
