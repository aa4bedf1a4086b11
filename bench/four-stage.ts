/** Four-stage bench (issue 5): plan + verify time and peak memory of four-stage, as ratios to one stats pass; the largest payload P that fits 4 GiB, bisected. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { machineInfo, mdTable, runCase, writeResults } from "./lib.js";

interface Case { algorithm: string; p: number; payload: boolean; transfers: number; chunks: number; steps: number; statsMs: number; statsReps: number; planMs: number; verifyMs: number; planVerifyRatio: number; writeMs: number; readMs: number; jsonMiB: number; peakRssMiB: number }

/** One payload-level probe of the memory bisection. */
interface Probe { p: number; fits: boolean; peakRssMiB: number; seconds: number; killed: boolean; planMs: number | null; verifyMs: number | null; chunks: number | null }

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
  const child = spawn(process.execPath, ["--max-old-space-size=8192", "--import", "tsx", join(import.meta.dirname, "four-stage-case.ts"), String(p), "payload", "nojson"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "", peak = 0, killed = false;
  child.stdout.on("data", (d: Buffer) => { out += d.toString(); });
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
      if (killed) return resolve({ p, fits: false, peakRssMiB: peak, seconds, killed, planMs: null, verifyMs: null, chunks: null });
      if (code !== 0) return reject(new Error(`bench: four-stage payload probe P = ${p} exited with ${code}`));
      const r = JSON.parse(out.trim().split("\n").pop()!) as Case;
      resolve({ p, fits: r.peakRssMiB <= BUDGET_MIB, peakRssMiB: r.peakRssMiB, seconds, killed, planMs: r.planMs, verifyMs: r.verifyMs, chunks: r.chunks });
    });
  });
}

/** Runs the four-stage cases; returns the markdown summary. */
export async function fourStageBench(log: (s: string) => void): Promise<string> {
  const results: Case[] = [];
  for (const p of [64, 256, 1024, 4096]) {
    log(`four-stage: P = ${p} (message) ...`);
    results.push(runCase<Case>("four-stage-case.ts", [String(p), "message", "json"]));
  }
  let largest = 0;
  for (const p of [64, 128, 256, 512]) {
    log(`four-stage: P = ${p} (payload) ...`);
    const r = runCase<Case>("four-stage-case.ts", [String(p), "payload", "json"]);
    results.push(r);
    if (r.peakRssMiB <= BUDGET_MIB) largest = p;
  }
  // bisect the largest payload P that fits, between the largest power of two that fits and 1024
  const probes: Probe[] = [];
  let lo = largest, hi = 1024;
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
    "One stats pass (`matrixStats`) is timed over batches of at least 50 ms (best of 5 batches / batch size).\n\n" +
    mdTable(
      ["P", "level", "transfers", "chunks", "stats pass ms", "plan ms", "verify ms", "(plan+verify) / stats", "JSON write ms", "JSON read ms", "JSON MiB", "peak RSS MiB"],
      results.map((r) => [r.p, r.payload ? "payload" : "message", r.transfers.toLocaleString("en-US"), r.chunks.toLocaleString("en-US"), f(r.statsMs, 3), f(r.planMs), f(r.verifyMs), f(r.planVerifyRatio, 0), f(r.writeMs), f(r.readMs), f(r.jsonMiB), f(r.peakRssMiB, 0)]),
    ) +
    `\nLargest payload-level P whose plan + verify fits ${BUDGET_MIB} MiB peak RSS: **${largest}** (bisected; each probe in its own process, killed when its RSS passed the budget):\n\n` +
    mdTable(
      ["P", "fits", "peak RSS MiB", "seconds", "plan ms", "verify ms", "chunks"],
      probes.map((r) => [r.p, r.fits ? "yes" : "no", (r.killed ? "> " : "") + f(r.peakRssMiB, 0), f(r.seconds, 0), r.planMs === null ? "killed" : f(r.planMs), r.verifyMs === null ? "-" : f(r.verifyMs), r.chunks === null ? "-" : r.chunks.toLocaleString("en-US")]),
    );
  writeResults("four-stage", { machine: machineInfo(), budgetMiB: BUDGET_MIB, largestPayloadP: largest, results, probes }, md);
  return md;
}
