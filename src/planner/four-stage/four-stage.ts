/**
 * Four-stage algorithm A4 for any P: R-Comm, C-Comm, R-Comm, C-Comm with pseudo-nodes and priority stalls (004 sec
 * 3.2).
 */
import type { CommMatrix } from "../../model/matrix.js";
import { matrixStats } from "../../model/matrix-stats.js";
import { ScheduleBuilder, type Rearrange, type Schedule } from "../../model/schedule.js";
import { progressPhases, progressTicker, type ProgressCallback, type ProgressTick } from "../../model/progress.js";
import { planHeader } from "../plan-header.js";
import { refuseDenseWorkOnSparse, refuseOverBudget } from "../plan-memory.js";
import { choice, type Resolved } from "../../model/param-spec.js";
import { definePlanner } from "../plan-params.js";
import { buildWeight } from "../plan-progress.js";
import type { Planner, PlanOptions } from "../types.js";
import { cDistribute, rDistribute } from "./distribute.js";
import { routeCDistribute, routeRDistribute } from "./distribute-stage.js";
import { columnSize, nodeArray, rowTarget, type NodeArray } from "./node-array.js";
import { rowAction, rowStageSteps, STALL_RULES, stallStep, type StallRule } from "./priority-schedule.js";
import {
  ARRIVED_RULES,
  routeCounts,
  routePieces,
  type ArrivedRule,
  type Pieces,
  type StageChunks,
  type StageMessages,
  type StageRule,
} from "./stage-router.js";

/** The four stage rules of 004 fig. 12 for a node array; `arrived`: what they do with elements at their destination. */
export function fourStageRules(a: NodeArray, arrived: ArrivedRule = "hold"): StageRule[] {
  const C = a.cols,
    R = a.rows;
  const colTarget = (u: number, k: number): number => k * C + (u % C);
  return [
    // Stage I: R-Distribute, then R-Comm along rows (pseudo-node messages to the complete rows); nothing is at its
    // destination yet (the planner keeps the diagonal out of the stages), as routeRDistribute assumes
    {
      arrived: "forward",
      buckets: C,
      target: (u, k) => rowTarget(a, u, k),
      split: (_u, j, h, out) => rDistribute(a, j, h, out),
    },
    // Stage II: C-Distribute, then C-Comm along columns
    {
      arrived,
      buckets: R,
      target: colTarget,
      split: (u, j, h, out) => {
        out.fill(0);
        cDistribute(columnSize(a, u % C), j, h, out);
      },
    },
    // Stage III: C-Collect (by destination column), then R-Comm along rows
    {
      arrived,
      buckets: C,
      target: (u, k) => rowTarget(a, u, k),
      split: (_u, j, h, out) => {
        out.fill(0);
        out[j % C] = h;
      },
      bucketOf: (j) => j % C,
    },
    // Stage IV: R-Collect (by destination row), then C-Comm along columns to the destination
    {
      arrived,
      buckets: R,
      target: colTarget,
      split: (_u, j, h, out) => {
        out.fill(0);
        out[Math.floor(j / C)] = h;
      },
      bucketOf: (j) => Math.floor(j / C),
    },
  ];
}

const STAGES: readonly { name: string; rearrange: Rearrange; rows: boolean }[] = [
  { name: "I: rows (R-Distribute, R-Comm)", rearrange: "distribute", rows: true },
  { name: "II: columns (C-Distribute, C-Comm)", rearrange: "distribute", rows: false },
  { name: "III: rows (C-Collect, R-Comm)", rearrange: "collect", rows: true },
  { name: "IV: columns (R-Collect, C-Comm)", rearrange: "collect", rows: false },
];

/** Adds message (u, bucket k) of a stage to the current step, with its chunks. */
function emit(b: ScheduleBuilder, msgs: StageMessages, rule: StageRule, u: number, k: number): void {
  const key = u * msgs.buckets + k;
  const size = msgs.size[key]!;
  if (size === 0) return;
  b.transfer(u, rule.target(u, k), size);
  if (!b.payload) return;
  const c = msgs as StageChunks;
  for (let x = c.start[key]!; x < c.start[key + 1]!; x++) b.chunk(c.origin[x]!, c.dest[x]!, c.offset[x]!, c.count[x]!);
}

/**
 * Emits a row stage with the Revised R-Schedule (stalls included). A step in which no node has a
 * message to send (e.g. every message it would carry is empty) is left out with its stalls: every
 * node moves one step earlier, so the schedule stays contention-free.
 */
function emitRowStage(
  b: ScheduleBuilder,
  a: NodeArray,
  msgs: StageMessages,
  rule: StageRule,
  stallRule: StallRule,
  tick: ProgressTick,
): void {
  const stalls = Int32Array.from({ length: a.p }, (_, u) => stallStep(a, u, stallRule));
  const K = msgs.buckets;
  let tickMark = tick(0);
  for (let step = 1; step <= rowStageSteps(a); step++) {
    if (step - 1 >= tickMark) tickMark = tick(step - 1);
    let sends = false;
    for (let u = 0; u < a.p && !sends; u++) {
      const act = rowAction(a, u, step, stalls[u]!);
      sends = act >= 0 && msgs.size[u * K + act]! > 0;
    }
    if (!sends) continue;
    b.step();
    for (let u = 0; u < a.p; u++) {
      const act = rowAction(a, u, step, stalls[u]!);
      if (act === -1) b.stall(u);
      else if (act >= 0) emit(b, msgs, rule, u, act);
    }
    b.dropEmptyStep();
  }
}

/**
 * Emits a column stage with the C-Schedule: in step s the node in row q of an N-node column sends to row (q + s) mod N.
 */
function emitColumnStage(
  b: ScheduleBuilder,
  a: NodeArray,
  msgs: StageMessages,
  rule: StageRule,
  tick: ProgressTick,
): void {
  let tickMark = tick(0);
  for (let s = 1; s <= a.rows; s++) {
    if (s - 1 >= tickMark) tickMark = tick(s - 1);
    b.step();
    for (let u = 0; u < a.p; u++) {
      const n = columnSize(a, u % a.cols);
      if (s <= n) emit(b, msgs, rule, u, (Math.floor(u / a.cols) + s) % n);
    }
    b.dropEmptyStep();
  }
}

/**
 * Opens stage k (0..3) of A4 in `b` and emits its messages: rows with the Revised R-Schedule, columns with the
 * C-Schedule (`progress`: steps).
 */
export function emitStage(
  b: ScheduleBuilder,
  a: NodeArray,
  k: number,
  msgs: StageMessages,
  rule: StageRule,
  stallRule: StallRule,
  progress: ProgressCallback | null = null,
): void {
  const st = STAGES[k]!;
  b.stage(st.name, st.rearrange);
  const tick = progressTicker(progress, st.rows ? rowStageSteps(a) : a.rows);
  if (st.rows) emitRowStage(b, a, msgs, rule, stallRule, tick);
  else emitColumnStage(b, a, msgs, rule, tick);
  tick(Infinity);
}

/**
 * Weights of four-stage's progress: per stage, routing then emission, each stage weighted by the
 * pieces it moves at payload level (the estimates of checkFourStageMemory), equally at message level;
 * then the schedule built (its columns copied out).
 */
function fourStageProgress(m: CommMatrix, opts: PlanOptions, a: NodeArray): number[] {
  let stages = [1, 1, 1, 1];
  if (opts.payload) {
    const { messages: nonzeros, networkTotal: elements } = matrixStats(m);
    const afterI = Math.min(elements, nonzeros * a.cols),
      afterII = Math.min(elements, afterI * a.rows);
    stages = [afterI, afterII, afterII, afterII];
  }
  const sum = stages.reduce((x, y) => x + y, 0);
  return [
    ...stages.flatMap((w) => {
      const half = sum > 0 ? Math.max(1, Math.round(((1000 - buildWeight(opts.payload)) * w) / (2 * sum))) : 1;
      return [half, half];
    }),
    buildWeight(opts.payload),
  ];
}

/**
 * Refuses, before anything is allocated, a plan whose memory would pass the budget
 * (plan-memory.ts). Message level: two P x P holdings matrices live at once (a stage's input and
 * output). Payload level: the pieces, at most min(elements, nonzeros x C) after stage I and
 * min(elements, that x R) after stage II (III and IV do not split), about 100 bytes each per stage
 * (piece table, routing keys, chunk columns while they grow). Both: per-node message tables and at
 * most 4 P (C + 1) transfers (32 bytes each while the columns grow). O(P^2) time, O(1) memory.
 */
export function checkFourStageMemory(m: CommMatrix, opts: PlanOptions, a: NodeArray): void {
  const p = m.p;
  // from the non-zero entries (no dense copy yet: a sparse matrix gets one, counted below)
  const { messages: nonzeros, networkTotal: elements } = matrixStats(m);
  const transfers = 4 * p * (a.cols + 1);
  const tables = 2 * 24 * p * Math.max(a.cols, a.rows);
  const afterI = Math.min(elements, nonzeros * a.cols),
    afterII = Math.min(elements, afterI * a.rows);
  const pieces = opts.payload ? nonzeros + afterI + 3 * afterII : 0;
  const work = (opts.payload ? 100 * pieces : 2 * 8 * p * p) + (m.sparse ? 8 * p * p : 0);
  const what =
    (opts.payload ? `about ${pieces} pieces over the four stages` : `two ${p} x ${p} holdings matrices`) +
    (m.sparse ? " and a dense copy of the sparse matrix" : "");
  refuseDenseWorkOnSparse("four-stage", m, work + tables + 32 * transfers);
  refuseOverBudget("four-stage", work + tables + 32 * transfers, `${what}, up to ${transfers} transfers`, opts);
}

/** The parameters of four-stage: `stalls` and `arrived`. */
const FOUR_STAGE_PARAMS = {
  stalls: choice(STALL_RULES, {
    description:
      "the priority-stall step: figure (as 004 figure 10 shows; contention-free) or printed (the text's formula, one step later; not contention-free)",
    default: "figure",
  }),
  arrived: choice(ARRIVED_RULES, {
    description:
      "elements that reach their destination before Stage IV: hold (they stay there) or forward (routed on like the rest, as 004 does; they leave and come back)",
    default: "hold",
  }),
};

function plan(m: CommMatrix, opts: PlanOptions<Resolved<typeof FOUR_STAGE_PARAMS>>): Schedule {
  const stallRule = opts.params.stalls;
  const { p } = m;
  const a = nodeArray(p);
  checkFourStageMemory(m, opts, a);
  const rules = fourStageRules(a, opts.params.arrived);
  const progress = opts.progress ? progressPhases(opts.progress, fourStageProgress(m, opts, a)) : null;
  // the header names the rule for elements at their destination always: a plan without it is 004's (forward)
  const header = planHeader(m, "four-stage", opts, false);
  const params = { ...header.params, arrived: opts.params.arrived };
  const b = new ScheduleBuilder({ ...header, params }, opts.payload, 4 * p * (a.cols + 1));
  // diagonal elements stay where they are; everything else goes through the four stages
  let counts: Float64Array | null = null;
  let pieces: Pieces | null = null;
  if (opts.payload) {
    const holder: number[] = [],
      dest: number[] = [],
      count: number[] = [];
    for (let i = 0; i < p; i++)
      for (let j = 0; j < p; j++)
        if (i !== j && m.data[i * p + j]! > 0) {
          holder.push(i);
          dest.push(j);
          count.push(m.data[i * p + j]!);
        }
    pieces = {
      holder: Uint32Array.from(holder),
      origin: Uint32Array.from(holder),
      dest: Uint32Array.from(dest),
      offset: new Float64Array(holder.length),
      count: Float64Array.from(count),
    };
  } else {
    counts = m.data.slice();
    for (let i = 0; i < p; i++) counts[i * p + i] = 0;
  }
  rules.forEach((rule, k) => {
    let msgs: StageMessages;
    const routing = progress?.phase(2 * k) ?? null;
    if (pieces) ({ next: pieces, msgs } = routePieces(p, pieces, rule, routing));
    else if (k === 0) ({ next: counts, msgs } = routeRDistribute(a, counts!, routing));
    else if (k === 1) ({ next: counts, msgs } = routeCDistribute(a, counts!, routing, opts.params.arrived));
    else ({ next: counts, msgs } = routeCounts(p, counts!, rule, routing));
    emitStage(b, a, k, msgs, rule, stallRule, progress?.phase(2 * k + 1) ?? null);
  });
  const s = b.build();
  progress?.end();
  return s;
}

/** The four-stage planner (A4). */
export const fourStage: Planner = definePlanner(
  {
    name: "four-stage",
    title: "A4: four stages over an R x C node array, any P (pseudo-nodes, priority stalls, load balancing)",
    source: "004 sec 3.2, figs 5-12",
    params: FOUR_STAGE_PARAMS,
    traits: { relayed: true, randomised: false, stages: 4, growth: "superlinear", claims: "verifier" },
    auto: { variants: [{ params: {} }], bound: "four-stages", stagesRearrange: true },
  },
  plan,
);
