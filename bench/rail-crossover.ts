/**
 * Rail crossover bench: on a rail-optimised cluster of 16 nodes x 8 GPUs (NVLink at 10 x a rail's
 * bandwidth), the simulated makespan (flow model) of hierarchical, mesh-two-stage (rows = 16), shift
 * and linear-permutation on a uniform all-to-all from 4 bytes to 4 MiB per pair; crossovers and an SVG;
 * and at 4 MiB, hierarchical and shift without the host copy costs (what sets the large-message cost).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { crossovers, type SweepPoint, type SweepReport } from "../src/compare/sweep.js";
import { sweepChartSvg } from "../src/compare/sweep-chart.js";
import { findMachine } from "../src/machines/presets.js";
import { simulateSchedule } from "../src/machines/sim/simulate.js";
import type { MachineModel } from "../src/model/machine.js";
import { matrixFromData } from "../src/model/matrix.js";
import type { NetworkRoutes } from "../src/model/network.js";
import { plan } from "../src/planner/registry.js";
import { buildTopology, compileRoutes } from "../src/topology/index.js";
import { machineInfo, mdTable, writeResults } from "./lib.js";

const PRESET = "ib-hdr-200";
const GPUS = 8;
const NODES = 16;
const P = GPUS * NODES;
/** [label, planner, params]. */
const PLANNERS: readonly [string, string, Record<string, number>][] = [
  ["hierarchical", "hierarchical", { gpus: GPUS }],
  ["mesh-two-stage", "mesh-two-stage", { rows: NODES }],
  ["shift", "shift", {}],
  ["linear-permutation", "linear-permutation", {}],
];
/** Bytes per pair: 4 B to 4 MiB, x4 apart (11 sizes). */
const SIZES = Array.from({ length: 11 }, (_, k) => 4 * 4 ** k);

/** The uniform all-to-all of `bytes` per pair (1-byte elements). */
function uniformBytes(bytes: number) {
  const d = new Float64Array(P * P).fill(bytes);
  for (let i = 0; i < P; i++) d[i * P + i] = 0;
  return matrixFromData(P, d, { elementBytes: 1 });
}

/** Runs the sweep; returns the markdown summary and writes bench/results/rail-crossover.{json,md,svg}. */
/** Hierarchical and shift at the largest size on the preset, with t_m = 0, and with t_m = t_c = 0: whether the copy cost or the network sets the large-message cost. */
function copyCostProbe(
  machine: MachineModel,
  routes: NetworkRoutes,
): { label: string; h: number; s: number; flc: number; hBound: number; sBound: number }[] {
  const m = uniformBytes(SIZES[SIZES.length - 1]!);
  const h = plan(m, "hierarchical", { payload: true, params: { gpus: GPUS } }),
    s = plan(m, "shift", { payload: true });
  const variants: [string, MachineModel][] = [
    [PRESET, machine],
    ["t_m = 0", { ...machine, tm: 0 }],
    ["t_m = t_c = 0", { ...machine, tm: 0, tc: 0 }],
  ];
  return variants.map(([label, mc]) => {
    const run = (x: typeof h) => simulateSchedule(x, mc, { timeline: false, network: routes, portSharing: "fair" });
    const rh = run(h),
      rs = run(s);
    return {
      label,
      h: rh.makespan / 1000,
      s: rs.makespan / 1000,
      flc: rs.network!.flc ?? NaN,
      hBound: rh.network!.loadBound / 1000,
      sBound: rs.network!.loadBound / 1000,
    };
  });
}

export function railCrossoverBench(log: (s: string) => void): string {
  const t0 = Date.now();
  const machine = findMachine(PRESET);
  const bw = 1 / machine.td;
  const spec = `rail:gpus=${GPUS},nodes=${NODES},nvbw=${Math.round(10 * bw)}`;
  const routes = compileRoutes(buildTopology(spec, P, machine));
  const points: SweepPoint[] = [];
  for (const bytes of SIZES) {
    const m = uniformBytes(bytes);
    const times = PLANNERS.map(([, name, params]) => {
      const s = plan(m, name, { payload: true, params });
      return simulateSchedule(s, machine, { timeline: false, network: routes, portSharing: "fair" }).makespan;
    });
    let best = 0;
    times.forEach((t, k) => (t < times[best]! ? (best = k) : 0));
    points.push({ factor: bytes, meanMessageBytes: bytes, times, bound: null, best: PLANNERS[best]![0] });
    log(`rail-crossover: ${bytes} B: ${times.map((t) => t.toFixed(1)).join(", ")} us`);
  }
  const probe = copyCostProbe(machine, routes);
  const names = PLANNERS.map(([label]) => label);
  const sweep: SweepReport = { mode: "blocking", algorithms: names, points, crossovers: crossovers(names, points) };
  const title = `All-to-all on a rail cluster, ${NODES} nodes x ${GPUS} GPUs (${spec}, ${PRESET}, flow model, fair ports)`;
  const results = join(import.meta.dirname, "results");
  writeFileSync(join(results, "rail-crossover.svg"), sweepChartSvg(sweep, title));
  const wallS = (Date.now() - t0) / 1000;
  const fmt = (b: number): string => (b >= 1 << 20 ? `${b / (1 << 20)} MiB` : b >= 1024 ? `${b / 1024} KiB` : `${b} B`);
  const hs = (k: number): number => points[k]!.times[0]! / points[k]!.times[2]!;
  const md =
    `### Rail crossover: hierarchical against flat planners on a rail-optimised cluster (P = ${P}: ${NODES} nodes x ${GPUS} GPUs, \`${spec}\` (NVLink 10 x the rail bandwidth), ${PRESET} (T_s ${machine.ts} us, barrier ${machine.barrier} us), blocking, flow model with fair port sharing; uniform all-to-all, ${fmt(SIZES[0]!)} .. ${fmt(SIZES[SIZES.length - 1]!)} per pair; ${wallS.toFixed(0)} s; chart: bench/results/rail-crossover.svg)\n\n` +
    mdTable(
      ["bytes per pair", ...names.map((n) => `${n} us`), "fastest", "hierarchical / shift"],
      points.map((p, k) => [
        fmt(p.meanMessageBytes),
        ...p.times.map((t) => (t ?? NaN).toFixed(1)),
        p.best ?? "",
        hs(k).toFixed(3),
      ]),
    ) +
    `\nCrossovers (log-log interpolated): ${
      sweep.crossovers.length === 0
        ? "none"
        : sweep.crossovers
            .map(
              (c) =>
                `${c.before} / ${c.after} at ${Math.round(c.meanMessageBytes)} B${c.leaderChange ? ` (fastest becomes ${c.after})` : ""}`,
            )
            .join("; ")
    }.\n\n` +
    `What sets the large-message cost: at ${fmt(SIZES[SIZES.length - 1]!)} per pair, the same plans with the host copy costs taken out (makespan ms; shift's f_lc, the link-contention factor; each plan's link load bound, its busiest link's bytes / bandwidth, ms):\n\n` +
    mdTable(
      [
        "machine",
        "hierarchical ms",
        "shift ms",
        "hierarchical / shift",
        "shift f_lc",
        "load bound ms: hierarchical, shift",
      ],
      probe.map((r) => [
        r.label,
        r.h.toFixed(1),
        r.s.toFixed(1),
        (r.h / r.s).toFixed(3),
        r.flc.toFixed(3),
        `${r.hBound.toFixed(1)}, ${r.sBound.toFixed(1)}`,
      ]),
    );
  writeResults(
    "rail-crossover",
    { machine: machineInfo(), preset: PRESET, spec, p: P, sizes: SIZES, planners: PLANNERS, wallS, sweep, probe },
    md,
  );
  return md;
}
