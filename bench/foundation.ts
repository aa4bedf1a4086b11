/** Foundation bench (issue 2): plan + verify time and peak memory of linear permutation, as ratios to one stats pass. */
import { machineInfo, mdTable, runCase, writeResults } from "./lib.js";

interface Case { algorithm: string; p: number; payload: boolean; transfers: number; steps: number; statsMs: number; planMs: number; verifyMs: number; planVerifyRatio: number; writeMs: number; readMs: number; jsonMiB: number; peakRssMiB: number }

/** Runs the foundation cases; returns the markdown summary. */
export function foundationBench(log: (s: string) => void): string {
  const cases: [number, string][] = [[256, "message"], [1024, "message"], [4096, "message"], [256, "payload"]];
  const results: Case[] = [];
  for (const [p, level] of cases) {
    log(`foundation: linear-permutation P = ${p} (${level}) ...`);
    results.push(runCase<Case>("foundation-case.ts", [String(p), level]));
  }
  const f = (x: number, d = 1): string => x.toFixed(d);
  const md =
    "### Foundation: linear permutation, plan + verify (002 Pattern3, dense, lmax 1024)\n\n" +
    mdTable(
      ["P", "level", "transfers", "stats pass ms", "plan ms", "verify ms", "(plan+verify) / stats", "JSON write ms", "JSON read ms", "JSON MiB", "peak RSS MiB"],
      results.map((r) => [r.p, r.payload ? "payload" : "message", r.transfers.toLocaleString("en-US"), f(r.statsMs, 2), f(r.planMs), f(r.verifyMs), f(r.planVerifyRatio), f(r.writeMs), f(r.readMs), f(r.jsonMiB), f(r.peakRssMiB, 0)]),
    );
  writeResults("foundation", { machine: machineInfo(), results }, md);
  return md;
}
