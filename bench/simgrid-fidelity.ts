/**
 * SimGrid fidelity bench: 54 schedules (004 Pattern1, Pattern2 and a uniform matrix; P = 16, 61, 64; six
 * planners) on three presets, each replayed by SMPI (the simgrid export, rendezvous sends) beside
 * commplan's lock-step cost and its free-running replay (blocking mode, receives in step order), all
 * on the flat model: no stage barrier, no rearrangement, SMPI's 16-byte envelope.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lowerSchedule } from "../src/lower/index.js";
import { scheduleCost } from "../src/machines/cost-model.js";
import { findMachine } from "../src/machines/presets.js";
import { simulateSchedule } from "../src/machines/sim/simulate.js";
import type { MachineModel } from "../src/model/machine.js";
import { generatePattern } from "../src/patterns/registry.js";
import { replay, tryPlan, writeSimgridExport } from "../runtimes/test/simgrid.js";
import { machineInfo, mdTable, writeResults } from "./lib.js";

interface Row {
  matrix: string;
  p: number;
  planner: string;
  machine: string;
  smpiUs: number;
  lockstepUs: number;
  freeStepUs: number;
  freeArrivalUs: number;
  /** SMPI / free replay in step order. */
  ratioFree: number;
  /** SMPI / lock-step cost. */
  ratioLockstep: number;
  /** SMPI / free replay in arrival order (the simulator's default). */
  ratioArrival: number;
}

const MATRICES: readonly [string, string, Record<string, number>][] = [
  ["p1", "pattern1", {}],
  ["p2", "pattern2", {}],
  ["uniform", "uniform", { size: 500 }],
];
const PS = [16, 61, 64];
const PLANNERS = ["linear-permutation", "shift", "coloring", "rs-nh", "two-stage", "four-stage"];
const PRESETS = ["t3d-004", "sp2-004", "ib-hdr-200"];
/** SMPI's per-message envelope (bytes; RUNTIMES.md). */
const SMPI_ENVELOPE = 16;
/** The agreement the free replay should reach. */
const TARGET = 0.02;

/** The flat model of a preset as the simgrid export runs it: no barrier, no compose or copy cost. */
function flatModel(name: string): MachineModel {
  return { ...findMachine(name), barrier: 0, tm: 0 };
}

/** Median, minimum and maximum. */
function spread(xs: readonly number[]): { median: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length === 0 ? NaN : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0] ?? NaN, max: s[s.length - 1] ?? NaN };
}

/** One schedule on one preset: SMPI and the three commplan figures. */
function measure(root: string, label: string, pat: string, opts: Record<string, number>, p: number, planner: string) {
  const m = generatePattern(pat, p, opts, 1);
  const s = tryPlan(m, planner);
  if (typeof s === "string") return { problem: `${label} P=${p} ${planner}: ${s}` };
  const prog = lowerSchedule(m, s).program;
  const rows: Row[] = [];
  const problems: string[] = [];
  for (const name of PRESETS) {
    const flat = flatModel(name);
    const env = { ...flat, envelope: SMPI_ENVELOPE };
    const dir = mkdtempSync(join(root, "run-"));
    writeSimgridExport(prog, flat, dir);
    const r = replay(dir, p, true, 300);
    rmSync(dir, { recursive: true, force: true });
    if (!r.ok) {
      problems.push(`${label} P=${p} ${planner} on ${name}: ${r.problem}`);
      continue;
    }
    const lockstepUs = scheduleCost(s, env, "blocking").total;
    const freeStepUs = simulateSchedule(s, env, { timeline: false, recvOrder: "step" }).makespan;
    const freeArrivalUs = simulateSchedule(s, env, { timeline: false }).makespan;
    rows.push({
      matrix: label,
      p,
      planner,
      machine: name,
      smpiUs: r.simulatedUs,
      lockstepUs,
      freeStepUs,
      freeArrivalUs,
      ratioFree: r.simulatedUs / freeStepUs,
      ratioLockstep: r.simulatedUs / lockstepUs,
      ratioArrival: r.simulatedUs / freeArrivalUs,
    });
  }
  return { rows, problems };
}

/** The markdown of the measured rows. */
function report(rows: readonly Row[], problems: readonly string[], wallS: number): string {
  const f = (v: number): string => v.toFixed(2);
  const r4 = (v: number): string => v.toFixed(4);
  const line = (name: string, xs: readonly number[]): string[] => {
    const t = spread(xs);
    return [name, r4(t.median), r4(t.min), r4(t.max), String(xs.filter((x) => Math.abs(x - 1) > TARGET).length)];
  };
  const outliers = rows.filter((r) => Math.abs(r.ratioFree - 1) > TARGET);
  return (
    `### SimGrid fidelity: SMPI 3.32 against commplan's lock-step cost and free replay (${rows.length} runs: ${MATRICES.length} matrices x P = ${PS.join(", ")} x ${PLANNERS.length} planners x ${PRESETS.join(", ")}; flat model: barrier 0, t_m 0, ${SMPI_ENVELOPE}-byte envelope; SMPI: nonblocking program, rendezvous sends; free replay: blocking mode, --recv-order step; ${wallS.toFixed(0)} s)\n\n` +
    mdTable(
      ["ratio", "median", "min", "max", `runs off by more than ${TARGET * 100} %`],
      [
        line(
          "SMPI / free replay (step order)",
          rows.map((r) => r.ratioFree),
        ),
        line(
          "SMPI / lock-step cost",
          rows.map((r) => r.ratioLockstep),
        ),
        line(
          "SMPI / free replay (arrival order, the default)",
          rows.map((r) => r.ratioArrival),
        ),
      ],
    ) +
    `\nFree replay within ${TARGET * 100} % of SMPI: ${rows.length - outliers.length} of ${rows.length}` +
    (outliers.length > 0
      ? ` (outliers: ${outliers.map((r) => `${r.matrix} P=${r.p} ${r.planner} on ${r.machine} ${r4(r.ratioFree)}`).join("; ")})`
      : "") +
    ".\n\n" +
    mdTable(
      [
        "matrix",
        "P",
        "planner",
        "machine",
        "SMPI us",
        "lock-step us",
        "free step us",
        "free arrival us",
        "SMPI / free",
        "SMPI / lock-step",
        "SMPI / arrival",
      ],
      rows.map((r) => [
        r.matrix,
        r.p,
        r.planner,
        r.machine,
        f(r.smpiUs),
        f(r.lockstepUs),
        f(r.freeStepUs),
        f(r.freeArrivalUs),
        r4(r.ratioFree),
        r4(r.ratioLockstep),
        r4(r.ratioArrival),
      ]),
    ) +
    (problems.length > 0 ? `\nNot measured: ${problems.join("; ")}\n` : "")
  );
}

/** Runs the cases; returns the markdown summary (a one-line skip when smpirun is not installed; the recorded results are then kept). */
export function simgridFidelityBench(log: (s: string) => void): string {
  if (spawnSync("sh", ["-c", "command -v smpirun"]).status !== 0) {
    const skip =
      "simgrid-fidelity: skipped: smpirun is not installed (Debian: libsimgrid-dev); results not rewritten\n";
    log(skip.trimEnd());
    return skip;
  }
  const t0 = Date.now();
  const rows: Row[] = [];
  const problems: string[] = [];
  const root = mkdtempSync(join(tmpdir(), "commplan-bench-fidelity-"));
  try {
    for (const [label, pat, opts] of MATRICES)
      for (const p of PS) {
        log(`simgrid-fidelity: ${label} P = ${p} ...`);
        for (const planner of PLANNERS) {
          const out = measure(root, label, pat, opts, p, planner);
          if ("problem" in out) problems.push(out.problem ?? "");
          else {
            rows.push(...out.rows);
            problems.push(...out.problems);
          }
        }
      }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const wallS = (Date.now() - t0) / 1000;
  const md = report(rows, problems, wallS);
  writeResults(
    "simgrid-fidelity",
    { machine: machineInfo(), presets: PRESETS, ps: PS, planners: PLANNERS, wallS, rows, problems },
    md,
  );
  return md;
}
