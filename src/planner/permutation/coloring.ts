/**
 * Coloring: exact bipartite edge colouring of the message graph into h = max(f, g) partial permutations (Konig's
 * theorem; the optimum RS_N of 003 sec 3.3 approximates).
 */
import { matrixBytes, type CommMatrix } from "../../model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { progressPhases, progressTicker } from "../../model/progress.js";
import { planHeader } from "../plan-header.js";
import { boolean, output, type Resolved } from "../../model/param-spec.js";
import { definePlanner } from "../plan-params.js";
import type { Planner, PlanOptions } from "../types.js";
import { colorBipartite, colorMaxima, improveSumOfMaxima, orderBySizeDesc } from "./edge-coloring.js";
import { offDiagonalMessages } from "./messages.js";
import { refuseOverBudget } from "../plan-memory.js";

const NAME = "coloring";

/** The parameters of `coloring`: `improve`, and the two sums it reports in the header. */
const COLORING_PARAMS = {
  improve: boolean({
    description: "run the pass over colour pairs that lowers the sum of phase maxima",
    default: true,
  }),
  sumOfMaxima: output("the sum over phases of the longest message"),
  lowerBound: output("the threshold-degree lower bound on that sum (the optimum may exceed it)"),
};

/**
 * Weights of coloring's (and split-coloring's chunk mode's) progress: message list, colouring, improvement pass,
 * emission (about their shares of the time on a dense matrix).
 */
export const COLORING_PROGRESS: readonly number[] = [200, 400, 100, 300];

/** Work budget of the improvement pass (node and edge visits), a fixed multiple of the colouring's own size. */
export function improveBudget(p: number, edges: number, colors: number): number {
  return edges + p * Math.min(colors, 64);
}

/**
 * The bytes a colouring of `edges` messages among `p` nodes with `colors` colours (h = max(f, g)) holds at its
 * peak, the matrix aside: the message list (16 per edge), the edges sorted by size (4, and 4 for the sort's buffer),
 * the edges in that order (16), the slot tables (two of 2 P h Int32: 16 P h), the used-colour bitsets (8 P per 32
 * colours), the repair path (24 P), and the per-node colour of every edge (two P h Int32: 8 P h) made from the slot
 * tables.
 */
export function coloringBytes(p: number, edges: number, colors: number): number {
  return 40 * edges + 24 * p * colors + 8 * p * Math.ceil(colors / 32) + 28 * p;
}

/** The off-diagonal messages of `m` and h = max(f, g), the colours an exact colouring needs (two P-long counters). */
export function messageDegree(m: CommMatrix): { edges: number; h: number } {
  const p = m.p;
  const out = new Uint32Array(p),
    inn = new Uint32Array(p);
  let edges = 0;
  const count = (i: number, j: number): void => {
    out[i]!++;
    inn[j]!++;
    edges++;
  };
  if (m.sparse) {
    const { rowStart, col } = m.sparse;
    for (let i = 0; i < p; i++)
      for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) if (col[k] !== i) count(i, col[k]!);
  } else {
    const { data } = m;
    for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (j !== i && data[i * p + j]! > 0) count(i, j);
  }
  let h = 0;
  for (let i = 0; i < p; i++) h = Math.max(h, out[i]!, inn[i]!);
  return { edges, h };
}

/**
 * Messages (non-zero off-diagonal entries) are edges sender -> receiver; a proper edge colouring
 * with h colours (h = max(f, g), exact by Konig's theorem for bipartite graphs) gives h phases,
 * each a partial permutation, every message sent whole. The number of phases is optimal; the sum
 * over phases of the largest message is not: `colorBipartite` (edge-coloring.ts) is a heuristic for
 * it (largest first, priced alternating-path repairs), then `improveSumOfMaxima` reorients
 * alternating components. The header params gain `sumOfMaxima` and `lowerBound` (the threshold-degree
 * bound of `sumOfMaximaLowerBound`, which the optimum may exceed); docs/algorithms/coloring.md has the
 * measured gap. Phases are emitted heaviest first. Deterministic: the seed is not used (null).
 * Progress: the message list, the colouring, the improvement pass, the phases emitted (COLORING_PROGRESS).
 */
function plan(m: CommMatrix, opts: PlanOptions<Resolved<typeof COLORING_PARAMS>>): Schedule {
  const improve = opts.params.improve;
  const { phase: phaseProgress, end: endProgress } = progressPhases(opts.progress, COLORING_PROGRESS);
  const { edges, h } = messageDegree(m);
  refuseOverBudget(
    NAME,
    matrixBytes(m) + coloringBytes(m.p, edges, h),
    `colouring ${edges} messages with ${h} colours`,
    opts,
  );
  const msgs = offDiagonalMessages(m, phaseProgress(0));
  const { p, src, dst, size } = msgs;
  const order = orderBySizeDesc(size);
  const col = colorBipartite(p, src, dst, size, order, phaseProgress(1));
  const D = col.colors;
  const lowerBound = col.thresholds.reduce((x, y) => x + y, 0); // = sumOfMaximaLowerBound
  let max = colorMaxima(p, col, size);
  if (improve && max.reduce((x, y) => x + y, 0) > lowerBound)
    max = improveSumOfMaxima(p, col, src, dst, size, improveBudget(p, msgs.count, D), phaseProgress(2));
  const phases = Array.from({ length: D }, (_, c) => c).sort((x, y) => max[y]! - max[x]! || x - y);
  let sumOfMaxima = 0;
  for (let c = 0; c < D; c++) sumOfMaxima += max[c]!;
  const base = planHeader(m, NAME, opts, false);
  const header = { ...base, seed: null, params: { ...opts.givenParams, sumOfMaxima, lowerBound } };
  const b = new ScheduleBuilder(header, opts.payload, msgs.count);
  b.stage("phases", "compose");
  // the edges in emission order (phase, then sender): a counting sort over the P x D slot table read
  // row by row, not one strided pass per phase (which left the cache at P = 2^20)
  const rank = new Uint32Array(D);
  phases.forEach((c, k) => (rank[c] = k));
  const start = new Uint32Array(D + 1);
  const { sendAt } = col;
  for (let x = 0; x < p * D; x++) if (sendAt[x]! >= 0) start[rank[x % D]! + 1]!++;
  for (let k = 0; k < D; k++) start[k + 1]! += start[k]!;
  const fill = start.slice(0, D);
  const emit = new Uint32Array(start[D]!);
  for (let u = 0; u < p; u++)
    for (let c = 0; c < D; c++) {
      const e = sendAt[u * D + c]!;
      if (e >= 0) emit[fill[rank[c]!]!++] = e;
    }
  const emitted = progressTicker(phaseProgress(3), D);
  let emittedMark = emitted(0);
  for (let k = 0; k < D; k++) {
    if (k >= emittedMark) emittedMark = emitted(k);
    b.step();
    for (let x = start[k]!; x < start[k + 1]!; x++) {
      const e = emit[x]!;
      b.transfer(src[e]!, dst[e]!, size[e]!);
      if (b.payload) b.chunk(src[e]!, dst[e]!, 0, size[e]!);
    }
  }
  const s = b.build();
  endProgress();
  return s;
}

/** Exact edge colouring: h = max(f, g) phases, whole messages; a heuristic keeps the sum of phase maxima small. */
export const coloring: Planner = definePlanner(
  {
    name: NAME,
    title: "exact bipartite edge colouring: h = max(f, g) contention-free phases, whole messages",
    source: "003 sec 3.3 (partial permutations); Konig's edge-colouring theorem",
    params: COLORING_PARAMS,
    traits: { relayed: false, randomised: false, stages: 1, growth: "linear", claims: "verifier" },
    // it wins most often (bench/results/auto.md), and its makespan rules out the relaying planners whose bounds lie
    // above it
    auto: { variants: [{ params: {}, early: "ruling" }], bound: "whole-messages" },
  },
  plan,
);
