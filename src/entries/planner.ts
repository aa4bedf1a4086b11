/**
 * commplan/planner: what a planner is made of (its options, parameter declarations, traits and auto profile), for
 * reading the registry or writing a planner of one's own (docs/architecture.md, "Where to add a planner").
 */
export { PLANNERS, findPlanner, plan, resolvePlanOptions, type PlanRequest } from "../planner/registry.js";
export type {
  Planner,
  PlanOptions,
  PlanParams,
  PlannerParam,
  InputParam,
  OutputParam,
  ParamValue,
  PlannerTraits,
  PlannerFamily,
  MpiLibraryTrait,
  AutoProfile,
  AutoVariantSpec,
  AutoBoundKind,
  NoAuto,
} from "../planner/types.js";
