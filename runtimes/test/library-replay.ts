/**
 * Library mirror fidelity: commplan's replay of MPI_Alltoallv under each of SMPI 3.32's algorithms it mirrors
 * (`replayLibraryAlltoallvAs`: default, ompi_basic_linear, bruck, pair, ring and their barrier variants, the ompi,
 * mpich and mvapich2 selectors, and impi) against SMPI running MPI_Alltoallv itself: a time-independent trace of one
 * `alltoallv` action per rank, replayed by smpirun under `smpi/alltoallv:NAME`, so every rank starts at 0 as in the
 * replay. impi's first call runs SMPI's init_smp, which aborts SMPI's trace replay (SimGrid 3.32 frees the buffer of
 * one of its eager sends, the replay having left it uncopied), so impi runs in the reference executor built with
 * smpicc instead, as the vs-MPI bench runs it: one timed MPI_Alltoallv (`--baseline --iterations 1 --sync-start`),
 * every rank starting at one instant. Sparse matrices at P = 8 (most pairs' messages empty, which the library still
 * posts) and at P = 6 (ring order, a partial block; the pair algorithms refuse it), messages from a few bytes to a few
 * MB (eager and rendezvous), on the flat ib-hdr-200 cluster, plain and with the per-message overheads of the runtime
 * preset ib-hdr-200-mpi (copies free: SMPI does not time the library's copy of the self block). Fails when a replay is
 * more than 2 % from SMPI's simulated time or a run fails; prints every case. Exits 0 with one line when smpirun is
 * absent. Run: npx tsx runtimes/test/library-replay.ts
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSmpiExecutor } from "../../bench/vs-mpi.js";
import { parseSmpiRun } from "../../bench/vs-mpi-case.js";
import { SMPI_PLAIN } from "../../bench/vs-mpi-config.js";
import { simgridPlatformFiles, SMPI_FLAGS } from "../../src/export/simgrid-platform.js";
import { programToJsonText } from "../../src/io/program-json-write.js";
import { lowerSchedule } from "../../src/lower/index.js";
import {
  LIBRARY_ALLTOALLV,
  libraryAlltoallvPick,
  replayLibraryAlltoallvAs,
} from "../../src/machines/program-replay/library-alltoallv-registry.js";
import { isPowerOfTwo } from "../../src/machines/program-replay/library-alltoallv-rounds.js";
import { findMachine } from "../../src/machines/presets.js";
import { findRuntimeModel, smpiConfigOf, withRuntime } from "../../src/machines/runtime/runtime-model.js";
import { matrixRows, withElementBytes, type CommMatrix } from "../../src/model/matrix.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { linearSchedule } from "./program-replay.js";

/** The largest relative difference allowed between the replay and SMPI. */
const TOLERANCE = 0.02;

/** SMPI's datatype id of MPI_BYTE in a trace action (smpi_datatype.cpp: CREATE_MPI_DATATYPE(BYTE, 6, ...)). */
const MPI_BYTE_ID = 6;

/** Rank r's trace: init, one alltoallv of the matrix's row r (send counts) and column r (receive counts), in bytes. */
function rankTrace(m: CommMatrix, r: number): string {
  const send = new Array<number>(m.p).fill(0),
    recv = new Array<number>(m.p).fill(0);
  const { rowStart, col, val } = matrixRows(m);
  for (let i = 0; i < m.p; i++)
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      if (i === r) send[col[k]!] = val[k]! * m.elementBytes;
      if (col[k] === r) recv[i] = val[k]! * m.elementBytes;
    }
  const sum = (a: number[]): number => a.reduce((x, y) => x + y, 0);
  const counts = `${sum(send)} ${send.join(" ")} ${sum(recv)} ${recv.join(" ")} ${MPI_BYTE_ID} ${MPI_BYTE_ID}`;
  return `${r} init\n${r} alltoallv ${counts}\n${r} finalize\n`;
}

/** The algorithms whose first call aborts SMPI 3.32's trace replay (init_smp), run in the executor instead. */
const EXECUTOR_ONLY: ReadonlySet<string> = new Set(["impi"]);

/** The smpirun timeout of one run (s). */
const SMPIRUN_TIMEOUT_S = 300;

/** Writes the flat ib-hdr-200 cluster of P hosts (platform.xml, hosts) into `dir`. */
function writePlatform(dir: string, p: number): void {
  for (const f of simgridPlatformFiles(p, findMachine("ib-hdr-200")))
    writeFileSync(join(dir, f.name), [...f.pieces()].join(""));
}

/**
 * SMPI's time (us) of one MPI_Alltoallv of the matrix under `algorithm` and `cfg` in the executor `exe` (its baseline,
 * from a common start, the latest rank's end), or the problem. The executor loads the program (the matrix's messages
 * in one round) for its layout and runs MPI_Alltoallv alone (`--baseline-only`).
 */
function smpiExecutorAlltoallv(
  exe: string,
  m: CommMatrix,
  algorithm: string,
  cfg: readonly string[],
): { us: number; problem: string } {
  const dir = mkdtempSync(join(tmpdir(), "commplan-library-replay-"));
  try {
    const prog = lowerSchedule(m, linearSchedule(m), { variant: "nonblocking" }).program;
    writeFileSync(join(dir, "prog.json"), programToJsonText(prog));
    writePlatform(dir, m.p);
    const args = ["-k", "10", String(SMPIRUN_TIMEOUT_S), "smpirun", "-np", String(m.p), "-platform", "platform.xml"];
    args.push("-hostfile", "hosts", ...SMPI_PLAIN, ...cfg, `--cfg=smpi/alltoallv:${algorithm}`);
    args.push(exe, "prog.json", "--iterations", "1", "--sync-start", "--baseline-only");
    const r = spawnSync("timeout", args, { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
    const run = parseSmpiRun(r.status, `${r.stdout ?? ""}${r.stderr ?? ""}`, true, SMPIRUN_TIMEOUT_S, false);
    return run.alltoallvUs === null ? { us: NaN, problem: run.problem } : { us: run.alltoallvUs, problem: "" };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** SMPI's simulated time (us) of the matrix's MPI_Alltoallv under `algorithm` and `cfg`, or the problem. */
function smpiAlltoallv(m: CommMatrix, algorithm: string, cfg: readonly string[]): { us: number; problem: string } {
  const dir = mkdtempSync(join(tmpdir(), "commplan-library-replay-"));
  try {
    const files: string[] = [];
    for (let r = 0; r < m.p; r++) {
      files.push(join(dir, `rank${r}.txt`));
      writeFileSync(files[r]!, rankTrace(m, r));
    }
    writeFileSync(join(dir, "index.txt"), files.join("\n") + "\n");
    writePlatform(dir, m.p);
    const args = [
      "-k",
      "10",
      String(SMPIRUN_TIMEOUT_S),
      "smpirun",
      "-np",
      String(m.p),
      "-platform",
      "platform.xml",
      "-hostfile",
      "hosts",
    ];
    args.push("-replay", "index.txt", ...SMPI_FLAGS, ...cfg, `--cfg=smpi/alltoallv:${algorithm}`);
    const r = spawnSync("timeout", args, { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
    const text = `${r.stdout ?? ""}${r.stderr ?? ""}`;
    const t = /Simulated time: ([0-9.eE+-]+) seconds/.exec(text);
    if (r.status !== 0 || t === null) return { us: NaN, problem: text.trim().split("\n").slice(-2).join(" | ") };
    return { us: Number(t[1]) * 1e6, problem: "" };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The test matrices: sparse workloads at P = 8 and 6, elementBytes giving small and large messages. */
function matrices(): { label: string; m: CommMatrix }[] {
  const out: { label: string; m: CommMatrix }[] = [];
  const halo = generatePattern("halo", 8, {}, 1);
  const moe = generatePattern("moe", 8, { hidden: 1, tokens: 256 }, 3);
  const spmv = generatePattern("h-relation", 8, { h: 2, self: 1 }, 5);
  const moe6 = generatePattern("moe", 6, { hidden: 1, tokens: 256 }, 7);
  for (const [name, m] of [
    ["halo", halo],
    ["moe", moe],
    ["h-relation h=2 with self blocks", spmv],
    ["moe P=6", moe6],
  ] as const)
    for (const bytes of [1, 64, 16384])
      out.push({ label: `${name}, ${bytes} B elements`, m: withElementBytes(m, bytes) });
  return out;
}

/** The algorithms run on m: every mirrored one, but the pair algorithms (SMPI refuses them) off a power-of-two P. */
function algorithmsFor(m: CommMatrix): string[] {
  return LIBRARY_ALLTOALLV.filter((a) => isPowerOfTwo(m.p) || !libraryAlltoallvPick(a, m.p).startsWith("pair"));
}

function main(): number {
  if (spawnSync("smpirun", ["-version"]).error !== undefined) {
    process.stdout.write("library-replay: skipped: smpirun (SimGrid's SMPI) is not installed\n");
    return 0;
  }
  const machine = findMachine("ib-hdr-200");
  const exe = buildSmpiExecutor();
  const bad: string[] = [];
  let worst = 0,
    n = 0;
  for (const { label, m } of matrices())
    for (const rt of ["smpi", "ib-hdr-200-mpi"]) {
      const runtime = withRuntime(findRuntimeModel(rt), { copies: false });
      for (const algorithm of algorithmsFor(m)) {
        const predicted = replayLibraryAlltoallvAs(algorithm, m, { machine, runtime }).makespanUs;
        const cfg = smpiConfigOf(runtime, machine).cfg;
        const s = EXECUTOR_ONLY.has(algorithm)
          ? smpiExecutorAlltoallv(exe, m, algorithm, cfg)
          : smpiAlltoallv(m, algorithm, cfg);
        const what = `${label}, ${rt}, ${algorithm}`;
        if (s.problem !== "") {
          bad.push(`${what}: smpirun failed: ${s.problem}`);
          continue;
        }
        const err = Math.abs(predicted / s.us - 1);
        worst = Math.max(worst, err);
        n++;
        process.stdout.write(
          `library-replay: ${what}: SMPI ${s.us.toFixed(3)} us, replay ${predicted.toFixed(3)} us\n`,
        );
        if (err > TOLERANCE)
          bad.push(`${what}: replay ${predicted} us is ${(err * 100).toFixed(1)} % from SMPI's ${s.us} us`);
      }
    }
  for (const b of bad) process.stdout.write(`library-replay: FAIL: ${b}\n`);
  process.stdout.write(
    `library-replay: ${bad.length === 0 ? "ok" : `${bad.length} failure(s)`}: ${n} runs, largest difference ${(worst * 100).toFixed(2)} %\n`,
  );
  return bad.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
