/**
 * Rail crossover bench: on a rail-optimised cluster of 16 nodes x 8 GPUs (NVLink at 10 x a rail's
 * bandwidth), the simulated makespan (flow model) of hierarchical, mesh-two-stage (rows = 16), shift
 * and linear-permutation on a uniform all-to-all from 4 bytes to 4 MiB per pair; crossovers and an SVG.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { crossovers, type SweepPoint, type SweepReport } from "../src/compare/sweep.js";
import { sweepChartSvg } from "../src/compare/sweep-chart.js";
import { findMachine } from "../src/machines/presets.js";
import { simulateSchedule } from "../src/machines/sim/simulate.js";
import { matrixFromData } from "../src/model/matrix.js";
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
    }.\n`;
  writeResults(
    "rail-crossover",
    { machine: machineInfo(), preset: PRESET, spec, p: P, sizes: SIZES, planners: PLANNERS, wallS, sweep },
    md,
  );
  return md;
}
