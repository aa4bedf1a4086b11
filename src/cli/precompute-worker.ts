/**
 * Precompute worker: a worker thread that runs the jobs its parent sends (index and job) and answers each with its
 * outcome.
 */
import { parentPort, workerData } from "node:worker_threads";
import { isCommplanError } from "../model/errors.js";
import { runPrecomputeJob, type PrecomputeJob } from "./precompute-jobs.js";

const { dir, budget } = workerData as { dir: string; budget: number };
parentPort?.on("message", (msg: { k: number; job: PrecomputeJob } | null) => {
  if (msg === null) {
    parentPort?.close();
    return;
  }
  try {
    parentPort?.postMessage({ k: msg.k, outcome: runPrecomputeJob(dir, msg.job, budget) });
  } catch (e) {
    const text = isCommplanError(e) ? e.message : `precompute: ${(e as Error).message ?? String(e)}`;
    parentPort?.postMessage({ k: msg.k, error: text });
  }
});
