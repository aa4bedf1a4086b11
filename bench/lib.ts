/** Bench helpers: timing, child-process cases (for per-case peak memory), result files. */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { matrixStats } from "../src/model/matrix-stats.js";
import type { CommMatrix } from "../src/model/matrix.js";

/** Milliseconds taken by f (one run). */
export function timeMs<T>(f: () => T): { ms: number; value: T } {
  const t0 = process.hrtime.bigint();
  const value = f();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

/** The best of `runs` timings of one stats pass over m (the unit of the ratios). */
export function statsPassMs(m: CommMatrix, runs = 3): number {
  let best = Infinity;
  for (let k = 0; k < runs; k++) best = Math.min(best, timeMs(() => matrixStats(m)).ms);
  return best;
}

/** Peak resident memory of this process so far, in MiB. */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** Runs `bench/<script>` with args in a fresh Node process (tsx) and parses the JSON it prints last. */
export function runCase<T>(script: string, args: readonly string[], heapMiB = 8192): T {
  const out = execFileSync(process.execPath, [`--max-old-space-size=${heapMiB}`, "--import", "tsx", join(import.meta.dirname, script), ...args], { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "pipe"] });
  const last = out.trim().split("\n").pop()!;
  return JSON.parse(last) as T;
}

/** Writes bench/results/<name>.json and .md. */
export function writeResults(name: string, json: unknown, markdown: string): void {
  const dir = join(import.meta.dirname, "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(json, null, 2) + "\n");
  writeFileSync(join(dir, `${name}.md`), markdown);
}

/** A markdown table. */
export function mdTable(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n") + "\n";
}

/** Machine description for result files. */
export function machineInfo(): { node: string; cpus: number; date: string } {
  return { node: process.version, cpus: (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 0, date: new Date().toISOString() };
}
