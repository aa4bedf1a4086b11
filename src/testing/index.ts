/**
 * commplan/testing: the property-testing kit (fast-check arbitraries, verifyOrThrow, matchers, planner and runtime
 * properties).
 */
export { default as fc } from "fast-check";
export { matrixArb, MAX_ENTRY_OPTION, type MatrixArbOptions } from "./matrix-arbitraries.js";
export { anyMatrixArb, type AnyMatrixArbOptions } from "./planner-matrices.js";
export { DETERMINISM_SAMPLE } from "./determinism.js";
export {
  patternArb,
  hRelationArb,
  dRegularArb,
  anyPatternArb,
  type PatternArbOptions,
  type PatternOptionRange,
} from "./pattern-arbitraries.js";
export {
  scheduleFromOutput,
  isColumnarSchedule,
  type PlainSchedule,
  type PlainStage,
  type PlainStep,
  type PlainTransfer,
  type PlannerOutput,
} from "./schedule-input.js";
export {
  checkScheduleFor,
  failureLine,
  type BoundOf,
  type CheckFailure,
  type ScheduleCheckOptions,
  type ScheduleCheckResult,
  type TimeBound,
} from "./schedule-check.js";
export { trafficLowerBound } from "./traffic-bound.js";
export { verifyOrThrow, ScheduleCheckError } from "./verify-or-throw.js";
export { commplanMatchers, type CommplanMatchers, type MatcherResult } from "./matchers.js";
export {
  plannerProperty,
  asyncPlannerProperty,
  planFailure,
  plannerOutputFailure,
  replayFailure,
  type PlanFn,
  type PlannerPropertyOptions,
} from "./planner-property.js";
export {
  runtimeProperty,
  runtimeFailure,
  realisedFailure,
  type ExecFn,
  type RealisedTimes,
  type RuntimeInput,
  type RuntimePropertyOptions,
} from "./runtime-property.js";
export { checkTimedCausality } from "./timed-causality.js";
export { matrixToRows, matrixFromRows, type CommMatrix } from "../model/matrix.js";
export type { Schedule } from "../model/schedule.js";
