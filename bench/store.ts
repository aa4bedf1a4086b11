/** Plan store bench: loading a stored plan (read, checksum, Arrow decode) against reading the same plan's JSON and planning it anew, and the sizes of both files. */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readScheduleJson } from "../src/io/schedule-json-read.js";
import { writeScheduleJson } from "../src/io/schedule-json-write.js";
import { decodeScheduleArrow, encodeScheduleArrow } from "../src/io/schedule-arrow.js";
import { generatePattern } from "../src/patterns/registry.js";
import { findPlanner } from "../src/planner/registry.js";
import { addPlan, getPlanById, openPlanStore, resolveStoreRequest } from "../src/store/index.js";
import { bestOfMs, machineInfo, mdTable, writeResults } from "./lib.js";

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

async function bestAsyncMs(f: () => Promise<unknown>, runs = 3): Promise<number> {
  await f();
  let best = Infinity;
  for (let k = 0; k < runs; k++) {
    const t0 = process.hrtime.bigint();
    await f();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return best;
}

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
  const jsonReadMs = await bestAsyncMs(() => readScheduleJson(json));
  const freshMsPerMiB = freshMemoryMsPerMiB();
  const storeLoadMs = bestOfMs(() => getPlanById(store, r.id), 5).ms;
  const bytes = encodeScheduleArrow(s);
  const decodeMs = bestOfMs(() => decodeScheduleArrow(bytes), 5).ms;
  const out: Case = {
    ...c,
    transfers: s.transferCount,
    chunks: s.chunks?.origin.length ?? 0,
    planMs: planned.ms,
    jsonReadMs,
    storeLoadMs,
    decodeMs,
    freshMsPerMiB,
    jsonBytes: statSync(json).size,
    storeBytes: statSync(file).size,
  };
  rmSync(json);
  return out;
}

/** The goals, row by row: which rows meet them. */
function goals(results: readonly Case[]): string {
  const name = (r: Case): string =>
    `${r.algorithm}${r.payload ? (r.pattern === undefined ? " payload" : " payload Pattern3") : ""} P = ${r.p}`;
  const json = results.filter((r) => r.jsonReadMs / r.storeLoadMs < 20);
  const slow = results.filter((r) => r.algorithm === "four-stage" || r.algorithm === "coloring");
  const plan = slow.filter((r) => r.planMs / r.storeLoadMs < 100);
  const list = (rs: readonly Case[]): string => (rs.length === 0 ? "" : ` (not: ${rs.map(name).join("; ")})`);
  return (
    `Goals: load >= 20 x faster than the JSON read on ${results.length - json.length} of ${results.length} rows${list(json)}; ` +
    `load >= 100 x faster than planning on ${slow.length - plan.length} of ${slow.length} four-stage and coloring rows${list(plan)}.\n`
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
    "In one process: plan = best of up to 3 warm runs (coloring: 1); JSON read = readScheduleJson of the file (best of 3 after a warm-up); " +
    "store load = getPlanById (read the entry, its 128-bit checksum over the whole file (entry-seal.ts), Arrow decode into the IR's typed arrays, index checks), best of 5; " +
    "decode = decodeScheduleArrow from memory (the checked decode every foreign file gets; the store skips its per-row checks once the checksum matched). Goals: load >= 20 x faster than the JSON read, >= 100 x faster than planning four-stage or coloring. " +
    `Load average at the end of the run: ${load} (the machine's cores are shared; every column is slowed, not evenly). ` +
    "Fresh memory = ms per MiB to fill a new 256 MiB buffer just before the row's loads: a store load reads its file into new memory, so it costs at least this per MiB of store (this machine's figure varies several-fold from hour to hour).\n\n" +
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
      ]),
    ) +
    "\n" +
    goals(results);
  writeResults("store", { machine: machineInfo(), results }, md);
  return md;
}
