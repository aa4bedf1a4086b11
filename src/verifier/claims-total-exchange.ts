/** Claims of the total-exchange round protocols of 001. */
import type { AlgorithmClaims } from "./claims.js";

/** Claims by algorithm name, merged into CLAIMS. */
export const TOTAL_EXCHANGE_CLAIMS: { readonly [name: string]: AlgorithmClaims } = {};
