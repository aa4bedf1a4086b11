/** Bench helpers: timing, child-process cases (for per-case peak memory), result files. */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { matrixStats } from "../src/model/matrix-stats.js";
import type { CommMatrix } from "../src/model/matrix.js";

/** Milliseconds taken by f (one run). */
export function timeMs<T>(f: () => T): { ms: number; value: T } {
  const t0 = process.hrtime.bigint();
  const value = f();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

/**
 * Milliseconds of one run of f, stable even when a run takes microseconds: f is repeated until a
 * batch lasts at least `minBatchMs`, and the best of `batches` batches, divided by its size, is
 * returned (the first batch also warms the JIT up).
 */
export function stableMs(f: () => unknown, minBatchMs = 50, batches = 5): number {
  let reps = 1;
  for (;;) {
    const t = timeMs(() => {
      for (let k = 0; k < reps; k++) f();
    }).ms;
    if (t >= minBatchMs || reps >= 1 << 20) break;
    reps = Math.min(1 << 20, Math.max(reps * 2, Math.ceil((reps * minBatchMs * 1.2) / Math.max(t, 1e-3))));
  }
  let best = Infinity;
  for (let b = 0; b < batches; b++)
    best = Math.min(
      best,
      timeMs(() => {
        for (let k = 0; k < reps; k++) f();
      }).ms / reps,
    );
  return best;
}

/** One stats pass over m in milliseconds (the unit of the ratios): best of 5 batches of warm repetitions (stableMs). */
export function statsPassMs(m: CommMatrix): number {
  return stableMs(() => matrixStats(m));
}

/** New typed arrays of the given arrays' types and lengths, every element written: the least work of producing them, nothing computed (the pages fresh or reused, as the allocator hands them out; only large arrays always get fresh ones). Returns the elements written. */
export function fillLike(arrays: readonly ArrayBufferView[]): number {
  let n = 0;
  for (const a of arrays) {
    const like = a as Uint32Array;
    const b = new (like.constructor as new (k: number) => Uint32Array)(like.length);
    b.fill(1);
    n += b.length;
  }
  return n;
}

/**
 * The best time of f after a first (warm-up) run whose result is returned: repeats while fewer than
 * `maxRuns` timed runs were made and the timed runs took under `budgetMs` in total (at least one).
 */
export function bestOfMs<T>(
  f: () => T,
  maxRuns = 5,
  budgetMs = 20000,
): { warmupMs: number; ms: number; runs: number; value: T } {
  const first = timeMs(f);
  let best = Infinity,
    runs = 0,
    spent = 0;
  while (runs < maxRuns && (runs === 0 || spent + best < budgetMs)) {
    const t = timeMs(f).ms;
    best = Math.min(best, t);
    spent += t;
    runs++;
  }
  return { warmupMs: first.ms, ms: best, runs, value: first.value };
}

/**
 * bestOfMs with CPU time beside wall time: after a first (warm-up) run whose result is returned, the least wall time
 * and the least CPU time (user + system of the whole process, process.cpuUsage: the collector's threads count too)
 * over the same timed runs, up to `maxRuns` of them while they took under `budgetMs` in total (at least one).
 */
export function bestOfWallCpu<T>(
  f: () => T,
  maxRuns = 5,
  budgetMs = 20000,
): { warmupMs: number; ms: number; cpuMs: number; runs: number; value: T } {
  const first = timeMs(f);
  let best = Infinity,
    bestCpu = Infinity,
    runs = 0,
    spent = 0;
  while (runs < maxRuns && (runs === 0 || spent + best < budgetMs)) {
    const c0 = process.cpuUsage();
    const t = timeMs(f).ms;
    const c = process.cpuUsage(c0);
    best = Math.min(best, t);
    bestCpu = Math.min(bestCpu, (c.user + c.system) / 1000);
    spent += t;
    runs++;
  }
  return { warmupMs: first.ms, ms: best, cpuMs: bestCpu, runs, value: first.value };
}

/** bestOfMs for an async f (a streamed file read): the same warm-up, runs and budget; the best time. */
export async function bestOfMsAsync(f: () => Promise<unknown>, maxRuns = 5, budgetMs = 20000): Promise<number> {
  const time = async (): Promise<number> => {
    const t0 = process.hrtime.bigint();
    await f();
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  await time();
  let best = Infinity,
    runs = 0,
    spent = 0;
  while (runs < maxRuns && (runs === 0 || spent + best < budgetMs)) {
    const t = await time();
    best = Math.min(best, t);
    spent += t;
    runs++;
  }
  return best;
}

/**
 * Peak resident memory of this process so far, in MiB: VmHWM of /proc/self/status on Linux (it
 * starts afresh at exec), else getrusage's maxRSS, which on Linux a child inherits from the process
 * that forked it (so a child of a large process would report at least the parent's size).
 */
export function peakRssMiB(): number {
  try {
    const m = /^VmHWM:\s*(\d+)\s*kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** Resident memory of this process now, in MiB. */
export function rssMiB(): number {
  return process.memoryUsage.rss() / 2 ** 20;
}

/** Runs `bench/<script>` with args in a fresh Node process (tsx) and parses the JSON it prints last. */
export function runCase<T>(script: string, args: readonly string[], heapMiB = 8192): T {
  const out = execFileSync(
    process.execPath,
    [`--max-old-space-size=${heapMiB}`, "--import", "tsx", join(import.meta.dirname, script), ...args],
    { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "pipe"] },
  );
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
  return (
    [
      `| ${head.join(" | ")} |`,
      `|${head.map(() => "---").join("|")}|`,
      ...rows.map((r) => `| ${r.join(" | ")} |`),
    ].join("\n") + "\n"
  );
}

/** Machine description for result files. */
export function machineInfo(): { node: string; cpus: number; loadavg: number[]; date: string } {
  return { node: process.version, cpus: availableParallelism(), loadavg: loadavg(), date: new Date().toISOString() };
}
