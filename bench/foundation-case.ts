/** One foundation bench case in its own process: plan + verify linear permutation, write + read its JSON. */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readScheduleJson } from "../src/export/schedule-json-read.js";
import { writeScheduleJson } from "../src/export/schedule-json-write.js";
import { generatePattern } from "../src/patterns/index.js";
import { plan } from "../src/planner/index.js";
import { verifySchedule } from "../src/verifier/index.js";
import { peakRssMiB, statsPassMs, timeMs } from "./lib.js";

const [pArg, payloadArg, algorithm = "linear-permutation"] = process.argv.slice(2);
const p = Number(pArg);
const payload = payloadArg === "payload";
// 002 Pattern3: every node sends 1..lmax elements to every other node (dense, irregular)
const m = generatePattern("liu-pattern3", p, { lmax: 1024 }, 1);
const stats = statsPassMs(m);
const planned = timeMs(() => plan(m, algorithm, { payload }));
const verified = timeMs(() => verifySchedule(m, planned.value));
if (!verified.value.ok) throw new Error("bench: the plan does not verify");
const dir = mkdtempSync(join(tmpdir(), "commplan-bench-"));
const file = join(dir, "s.json");
const t0 = process.hrtime.bigint();
await writeScheduleJson(planned.value, file);
const t1 = process.hrtime.bigint();
const back = await readScheduleJson(file);
const t2 = process.hrtime.bigint();
const bytes = statSync(file).size;
rmSync(dir, { recursive: true, force: true });
if (back.transferCount !== planned.value.transferCount) throw new Error("bench: read back a different schedule");
console.log(JSON.stringify({
  algorithm, p, payload, transfers: planned.value.transferCount, steps: planned.value.stepCount,
  statsMs: stats, planMs: planned.ms, verifyMs: verified.ms, planVerifyRatio: (planned.ms + verified.ms) / stats,
  writeMs: Number(t1 - t0) / 1e6, readMs: Number(t2 - t1) / 1e6, jsonMiB: bytes / 2 ** 20, peakRssMiB: peakRssMiB(),
}));
