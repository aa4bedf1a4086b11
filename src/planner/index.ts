/** Planners: one module per algorithm, and the registry that names them. */
export { PLANNERS, autoProfileOf, findPlanner, plan, resolvePlanOptions, type PlanRequest } from "./registry.js";
export type {
  Planner,
  PlanOptions,
  PlannerParam,
  InputParam,
  OutputParam,
  ParamValue,
  PlanParams,
  PlannerTraits,
  PlannerFamily,
  AutoProfile,
  AutoVariantSpec,
  AutoBoundKind,
  FlatMode,
  FlatPrediction,
  PredictCache,
  NoAuto,
  MpiLibraryTrait,
} from "./types.js";
export { resolveParams, describeParamType, inputParams } from "./plan-params.js";
export { linearPermutation, lpPartner, lpRounds } from "./linear-permutation.js";
export { shift } from "./shift.js";
export * from "./four-stage/index.js";
export * from "./permutation/index.js";
export * from "./two-stage/index.js";
export * from "./total-exchange/index.js";
export * from "./mpi/index.js";
