/** Four-stage bench (issue 5): plan + verify time and peak memory of four-stage, as ratios to one stats pass; the largest payload P that fits 4 GiB, bisected. */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generatePattern } from "../src/patterns/index.js";
import { writeMatrixFile } from "../src/io/matrix-write.js";
import { machineInfo, mdTable, runCase, writeResults } from "./lib.js";

interface Case {
  algorithm: string;
  p: number;
  payload: boolean;
  transfers: number;
  chunks: number;
  steps: number;
  statsMs: number;
  statsReps: number;
  planMs: number;
  verifyMs: number;
  planVerifyRatio: number;
  writeMs: number;
  readMs: number;
  jsonMiB: number;
  peakRssMiB: number;
}

/** Peak RSS of the two memory processes of one case and their ratio. */
interface Memory {
  statsPeakMiB: number;
  planVerifyPeakMiB: number;
  memRatio: number;
}

/**
 * Peak memory of a case as the foundation bench measures it, with foundation-case.ts's memory
 * phases: two fresh processes read the same matrix file (streamed) and run a stats pass; one stops
 * there, the other then plans and verifies once (no JSON). Each reports its VmHWM.
 */
async function memoryPeaks(p: number, level: string): Promise<Memory> {
  const dir = mkdtempSync(join(tmpdir(), "commplan-bench-"));
  try {
    const file = join(dir, "m.json");
    await writeMatrixFile(generatePattern("liu-pattern3", p, { lmax: 1024 }, 1), file);
    const peak = (phase: string): number =>
      runCase<{ peakMiB: number }>("foundation-case.ts", [
        String(p),
        level,
        "four-stage",
        `--phase=${phase}`,
        `--matrix=${file}`,
      ]).peakMiB;
    const statsPeakMiB = peak("stats"),
      planVerifyPeakMiB = peak("plan-verify");
    return { statsPeakMiB, planVerifyPeakMiB, memRatio: planVerifyPeakMiB / statsPeakMiB };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One payload-level probe of the memory bisection. */
interface Probe {
  p: number;
  fits: boolean;
  peakRssMiB: number;
  seconds: number;
  killed: boolean;
  planMs: number | null;
  verifyMs: number | null;
  chunks: number | null;
}

/**
 * Memory budget of the payload cases: the issue asks for the largest P that fits in 4 GiB. Typed
 * arrays live outside the V8 heap, so a heap limit does not bound them: each probe runs in its own
 * process whose resident set is polled, and the probe is killed as soon as it passes the budget.
 */
const BUDGET_MIB = 4096;

/** Resident set of a process in MiB (Linux /proc), or 0 when it has exited. */
function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Plans and verifies P at payload level (no JSON) in a child process, killed when its RSS passes the budget. */
function probe(p: number): Promise<Probe> {
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    [
      "--max-old-space-size=8192",
      "--import",
      "tsx",
      join(import.meta.dirname, "four-stage-case.ts"),
      String(p),
      "payload",
      "nojson",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "",
    peak = 0,
    killed = false;
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.resume();
  const timer = setInterval(() => {
    const rss = rssMiB(child.pid!);
    peak = Math.max(peak, rss);
    if (rss > BUDGET_MIB && !killed) {
      killed = true;
      child.kill("SIGKILL");
    }
  }, 100);
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => {
      clearInterval(timer);
      const seconds = (Date.now() - t0) / 1000;
      if (killed)
        return resolve({
          p,
          fits: false,
          peakRssMiB: peak,
          seconds,
          killed,
          planMs: null,
          verifyMs: null,
          chunks: null,
        });
      if (code !== 0) return reject(new Error(`bench: four-stage payload probe P = ${p} exited with ${code}`));
      const r = JSON.parse(out.trim().split("\n").pop()!) as Case;
      resolve({
        p,
        fits: r.peakRssMiB <= BUDGET_MIB,
        peakRssMiB: r.peakRssMiB,
        seconds,
        killed,
        planMs: r.planMs,
        verifyMs: r.verifyMs,
        chunks: r.chunks,
      });
    });
  });
}

/** Runs the four-stage cases; returns the markdown summary. */
export async function fourStageBench(log: (s: string) => void): Promise<string> {
  const results: (Case & Memory)[] = [];
  const run = async (p: number, level: string): Promise<Case & Memory> => {
    log(`four-stage: P = ${p} (${level}) ...`);
    const timed = runCase<Case>("four-stage-case.ts", [String(p), level, "json"]);
    log(`four-stage: P = ${p} (${level}), memory processes ...`);
    const r = { ...timed, ...(await memoryPeaks(p, level)) };
    results.push(r);
    return r;
  };
  for (const p of [64, 256, 1024, 4096]) await run(p, "message");
  let largest = 0;
  for (const p of [64, 128, 256, 512]) if ((await run(p, "payload")).planVerifyPeakMiB <= BUDGET_MIB) largest = p;
  // bisect the largest payload P that fits, between the largest power of two that fits and 1024
  const probes: Probe[] = [];
  let lo = largest,
    hi = 1024;
  log(`four-stage: payload P = ${hi} (probe, killed above ${BUDGET_MIB} MiB) ...`);
  const top = await probe(hi);
  probes.push(top);
  if (top.fits) lo = hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    log(`four-stage: payload P = ${mid} (probe, bisecting ${lo}..${hi}) ...`);
    const r = await probe(mid);
    probes.push(r);
    if (r.fits) lo = mid;
    else hi = mid;
  }
  largest = lo;
  const f = (x: number, d = 1): string => x.toFixed(d);
  const md =
    "### Four-stage (A4): plan + verify (002 Pattern3, dense, lmax 1024)\n\n" +
    "One stats pass (`matrixStats`) is timed over batches of at least 50 ms (best of 5 batches / batch size); plan and verify are one (cold) run each, in the same process, " +
    "followed by a JSON write and read-back of the plan (timed only). " +
    "Memory is measured as the foundation bench does (foundation-case.ts's memory phases): two fresh processes read the same matrix file and run a stats pass; one stops there, the other then plans and verifies once, without JSON. " +
    "Memory ratio = peak RSS (VmHWM) of the plan + verify process / peak RSS of the stats-pass process. " +
    `Load average at the end of the run: ${machineInfo()
      .loadavg.map((x) => x.toFixed(1))
      .join(" / ")} on ${machineInfo().cpus} cores (shared), so absolute times are noisy.\n\n` +
    mdTable(
      [
        "P",
        "level",
        "transfers",
        "chunks",
        "stats pass ms",
        "plan ms",
        "verify ms",
        "(plan+verify) / stats",
        "stats peak MiB",
        "plan+verify peak MiB",
        "memory ratio",
        "JSON write ms",
        "JSON read ms",
        "JSON MiB",
      ],
      results.map((r) => [
        r.p,
        r.payload ? "payload" : "message",
        r.transfers.toLocaleString("en-US"),
        r.chunks.toLocaleString("en-US"),
        f(r.statsMs, 3),
        f(r.planMs),
        f(r.verifyMs),
        f(r.planVerifyRatio, 0),
        f(r.statsPeakMiB, 0),
        f(r.planVerifyPeakMiB, 0),
        f(r.memRatio, 2),
        f(r.writeMs),
        f(r.readMs),
        f(r.jsonMiB),
      ]),
    ) +
    `\nLargest payload-level P whose plan + verify fits ${BUDGET_MIB} MiB peak RSS: **${largest}** (bisected; each probe in its own process, killed when its RSS passed the budget):\n\n` +
    mdTable(
      ["P", "fits", "peak RSS MiB", "seconds", "plan ms", "verify ms", "chunks"],
      probes.map((r) => [
        r.p,
        r.fits ? "yes" : "no",
        (r.killed ? "> " : "") + f(r.peakRssMiB, 0),
        f(r.seconds, 0),
        r.planMs === null ? "killed" : f(r.planMs),
        r.verifyMs === null ? "-" : f(r.verifyMs),
        r.chunks === null ? "-" : r.chunks.toLocaleString("en-US"),
      ]),
    );
  writeResults(
    "four-stage",
    { machine: machineInfo(), budgetMiB: BUDGET_MIB, largestPayloadP: largest, results, probes },
    md,
  );
  return md;
}
