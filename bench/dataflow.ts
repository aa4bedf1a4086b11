/**
 * Dataflow bench: nonblocking against dataflow programs of shift, coloring, two-stage, four-stage and
 * linear-permutation, run by the executor built with smpicc under smpirun on a flat ib-hdr-200 cluster, beside
 * MPI_Alltoallv (the executor's --baseline), at P = 16 and 64 on a uniform, a random and a skewed (moe) matrix; every
 * byte checked. Skipped with one line when smpirun is not installed (the recorded results are then kept).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simgridPlatformFiles } from "../src/export/simgrid-platform.js";
import { writeProgramSplit } from "../src/io/program-json-write.js";
import { lowerSchedule, scratchWithoutReuse } from "../src/lower/index.js";
import { findMachine } from "../src/machines/presets.js";
import type { CommMatrix } from "../src/model/matrix.js";
import { generatePattern } from "../src/patterns/registry.js";
import { buildSmpiExecutor, EXECUTOR_SMPI_FLAGS, runExecutor, tryPlan } from "../runtimes/test/simgrid.js";
import { machineInfo, mdTable, writeResults } from "./lib.js";

interface Row {
  p: number;
  matrix: string;
  planner: string;
  rounds: number;
  dependencies: number;
  nonblockingUs: number;
  dataflowUs: number;
  alltoallvUs: number;
  /** dataflow / nonblocking. */
  speedup: number;
  /** Largest scratch (elements) of the reusing layout, and of one slot per relayed piece. */
  scratch: number;
  scratchNoReuse: number;
}

const PS = [16, 64];
const PLANNERS = ["shift", "coloring", "linear-permutation", "two-stage", "four-stage"];
const MACHINE = "ib-hdr-200";
/** SimGrid's simulated times are deterministic: one exchange per run measures it (the executor still checks it). */
const ITERATIONS = 1;

/** The matrices: uniform 8 KiB messages; random sizes (half the pairs, 1..2048 elements); MoE dispatch (Zipf). */
function matrices(p: number): { name: string; m: CommMatrix }[] {
  const all = [
    { name: "uniform 1024", m: generatePattern("uniform", p, { size: 1024 }, 1) },
    { name: "moe", m: generatePattern("moe", p, { tokens: 256, hidden: 64 }, 1) },
    { name: "random 1..2048", m: generatePattern("random", p, { density: 0.5, max: 2048 }, 1) },
  ];
  // at P = 64 a run takes minutes of wall time on the shared machine: the uniform and the skewed matrix only
  return p > 16 ? all.slice(0, 2) : all;
}

/** Runs the cases; returns the markdown summary. */
export async function dataflowBench(log: (s: string) => void): Promise<string> {
  if (spawnSync("sh", ["-c", "command -v smpirun && command -v smpicc"]).status !== 0) {
    const line =
      "dataflow: skipped: smpirun or smpicc is not installed (Debian: libsimgrid-dev); results not rewritten\n";
    log(line.trimEnd());
    return line;
  }
  const exe = buildSmpiExecutor();
  const machine = findMachine(MACHINE);
  const rows: Row[] = [];
  const problems: string[] = [];
  const root = mkdtempSync(join(tmpdir(), "commplan-bench-dataflow-"));
  try {
    for (const p of PS) {
      for (const f of simgridPlatformFiles(p, machine)) writeFileSync(join(root, f.name), [...f.pieces()].join(""));
      for (const { name: matrix, m } of matrices(p)) {
        let alltoallvUs = NaN;
        for (const planner of PLANNERS) {
          const s = tryPlan(m, planner);
          if (typeof s === "string") {
            problems.push(`P = ${p}, ${matrix}, ${planner}: ${s}`);
            continue;
          }
          const us: number[] = [];
          let deps = 0,
            rounds = 0,
            scratch = 0,
            scratchNoReuse = 0;
          for (const variant of ["nonblocking", "dataflow"] as const) {
            log(`dataflow: P = ${p}, ${matrix}, ${planner}, ${variant} ...`);
            const prog = lowerSchedule(m, s, { variant }).program;
            rounds = prog.rounds;
            if (prog.after !== undefined) {
              deps = prog.after.op.length;
              const own = scratchWithoutReuse(prog);
              for (let r = 0; r < p; r++) {
                scratch = Math.max(scratch, prog.layout.scratchSize[r]!);
                scratchNoReuse = Math.max(scratchNoReuse, own[r]!);
              }
            }
            const dir = join(root, `prog-${p}-${planner}-${variant}`);
            await writeProgramSplit(prog, dir);
            const baseline = Number.isNaN(alltoallvUs);
            const r = runExecutor(exe, dir, root, p, { baseline, iterations: ITERATIONS, timeoutSeconds: 900 });
            rmSync(dir, { recursive: true, force: true });
            if (!r.ok) {
              problems.push(`P = ${p}, ${matrix}, ${planner}, ${variant}: ${r.problem}`);
              us.push(NaN);
              continue;
            }
            if (baseline) alltoallvUs = r.alltoallvUs;
            us.push(r.programUs);
          }
          rows.push({
            p,
            matrix,
            planner,
            rounds,
            dependencies: deps,
            nonblockingUs: us[0]!,
            dataflowUs: us[1]!,
            alltoallvUs,
            speedup: us[0]! / us[1]!,
            scratch,
            scratchNoReuse,
          });
        }
        for (const r of rows) if (r.p === p && r.matrix === matrix) r.alltoallvUs = alltoallvUs;
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const f = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : "-");
  const md =
    `### Dataflow against nonblocking programs under SMPI (executor built with smpicc, flat ${MACHINE} cluster, ${ITERATIONS} exchange per run, simulated us; every byte checked)\n\n` +
    mdTable(
      [
        "P",
        "matrix",
        "planner",
        "rounds",
        "dependencies",
        "nonblocking us",
        "dataflow us",
        "nonblocking / dataflow",
        "MPI_Alltoallv us",
        "dataflow / Alltoallv",
        "scratch (reuse / own slots)",
      ],
      rows.map((r) => [
        r.p,
        r.matrix,
        r.planner,
        r.rounds,
        r.dependencies,
        f(r.nonblockingUs),
        f(r.dataflowUs),
        Number.isFinite(r.speedup) ? r.speedup.toFixed(2) : "-",
        f(r.alltoallvUs),
        Number.isFinite(r.dataflowUs / r.alltoallvUs) ? (r.dataflowUs / r.alltoallvUs).toFixed(2) : "-",
        r.scratch === 0 && r.scratchNoReuse === 0 ? "0" : `${r.scratch} / ${r.scratchNoReuse}`,
      ]),
    ) +
    `\nSMPI flags: ${EXECUTOR_SMPI_FLAGS.join(" ")}.\n` +
    (problems.length > 0 ? `\nNot measured: ${problems.join("; ")}\n` : "");
  writeResults(
    "dataflow",
    { machine: machineInfo(), preset: MACHINE, ps: PS, planners: PLANNERS, iterations: ITERATIONS, rows, problems },
    md,
  );
  return md;
}
