/**
 * Two-stage algorithm (A2): split every message over p intermediates, then forward to the destinations (000 sec 6, figs
 * 6-8, 6.3; 004 sec 3.1.2).
 */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { matrixStats } from "../../model/matrix-stats.js";
import { createRng, shuffleInPlace } from "../../model/rng.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { progressPhases, progressTicker, type ProgressCallback, type ProgressTick } from "../../model/progress.js";
import { planHeader } from "../plan-header.js";
import { refuseDenseWorkOnSparse, refuseOverBudget } from "../plan-memory.js";
import type { Resolved } from "../../model/param-spec.js";
import { definePlanner } from "../plan-params.js";
import { buildWeight } from "../plan-progress.js";
import type { MachineModel } from "../../model/machine.js";
import { tally } from "../flat-tally.js";
import type { FlatMode, Planner, PlanOptions, PredictCache } from "../types.js";
import { groupStage, variantStageSchedule } from "./group-stage-time.js";
import { roundPartner, stageRounds, twoStageParams, TWO_STAGE_PARAMS, type StageSchedule } from "./rounds.js";
import { partCount, partOffset, residualStart } from "./split.js";

/** Most payload chunks a two-stage plan may have (both stages); larger inputs must be planned at message level. */
export const MAX_TWO_STAGE_CHUNKS = 2 ** 24;
/** Largest P for a payload plan (the chunk pass is P^3). */
export const MAX_TWO_STAGE_PAYLOAD_P = 2048;
/** Most residual elements the message-level reshuffle visits one by one. */
export const MAX_RESHUFFLE_RESIDUALS = 2 ** 28;

/** The split of every message over the intermediates, as the two stages need it. */
export interface TwoStageSplit {
  readonly p: number;
  /** Residual interval start of message (i, j), index i * p + j (000 fig. 7, rotated by residualStart). */
  readonly start: Int32Array;
  /** Stage-1 message size from source i to intermediate k, index i * p + k (k = i: the part i keeps). */
  readonly stage1: Float64Array;
  /** Stage-2 message size from intermediate k to destination j, index k * p + j (j = k: the part already there). */
  readonly stage2: Float64Array;
  /**
   * With the reshuffle of 000 sec 6.3: label[i * p + k] is the part label (0..p-1) source i sends to intermediate k;
   * null: the identity.
   */
  readonly label: Int32Array | null;
}

/**
 * Computes the split (000 sec 6.1): part k of a_ij has floor(a_ij / p) elements plus one if k lies
 * in the residual interval of (i, j); the intervals of one source follow each other round robin
 * from intermediate residualStart(i). With `reshuffle`, each source permutes its p stage-1
 * messages at random within the groups of equal size (000 sec 6.3), so every size is kept.
 * Diagonal entries stay where they are and take no part. `progress`: the rows of stage 1, then those of stage 2.
 */
export function twoStageSplit(
  m: CommMatrix,
  reshuffle: boolean,
  seed: number,
  progress: ProgressCallback | null = null,
): TwoStageSplit {
  const { p, data } = m;
  const tick = progressTicker(progress, 2 * p);
  const { start, stage1, residualTotal } = stageOneSizes(p, data, tick);
  const label = reshuffle && p > 1 ? reshuffleLabels(p, stage1, seed) : null;
  let stage2: Float64Array;
  if (label === null) stage2 = stageTwoSizes(p, data, start, tick);
  else {
    if (residualTotal > MAX_RESHUFFLE_RESIDUALS) {
      throw fail(
        "planner",
        "UNSUPPORTED",
        `two-stage: the reshuffle visits every residual element; this matrix has ${residualTotal} (limit ${MAX_RESHUFFLE_RESIDUALS}); plan without reshuffle`,
        { field: "params.reshuffle" },
      );
    }
    stage2 = stageTwoSizesReshuffled(p, data, start, label, tick);
  }
  tick(Infinity);
  return { p, start, stage1, stage2, label };
}

/**
 * Stage-1 sizes by (source, intermediate), where each residual range starts, and the residual elements in all (`tick`:
 * rows 0..p).
 */
function stageOneSizes(
  p: number,
  data: ArrayLike<number>,
  tick: ProgressTick,
): { start: Int32Array; stage1: Float64Array; residualTotal: number } {
  const start = new Int32Array(p * p);
  const stage1 = new Float64Array(p * p);
  let residualTotal = 0;
  let tickMark = tick(0);
  for (let i = 0; i < p; i++) {
    if (i >= tickMark) tickMark = tick(i);
    let base = 0,
      e = 0;
    let c = residualStart(i) % p;
    for (let j = 0; j < p; j++) {
      const a = i === j ? 0 : data[i * p + j]!;
      start[i * p + j] = c;
      if (a === 0) continue;
      const q = Math.floor(a / p);
      const res = a - q * p;
      base += q;
      e += res;
      c = (c + res) % p;
    }
    residualTotal += e;
    const eq = Math.floor(e / p),
      er = e - eq * p,
      o = residualStart(i) % p;
    for (let k = 0; k < p; k++) {
      const d = k - o;
      stage1[i * p + k] = base + eq + ((d < 0 ? d + p : d) < er ? 1 : 0);
    }
  }
  return { start, stage1, residualTotal };
}

/**
 * The reshuffle: per source, a random relabelling of its parts among those of equal size (stage1 is permuted to match);
 * returns the labels.
 */
function reshuffleLabels(p: number, stage1: Float64Array, seed: number): Int32Array {
  const label = new Int32Array(p * p);
  const rng = createRng(seed);
  const lo: number[] = [],
    hi: number[] = [];
  const sizes = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    lo.length = 0;
    hi.length = 0;
    let min = Infinity;
    for (let k = 0; k < p; k++) min = Math.min(min, stage1[i * p + k]!);
    for (let k = 0; k < p; k++) (stage1[i * p + k] === min ? lo : hi).push(k);
    // intermediate g[x] receives the part labelled h[x] of the same size
    for (const g of [lo, hi]) {
      const h = shuffleInPlace(rng, g.slice());
      for (let x = 0; x < g.length; x++) label[i * p + g[x]!] = h[x]!;
    }
    for (let k = 0; k < p; k++) sizes[k] = stage1[i * p + label[i * p + k]!]!;
    stage1.set(sizes, i * p);
  }
  return label;
}

/**
 * Stage-2 sizes without reshuffle: floor parts everywhere, plus one per residual element at its intermediate
 * (difference arrays per destination; `tick`: p + destinations).
 */
function stageTwoSizes(p: number, data: ArrayLike<number>, start: Int32Array, tick: ProgressTick): Float64Array {
  const stage2 = new Float64Array(p * p);
  const diff = new Float64Array(p + 1);
  let tickMark = tick(p);
  for (let j = 0; j < p; j++) {
    if (p + j >= tickMark) tickMark = tick(p + j);
    diff.fill(0);
    let base = 0;
    for (let i = 0; i < p; i++) {
      const a = i === j ? 0 : data[i * p + j]!;
      if (a === 0) continue;
      const q = Math.floor(a / p),
        res = a - q * p;
      base += q;
      if (res === 0) continue;
      const st = start[i * p + j]!,
        end = st + res;
      if (end <= p) {
        diff[st]!++;
        diff[end]!--;
      } else {
        diff[st]!++;
        diff[p]!--;
        diff[0]!++;
        diff[end - p]!--;
      }
    }
    let run = 0;
    for (let k = 0; k < p; k++) {
      run += diff[k]!;
      stage2[k * p + j] = base + run;
    }
  }
  return stage2;
}

/**
 * Stage-2 sizes with reshuffle labels: every residual element visited at the intermediate that receives its part
 * (`tick`: p + sources).
 */
function stageTwoSizesReshuffled(
  p: number,
  data: ArrayLike<number>,
  start: Int32Array,
  label: Int32Array,
  tick: ProgressTick,
): Float64Array {
  const stage2 = new Float64Array(p * p);
  const where = new Int32Array(p); // where[k]: the intermediate that receives part label k (of the current source)
  let tickMark = tick(p);
  for (let i = 0; i < p; i++) {
    if (p + i >= tickMark) tickMark = tick(p + i);
    for (let kk = 0; kk < p; kk++) where[label[i * p + kk]!] = kk;
    for (let j = 0; j < p; j++) {
      const a = i === j ? 0 : data[i * p + j]!;
      if (a === 0) continue;
      const q = Math.floor(a / p),
        res = a - q * p;
      if (q > 0) for (let kk = 0; kk < p; kk++) stage2[kk * p + j] = stage2[kk * p + j]! + q;
      const st = start[i * p + j]!;
      for (let x = 0; x < res; x++) {
        const k = (st + x) % p;
        const kk = where[k]!;
        stage2[kk * p + j] = stage2[kk * p + j]! + 1;
      }
    }
  }
  return stage2;
}

/** Payload chunks a plan of m will carry (both stages), to refuse plans that would not fit in memory. */
function chunkEstimate(m: CommMatrix): number {
  const p = m.p;
  let n = 0;
  const s = m.sparse;
  if (s) {
    for (let i = 0; i < p; i++)
      for (let k = s.rowStart[i]!; k < s.rowStart[i + 1]!; k++) if (s.col[k] !== i) n += 2 * Math.min(s.val[k]!, p);
    return n;
  }
  const data = m.data;
  for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j) n += 2 * Math.min(data[i * p + j]!, p);
  return n;
}

/**
 * Refuses, before anything is allocated, a plan whose memory would pass the budget
 * (plan-memory.ts): the split's P x P arrays (start, stage-1 and stage-2 sizes, the reshuffle's
 * labels), the transfers (at most min(P - 1, row sum) per source in stage 1 and min(P - 1,
 * column sum) per destination in stage 2; 32 bytes each while the columns grow) and, with
 * payloads, the chunks (48 bytes each). O(P^2) time, O(P) memory.
 */
export function checkTwoStageMemory(m: CommMatrix, opts: PlanOptions, reshuffle: boolean): void {
  const p = m.p;
  // row and column traffic from the non-zero entries (no dense copy yet: a sparse matrix gets one below)
  const { rowTraffic, colTraffic } = matrixStats(m);
  let transfers = 0;
  for (let i = 0; i < p; i++) transfers += Math.min(p - 1, rowTraffic[i]!) + Math.min(p - 1, colTraffic[i]!);
  const work = p * p * (reshuffle ? 24 : 20) + (m.sparse ? p * p * 8 : 0);
  const chunks = opts.payload ? chunkEstimate(m) : 0;
  const what = `${p} x ${p} split arrays${m.sparse ? " and a dense copy of the sparse matrix" : ""}, up to ${transfers} transfers${opts.payload ? `, about ${chunks} chunks` : ""}`;
  refuseDenseWorkOnSparse("two-stage", m, work + 32 * transfers + 48 * chunks);
  refuseOverBudget("two-stage", work + 32 * transfers + 48 * chunks, what, opts);
}

/**
 * Emits the chunk of message (i, j) that intermediate kk holds (its part label, through the reshuffle when there is
 * one).
 */
function emitPart(b: ScheduleBuilder, m: CommMatrix, split: TwoStageSplit, i: number, j: number, kk: number): void {
  const { p } = m;
  const a = i === j ? 0 : m.data[i * p + j]!;
  if (a === 0) return;
  const k = split.label ? split.label[i * p + kk]! : kk;
  const st = split.start[i * p + j]!;
  const c = partCount(a, p, st, k);
  if (c > 0) b.chunk(i, j, partOffset(a, p, st, k), c);
}

/** Emits stage 1 or 2, round by round (`progress`: rounds emitted). */
function emitStage(
  b: ScheduleBuilder,
  m: CommMatrix,
  split: TwoStageSplit,
  schedule: StageSchedule,
  stage: 1 | 2,
  progress: ProgressCallback | null,
): void {
  const { p } = m;
  const sizes = stage === 1 ? split.stage1 : split.stage2;
  const rounds = stageRounds(schedule, p);
  const tick = progressTicker(progress, rounds.length);
  let tickMark = tick(0);
  for (let x = 0; x < rounds.length; x++) {
    const round = rounds[x]!;
    if (x >= tickMark) tickMark = tick(x);
    b.step();
    for (let u = 0; u < p; u++) {
      const v = roundPartner(schedule, p, round, u);
      if (v < 0 || v === u) continue;
      const size = sizes[u * p + v]!;
      if (size === 0) continue;
      b.transfer(u, v, size);
      if (!b.payload) continue;
      // stage 1: source u's parts for intermediate v; stage 2: every source's parts held by u for destination v
      if (stage === 1) for (let j = 0; j < p; j++) emitPart(b, m, split, u, j, v);
      else for (let i = 0; i < p; i++) emitPart(b, m, split, i, v, u);
    }
    b.dropEmptyStep();
  }
  tick(Infinity);
}

/** Weights of two-stage's progress: the split, stage 1, stage 2 (both round by round), the schedule built. */
const twoStageProgress = (payload: boolean): number[] =>
  payload ? [50, 325, 325, buildWeight(true)] : [300, 325, 325, buildWeight(false)];

function plan(m: CommMatrix, opts: PlanOptions<Resolved<typeof TWO_STAGE_PARAMS>>): Schedule {
  const params = twoStageParams(opts.params);
  const { p } = m;
  let expectedChunks = 0;
  if (opts.payload) {
    if (p > MAX_TWO_STAGE_PAYLOAD_P)
      throw fail(
        "planner",
        "UNSUPPORTED",
        `two-stage: payload plans are limited to P <= ${MAX_TWO_STAGE_PAYLOAD_P} (got P = ${p}); plan at message level (without the option payload)`,
        { field: "payload" },
      );
    const n = chunkEstimate(m);
    expectedChunks = n;
    if (n > MAX_TWO_STAGE_CHUNKS)
      throw fail(
        "planner",
        "UNSUPPORTED",
        `two-stage: a payload plan would need about ${n} chunks (limit ${MAX_TWO_STAGE_CHUNKS}); plan at message level (without the option payload)`,
        { field: "payload" },
      );
  }
  checkTwoStageMemory(m, opts, params.reshuffle);
  const progress = progressPhases(opts.progress, twoStageProgress(opts.payload));
  const split = twoStageSplit(m, params.reshuffle, opts.seed, progress.phase(0));
  const header = {
    ...planHeader(m, "two-stage", opts, params.reshuffle),
    params: { schedule: params.schedule, reshuffle: params.reshuffle },
  };
  const b = new ScheduleBuilder(header, opts.payload, 2 * p * Math.max(1, p - 1), false, expectedChunks);
  b.stage("1: sources to intermediates", "distribute");
  emitStage(b, m, split, params.schedule, 1, progress.phase(1));
  b.stage("2: intermediates to destinations", "collect");
  emitStage(b, m, split, params.schedule, 2, progress.phase(2));
  const s = b.build();
  progress.end();
  return s;
}

/** Flat time of two-stage (no reshuffle) with the given stage schedule, from its split (twoStageSplit). */
export function predictTwoStage(
  m: CommMatrix,
  machine: MachineModel,
  mode: FlatMode,
  schedule: StageSchedule,
  split: { readonly stage1: Float64Array; readonly stage2: Float64Array } = twoStageSplit(m, false, 1),
): number {
  const { p } = m;
  const f = tally(m, machine, mode);
  const { stage1, stage2 } = split;
  groupStage(f, p, schedule, p, 1, stage1);
  f.endStage(true);
  groupStage(f, p, schedule, p, 1, stage2);
  f.endStage(true);
  return f.total;
}

/**
 * Largest P whose two-stage split (three P x P arrays) auto's screen computes for its formula; above it two-stage gets
 * a bound.
 */
const TWO_STAGE_FORMULA_MAX_P = 4096;

/** The split of the screen's matrix, shared by both schedule variants. */
const SPLIT_KEY = "two-stage split";

/** auto's prediction: predictTwoStage for the variants that set only `schedule`, up to TWO_STAGE_FORMULA_MAX_P. */
function predict(
  m: CommMatrix,
  machine: MachineModel,
  mode: FlatMode,
  params: { readonly [k: string]: unknown },
  cache: PredictCache,
): number | null {
  if (m.p > TWO_STAGE_FORMULA_MAX_P || Object.keys(params).some((k) => k !== "schedule")) return null;
  let split = cache.get(SPLIT_KEY) as TwoStageSplit | undefined;
  if (split === undefined) {
    split = twoStageSplit(m, false, 1);
    cache.set(SPLIT_KEY, split);
  }
  return predictTwoStage(m, machine, mode, variantStageSchedule(params), split);
}

/** The two-stage planner (000 sec 6; A2 of 004). */
export const twoStage: Planner = definePlanner(
  {
    name: "two-stage",
    title: "A2: every message split over all p intermediates (round-robin residuals), then forwarded",
    source: "000 sec 6, figs 6-8, 6.3; 004 sec 3.1.2",
    params: TWO_STAGE_PARAMS,
    traits: { relayed: true, randomised: true, stages: 2, growth: "superlinear", claims: "verifier" },
    auto: {
      variants: [{ params: { schedule: "shift" } }, { params: { schedule: "linear-permutation" } }],
      predict,
      bound: "two-relays",
      stagesRearrange: true,
    },
  },
  plan,
);
