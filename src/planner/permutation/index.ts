/** Permutation decompositions (issue 4): RS_N, RS_NH (003 sec 3.3) and exact edge colouring into h phases. */
import type { Planner } from "../types.js";
import { coloring } from "./coloring.js";
import { rsN } from "./rs-n.js";
import { rsNh } from "./rs-nh.js";

export { coloring, coloringParams } from "./coloring.js";
export { rsN } from "./rs-n.js";
export { rsNh, rsNhParams, type CutoffRule, type RsNhParams } from "./rs-nh.js";
export { colorBipartite, orderBySizeDesc, sumOfMaximaLowerBound, improveSumOfMaxima, type BipartiteColoring } from "./edge-coloring.js";

/** The permutation-decomposition planners, for the registry. */
export const PERMUTATION_PLANNERS: readonly Planner[] = [rsN, rsNh, coloring];
