/** Permutation decompositions: RS_N, RS_NH (003 sec 3.3): exact edge colouring into h phases; split colouring / BvN. */
import type { Planner } from "../types.js";
import { coloring } from "./coloring.js";
import { rsN } from "./rs-n.js";
import { rsNh } from "./rs-nh.js";
import { splitColoring } from "./split-coloring.js";

export { coloring } from "./coloring.js";
export { rsN } from "./rs-n.js";
export {
  splitColoring,
  splitColoringParams,
  splitCostModel,
  chooseChunk,
  chunkDegree,
  DEFAULT_SPLIT_MACHINE,
  type SplitColoringParams,
} from "./split-coloring.js";
export { rsNh, rsNhParams, AUTO_RULES, type CutoffRule, type RsNhParams } from "./rs-nh.js";
export {
  colorBipartite,
  degreeThresholds,
  orderBySizeDesc,
  sumOfMaximaLowerBound,
  improveSumOfMaxima,
  type BipartiteColoring,
} from "./edge-coloring.js";

/** The permutation-decomposition planners, for the registry. */
export const PERMUTATION_PLANNERS: readonly Planner[] = [rsN, rsNh, coloring, splitColoring];
