/** The shapes shared by the verifier's claim tables and bound checks. */
import type { CommMatrix } from "../model/matrix.js";
import type { MatrixStats } from "../model/matrix-stats.js";
import type { Schedule } from "../model/schedule.js";
import type { Check } from "./report.js";

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

/** The node array of 004 sec 3.2 as the verifier derives it (from the paper, not from the planner). */
export interface PaperArray {
  readonly C: number;
  readonly R: number;
  readonly r: number;
  /** ceil(sqrt P), the paper's bounds are stated with it. */
  readonly s: number;
}
