/** Claims of the two-stage algorithm (000 sec 6) and the mesh two-stage A3 (004 sec 3.1.3, 002 sec 3.3). */
import type { AlgorithmClaims } from "./claims.js";

/** Claims by algorithm name, merged into CLAIMS. */
export const TWO_STAGE_CLAIMS: { readonly [name: string]: AlgorithmClaims } = {};
