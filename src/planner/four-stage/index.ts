/** The four-stage algorithm (004 sec 3.2): planner, node array, priority schedule. */
export { emitStage, fourStage, fourStageRules } from "./four-stage.js";
export { nodeArray, columnSize, rowTarget, isqrt, type NodeArray } from "./node-array.js";
export { stallStep, rowAction, rowStageSteps } from "./priority-schedule.js";
export { rDistribute, cDistribute } from "./distribute.js";
export { routeRDistribute, routeCDistribute, type RoutedStage } from "./distribute-stage.js";
export {
  ARRIVED_RULES,
  routeCounts,
  routePieces,
  type ArrivedRule,
  type Pieces,
  type StageRule,
  type StageMessages,
} from "./stage-router.js";
