/**
 * One four-stage bench case in its own process (so its peak RSS is its own): plan + verify on 002
 * Pattern3, optionally the JSON round trip. Args: P, "message" | "payload", "json" | "nojson".
 * Prints one JSON line.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readScheduleJson } from "../src/io/schedule-json-read.js";
import { writeScheduleJson } from "../src/io/schedule-json-write.js";
import { matrixStats } from "../src/model/matrix-stats.js";
import type { CommMatrix } from "../src/model/matrix.js";
import { generatePattern } from "../src/patterns/index.js";
import { plan } from "../src/planner/index.js";
import { verifySchedule } from "../src/verifier/index.js";
import { peakRssMiB, timeMs } from "./lib.js";

/**
 * One stats pass, timed stably: batches of passes until a batch takes >= 50 ms, then the best of
 * 5 such batches divided by the batch size (a single pass of a small matrix is under 1 ms and
 * its timing is noise).
 */
function stableStatsMs(m: CommMatrix): { ms: number; reps: number } {
  let reps = 1;
  while (
    timeMs(() => {
      for (let k = 0; k < reps; k++) matrixStats(m);
    }).ms < 50
  )
    reps *= 2;
  let best = Infinity;
  for (let b = 0; b < 5; b++)
    best = Math.min(
      best,
      timeMs(() => {
        for (let k = 0; k < reps; k++) matrixStats(m);
      }).ms,
    );
  return { ms: best / reps, reps: 5 * reps };
}

const [pArg, level, json = "json"] = process.argv.slice(2);
const p = Number(pArg);
const payload = level === "payload";
const m = generatePattern("liu-pattern3", p, { lmax: 1024 }, 1);
const stats = stableStatsMs(m);
const planned = timeMs(() => plan(m, "four-stage", { payload }));
const verified = timeMs(() => verifySchedule(m, planned.value));
if (!verified.value.ok) throw new Error("bench: the plan does not verify");
// the peak of plan + verify, before the JSON round trip adds its own
const planVerifyPeak = peakRssMiB();
let writeMs = 0,
  readMs = 0,
  jsonMiB = 0;
if (json === "json") {
  const dir = mkdtempSync(join(tmpdir(), "commplan-bench-"));
  const file = join(dir, "s.json");
  writeMs = (await timeAsync(() => writeScheduleJson(planned.value, file))).ms;
  const back = await timeAsync(() => readScheduleJson(file));
  readMs = back.ms;
  jsonMiB = statSync(file).size / 2 ** 20;
  rmSync(dir, { recursive: true, force: true });
  if (back.value.transferCount !== planned.value.transferCount)
    throw new Error("bench: read back a different schedule");
}
console.log(
  JSON.stringify({
    algorithm: "four-stage",
    p,
    payload,
    transfers: planned.value.transferCount,
    chunks: planned.value.chunks?.origin.length ?? 0,
    steps: planned.value.stepCount,
    statsMs: stats.ms,
    statsReps: stats.reps,
    planMs: planned.ms,
    verifyMs: verified.ms,
    planVerifyRatio: (planned.ms + verified.ms) / stats.ms,
    writeMs,
    readMs,
    jsonMiB,
    peakRssMiB: planVerifyPeak,
    peakWithJsonMiB: peakRssMiB(),
  }),
);

async function timeAsync<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = process.hrtime.bigint();
  const value = await f();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}
