/** Lowering bench: lowerSchedule's time and program size beside planning, message level, P = 1024 and 4096 (002 Pattern3). */
import { lowerSchedule } from "../src/lower/index.js";
import { generatePattern } from "../src/patterns/registry.js";
import { plan } from "../src/planner/registry.js";
import type { Program } from "../src/model/program.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
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
  /** Best of 3: new arrays of the program's types and lengths, every element written (the least any lowering to this IR does). */
  fillMs: number;
  /** Best of 3: another build's lowering of the same plan (COMMPLAN_BENCH_BEFORE), or null. */
  beforeMs: number | null;
}

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
      for (const variant of ["nonblocking", "blocking"] as const) {
        const lowered = bestOfMs(() => lowerSchedule(m, planned.value, { variant }), 3);
        const prog = lowered.value.program;
        const fillMs = bestOfMs(() => fillLike(programArrays(prog)), 3).ms;
        const beforeMs = before === null ? null : bestOfMs(() => before(m, planned.value, { variant }), 3).ms;
        results.push({
          p,
          algorithm,
          variant,
          transfers: planned.value.transferCount,
          operations: prog.ops.rank.length,
          pieces: prog.pieces.buffer.length,
          planMs: planned.ms,
          lowerMs: lowered.ms,
          ratio: lowered.ms / planned.ms,
          fillMs,
          beforeMs,
        });
      }
    }
  }
  const md =
    "### Lowering: schedule -> per-rank programs (002 Pattern3, lmax 256, message level)\n\n" +
    "Best of up to 3 warm runs each, in one process; ratio = lowering / planning of the same plan. The target is lowering <= 2 x planning: " +
    "shift and linear-permutation plan in one loop over P^2 transfers, while the lowering writes two operations and their pieces per transfer, regrouped by rank. " +
    "Program fill = new arrays of the lowered program's types and lengths with every element written, nothing computed (best of 3; pages fresh or reused as the allocator hands them out, as for the lowering): the least any lowering to this IR costs here, so fill / plan is the best ratio it could reach, and lower / fill how far the lowering is from it (the goal: within 2 x)." +
    (before === null
      ? ""
      : ` Before = the lowering of another build (${BEFORE!.replace(/\/bin\/commplan\.js$/, "")}) on the same plans in the same process, best of 3 as well, run right after this build's of the same case.`) +
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
        ...(r.beforeMs === null ? [] : [r.beforeMs.toFixed(0), (r.beforeMs / r.lowerMs).toFixed(2)]),
      ]),
    );
  const split = withSplit ? splitExportRow(log) : null;
  const machine = machineInfo();
  const load = `Load average at the start of the run: ${loadBefore.map((x) => x.toFixed(1)).join(", ")}; at the end: ${machine.loadavg.map((x) => x.toFixed(1)).join(", ")} (${machine.cpus} cores, shared).\n`;
  const all = md + "\n" + load + (split === null ? "" : "\n" + splitExportMarkdown(split));
  writeResults("lower", { machine, results, split }, all);
  return all;
}

/** The P of the split export row: the 131,072-rank halo (a 64 x 64 x 32 process grid, 6 neighbours). */
const SPLIT_P = 131072;
/** The planner of the split export row. */
const SPLIT_ALGORITHM = "coloring";

interface SplitRow {
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

/** The split export row as markdown: times, ratios to planning, the cost per rank file. */
function splitExportMarkdown(r: SplitRow): string {
  const s = (ms: number): string => (ms / 1000).toFixed(1);
  return (
    `#### export --split: one program file per rank (halo, P = ${r.p.toLocaleString("en-US")}, ${r.algorithm})\n\n` +
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
