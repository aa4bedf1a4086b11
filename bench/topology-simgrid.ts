/**
 * Topology fidelity bench: a uniform all-to-all planned by four planners, on fat trees with 1:1, 2:1
 * and 4:1 edge uplinks (hashed ECMP and D-mod-k routes) and a 2D torus at P = 64 and 256, replayed
 * by SMPI on the platform of `commplan platform` (explicit form: commplan's own routes; for the
 * 1:1 D-mod-k tree SimGrid's own FAT_TREE cluster, whose routing is D-mod-k) beside commplan's flow
 * model on the same network (fair port sharing, receives in step order, 16-byte envelope, no barrier).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simgridTopologyHostfile, simgridTopologyPlatformPieces } from "../src/export/simgrid-topology-platform.js";
import { lowerSchedule } from "../src/lower/index.js";
import { findMachine } from "../src/machines/presets.js";
import { simulateSchedule } from "../src/machines/sim/simulate.js";
import type { MachineModel } from "../src/model/machine.js";
import type { NetworkRoutes } from "../src/model/network.js";
import { generatePattern } from "../src/patterns/registry.js";
import { buildTopology, compileRoutes, describeTopology } from "../src/topology/index.js";
import { replay, tryPlan, writeSimgridExport } from "../runtimes/test/simgrid.js";
import { bestOfMs, machineInfo, mdTable, writeResults } from "./lib.js";

interface Row {
  network: string;
  p: number;
  planner: string;
  smpiUs: number;
  commplanUs: number;
  /** SMPI / commplan. */
  ratio: number;
  smpiWallMs: number;
  /** One replay (linkFactor false): the makespan and per-link books, what SMPI computes. */
  commplanWallMs: number;
  /** SMPI wall / commplan wall. */
  speedup: number;
  /** The default simulate call: a second replay on an infinite-bandwidth core for the link-contention factor f_lc. */
  withFlcWallMs: number;
  /** The same replay on the flat model (no network, no link contention): the part of the wall time that is not the flow model. */
  flatWallMs: number;
  /** A plan of several stages replayed with stageBarriers false (its stages as one run, as the program runs): commplan's makespan, else null. */
  oneRunUs: number | null;
}

const PRESET = "ib-hdr-200";
/** Elements of every off-diagonal message (8 bytes each: 512 KiB, 21 us on a 25 GB/s link against 0.1 us per hop). */
const SIZE = 65536;
/** A spec ending in this runs on SimGrid's own <cluster> form of the network (its routing: D-mod-k on a FAT_TREE). */
const CLUSTER = " (SimGrid cluster)";
const PLANNERS = ["linear-permutation", "shift", "coloring", "four-stage"];
/** The network specs of every P: fat trees with hashed ECMP routes and with D-mod-k routes (the 1:1 one also on SimGrid's cluster), a 2D torus. */
function networks(torus: string): string[] {
  return [
    "fat-tree",
    "fat-tree:oversub=2",
    "fat-tree:oversub=4",
    "fat-tree:routing=dmodk",
    `fat-tree:routing=dmodk${CLUSTER}`,
    "fat-tree:oversub=2,routing=dmodk",
    "fat-tree:oversub=4,routing=dmodk",
    torus,
  ];
}
/** [P, network specs, planners]. */
const CASES: readonly [number, readonly string[], readonly string[]][] = [
  [64, networks("torus:dims=8x8"), PLANNERS],
  [256, networks("torus:dims=16x16"), PLANNERS],
];
const ENVELOPE = 16;
const TARGET = 0.05;

/** The machine both sides run: the network's links carry all the cost (no start-up, copy or barrier), SMPI's envelope. */
function networkOnly(m: MachineModel): MachineModel {
  return { ...m, ts: 0, tsSend: 0, tc: 0, tm: 0, barrier: 0, envelope: ENVELOPE };
}

/** One planner on one network: the SMPI replay and commplan's flow-model replay. */
function measure(root: string, spec: string, p: number, planner: string): Row | string {
  const machine = findMachine(PRESET);
  const m = generatePattern("uniform", p, { size: SIZE }, 1);
  const s = tryPlan(m, planner);
  if (typeof s === "string") return `${spec} P=${p} ${planner}: ${s}`;
  const cluster = spec.endsWith(CLUSTER);
  const graph = buildTopology(cluster ? spec.slice(0, -CLUSTER.length) : spec, p, machine);
  const routes: NetworkRoutes = compileRoutes(graph);
  const dir = mkdtempSync(join(root, "run-"));
  try {
    const model = networkOnly(machine);
    // t_m = 0: no compute actions for local copies (commplan charges none either)
    writeSimgridExport(lowerSchedule(m, s).program, model, dir);
    const d = describeTopology(graph);
    // explicit: the P hosts that run ranks with commplan's routes between them (Full routing, up to
    // 256 ranks) instead of SimGrid's Floyd shortest paths (one path per pair, no ECMP)
    const pieces = simgridTopologyPlatformPieces(d, routes, cluster ? {} : { explicit: true, ranks: p });
    writeFileSync(join(dir, "platform.xml"), [...pieces].join(""));
    writeFileSync(join(dir, "hosts"), simgridTopologyHostfile(d, p));
    const r = replay(dir, p, true, 300);
    if (!r.ok) return `${spec} P=${p} ${planner}: ${r.problem}`;
    const opts = { timeline: false, recvOrder: "step", network: routes, portSharing: "fair" } as const;
    // like for like: SMPI computes the makespan only; f_lc (a second replay) is timed apart
    const one = { ...opts, linkFactor: false } as const;
    // best of up to 5 warm runs each (bestOfMs warms up first): single runs of tens of ms were noisy
    const t = bestOfMs(() => simulateSchedule(s, model, one), 5, 5000);
    const withFlc = bestOfMs(() => simulateSchedule(s, model, opts), 5, 5000);
    const flat = bestOfMs(() => simulateSchedule(s, model, { timeline: false, recvOrder: "step" }), 5, 5000);
    // the program has no barrier between stages: the same replay without them, for the plans that have stages
    const oneRunUs = s.stages.length > 1 ? simulateSchedule(s, model, { ...one, stageBarriers: false }).makespan : null;
    return {
      network: spec,
      p,
      planner,
      smpiUs: r.simulatedUs,
      commplanUs: t.value.makespan,
      ratio: r.simulatedUs / t.value.makespan,
      smpiWallMs: r.wallMs,
      commplanWallMs: t.ms,
      speedup: r.wallMs / t.ms,
      withFlcWallMs: withFlc.ms,
      flatWallMs: flat.ms,
      oneRunUs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** "median m, range lo .. hi" of xs with `digits` decimals and a unit. */
function spread(xs: readonly number[], digits: number, unit = ""): string {
  const v = [...xs].sort((a, b) => a - b);
  const f = (x: number | undefined): string => `${(x ?? NaN).toFixed(digits)}${unit}`;
  return `median ${f(v[v.length >> 1])}, range ${f(v[0])} .. ${f(v[v.length - 1])}`;
}

/** Per P and planner with both rows, f(row on network `a`, row on network `b`). */
function paired(rows: readonly Row[], a: string, b: string, f: (x: Row, y: Row) => number): number[] {
  const out: number[] = [];
  for (const x of rows.filter((r) => r.network === a)) {
    const y = rows.find((r) => r.network === b && r.p === x.p && r.planner === x.planner);
    if (y) out.push(f(x, y));
  }
  return out;
}

/** The least flat-model wall time over the rows of r's P and planner (the same replay on every network). */
function flatLeast(rows: readonly Row[], r: Row): number {
  return Math.min(...rows.filter((x) => x.p === r.p && x.planner === r.planner).map((x) => x.flatWallMs));
}

/** The markdown of the measured rows. */
function report(rows: readonly Row[], problems: readonly string[], wallS: number): string {
  const off = rows.filter((r) => Math.abs(r.ratio - 1) > TARGET);
  const explicit = rows.filter((r) => !r.network.endsWith(CLUSTER));
  const onCluster = rows.filter((r) => r.network.endsWith(CLUSTER));
  const staged = rows.flatMap((r) => (r.oneRunUs === null ? [] : [{ with: r.ratio, without: r.smpiUs / r.oneRunUs }]));
  const dmodk = "fat-tree:routing=dmodk";
  const ran = CASES.map(([p, nets, pl]) => `P = ${p}: ${nets.join(", ")} x ${pl.join(", ")}`).join("; ");
  return (
    `### Topologies: SMPI 3.32 against commplan's flow model on the same network (${rows.length} runs; ${ran}; uniform all-to-all, ${SIZE} elements of 8 bytes per pair; ${PRESET} links (25 GB/s, 0.1 us per hop); explicit platforms listing commplan's routes, except the SimGrid cluster rows (SimGrid's own FAT_TREE, whose routing is D-mod-k); both sides: no start-up, barrier 0, ${ENVELOPE}-byte envelope, rendezvous / blocking sends, receives in step order; SMPI: CM02, no cross-traffic, TCP-gamma 0; commplan: portSharing fair; ${wallS.toFixed(0)} s)\n\n` +
    `SMPI / commplan: ${spread(
      rows.map((r) => r.ratio),
      4,
    )}; ${rows.length - off.length} of ${rows.length} within ${TARGET * 100} %` +
    (off.length > 0
      ? ` (off: ${off.map((r) => `${r.network} P=${r.p} ${r.planner} ${r.ratio.toFixed(3)}`).join("; ")})`
      : "") +
    `. On the explicit platforms (commplan's routes): ${spread(
      explicit.map((r) => r.ratio),
      4,
    )}, ${explicit.filter((r) => Math.abs(r.ratio - 1) <= TARGET).length} of ${explicit.length} within ${TARGET * 100} %. ` +
    `On SimGrid's own FAT_TREE cluster against commplan's routing=dmodk: ${spread(
      onCluster.map((r) => r.ratio),
      4,
    )}; SMPI's time on the cluster / on the explicit platform of commplan's D-mod-k routes: ${spread(
      paired(rows, `${dmodk}${CLUSTER}`, dmodk, (c, e) => c.smpiUs / e.smpiUs),
      6,
    )} (the same routes). ` +
    `Plans of several stages (four-stage) replayed without stage barriers (stageBarriers false: the stages as one run, as the lowered program runs them; column "no barriers"), SMPI / commplan: ${spread(
      staged.map((x) => x.without),
      4,
    )}, against ${spread(
      staged.map((x) => x.with),
      4,
    )} with them; within 5 % without them: ${staged.filter((x) => Math.abs(x.without - 1) <= TARGET).length} of ${staged.length}. ` +
    `On the 1:1 tree, hashed ECMP routes collide where D-mod-k's do not: commplan's makespan with ECMP / with D-mod-k ${spread(
      paired(rows, "fat-tree", dmodk, (e, d) => e.commplanUs / d.commplanUs),
      2,
    )}; commplan's wall time with ECMP / with D-mod-k routes ${spread(
      paired(rows, "fat-tree", dmodk, (e, d) => e.commplanWallMs / d.commplanWallMs),
      2,
    )}, SMPI's ${spread(
      paired(rows, "fat-tree", dmodk, (e, d) => e.smpiWallMs / d.smpiWallMs),
      2,
    )}. ` +
    `Wall time SMPI / commplan (SMPI: the whole smpirun; commplan: one simulateSchedule call with linkFactor false, a single replay giving the makespan and the per-link books, as SMPI gives the makespan): ${spread(
      rows.map((r) => r.speedup),
      1,
      "x",
    )}; D-mod-k rows ${spread(
      rows.filter((r) => r.network.includes("dmodk")).map((r) => r.speedup),
      1,
      "x",
    )}. ` +
    `The default call also replays on an infinite-bandwidth core for the link-contention factor f_lc (column "with f_lc"): SMPI / that, ${spread(
      rows.map((r) => r.smpiWallMs / r.withFlcWallMs),
      1,
      "x",
    )}. ` +
    `The same replay on the flat model (column "flat ms": no network, so no link contention; the event replay the flow model adds to; it does not depend on the network, so each row takes the least over its P and planner, against run-to-run noise), as a share of a 50 x budget (SMPI wall / 50): ${CASES.map(
      ([p]) =>
        `P = ${p} ${spread(
          rows.filter((r) => r.p === p).map((r) => (100 * flatLeast(rows, r)) / (r.smpiWallMs / 50)),
          0,
          " %",
        )}`,
    ).join("; ")}.\n\n` +
    mdTable(
      [
        "network",
        "P",
        "planner",
        "SMPI us",
        "commplan us",
        "SMPI / commplan",
        "SMPI wall ms",
        "commplan wall ms",
        "speed-up",
        "with f_lc ms",
        "flat ms",
        "no barriers: SMPI / commplan",
      ],
      rows.map((r) => [
        r.network,
        r.p,
        r.planner,
        r.smpiUs.toFixed(1),
        r.commplanUs.toFixed(1),
        r.ratio.toFixed(4),
        r.smpiWallMs.toFixed(0),
        r.commplanWallMs.toFixed(1),
        `${r.speedup.toFixed(1)}x`,
        r.withFlcWallMs.toFixed(1),
        r.flatWallMs.toFixed(1),
        r.oneRunUs === null ? "" : (r.smpiUs / r.oneRunUs).toFixed(4),
      ]),
    ) +
    (problems.length > 0 ? `\nNot measured: ${problems.join("; ")}\n` : "")
  );
}

/** Runs the cases; returns the markdown (a one-line skip when smpirun is not installed; recorded results are then kept). */
export function topologySimgridBench(log: (s: string) => void): string {
  if (spawnSync("sh", ["-c", "command -v smpirun"]).status !== 0) {
    const skip =
      "topology-simgrid: skipped: smpirun is not installed (Debian: libsimgrid-dev); results not rewritten\n";
    log(skip.trimEnd());
    return skip;
  }
  const t0 = Date.now();
  const rows: Row[] = [];
  const problems: string[] = [];
  const root = mkdtempSync(join(tmpdir(), "commplan-bench-topo-"));
  try {
    for (const [p, nets, planners] of CASES)
      for (const spec of nets)
        for (const planner of planners) {
          const r = measure(root, spec, p, planner);
          if (typeof r === "string") problems.push(r);
          else rows.push(r);
          log(
            `topology-simgrid: ${spec} P=${p} ${planner}: ${typeof r === "string" ? r : `${r.ratio.toFixed(4)} (${(r.smpiWallMs / 1000).toFixed(1)} s)`}`,
          );
        }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const wallS = (Date.now() - t0) / 1000;
  const md = report(rows, problems, wallS);
  writeResults(
    "topology-simgrid",
    { machine: machineInfo(), preset: PRESET, size: SIZE, cases: CASES, wallS, rows, problems },
    md,
  );
  return md;
}
