/** Claims: what the papers promise for each named algorithm, as the verifier knows it (never from planner code). */
import type { CommMatrix } from "../model/matrix.js";
import type { MatrixStats } from "../model/matrix-stats.js";
import type { Schedule } from "../model/schedule.js";
import type { Check } from "./report.js";
import { TOTAL_EXCHANGE_CLAIMS } from "./claims-total-exchange.js";
import { TWO_STAGE_CLAIMS } from "./claims-two-stage.js";
import { coloringBounds, rsNExpectation, splitColoringBounds } from "./permutation-bounds.js";

/** What the verifier has measured before the algorithm's own checks run. */
export interface ClaimContext {
  /** Send and receive ports per node. */
  readonly ports: number;
  /** Peak elements held by one node (flow check). */
  readonly peakBuffer: number;
}

/** The structure a schedule of a given algorithm must have. */
export interface AlgorithmClaims {
  /** Every element travels straight from its origin to its destination (no intermediate). */
  readonly direct: boolean;
  /** Messages are never split: each non-zero off-diagonal entry is one transfer. */
  readonly whole: boolean;
  /** Upper bound on the number of steps, with its source. */
  readonly maxSteps?: (p: number, h: number, ports: number) => { bound: number; source: string };
  /** Exact number of steps, with its source. */
  readonly exactSteps?: (p: number, h: number, ports: number) => { bound: number; source: string };
  /** Each step is a pairwise exchange: u -> v in a step means u's only partner is v (003 sec 3.2). */
  readonly pairwise?: boolean;
  /** Each step is a shift: all transfers of a step have the same (dst - src) mod P (004 sec 3.1.1). */
  readonly shift?: boolean;
  /** The bounds of 004 sec 3.2.4 (Lemmas 1 and 3, Table 2, Theorems 1 and 2). */
  readonly fourStage?: boolean;
  /** Further checks of this algorithm's bounds (each a named row of the report). */
  readonly extra?: (m: CommMatrix, s: Schedule, stats: MatrixStats, ctx: ClaimContext) => Check[];
}

const isPow2 = (p: number): boolean => (p & (p - 1)) === 0;

/** Steps of linear permutation: P - 1 for P a power of two (000 fig. 3, 003 fig. 3); the circle-method extension needs P - 1 (P even) or P (P odd). */
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
    maxSteps: (p) => ({ bound: linearPermutationSteps(p), source: "000 fig. 3, 003 fig. 3 (P - 1 for P a power of two); docs/algorithms/linear-permutation.md (P - 1 even, P odd)" }),
  },
  shift: { ...DIRECT_WHOLE, shift: true, maxSteps: (p) => ({ bound: Math.max(0, p - 1), source: "004 sec 3.1.1 (A1: P steps, one of them the local copy)" }) },
  "rs-n": { ...DIRECT_WHOLE, extra: rsNExpectation },
  "rs-nh": { direct: true, whole: false },
  // the planner is single-port (each phase a partial permutation) whatever ports the verifier is told:
  // exactly h steps; the generic steps-lower-bound row still checks ceil(h / ports)
  coloring: { ...DIRECT_WHOLE, exactSteps: (_p, h) => ({ bound: h, source: "Konig's edge-colouring theorem: max(f, g) = h single-port phases (issue 4)" }), extra: coloringBounds },
  "split-coloring": { direct: true, whole: false, extra: splitColoringBounds },
  "four-stage": { direct: false, whole: false, fourStage: true },
  ...TWO_STAGE_CLAIMS,
  ...TOTAL_EXCHANGE_CLAIMS,
};
