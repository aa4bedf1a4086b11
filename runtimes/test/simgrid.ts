/**
 * SimGrid runtime test (issue 12): every planner's program, both variants, at P = 16 and 64 (or the
 * P values given as arguments), exported with `simgrid` and replayed by smpirun; a run fails on a
 * non-zero exit, a timeout, "Deadlock detected" (which exits 0) or a missing "Simulated time".
 * Then the dataflow programs of DATAFLOW_PLANNERS (which the trace replay cannot express) run with
 * the executor built with smpicc under smpirun, every byte checked. Prints one line per planner
 * and exits 1 on any failure. Run: npx tsx runtimes/test/simgrid.ts [P ...]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { simgridCopyFlopsPerByte, simgridPlatformFiles, SMPI_FLAGS } from "../../src/export/simgrid-platform.js";
import { SIMGRID_INDEX, simgridTraceFiles, type ExportedFile } from "../../src/export/simgrid-trace.js";
import { writeProgramSplit } from "../../src/io/program-json-write.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { findMachine } from "../../src/machines/presets.js";
import type { MachineModel } from "../../src/model/machine.js";
import type { CommMatrix } from "../../src/model/matrix.js";
import type { Program } from "../../src/model/program.js";
import type { Schedule } from "../../src/model/schedule.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { PLANNERS, plan } from "../../src/planner/registry.js";

/** What one smpirun replay gave. */
export interface ReplayResult {
  readonly ok: boolean;
  /** SimGrid's simulated time (us), NaN when absent. */
  readonly simulatedUs: number;
  /** Wall time of the smpirun process (ms). */
  readonly wallMs: number;
  /** Why the run failed ("" when ok). */
  readonly problem: string;
}

/** Writes the simgrid export of `prog` on `machine` into `dir`. */
export function writeSimgridExport(prog: Program, machine: MachineModel, dir: string): void {
  const files: ExportedFile[] = [
    ...simgridTraceFiles(prog, { computeFlopsPerByte: simgridCopyFlopsPerByte(machine) }),
    ...simgridPlatformFiles(prog.p, machine),
  ];
  for (const f of files) writeFileSync(join(dir, f.name), [...f.pieces()].join(""));
}

/** Runs smpirun on the export in `dir` (under `timeout`); blocking programs run with rendezvous sends so that an order that could deadlock does. */
export function replay(dir: string, p: number, blocking: boolean, timeoutSeconds = 600): ReplayResult {
  const args = [
    "-k",
    "10",
    String(timeoutSeconds),
    "smpirun",
    "-np",
    String(p),
    "-platform",
    "platform.xml",
    "-hostfile",
    "hosts",
    "-replay",
    SIMGRID_INDEX,
    ...SMPI_FLAGS,
  ];
  if (blocking) args.push("--cfg=smpi/send-is-detached-thresh:0");
  const t0 = performance.now();
  const r = spawnSync("timeout", args, { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
  const wallMs = performance.now() - t0;
  const text = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  const m = /Simulated time: ([0-9.eE+-]+) seconds/.exec(text);
  const simulatedUs = m === null ? NaN : Number(m[1]) * 1e6;
  let problem = "";
  if (r.error !== undefined) problem = `cannot run smpirun: ${r.error.message}`;
  else if (r.status === 124 || r.status === 137) problem = `timed out after ${timeoutSeconds} s`;
  else if (/Deadlock detected/i.test(text)) problem = "Deadlock detected";
  else if (r.status !== 0) problem = `exit ${r.status}: ${text.trim().split("\n").slice(-2).join(" | ")}`;
  else if (!Number.isFinite(simulatedUs))
    problem = `no "Simulated time" in the output: ${text.trim().split("\n").slice(-2).join(" | ")}`;
  return { ok: problem === "", simulatedUs, wallMs, problem };
}

/** The executor built with smpicc (runtimes/executor/build.sh); its path. */
export function buildSmpiExecutor(): string {
  const script = fileURLToPath(new URL("../executor/build.sh", import.meta.url));
  return execFileSync(script, [], { env: { ...process.env, CC: "smpicc" }, encoding: "utf8" }).trim();
}

/** What one executor run under smpirun gave: SimGrid's simulated medians per exchange (us), NaN when absent. */
export interface ExecutorRun {
  readonly ok: boolean;
  readonly programUs: number;
  readonly alltoallvUs: number;
  readonly wallMs: number;
  readonly problem: string;
}

/**
 * SMPI flags of an executor run: the replay's (SMPI_FLAGS) without computation, and `smpi/test:0`: SimGrid 3.32's
 * MPI_Waitsome is a waitany followed by MPI_Test on every other pending request, and each MPI_Test injects
 * `smpi/test` (default 1e-4 s) of simulated time, which would charge the dataflow executor 100 us per pending request.
 */
export const EXECUTOR_SMPI_FLAGS: readonly string[] = [
  ...SMPI_FLAGS,
  "--cfg=smpi/simulate-computation:no",
  "--cfg=smpi/test:0",
];

/**
 * Runs the executor `exe` (built with smpicc) on the program in `progDir` under smpirun with the platform and hostfile
 * in `platformDir` (under `timeout`); passes when it exits 0 and every measured line says "every byte ok".
 */
export function runExecutor(
  exe: string,
  progDir: string,
  platformDir: string,
  p: number,
  opts: { baseline?: boolean; iterations?: number; timeoutSeconds?: number } = {},
): ExecutorRun {
  const limit = opts.timeoutSeconds ?? 600;
  const args = [
    "-k",
    "10",
    String(limit),
    "smpirun",
    "-np",
    String(p),
    "-platform",
    join(platformDir, "platform.xml"),
    "-hostfile",
    join(platformDir, "hosts"),
    ...EXECUTOR_SMPI_FLAGS,
    exe,
    progDir,
    "--iterations",
    String(opts.iterations ?? 3),
    ...(opts.baseline === true ? ["--baseline"] : []),
  ];
  const t0 = performance.now();
  const r = spawnSync("timeout", args, { encoding: "utf8", maxBuffer: 64 << 20 });
  const wallMs = performance.now() - t0;
  const text = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  const median = (label: string): number => {
    const m = new RegExp(`^${label} .* median ([0-9.eE+-]+) s,.*every byte ok`, "m").exec(text);
    return m === null ? NaN : Number(m[1]) * 1e6;
  };
  const programUs = median("program"),
    alltoallvUs = opts.baseline === true ? median("alltoallv") : NaN;
  let problem = "";
  if (r.error !== undefined) problem = `cannot run smpirun: ${r.error.message}`;
  else if (r.status === 124 || r.status === 137) problem = `timed out after ${limit} s`;
  else if (r.status !== 0 || !Number.isFinite(programUs) || (opts.baseline === true && !Number.isFinite(alltoallvUs)))
    problem = `exit ${r.status}: ${text.trim().split("\n").slice(-2).join(" | ")}`;
  return { ok: problem === "", programUs, alltoallvUs, wallMs, problem };
}

/** The planners whose dataflow programs simgrid.ts runs with the executor: relays and direct plans. */
const DATAFLOW_PLANNERS = ["two-stage", "four-stage", "shift", "coloring"];

/** Runs the dataflow programs of DATAFLOW_PLANNERS with the smpicc executor at each P: a line per planner; failures. */
async function dataflowRuns(root: string, ps: readonly number[], machine: MachineModel): Promise<number> {
  const exe = buildSmpiExecutor();
  let failures = 0;
  for (const name of DATAFLOW_PLANNERS) {
    const parts: string[] = [];
    let bad = false;
    for (const p of ps) {
      const m = testMatrix(p);
      const s = tryPlan(m, name);
      if (typeof s === "string") {
        parts.push(`P=${p} plan refused: ${s}`);
        bad = true;
        continue;
      }
      const dir = mkdtempSync(join(root, `${name}-${p}-dataflow-`));
      for (const f of simgridPlatformFiles(p, machine)) writeFileSync(join(dir, f.name), [...f.pieces()].join(""));
      await writeProgramSplit(lowerSchedule(m, s, { variant: "dataflow" }).program, join(dir, "prog"));
      const r = runExecutor(exe, join(dir, "prog"), dir, p, { iterations: 1 });
      rmSync(dir, { recursive: true, force: true });
      if (!r.ok) bad = true;
      parts.push(
        `P=${p} ${r.ok ? `${r.programUs.toFixed(1)} us, every byte ok (${(r.wallMs / 1000).toFixed(1)} s)` : `FAILED: ${r.problem}`}`,
      );
    }
    if (bad) failures++;
    process.stdout.write(`simgrid: executor dataflow ${name}: ${bad ? "FAIL" : "ok"}: ${parts.join("; ")}\n`);
  }
  return failures;
}

/** The test matrix: 003 test set 2 (8-regular support, message sizes 1..32 units of 4 elements). */
export function testMatrix(p: number): CommMatrix {
  return generatePattern("wang-set2", p, { d: Math.min(8, p - 1), unit: 4 }, 7);
}

/** The planner's payload plan, or the reason it refused. */
export function tryPlan(m: CommMatrix, name: string): Schedule | string {
  try {
    return plan(m, name, { payload: true });
  } catch (e) {
    return (e as Error).message;
  }
}

/** A two-rank trace that deadlocks (both receive first, rendezvous): the replay must report it, or this test could not see a deadlock. */
function deadlockSelfCheck(root: string, machine: MachineModel): string {
  const dir = mkdtempSync(join(root, "deadlock-"));
  for (const f of simgridPlatformFiles(2, machine)) writeFileSync(join(dir, f.name), [...f.pieces()].join(""));
  writeFileSync(join(dir, "rank-0.txt"), "0 init\n0 recv 1 0 64\n0 send 1 0 64\n0 finalize\n");
  writeFileSync(join(dir, "rank-1.txt"), "1 init\n1 recv 0 0 64\n1 send 0 0 64\n1 finalize\n");
  writeFileSync(join(dir, SIMGRID_INDEX), "rank-0.txt\nrank-1.txt\n");
  const r = replay(dir, 2, true, 120);
  return r.problem === "Deadlock detected"
    ? ""
    : `the deadlock self-check was not reported as a deadlock (${r.ok ? "it ran" : r.problem})`;
}

async function main(argv: readonly string[]): Promise<number> {
  const ps = argv.length > 0 ? argv.map(Number) : [16, 64];
  const machine = findMachine("t3d-004");
  const root = mkdtempSync(join(tmpdir(), "commplan-simgrid-"));
  let failures = 0,
    runs = 0,
    dataflowFailures: number;
  try {
    const self = deadlockSelfCheck(root, machine);
    if (self !== "") {
      process.stdout.write(`simgrid: FAIL: ${self}\n`);
      return 1;
    }
    for (const planner of PLANNERS) {
      const parts: string[] = [];
      let bad = false;
      for (const p of ps) {
        const s = tryPlan(testMatrix(p), planner.name);
        if (typeof s === "string") {
          parts.push(`P=${p} plan refused: ${s}`);
          bad = true;
          continue;
        }
        for (const variant of ["nonblocking", "blocking"] as const) {
          const dir = mkdtempSync(join(root, `${planner.name}-${p}-${variant}-`));
          const prog = lowerSchedule(testMatrix(p), s, { variant }).program;
          writeSimgridExport(prog, machine, dir);
          const r = replay(dir, p, variant === "blocking");
          runs++;
          rmSync(dir, { recursive: true, force: true });
          if (!r.ok) bad = true;
          parts.push(
            `P=${p} ${variant} ${r.ok ? `${r.simulatedUs.toFixed(1)} us (${(r.wallMs / 1000).toFixed(1)} s)` : `FAILED: ${r.problem}`}`,
          );
        }
      }
      if (bad) failures++;
      process.stdout.write(`simgrid: ${planner.name}: ${bad ? "FAIL" : "ok"}: ${parts.join("; ")}\n`);
    }
    dataflowFailures = await dataflowRuns(root, ps, machine);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  process.stdout.write(
    `simgrid: ${PLANNERS.length - failures} of ${PLANNERS.length} planners ok (${runs} smpirun replays, P = ${ps.join(", ")}, t3d-004)\n`,
  );
  process.stdout.write(
    `simgrid: executor dataflow: ${DATAFLOW_PLANNERS.length - dataflowFailures} of ${DATAFLOW_PLANNERS.length} planners ok (${DATAFLOW_PLANNERS.join(", ")})\n`,
  );
  return failures === 0 && dataflowFailures === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = await main(process.argv.slice(2));
