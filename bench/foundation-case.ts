/**
 * One foundation bench case in its own process: plan + verify an algorithm on 002 Pattern3, write +
 * read its JSON, then time plan and verify warm (best of k). With `--memory`, two more fresh
 * processes read the matrix from a file (streamed, so the generator's own memory is not counted)
 * and measure the peak memory of a stats pass alone, and of a stats pass then plan + verify.
 *
 *   foundation-case.ts P message|payload [algorithm] [--memory]
 *   foundation-case.ts P message|payload algorithm --phase=plan-verify|stats --matrix=FILE   (the memory processes)
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readScheduleJson } from "../src/io/schedule-json-read.js";
import { writeScheduleJson } from "../src/io/schedule-json-write.js";
import { matrixStats } from "../src/model/matrix-stats.js";
import { generatePattern } from "../src/patterns/index.js";
import { readMatrixFile } from "../src/io/matrix-read.js";
import { writeMatrixFile } from "../src/io/matrix-write.js";
import { plan } from "../src/planner/index.js";
import { verifySchedule } from "../src/verifier/index.js";
import { bestOfMs, peakRssMiB, rssMiB, runCase, statsPassMs, timeMs } from "./lib.js";

const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith("--"));
const [pArg, payloadArg, algorithm = "linear-permutation"] = args.filter((a) => !a.startsWith("--"));
const p = Number(pArg);
const payload = payloadArg === "payload";
const flag = (name: string): string | undefined =>
  flags.find((f) => f.startsWith(`--${name}=`))?.slice(name.length + 3);
const phase = flag("phase");
const matrixFile = flag("matrix");

if (phase !== undefined && matrixFile !== undefined) {
  // A memory process: the same matrix file and stats pass in both, plan + verify only in one.
  const m = readMatrixFile(matrixFile);
  matrixStats(m);
  const beforeMiB = rssMiB();
  if (phase === "plan-verify") {
    const s = plan(m, algorithm, { payload });
    if (!verifySchedule(m, s).ok) throw new Error("bench: the plan does not verify");
  }
  console.log(JSON.stringify({ beforeMiB, peakMiB: peakRssMiB() }));
} else {
  // 002 Pattern3: every node sends 1..lmax elements to every other node (dense, irregular)
  const m = generatePattern("liu-pattern3", p, { lmax: 1024 }, 1);
  const coldPlan = timeMs(() => plan(m, algorithm, { payload }));
  const cold = { plan: coldPlan, verify: timeMs(() => verifySchedule(m, coldPlan.value)) };
  const planned = cold.plan.value;
  if (!cold.verify.value.ok) throw new Error("bench: the plan does not verify");
  const dir = mkdtempSync(join(tmpdir(), "commplan-bench-"));
  const file = join(dir, "s.json");
  const t0 = process.hrtime.bigint();
  await writeScheduleJson(planned, file);
  const t1 = process.hrtime.bigint();
  const back = await readScheduleJson(file);
  const t2 = process.hrtime.bigint();
  const bytes = statSync(file).size;
  if (back.transferCount !== planned.transferCount) throw new Error("bench: read back a different schedule");
  // peak of this process so far: plan + verify + write + read-back, as the four-stage bench budgets it
  const peakRss = peakRssMiB();
  // warm timings: the cold runs above warmed the JIT up; best of up to 5 more within 20 s each
  const statsMs = statsPassMs(m);
  const warmPlan = bestOfMs(() => plan(m, algorithm, { payload }));
  const warmVerify = bestOfMs(() => verifySchedule(m, planned));
  let memory: {
    planVerify: { beforeMiB: number; peakMiB: number };
    stats: { beforeMiB: number; peakMiB: number };
  } | null = null;
  if (flags.includes("--memory")) {
    const mf = join(dir, "m.json");
    await writeMatrixFile(m, mf);
    const child = (ph: string): { beforeMiB: number; peakMiB: number } =>
      runCase("foundation-case.ts", [String(p), payloadArg ?? "message", algorithm, `--phase=${ph}`, `--matrix=${mf}`]);
    memory = { stats: child("stats"), planVerify: child("plan-verify") };
  }
  rmSync(dir, { recursive: true, force: true });
  const matrixMiB = (p * p * 8) / 2 ** 20;
  console.log(
    JSON.stringify({
      algorithm,
      p,
      payload,
      transfers: planned.transferCount,
      steps: planned.stepCount,
      statsMs,
      planMs: warmPlan.ms,
      verifyMs: warmVerify.ms,
      planVerifyRatio: (warmPlan.ms + warmVerify.ms) / statsMs,
      planRuns: warmPlan.runs,
      verifyRuns: warmVerify.runs,
      coldPlanMs: cold.plan.ms,
      coldVerifyMs: cold.verify.ms,
      writeMs: Number(t1 - t0) / 1e6,
      readMs: Number(t2 - t1) / 1e6,
      jsonMiB: bytes / 2 ** 20,
      peakRssMiB: peakRss,
      matrixMiB,
      ...(memory === null
        ? {}
        : {
            planVerifyPeakMiB: memory.planVerify.peakMiB,
            statsPeakMiB: memory.stats.peakMiB,
            memRatio: memory.planVerify.peakMiB / memory.stats.peakMiB,
            extraPerMatrix: (memory.planVerify.peakMiB - memory.stats.peakMiB) / matrixMiB,
          }),
    }),
  );
}
