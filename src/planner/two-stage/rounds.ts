/** Contention-free rounds for the two-stage planners: linear permutation (000 fig. 3) or shift (004 sec 3.1.1) inside a group of n nodes. */
import { fail } from "../../model/errors.js";
import type { JsonValue } from "../../model/schedule.js";
import { lpPartner, lpRounds } from "../linear-permutation.js";
import { rejectUnknownParams } from "../permutation/messages.js";

/** The step structure of one stage: pairwise exchange (linear permutation) or shift. */
export type StageSchedule = "linear-permutation" | "shift";
/** Every StageSchedule value. */
export const STAGE_SCHEDULES: readonly StageSchedule[] = ["linear-permutation", "shift"];
/** The default stage schedule: shift needs n - 1 rounds for every n, linear permutation n rounds for odd n (bench/two-stage.ts). */
export const DEFAULT_STAGE_SCHEDULE: StageSchedule = "shift";

/** The rounds of a stage over n nodes, in order (empty when n <= 1). */
export function stageRounds(schedule: StageSchedule, n: number): number[] {
  const out: number[] = [];
  if (n <= 1) return out;
  if (schedule === "shift") {
    for (let k = 1; k < n; k++) out.push(k);
  } else {
    const [first, last] = lpRounds(n);
    for (let r = first; r <= last; r++) out.push(r);
  }
  return out;
}

/** Whom member x of an n-node group sends to in `round`; -1 (or x itself) when it idles. Every round is a permutation: each member receives at most once. */
export function roundPartner(schedule: StageSchedule, n: number, round: number, x: number): number {
  return schedule === "shift" ? (x + round) % n : lpPartner(n, round, x);
}

/** Checks the `schedule` parameter (default DEFAULT_STAGE_SCHEDULE). */
export function stageScheduleParam(algorithm: string, params: { readonly [k: string]: JsonValue }): StageSchedule {
  const v = params["schedule"] ?? DEFAULT_STAGE_SCHEDULE;
  if (v !== "linear-permutation" && v !== "shift") {
    throw fail("planner", "BAD_OPTION", `${algorithm}: schedule must be "linear-permutation" or "shift", got ${JSON.stringify(v)}`, { field: "params.schedule" });
  }
  return v;
}

/** Parameters of the two-stage planner. */
export interface TwoStageParams {
  readonly schedule: StageSchedule;
  /** The random reshuffle of 000 sec 6.3 (seeded by the plan seed). */
  readonly reshuffle: boolean;
}

/** Checks the params of `two-stage`: `schedule` and `reshuffle` (default false); anything else is a BAD_OPTION. */
export function twoStageParams(params: { readonly [k: string]: JsonValue }): TwoStageParams {
  rejectUnknownParams("two-stage", params, ["schedule", "reshuffle"]);
  const reshuffle = params["reshuffle"] ?? false;
  if (typeof reshuffle !== "boolean") throw fail("planner", "BAD_OPTION", `two-stage: reshuffle must be true or false, got ${JSON.stringify(reshuffle)}`, { field: "params.reshuffle" });
  return { schedule: stageScheduleParam("two-stage", params), reshuffle };
}

/** Checks the params of `mesh-two-stage`: only `schedule`. */
export function meshTwoStageParams(params: { readonly [k: string]: JsonValue }): StageSchedule {
  rejectUnknownParams("mesh-two-stage", params, ["schedule"]);
  return stageScheduleParam("mesh-two-stage", params);
}
