/**
 * auto: the planner and parameters for a matrix and a machine, chosen by predicted, then simulated, time (`plan
 * --algorithm auto`, docs/auto.md).
 */
export {
  planAuto,
  autoHeader,
  autoVariantLabels,
  AUTO_ALWAYS_FINAL,
  AUTO_FINALISTS,
  AUTO_SIMULATED_FIRST,
  type AutoOptions,
  type AutoCandidate,
  type AutoReport,
  type AutoResult,
} from "./plan-auto.js";
export {
  AUTO_VARIANTS,
  DIRECT_VARIANTS,
  autoVariantEntries,
  autoVariants,
  directVariants,
  ensurePlanned,
  planLeaders,
  planVariant,
  round,
  screenFormulas,
  screenVariants,
  SPARSE_SUPERLINEAR_MAX_P,
  variantLabel,
  type AutoVariant,
  type AutoVariantEntry,
  type Screen,
  type ScreenResult,
} from "./candidates.js";
export {
  predictLibraryDefault,
  predictOnRuntime,
  runtimeTarget,
  type RuntimePrediction,
  type RuntimeTarget,
} from "./runtime-predict.js";
export { predictMakespan, makespanMode, type MakespanRequest } from "./predict-makespan.js";
export {
  MPI_MARGIN,
  defaultItself,
  NO_MESSAGES_REASON,
  RUNTIME_MPI_MARGIN,
  hasMessages,
  mpiVerdict,
  scheduleLoad,
  type MpiVerdict,
  type VerdictCandidate,
  type VerdictRuntime,
} from "./mpi-verdict.js";
export { matrixLoad, wholeMessageBound, boundOfKind, type MatrixLoad } from "./predict.js";
export {
  RELAYED_STAGES,
  TIE_SLACK,
  composedDirectBound,
  relayedBound,
  relayedStages,
  ruleOut,
  ruleOutBounds,
  type RuleOutBound,
  type RuleOutBounds,
} from "./rule-out.js";
