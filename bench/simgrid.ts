/** SimGrid bench (issue 12): per planner and preset, SMPI's replay of the simgrid export beside commplan simulate's makespan and commplan cost, with ratios and both simulators' wall times (P = 16). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lowerSchedule } from "../src/lower/index.js";
import { scheduleCost } from "../src/machines/cost-model.js";
import { findMachine } from "../src/machines/presets.js";
import { simulateSchedule } from "../src/machines/sim/simulate.js";
import { PLANNERS } from "../src/planner/registry.js";
import { replay, testMatrix, tryPlan, writeSimgridExport } from "../runtimes/test/simgrid.js";
import { machineInfo, mdTable, timeMs, writeResults } from "./lib.js";

interface Row {
  planner: string;
  machine: string;
  p: number;
  rounds: number;
  simgridUs: number;
  simgridWallMs: number;
  simulateUs: number;
  simulateWallMs: number;
  costBlockingUs: number;
  costNonblockingUs: number;
  ratioSimulate: number;
  ratioCostBlocking: number;
}

const P = 16;
const PRESETS = ["t3d-004", "sp2-004", "ib-hdr-200"];

/** Runs the cases; returns the markdown summary. */
export function simgridBench(log: (s: string) => void): string {
  const rows: Row[] = [];
  const problems: string[] = [];
  const root = mkdtempSync(join(tmpdir(), "commplan-bench-simgrid-"));
  try {
    const m = testMatrix(P);
    for (const planner of PLANNERS) {
      const s = tryPlan(m, planner.name);
      if (typeof s === "string") {
        problems.push(`${planner.name}: ${s}`);
        continue;
      }
      const prog = lowerSchedule(m, s).program;
      for (const name of PRESETS) {
        const machine = findMachine(name);
        log(`simgrid: ${planner.name} on ${name} ...`);
        const dir = mkdtempSync(join(root, "run-"));
        writeSimgridExport(prog, machine, dir);
        const r = replay(dir, P, false);
        rmSync(dir, { recursive: true, force: true });
        if (!r.ok) {
          problems.push(`${planner.name} on ${name}: ${r.problem}`);
          continue;
        }
        const sim = timeMs(() => simulateSchedule(s, machine, { mode: "nonblocking", timeline: false }));
        const costB = scheduleCost(s, machine, "blocking").total;
        const costN = scheduleCost(s, machine, "nonblocking").total;
        rows.push({
          planner: planner.name,
          machine: name,
          p: P,
          rounds: prog.rounds,
          simgridUs: r.simulatedUs,
          simgridWallMs: r.wallMs,
          simulateUs: sim.value.makespan,
          simulateWallMs: sim.ms,
          costBlockingUs: costB,
          costNonblockingUs: costN,
          ratioSimulate: r.simulatedUs / sim.value.makespan,
          ratioCostBlocking: r.simulatedUs / costB,
        });
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const f = (v: number): string => v.toFixed(1);
  const md =
    `### SimGrid replay of the simgrid export beside commplan simulate and cost (P = ${P}, 003 test set 2: d = 8, sizes 1..32 x 4 elements; nonblocking programs; docs/runtimes.md explains the differences)\n\n` +
    mdTable(
      [
        "planner",
        "machine",
        "rounds",
        "SimGrid us",
        "simulate us",
        "SimGrid / simulate",
        "cost blocking us",
        "SimGrid / cost",
        "cost nonblocking us",
        "smpirun wall ms",
        "simulate wall ms",
      ],
      rows.map((r) => [
        r.planner,
        r.machine,
        r.rounds,
        f(r.simgridUs),
        f(r.simulateUs),
        r.ratioSimulate.toFixed(3),
        f(r.costBlockingUs),
        r.ratioCostBlocking.toFixed(3),
        f(r.costNonblockingUs),
        r.simgridWallMs.toFixed(0),
        r.simulateWallMs.toFixed(1),
      ]),
    ) +
    (problems.length > 0 ? `\nNot measured: ${problems.join("; ")}\n` : "");
  writeResults("simgrid", { machine: machineInfo(), p: P, presets: PRESETS, rows, problems }, md);
  return md;
}
