/** Plan store bench: loading a stored plan (read, checksum, Arrow decode) against reading the same plan's JSON and planning it anew, and the sizes of both files. */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readScheduleJson } from "../src/io/schedule-json-read.js";
import { writeScheduleJson } from "../src/io/schedule-json-write.js";
import { decodeScheduleArrow, encodeScheduleArrow } from "../src/io/schedule-arrow.js";
import { generatePattern } from "../src/patterns/registry.js";
import { findPlanner } from "../src/planner/registry.js";
import type { Schedule } from "../src/model/schedule.js";
import { sealProblem } from "../src/store/entry-seal.js";
import { addPlan, getPlanById, openPlanStore, resolveStoreRequest } from "../src/store/index.js";
import { bestOfMs, bestOfMsAsync, fillLike, machineInfo, mdTable, writeResults } from "./lib.js";

interface Case {
  p: number;
  algorithm: string;
  payload: boolean;
  pattern?: "pattern3";
  transfers: number;
  chunks: number;
  planMs: number;
  jsonReadMs: number;
  storeLoadMs: number;
  decodeMs: number;
  /** freshMemoryMsPerMiB() just before the store loads: what reading into new memory cost then. */
  freshMsPerMiB: number;
  /** Bytes of the loaded schedule's typed arrays (what any load must produce). */
  irBytes: number;
  /** Timed like the loads: new typed arrays of the loaded schedule's types and lengths, every element written (the least any load does). */
  irFillMs: number;
  /** Timed like the loads: read the entry file and check its checksum (the least a load of this format that checks what it serves does). */
  readCheckMs: number;
  jsonBytes: number;
  storeBytes: number;
}

/** Message-level rows plan 002 Pattern3 (lmax 256); payload rows an h-relation (h = 32: a dense pattern passes two-stage's chunk limit at P = 256), and four-stage also Pattern3. */
const CASES: readonly { p: number; algorithm: string; payload: boolean; pattern?: "pattern3" }[] = [
  { p: 1024, algorithm: "shift", payload: false },
  { p: 1024, algorithm: "linear-permutation", payload: false },
  { p: 1024, algorithm: "coloring", payload: false },
  { p: 1024, algorithm: "four-stage", payload: false },
  { p: 4096, algorithm: "shift", payload: false },
  { p: 4096, algorithm: "linear-permutation", payload: false },
  { p: 4096, algorithm: "coloring", payload: false },
  { p: 4096, algorithm: "four-stage", payload: false },
  { p: 256, algorithm: "four-stage", payload: true },
  { p: 256, algorithm: "two-stage", payload: true },
  { p: 256, algorithm: "four-stage", payload: true, pattern: "pattern3" },
];

/** Slow planners run once (coloring at P = 4096 takes tens of seconds), the others best of 3. */
const planRuns = (c: (typeof CASES)[number]): number =>
  c.algorithm === "coloring" || (c.algorithm === "four-stage" && (c.p >= 4096 || c.pattern !== undefined)) ? 1 : 3;

/** Milliseconds per MiB of memory touched for the first time (a fresh 256 MiB buffer filled), the cost that bounds reading a file into new memory. */
function freshMemoryMsPerMiB(): number {
  const t0 = process.hrtime.bigint();
  Buffer.alloc(256 * 2 ** 20, 1);
  return Number(process.hrtime.bigint() - t0) / 1e6 / 256;
}

/** The schedule's typed arrays (transfer, step, stall and chunk columns). */
function irArrays(s: Schedule): ArrayBufferView[] {
  const c = s.chunks;
  return [
    s.stepStart,
    s.stallStart,
    s.stallNode,
    s.src,
    s.dst,
    s.size,
    ...(c === null ? [] : [c.start, c.origin, c.dest, c.offset, c.count]),
  ];
}

/**
 * Every read, load and floor is timed alike: a warm-up, then the best of up to RUNS runs while
 * they take under BUDGET_MS (sub-millisecond loads get many runs, the P = 4096 ones a few).
 */
const RUNS = 200,
  BUDGET_MS = 10000;

async function oneCase(dir: string, c: (typeof CASES)[number]): Promise<Case> {
  const m =
    c.payload && c.pattern === undefined
      ? generatePattern("h-relation", c.p, { h: 32 }, 1)
      : generatePattern("liu-pattern3", c.p, { lmax: 256 }, 1);
  const r = resolveStoreRequest(m, c.algorithm, { payload: c.payload });
  const planner = findPlanner(c.algorithm);
  const planned = bestOfMs(() => planner.plan(m, r.options), planRuns(c));
  const s = planned.value;
  const store = openPlanStore(join(dir, "store"), true);
  const { file } = addPlan(store, r.key, s);
  const json = join(dir, `${c.algorithm}-${c.p}.json`);
  await writeScheduleJson(s, json);
  const jsonReadMs = await bestOfMsAsync(() => readScheduleJson(json), RUNS, BUDGET_MS);
  const freshMsPerMiB = freshMemoryMsPerMiB();
  const loaded = bestOfMs(() => getPlanById(store, r.id), RUNS, BUDGET_MS);
  const ir = irArrays(loaded.value!);
  const irFillMs = bestOfMs(() => fillLike(ir), RUNS, BUDGET_MS).ms;
  const readCheckMs = bestOfMs(() => sealProblem(readFileSync(file)), RUNS, BUDGET_MS).ms;
  const bytes = encodeScheduleArrow(s);
  const decodeMs = bestOfMs(() => decodeScheduleArrow(bytes), RUNS, BUDGET_MS).ms;
  const out: Case = {
    ...c,
    transfers: s.transferCount,
    chunks: s.chunks?.origin.length ?? 0,
    planMs: planned.ms,
    jsonReadMs,
    storeLoadMs: loaded.ms,
    decodeMs,
    freshMsPerMiB,
    irBytes: ir.reduce((t, a) => t + a.byteLength, 0),
    irFillMs,
    readCheckMs,
    jsonBytes: statSync(json).size,
    storeBytes: statSync(file).size,
  };
  rmSync(json);
  return out;
}

/** The least a load of this row costs here: producing the IR, and reading and checking the entry (the larger). */
const floorMs = (r: Case): number => Math.max(r.irFillMs, r.readCheckMs);

/** The goals, row by row: which rows meet them, and which no load could meet on this machine. */
function goals(results: readonly Case[]): string {
  const name = (r: Case): string =>
    `${r.algorithm}${r.payload ? (r.pattern === undefined ? " payload" : " payload Pattern3") : ""} P = ${r.p}`;
  const json = results.filter((r) => r.jsonReadMs / r.storeLoadMs < 20);
  const slow = results.filter((r) => r.algorithm === "four-stage" || r.algorithm === "coloring");
  const plan = slow.filter((r) => r.planMs / r.storeLoadMs < 100);
  const list = (rs: readonly Case[]): string => (rs.length === 0 ? "" : ` (not: ${rs.map(name).join("; ")})`);
  const beyond = (rs: readonly Case[], num: (r: Case) => number, goal: number, what: string): string => {
    const out = rs.filter((r) => num(r) / floorMs(r) < goal);
    return `${out.length} of these ${rs.length} are out of reach here (goal x floor > their ${what} time)${out.length === 0 ? "" : `: ${out.map(name).join("; ")}`}`;
  };
  return (
    `Goals: load >= 20 x faster than the JSON read on ${results.length - json.length} of ${results.length} rows${list(json)}; ` +
    `load >= 100 x faster than planning on ${slow.length - plan.length} of ${slow.length} four-stage and coloring rows${list(plan)}.\n\n` +
    `Floors (floor = max(IR fill, read + check)): of the rows short of the JSON goal, ${beyond(json, (r) => r.jsonReadMs, 20, "JSON read")}; ` +
    `of the rows short of the planning goal, ${beyond(plan, (r) => r.planMs, 100, "planning")}.\n`
  );
}

/** Runs the cases; returns the markdown summary. */
export async function storeBench(log: (s: string) => void): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "commplan-bench-store-"));
  const results: Case[] = [];
  try {
    for (const c of CASES) {
      log(`store: ${c.algorithm} P = ${c.p}${c.payload ? " payload" : ""} ...`);
      const r = await oneCase(dir, c);
      log(
        `store:   plan ${r.planMs.toFixed(0)} ms, JSON read ${r.jsonReadMs.toFixed(0)} ms, store load ${r.storeLoadMs.toFixed(1)} ms`,
      );
      results.push(r);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const x = (a: number, b: number): string => (a / b >= 100 ? (a / b).toFixed(0) : (a / b).toFixed(1));
  const mb = (b: number): string => (b / 2 ** 20).toFixed(1);
  const load = machineInfo()
    .loadavg.map((l) => l.toFixed(1))
    .join(", ");
  const md =
    "### Plan store: load a stored plan vs read its JSON vs plan it (message level: 002 Pattern3, lmax 256; payload: a 32-relation, and four-stage on Pattern3 too)\n\n" +
    "In one process: plan = best of up to 3 warm runs (coloring: 1); every other column is the best of up to 200 runs after a warm-up, while they take under 10 s (a sub-millisecond load gets 200, a P = 4096 JSON read 1 or 2: with a best of 30 the two small payload loads recorded 0.66 and 0.52 ms, still paying fresh pages and JIT warm-up): JSON read = readScheduleJson of the file; " +
    "store load = getPlanById (read the entry, its 128-bit checksum over the whole file (entry-seal.ts), Arrow decode into the IR's typed arrays, index checks); " +
    "decode = decodeScheduleArrow from memory (the checked decode every foreign file gets; the store skips its per-row checks once the checksum matched). Goals: load >= 20 x faster than the JSON read, >= 100 x faster than planning four-stage or coloring. " +
    `Load average at the end of the run: ${load} (the machine's cores are shared; every column is slowed, not evenly). ` +
    "Fresh memory = ms per MiB to fill a new 256 MiB buffer just before the row's loads: a store load that gets fresh pages for its file costs at least this per MiB of store, though small entries and repeated loads in one process often get pages it touched before (this machine's figure varies several-fold from hour to hour). " +
    "The floors, measured beside the loads: IR fill = new typed arrays of the loaded plan's types and lengths with every element written, timed like the loads (pages fresh or reused as the allocator hands them out), what any load must at least produce, in any format; " +
    "read + check = read the entry file and check its checksum, what a load of this format that checks what it serves must at least do (at message level the file also holds the stage and step columns that readers outside commplan need: 19 bytes a row for the IR's 16). " +
    "JSON / floor and plan / floor are the most any load could reach here.\n\n" +
    mdTable(
      [
        "P",
        "algorithm",
        "transfers",
        "chunks",
        "plan ms",
        "JSON read ms",
        "store load ms",
        "decode ms",
        "JSON / load",
        "plan / load",
        "JSON MiB",
        "store MiB",
        "fresh memory ms/MiB",
        "IR MiB",
        "IR fill ms",
        "read + check ms",
        "JSON / floor",
        "plan / floor",
      ],
      results.map((r) => [
        r.p,
        r.algorithm + (r.payload ? ` (payload${r.pattern === undefined ? "" : ", Pattern3"})` : ""),
        r.transfers.toLocaleString("en-US"),
        r.chunks.toLocaleString("en-US"),
        r.planMs.toFixed(1),
        r.jsonReadMs.toFixed(1),
        r.storeLoadMs.toFixed(2),
        r.decodeMs.toFixed(2),
        x(r.jsonReadMs, r.storeLoadMs),
        x(r.planMs, r.storeLoadMs),
        mb(r.jsonBytes),
        mb(r.storeBytes),
        r.freshMsPerMiB.toFixed(2),
        mb(r.irBytes),
        r.irFillMs.toFixed(2),
        r.readCheckMs.toFixed(2),
        x(r.jsonReadMs, floorMs(r)),
        x(r.planMs, floorMs(r)),
      ]),
    ) +
    "\n" +
    goals(results);
  writeResults("store", { machine: machineInfo(), results }, md);
  return md;
}
