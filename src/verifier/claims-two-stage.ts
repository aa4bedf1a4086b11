/** Claims of the two-stage algorithm (000 sec 6) and the mesh two-stage A3 (004 sec 3.1.3, 002 sec 3.3). */
import type { AlgorithmClaims } from "./types.js";
import { checkHierarchical } from "./hierarchical-bounds.js";
import { checkMeshTwoStage, checkTwoStage } from "./two-stage-bounds.js";

/** Claims by algorithm name, merged into CLAIMS. */
export const TWO_STAGE_CLAIMS: { readonly [name: string]: AlgorithmClaims } = {
  "two-stage": {
    direct: false,
    whole: false,
    maxSteps: (p) => ({ bound: 2 * p, source: "004 sec 3.3, Table 3 (A2: 2P start-ups)" }),
    extra: (m, s, stats, ctx) => checkTwoStage(m, s, stats, ctx.peakBuffer),
  },
  "mesh-two-stage": {
    direct: false,
    whole: false,
    extra: (m, s, stats, ctx) => checkMeshTwoStage(m, s, stats, ctx.peakBuffer),
  },
  hierarchical: {
    direct: false,
    whole: false,
    extra: (m, s) => checkHierarchical(m, s),
  },
};
