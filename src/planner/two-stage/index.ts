/**
 * Two-stage planners: two-stage (000 sec 6), mesh-two-stage (A3, 004 sec 3.1.3) and the hierarchical all-to-all for
 * nodes of g ranks.
 */
import type { Planner } from "../types.js";
import { hierarchical } from "./hierarchical.js";
import { meshTwoStage } from "./mesh-two-stage.js";
import { twoStage } from "./two-stage.js";

export { defaultMeshRows, meshGrid, meshStageVolumes, meshTwoStage } from "./mesh-two-stage.js";
export { hierarchical, hierarchicalGpus, packRailSteps, railOf } from "./hierarchical.js";
export {
  twoStage,
  twoStageSplit,
  type TwoStageSplit,
  MAX_TWO_STAGE_CHUNKS,
  MAX_TWO_STAGE_PAYLOAD_P,
  MAX_RESHUFFLE_RESIDUALS,
} from "./two-stage.js";
export {
  DEFAULT_STAGE_SCHEDULE,
  STAGE_SCHEDULES,
  roundPartner,
  stageRounds,
  twoStageParams,
  type StageSchedule,
  type TwoStageParams,
} from "./rounds.js";
export { partCount, partOffset, residualStart } from "./split.js";

/** The planners of this family, for the registry. */
export const TWO_STAGE_PLANNERS: readonly Planner[] = [twoStage, meshTwoStage, hierarchical];
