/**
 * Progress of the planners: the share of ScheduleBuilder.build, and the progress of a planner that emits steps and then
 * builds.
 */
import { progressPhases, progressTicker } from "../model/progress.js";
import type { PlanOptions } from "./types.js";

/**
 * Weight (of 1000) a planner's progress gives to `ScheduleBuilder.build`, which copies the columns out
 * in one go: about a third of a payload plan's time (the chunk columns), little without payloads.
 */
export function buildWeight(payload: boolean): number {
  return payload ? 300 : 50;
}

/**
 * The progress of a planner that emits `steps` steps and then builds, as two closures (not methods:
 * see ProgressTick): `reached(k)` before step k (reports every 1/1000 of the steps), `built()` once
 * the schedule is built. Silent without opts.progress.
 */
export function stepProgress(opts: PlanOptions, steps: number): [reached: (k: number) => void, built: () => void] {
  const w = buildWeight(opts.payload);
  const { phase, end } = progressPhases(opts.progress, [1000 - w, w]);
  const tick = progressTicker(phase(0), steps);
  return [(k) => void tick(k), end];
}
