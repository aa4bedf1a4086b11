/**
 * Contention-free rounds for the two-stage planners: linear permutation (000 fig. 3) or shift (004 sec 3.1.1) inside a
 * group of n nodes.
 */
import { lpPartner, lpRounds } from "../linear-permutation.js";
import { boolean, choice, type Resolved } from "../../model/param-spec.js";

/** The step structure of one stage: pairwise exchange (linear permutation) or shift. */
export type StageSchedule = "linear-permutation" | "shift";
/** Every StageSchedule value. */
export const STAGE_SCHEDULES: readonly StageSchedule[] = ["linear-permutation", "shift"];
/**
 * The default stage schedule: shift needs n - 1 rounds for every n, linear permutation n rounds for odd n
 * (bench/two-stage.ts).
 */
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

/**
 * Whom member x of an n-node group sends to in `round`; -1 (or x itself) when it idles. Every round is a permutation:
 * each member receives at most once.
 */
export function roundPartner(schedule: StageSchedule, n: number, round: number, x: number): number {
  return schedule === "shift" ? (x + round) % n : lpPartner(n, round, x);
}

/** The `schedule` parameter both two-stage planners take. */
export const SCHEDULE_PARAM = choice(STAGE_SCHEDULES, {
  description:
    "the rounds inside each stage: shift (n - 1 rounds for any n) or linear-permutation (pairwise exchange; n rounds for odd n)",
  default: DEFAULT_STAGE_SCHEDULE,
});

/** The parameters of two-stage: `schedule` and `reshuffle`. */
export const TWO_STAGE_PARAMS = {
  schedule: SCHEDULE_PARAM,
  reshuffle: boolean({
    description:
      "permute each source's stage-1 messages at random within the groups of equal size (000 sec 6.3; seeded)",
    default: false,
  }),
};

/** Resolved parameters of the two-stage planner. */
export interface TwoStageParams {
  readonly schedule: StageSchedule;
  /** The random reshuffle of 000 sec 6.3 (seeded by the plan seed). */
  readonly reshuffle: boolean;
}

/** The schedule and reshuffle of resolved params (`resolvePlanOptions` checked them against TWO_STAGE_PARAMS). */
export function twoStageParams(params: Resolved<typeof TWO_STAGE_PARAMS>): TwoStageParams {
  return { schedule: params.schedule, reshuffle: params.reshuffle };
}
