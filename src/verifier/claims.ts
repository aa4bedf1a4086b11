/** Claims: what the papers promise for each named algorithm, as the verifier knows it (never from planner code). */
import type { AlgorithmClaims } from "./types.js";
import { TOTAL_EXCHANGE_CLAIMS } from "./claims-total-exchange.js";
import { TWO_STAGE_CLAIMS } from "./claims-two-stage.js";
import { coloringBounds, rsNExpectation, splitColoringBounds } from "./permutation-bounds.js";

const isPow2 = (p: number): boolean => (p & (p - 1)) === 0;

/**
 * Steps of linear permutation: P - 1 for P a power of two (000 fig. 3, 003 fig. 3); the circle-method extension needs P
 * - 1 (P even) or P (P odd).
 */
export function linearPermutationSteps(p: number): number {
  if (p <= 1) return 0;
  return isPow2(p) || p % 2 === 0 ? p - 1 : p;
}

const DIRECT_WHOLE = { direct: true, whole: true } as const;

/** Claims by algorithm name; an algorithm not listed gets only the generic checks. */
export const CLAIMS: { readonly [name: string]: AlgorithmClaims } = {
  "linear-permutation": {
    ...DIRECT_WHOLE,
    pairwise: true,
    maxSteps: (p) => ({
      bound: linearPermutationSteps(p),
      source:
        "000 fig. 3, 003 fig. 3 (P - 1 for P a power of two); docs/algorithms/linear-permutation.md (P - 1 even, P odd)",
    }),
  },
  shift: {
    ...DIRECT_WHOLE,
    shift: true,
    maxSteps: (p) => ({ bound: Math.max(0, p - 1), source: "004 sec 3.1.1 (A1: P steps, one of them the local copy)" }),
  },
  "rs-n": { ...DIRECT_WHOLE, extra: rsNExpectation },
  "rs-nh": { direct: true, whole: false },
  // the planner is single-port (each phase a partial permutation) whatever ports the verifier is told:
  // exactly h steps; the generic steps-lower-bound row still checks ceil(h / ports)
  coloring: {
    ...DIRECT_WHOLE,
    exactSteps: (_p, h) => ({
      bound: h,
      source: "Konig's edge-colouring theorem: max(f, g) = h single-port phases (docs/algorithms/coloring.md)",
    }),
    extra: coloringBounds,
  },
  "split-coloring": { direct: true, whole: false, extra: splitColoringBounds },
  "four-stage": { direct: false, whole: false, fourStage: true },
  ...TWO_STAGE_CLAIMS,
  ...TOTAL_EXCHANGE_CLAIMS,
};
