/** Lowering bench: lowerSchedule's time and program size beside planning, message level, P = 1024 and 4096 (002 Pattern3). */
import { lowerSchedule } from "../src/lower/index.js";
import { generatePattern } from "../src/patterns/registry.js";
import { plan } from "../src/planner/registry.js";
import type { Program } from "../src/model/program.js";
import type { CommMatrix } from "../src/model/matrix.js";
import type { Schedule } from "../src/model/schedule.js";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { bestOfMs, fillLike, machineInfo, mdTable, timeMs, writeResults } from "./lib.js";
import { timedProcess } from "./startup.js";

interface Case {
  p: number;
  algorithm: string;
  variant: "nonblocking" | "blocking";
  transfers: number;
  operations: number;
  pieces: number;
  planMs: number;
  lowerMs: number;
  ratio: number;
  /** New arrays of the program's types and lengths, every element written (the least any lowering to this IR does). */
  fillMs: number;
  /** Another build's lowering of the same plan (COMMPLAN_BENCH_BEFORE), or null. */
  beforeMs: number | null;
  /** CPU time (user + system) of the lowering, the fill and the before build's lowering: the least of the same runs. */
  lowerCpuMs: number | null;
  fillCpuMs: number | null;
  beforeCpuMs: number | null;
  /** When the row was measured, on a row carried over from an earlier run (a size this run left out). */
  measuredAt?: string;
  /** True when the columns were measured interleaved (round-robin); absent on rows of runs that measured each back to back. */
  interleaved?: boolean;
}

/** What a run writes to bench/results/lower.json. */
interface LowerResults {
  machine: ReturnType<typeof machineInfo>;
  results: Case[];
  split: SplitRow | null;
}

/** The results file of the previous run, or null when there is none. */
function previousResults(): LowerResults | null {
  const file = join(import.meta.dirname, "results", "lower.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as LowerResults) : null;
}

/** The UTC minute of an ISO time, for the text. */
const minuteOf = (iso: string): string => iso.slice(0, 16).replace("T", " ") + " UTC";

/**
 * Another build's `bin/commplan.js` (a checkout of an earlier commit, built), whose lowering runs beside this one's on
 * the same plans, in the same process: `COMMPLAN_BENCH_BEFORE=/path/bin/commplan.js npm run bench lower`.
 */
const BEFORE = process.env["COMMPLAN_BENCH_BEFORE"];

/** The lowering of the build BEFORE names (its dist/lower/index.js), or null. */
async function beforeLowering(): Promise<typeof lowerSchedule | null> {
  if (BEFORE === undefined) return null;
  const file = join(dirname(dirname(BEFORE)), "dist", "lower", "index.js");
  return ((await import(file)) as { lowerSchedule: typeof lowerSchedule }).lowerSchedule;
}

/** Every typed array of a program: operations, pieces, layout, rank starts. */
function programArrays(prog: Program): ArrayBufferView[] {
  const { ops, pieces, layout } = prog;
  return [
    prog.rankStart,
    ...Object.values(ops),
    ...Object.values(pieces),
    ...[layout.sendCounts, layout.recvCounts, layout.sendDispls, layout.recvDispls],
    ...[layout.sendSize, layout.recvSize, layout.scratchSize],
  ] as ArrayBufferView[];
}

const ALGORITHMS = ["linear-permutation", "shift", "coloring"] as const;

/** The best wall and CPU time of one column's runs. */
interface Best {
  ms: number;
  cpuMs: number;
}

/**
 * The columns' functions run interleaved: a warm-up round, then `runs` rounds each running every function once in
 * turn (round-robin); the best wall and the least CPU time (user + system) of each over its timed runs. Each column
 * gets the same conditions: the same pages freed and handed out again by the allocator before it, the same garbage
 * collector's state, the same load (a column run best-of-N back to back would reuse its own pages while the next
 * column allocated fresh ones).
 */
function interleaved(fs: readonly (() => unknown)[], runs: number): Best[] {
  const best = fs.map(() => ({ ms: Infinity, cpuMs: Infinity }));
  for (let round = 0; round <= runs; round++)
    fs.forEach((f, i) => {
      const c0 = process.cpuUsage();
      const t = timeMs(f).ms;
      const c = process.cpuUsage(c0);
      if (round === 0) return; // the warm-up round
      best[i]!.ms = Math.min(best[i]!.ms, t);
      best[i]!.cpuMs = Math.min(best[i]!.cpuMs, (c.user + c.system) / 1000);
    });
  return best;
}

/** Timed rounds of the lowering, the fill and the before build at P (after a warm-up round): 7 up to P = 1024, then 3. */
const runsAt = (p: number): number => (p <= 1024 ? 7 : 3);

/**
 * One row: the lowering of a plan in `variant`, the fill of its program's arrays and the before build's lowering, run
 * interleaved (`runs` rounds after a warm-up).
 */
function measureCase(
  m: CommMatrix,
  planned: { ms: number; value: Schedule },
  variant: "nonblocking" | "blocking",
  before: typeof lowerSchedule | null,
  runs: number,
): Case {
  const s = planned.value;
  const prog = lowerSchedule(m, s, { variant }).program; // a warm-up, whose program the fill copies
  const arrays = programArrays(prog);
  const [lowered, fill, old = null] = interleaved(
    [
      () => lowerSchedule(m, s, { variant }),
      () => fillLike(arrays),
      ...(before === null ? [] : [() => before(m, s, { variant })]),
    ],
    runs,
  ) as [Best, Best, Best?];
  return {
    p: m.p,
    algorithm: s.algorithm,
    variant,
    transfers: s.transferCount,
    operations: prog.ops.rank.length,
    pieces: prog.pieces.buffer.length,
    planMs: planned.ms,
    lowerMs: lowered.ms,
    ratio: lowered.ms / planned.ms,
    fillMs: fill.ms,
    beforeMs: old?.ms ?? null,
    lowerCpuMs: lowered.cpuMs,
    fillCpuMs: fill.cpuMs,
    beforeCpuMs: old?.cpuMs ?? null,
    interleaved: true,
  };
}

/** Runs the cases; returns the markdown summary. */
export async function lowerBench(log: (s: string) => void, argv = process.argv.slice(2)): Promise<string> {
  // --p 1024 (the sizes, default 1024,4096) and --no-split (leave out the split export row): a shorter run
  const at = argv.indexOf("--p");
  const sizes = at >= 0 ? argv[at + 1]!.split(",").map(Number) : [1024, 4096];
  const withSplit = !argv.includes("--no-split");
  const before = await beforeLowering();
  const loadBefore = machineInfo().loadavg;
  const results: Case[] = [];
  for (const p of sizes) {
    const m = generatePattern("liu-pattern3", p, { lmax: 256 }, 1);
    for (const algorithm of ALGORITHMS) {
      if (algorithm === "coloring" && p > 1024) continue; // coloring's repair walks make P = 4096 minutes long
      log(`lower: ${algorithm} P = ${p} ...`);
      const planned = bestOfMs(() => plan(m, algorithm), 3);
      for (const variant of ["nonblocking", "blocking"] as const)
        results.push(measureCase(m, planned, variant, before, runsAt(p)));
    }
  }
  const previous = previousResults();
  const carried = carriedRows(previous, sizes);
  results.push(...carried);
  results.sort((a, b) => a.p - b.p); // stable: the algorithms and variants keep their order within a size
  const md =
    "### Lowering: schedule -> per-rank programs (002 Pattern3, lmax 256, message level)\n\n" +
    "Best of 7 warm runs each up to P = 1024 and of 3 above (planning: best of 3), in one process; ratio = lowering / planning of the same plan. The target is lowering <= 2 x planning: " +
    "shift and linear-permutation plan in one loop over P^2 transfers, while the lowering writes two operations and their pieces per transfer, regrouped by rank. " +
    "Program fill = new arrays of the lowered program's types and lengths with every element written, nothing computed: the least any lowering to this IR costs here, so fill / plan is the best ratio it could reach, and lower / fill how far the lowering is from it (the goal: within 2 x). " +
    "The columns are measured interleaved: after a warm-up round, each round runs the lowering, the fill" +
    (before === null ? "" : " and the before build's lowering") +
    " once each in turn (round-robin), and each column is the best of its runs, so that every column gets the same page, garbage-collector and load conditions (pages fresh or reused as the allocator hands them out after the other columns' runs; a column run best-of-N back to back would instead reuse its own pages while the lowering allocates fresh ones)." +
    (before === null
      ? ""
      : ` Before = the lowering of another build (${BEFORE!.replace(/\/bin\/commplan\.js$/, "")}) on the same plans in the same process.`) +
    "\n\n" +
    mdTable(
      [
        "P",
        "algorithm",
        "variant",
        "transfers",
        "operations",
        "pieces",
        "plan ms",
        "lower ms",
        "lower / plan",
        "program fill ms",
        "fill / plan",
        "lower / fill",
        ...(before === null ? [] : ["before lower ms", "before / lower"]),
      ],
      results.map((r) => [
        r.p,
        r.algorithm,
        r.variant,
        ...counts(r.transfers, r.operations, r.pieces),
        ...timing(r),
        r.fillMs.toFixed(0),
        (r.fillMs / r.planMs).toFixed(2),
        (r.lowerMs / r.fillMs).toFixed(2),
        ...(before === null
          ? []
          : r.beforeMs === null
            ? ["", ""]
            : [r.beforeMs.toFixed(0), (r.beforeMs / r.lowerMs).toFixed(2)]),
      ]),
    );
  const carriedNote =
    carried.length === 0
      ? ""
      : `\nThe rows at P = ${[...new Set(carried.map((r) => r.p))].join(", ")} are carried over from an earlier run of ` +
        `this bench (made ${[...new Set(carried.map((r) => minuteOf(r.measuredAt)))].join(", ")}; its own load and ` +
        `before build): this run (\`--p ${sizes.join(",")}\`) left that size out for time.` +
        (carried.some((r) => r.lowerCpuMs === null) ? " That run measured no CPU time." : "") +
        (carried.some((r) => r.interleaved !== true)
          ? " That run measured each column best-of-N back to back, not interleaved (the fill on pages as its own runs" +
            " left them)."
          : "") +
        "\n";
  const split = withSplit ? { ...splitExportRow(log), measuredAt: new Date().toISOString() } : carriedSplit(previous);
  const machine = machineInfo();
  const load = `Load average at the start of the run: ${loadBefore.map((x) => x.toFixed(1)).join(", ")}; at the end: ${machine.loadavg.map((x) => x.toFixed(1)).join(", ")} (${machine.cpus} cores, shared).\n`;
  const all =
    md +
    carriedNote +
    cpuMarkdown(results, before !== null) +
    "\n" +
    load +
    (split === null ? "" : "\n" + splitExportMarkdown(split, withSplit ? null : (split.measuredAt ?? null)));
  const json: LowerResults = { machine, results, split };
  writeResults("lower", json, all);
  return all;
}

/** The CPU-time table of the rows that have CPU times (rows carried over from an older run may not). */
function cpuMarkdown(results: readonly Case[], withBefore: boolean): string {
  const cpuRows = results.filter((r) => r.lowerCpuMs !== null && r.fillCpuMs !== null);
  return cpuRows.length === 0
    ? ""
    : "\nCPU time (user + system of the process, `process.cpuUsage`), the least over the same timed runs as the wall " +
        "times above (it leaves out the waiting for a core that wall time includes at a high load):\n\n" +
        mdTable(
          [
            "P",
            "algorithm",
            "variant",
            "lower CPU ms",
            "program fill CPU ms",
            "lower / fill (CPU)",
            ...(withBefore ? ["before lower CPU ms", "before / lower (CPU)"] : []),
          ],
          cpuRows.map((r) => [
            r.p,
            r.algorithm,
            r.variant,
            r.lowerCpuMs!.toFixed(0),
            r.fillCpuMs!.toFixed(0),
            (r.lowerCpuMs! / r.fillCpuMs!).toFixed(2),
            ...(!withBefore
              ? []
              : r.beforeCpuMs === null
                ? ["", ""]
                : [r.beforeCpuMs.toFixed(0), (r.beforeCpuMs / r.lowerCpuMs!).toFixed(2)]),
          ]),
        );
}

/** The previous run's rows at the sizes this run left out, each with the time it was measured. */
function carriedRows(previous: LowerResults | null, sizes: readonly number[]): (Case & { measuredAt: string })[] {
  return (previous?.results ?? [])
    .filter((r) => !sizes.includes(r.p))
    .map((r) => ({
      ...r,
      lowerCpuMs: r.lowerCpuMs ?? null,
      fillCpuMs: r.fillCpuMs ?? null,
      beforeCpuMs: r.beforeCpuMs ?? null,
      measuredAt: r.measuredAt ?? previous!.machine.date,
    }));
}

/** The previous run's split export row, kept by a run with --no-split (with the time it was measured), or null. */
function carriedSplit(previous: LowerResults | null): SplitRow | null {
  const s = previous?.split;
  return s === null || s === undefined ? null : { ...s, measuredAt: s.measuredAt ?? previous!.machine.date };
}

/** The P of the split export row: the 131,072-rank halo (a 64 x 64 x 32 process grid, 6 neighbours). */
const SPLIT_P = 131072;
/** The planner of the split export row. */
const SPLIT_ALGORITHM = "coloring";

interface SplitRow {
  /** When the row was measured (a run with --no-split keeps the previous run's row). */
  measuredAt?: string;
  p: number;
  algorithm: string;
  files: number;
  planWallMs: number;
  planCpuMs: number;
  exportWallMs: number;
  exportCpuMs: number;
}

/**
 * `commplan export --split` of the halo at SPLIT_P as whole processes (dist/): gen, plan, then export one file per
 * rank into a new directory; wall and CPU time of plan and export (one run each: the export writes 131,073 files).
 */
function splitExportRow(log: (s: string) => void): SplitRow {
  const dir = mkdtempSync(join(tmpdir(), "commplan-split-bench-"));
  const bin = join(import.meta.dirname, "..", "bin", "commplan.js");
  try {
    log(`lower: export --split of the halo at P = ${SPLIT_P} ...`);
    execFileSync(process.execPath, [bin, "gen", "halo", "--p", String(SPLIT_P), "-o", "m.json"], {
      cwd: dir,
      stdio: "ignore",
    });
    const planned = timedProcess([process.execPath, bin, "plan", "m.json", "-a", SPLIT_ALGORITHM, "-o", "s.json"], dir);
    const argv = [process.execPath, bin, "export", "s.json", "--matrix", "m.json", "-f", "program", "--split", "out"];
    const exported = timedProcess(argv, dir);
    return {
      p: SPLIT_P,
      algorithm: SPLIT_ALGORITHM,
      files: readdirSync(join(dir, "out")).length,
      planWallMs: planned.wallMs,
      planCpuMs: planned.cpuMs,
      exportWallMs: exported.wallMs,
      exportCpuMs: exported.cpuMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The split export row as markdown: times, ratios to planning, the cost per rank file; `carriedFrom` is the time an
 * earlier run measured it (this run had --no-split), or null.
 */
function splitExportMarkdown(r: SplitRow, carriedFrom: string | null): string {
  const s = (ms: number): string => (ms / 1000).toFixed(1);
  return (
    `#### export --split: one program file per rank (halo, P = ${r.p.toLocaleString("en-US")}, ${r.algorithm})\n\n` +
    (carriedFrom === null
      ? ""
      : `Carried over from an earlier run of this bench (made ${minuteOf(carriedFrom)}, its own load and build): this ` +
        "run (`--no-split`) left the split export out for time.\n\n") +
    "Whole processes (`commplan plan`, then `commplan export --format program --split DIR` into a new directory), one run each; CPU = user + system time (bash's `times`). The export reads the schedule and the matrix, lowers, and writes one file per rank and an index. Goal: export <= 10 x planning.\n\n" +
    mdTable(
      [
        "P",
        "files",
        "plan wall s",
        "plan CPU s",
        "export wall s",
        "export CPU s",
        "export / plan (wall)",
        "export / plan (CPU)",
        "export CPU us / file",
      ],
      [
        [
          r.p.toLocaleString("en-US"),
          r.files.toLocaleString("en-US"),
          s(r.planWallMs),
          s(r.planCpuMs),
          s(r.exportWallMs),
          s(r.exportCpuMs),
          (r.exportWallMs / r.planWallMs).toFixed(1),
          (r.exportCpuMs / r.planCpuMs).toFixed(1),
          ((r.exportCpuMs * 1000) / r.files).toFixed(0),
        ],
      ],
    )
  );
}

/** Counts as table cells (thousands separated). */
function counts(...n: number[]): string[] {
  return n.map((x) => x.toLocaleString("en-US"));
}

/** The plan time, lowering time and their ratio as table cells. */
function timing(r: { planMs: number; lowerMs: number; ratio: number }): string[] {
  return [r.planMs.toFixed(0), r.lowerMs.toFixed(0), r.ratio.toFixed(2)];
}

/** Payload lowering bench (its own results file, lower-payload): the relaying planners' payload plans at P = 128 and 256. */
export function lowerPayloadBench(log: (s: string) => void): string {
  const payload = payloadCases(log);
  const md =
    "### Lowering payload plans (002 Pattern3, lmax 128, nonblocking)\n\n" +
    "The lowering follows every element range of the plan (segments per message) and allocates the relays' scratch. " +
    "One cold run each (plan, then lower), in one process.\n\n" +
    mdTable(
      ["P", "algorithm", "transfers", "chunks", "operations", "plan ms", "lower ms", "lower / plan"],
      payload.map((r) => [r.p, r.algorithm, ...counts(r.transfers, r.chunks, r.operations), ...timing(r)]),
    );
  writeResults("lower-payload", { machine: machineInfo(), payload }, md);
  return md;
}

interface PayloadCase {
  p: number;
  algorithm: string;
  transfers: number;
  chunks: number;
  operations: number;
  planMs: number;
  lowerMs: number;
  ratio: number;
}

/** Payload plans of the relaying planners at P = 128 and 256: plan once, lower once (seconds each at P = 256). */
function payloadCases(log: (s: string) => void): PayloadCase[] {
  const out: PayloadCase[] = [];
  for (const p of [128, 256]) {
    const m = generatePattern("liu-pattern3", p, { lmax: 128 }, 1);
    for (const algorithm of ["two-stage", "four-stage", "mesh-two-stage"]) {
      log(`lower: ${algorithm} payload P = ${p} ...`);
      const planned = timeMs(() => plan(m, algorithm, { payload: true }));
      const lowered = timeMs(() => lowerSchedule(m, planned.value));
      out.push({
        p,
        algorithm,
        transfers: planned.value.transferCount,
        chunks: planned.value.chunks?.count.length ?? 0,
        operations: lowered.value.program.ops.rank.length,
        planMs: planned.ms,
        lowerMs: lowered.ms,
        ratio: lowered.ms / planned.ms,
      });
    }
  }
  return out;
}
