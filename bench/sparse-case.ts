/**
 * One sparse-scale bench step in its own process (so that its peak memory is its own): read a matrix
 * file, then run one step on it and print {readMs, stepMs, peakMiB, ...} as the last line.
 *
 *   sparse-case.ts FILE read|stats|plan|verify|cost|simulate|lower|export [algorithm]
 *
 * verify, cost, simulate, lower and export plan first (untimed: their own bench rows time the plan);
 * export lowers and writes the program JSON next to FILE (its size is printed as outMiB, then the
 * file is removed).
 */
import { readMatrixFile } from "../src/io/matrix-read.js";
import { matrixStats } from "../src/model/matrix-stats.js";
import { findMachine } from "../src/machines/presets.js";
import { scheduleCost } from "../src/machines/cost-model.js";
import { simulateSchedule } from "../src/machines/sim/index.js";
import { plan } from "../src/planner/index.js";
import { verifySchedule } from "../src/verifier/index.js";
import { writeProgramJson } from "../src/io/program-json-write.js";
import { lowerSchedule } from "../src/lower/index.js";
import { peakRssMiB, rssMiB, timeMs } from "./lib.js";
import { rmSync, statSync } from "node:fs";

const [file, step, algorithm = "shift"] = process.argv.slice(2);
if (file === undefined || step === undefined) throw new Error("usage: sparse-case.ts FILE STEP [ALGORITHM]");

const read = timeMs(() => readMatrixFile(file));
const m = read.value;
const afterReadMiB = rssMiB();
let stepMs = 0,
  outMiB = 0,
  transfers = 0,
  steps = 0,
  refused: string | null = null;
try {
  if (step === "stats") stepMs = timeMs(() => matrixStats(m)).ms;
  else if (step !== "read") {
    const planned = timeMs(() => plan(m, algorithm, { payload: false }));
    const s = planned.value;
    transfers = s.transferCount;
    steps = s.stepCount;
    if (step === "plan") stepMs = planned.ms;
    else if (step === "verify") {
      const v = timeMs(() => verifySchedule(m, s));
      if (!v.value.ok) throw new Error(`bench: the ${algorithm} plan does not verify`);
      stepMs = v.ms;
    } else if (step === "plan+verify") {
      const v = timeMs(() => verifySchedule(m, s));
      if (!v.value.ok) throw new Error(`bench: the ${algorithm} plan does not verify`);
      stepMs = planned.ms + v.ms;
    } else if (step === "cost") stepMs = timeMs(() => scheduleCost(s, findMachine("t3d-004"), "blocking")).ms;
    else if (step === "simulate")
      stepMs = timeMs(() => simulateSchedule(s, findMachine("t3d-004"), { timeline: false })).ms;
    else if (step === "lower") stepMs = timeMs(() => lowerSchedule(m, s)).ms;
    else if (step === "export") {
      const out = `${file}.program.json`;
      const t0 = performance.now();
      await writeProgramJson(lowerSchedule(m, s).program, out);
      stepMs = performance.now() - t0;
      outMiB = statSync(out).size / 2 ** 20;
      rmSync(out);
    } else throw new Error(`bench: unknown step ${step}`);
  }
} catch (e) {
  // a planner that refuses up front (super-linear output past the budget) is a result, not a crash
  if (!(e instanceof Error) || !("code" in e)) throw e;
  refused = e.message;
}
console.log(
  JSON.stringify({
    p: m.p,
    entries: m.sparse ? m.sparse.rowStart[m.p] : null,
    readMs: read.ms,
    stepMs,
    transfers,
    steps,
    afterReadMiB,
    peakMiB: peakRssMiB(),
    outMiB,
    refused,
  }),
);
