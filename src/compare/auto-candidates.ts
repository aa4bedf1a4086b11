/** The candidates `--algorithm auto` weighs: every applicable planner with the parameter variants worth trying, and its cheap analytic screen. */
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { JsonValue, Schedule } from "../model/schedule.js";
import { isCommplanError } from "../model/errors.js";
import { scheduleCost, type CostMode } from "../machines/cost-model.js";
import { findPlanner, resolvePlanOptions } from "../planner/registry.js";
import { twoStageSplit } from "../planner/index.js";
import {
  matrixLoad,
  predictHierarchical,
  predictLinearPermutation,
  predictMeshTwoStage,
  predictShift,
  predictTwoStage,
  wholeMessageBound,
  type MatrixLoad,
} from "./auto-predict.js";

/** One planner with one set of parameters. */
export interface AutoVariant {
  readonly algorithm: string;
  readonly params: { readonly [k: string]: JsonValue };
}

/**
 * The variants auto tries, in tie-break order (the earlier wins a tie). The total-exchange planners
 * route unit packets (001); te-offline, the best of them (docs/algorithms/total-exchange.md), stands
 * for the family.
 */
export const AUTO_VARIANTS: readonly AutoVariant[] = [
  { algorithm: "shift", params: {} },
  { algorithm: "linear-permutation", params: {} },
  { algorithm: "rs-n", params: {} },
  { algorithm: "rs-nh", params: {} },
  { algorithm: "coloring", params: {} },
  { algorithm: "split-coloring", params: {} },
  { algorithm: "two-stage", params: { schedule: "shift" } },
  { algorithm: "two-stage", params: { schedule: "linear-permutation" } },
  { algorithm: "mesh-two-stage", params: { schedule: "shift" } },
  { algorithm: "mesh-two-stage", params: { schedule: "linear-permutation" } },
  { algorithm: "hierarchical", params: {} },
  { algorithm: "four-stage", params: {} },
  { algorithm: "te-offline", params: {} },
];

/**
 * The planners among AUTO_VARIANTS whose plans are direct (every element goes from its source to its
 * destination in one transfer, at least one transfer per non-zero pair: src/bounds/schedule-class.ts),
 * so the direct lower bounds of docs/bounds.md hold for them; a test checks it on their plans.
 */
export const DIRECT_VARIANTS: ReadonlySet<string> = new Set([
  "shift",
  "linear-permutation",
  "rs-n",
  "rs-nh",
  "coloring",
  "split-coloring",
]);

/**
 * rs-nh's planning time grows fast with the messages (up to seven cutoff-rule runs, each scanning
 * past the destinations taken in a phase: 4.9-8.0 x rs-n in bench/results/permutation.md), and no cheap
 * bound tells it apart from coloring: it is planned only up to this many messages (P = 64 dense). In
 * bench/results/auto.md, a limit of 1,024 left one case 1.071 x the best (rs-nh unplanned) and 4,096
 * none beyond 1.05, at the same median cost.
 */
export const RS_NH_MAX_MESSAGES = 4096;
/** The total-exchange planners make one transfer per element: planned only up to this many off-diagonal elements. */
export const TE_MAX_ELEMENTS = 1 << 14;

/** What the screen found for one variant. */
export interface ScreenResult {
  readonly variant: AutoVariant;
  /** Predicted time (us) by the flat cost model (a formula, or the plan priced), or null when not known. */
  predicted: number | null;
  /** How `predicted` was found: formula (exact, from the matrix), planned (plan priced), or null (bound only, skipped or refused). */
  how: "formula" | "planned" | null;
  /** A lower bound (us) on the flat time of a variant without a formula, until it is planned. */
  bound: number | null;
  /** The plan (no payload) once planned (finalists and the variants whose bound let them near the top); else null. */
  schedule: Schedule | null;
  /** Why the variant was not planned or not applicable; "" otherwise. */
  note: string;
  /** Milliseconds spent predicting, planning and pricing it; for benches, never in a header. */
  ms: number;
}

/** A short label: `two-stage(schedule=shift)`, `coloring`. */
export function variantLabel(v: AutoVariant): string {
  const keys = Object.keys(v.params).sort();
  return keys.length === 0
    ? v.algorithm
    : `${v.algorithm}(${keys.map((k) => `${k}=${String(v.params[k])}`).join(",")})`;
}

/** Largest P whose two-stage split (three P x P arrays) the screen computes for its formula; above it two-stage gets a bound. */
const TWO_STAGE_FORMULA_MAX_P = 4096;

/**
 * The exact flat time of v by formula (auto-predict.ts: what the planner would emit, priced
 * without building the schedule), or null when v has none (its time depends on a search).
 */
function formulaTime(
  v: AutoVariant,
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  ctx: FormulaCache,
): number | null {
  const schedule = v.params.schedule === "linear-permutation" ? "linear-permutation" : "shift";
  switch (v.algorithm) {
    case "shift":
      return predictShift(m, machine, mode);
    case "linear-permutation":
      return predictLinearPermutation(m, machine, mode);
    case "mesh-two-stage":
      return predictMeshTwoStage(m, machine, mode, schedule);
    case "hierarchical":
      return predictHierarchical(m, machine, mode);
    case "two-stage":
      if (m.p > TWO_STAGE_FORMULA_MAX_P || Object.keys(v.params).some((k) => k !== "schedule")) return null;
      ctx.split ??= twoStageSplit(m, false, 1);
      return predictTwoStage(m, machine, mode, schedule, ctx.split);
    default:
      return null;
  }
}

interface FormulaCache {
  split?: ReturnType<typeof twoStageSplit>;
  whole?: number;
}

/**
 * A lower bound on the flat time of v, from the matrix alone (for the variants without a formula):
 * coloring and rs-n, whole messages in partial permutations, wholeMessageBound; any one-stage
 * contention-free direct plan (split-coloring, rs-nh, which cut messages) needs the start-up
 * and the bytes of every message of its busiest node, one after the other (blocking) or pipelined
 * (nonblocking), plus its rearrangement; two-stage and the relaying four-stage move each byte of the
 * busiest node at least twice / once (four-stage in four stages, a barrier each, the first of which
 * rearranges every byte a node sends); total-exchange plans need a round per element.
 */
function variantBound(
  v: AutoVariant,
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  load: MatrixLoad,
  ctx: FormulaCache,
): number {
  const { barrier, ts, tc, td, tm } = machine;
  const per = m.elementBytes * (mode === "blocking" ? tc + td : Math.max(tc, td));
  // a total exchange of nothing plans no stage at all
  if (v.algorithm.startsWith("te-"))
    return load.total === 0 ? 0 : barrier + load.most * (mode === "blocking" ? ts + per : per);
  if (v.algorithm === "two-stage") return 2 * barrier + ((2 * (m.p - 1)) / m.p) * load.most * per;
  // four-stage's first stage distributes every element a node sends to another into buckets, the own
  // column's by a local copy: its rearrangement handles the busiest sender's bytes
  if (v.algorithm === "four-stage") return 4 * barrier + load.mostSentBytes * tm + load.most * per;
  if (v.algorithm === "coloring" || v.algorithm === "rs-n")
    return (ctx.whole ??= wholeMessageBound(m, machine, mode, load));
  return barrier + load.mostSentBytes * tm + load.direct;
}

/** Above this P a sparse matrix is screened by its O(E) candidates only (docs/sparse.md). */
export const SPARSE_SUPERLINEAR_MAX_P = 4096;
/** The variants whose plans grow faster than the messages (P^2, P sqrt(P) or (P / g)^2 transfers, or one per element). */
const SUPERLINEAR = new Set(["two-stage", "mesh-two-stage", "hierarchical", "four-stage", "te-offline"]);

/** Why variant v is not planned for m (a cheap test, before planning); "" when it is. */
function skipReason(v: AutoVariant, m: CommMatrix, load: MatrixLoad): string {
  if (m.sparse && m.p > SPARSE_SUPERLINEAR_MAX_P && SUPERLINEAR.has(v.algorithm))
    return `not planned: a sparse matrix at P = ${m.p} > ${SPARSE_SUPERLINEAR_MAX_P}, and its plans grow faster than the messages (docs/sparse.md)`;
  if (v.algorithm === "rs-nh" && load.messages > RS_NH_MAX_MESSAGES)
    return `not planned above ${RS_NH_MAX_MESSAGES} messages (${load.messages}; its planning time grows fast; coloring stands for it)`;
  if (v.algorithm === "te-offline" && load.total > TE_MAX_ELEMENTS)
    return `not planned: ${load.total} unit packets > ${TE_MAX_ELEMENTS}`;
  return "";
}

/** Plans variant v (no payload); null and the error text when the planner refuses the matrix. */
export function planVariant(
  m: CommMatrix,
  v: AutoVariant,
  machine: MachineModel,
  seed: number,
  payload = false,
  maxMemory?: number,
): { schedule: Schedule | null; error: string } {
  const planner = findPlanner(v.algorithm);
  const budget = maxMemory === undefined ? {} : { maxMemory };
  try {
    return {
      schedule: planner.plan(m, resolvePlanOptions(planner, { payload, seed, machine, params: v.params, ...budget })),
      error: "",
    };
  } catch (e) {
    if (isCommplanError(e)) return { schedule: null, error: e.message };
    throw e;
  }
}

/** Plans r's variant if it has no plan yet; a variant without a formula is then priced. False when the planner refuses the matrix (r then has no prediction). */
export function ensurePlanned(
  r: ScreenResult,
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  seed: number,
  maxMemory?: number,
): boolean {
  if (r.schedule !== null) return true;
  const t0 = performance.now();
  const { schedule, error } = planVariant(m, r.variant, machine, seed, false, maxMemory);
  if (schedule === null) {
    Object.assign(r, { predicted: null, how: null, note: `not applicable: ${error}` });
  } else {
    r.schedule = schedule;
    if (r.how !== "formula")
      Object.assign(r, { predicted: scheduleCost(schedule, machine, mode).total, how: "planned" });
  }
  r.ms += performance.now() - t0;
  return schedule !== null;
}

/** The `keep` best known predictions (ties: the earlier variant), bounds standing in for the variants not planned yet. */
function leaders(out: readonly ScreenResult[], keep: number, order: (r: ScreenResult) => number): ScreenResult[] {
  const value = (r: ScreenResult): number => r.predicted ?? r.bound ?? Infinity;
  return out
    .filter((r) => r.predicted !== null || r.bound !== null)
    .sort((a, b) => value(a) - value(b) || order(a) - order(b))
    .slice(0, keep);
}

/** The screen's variants and how to price the ones it has not priced yet (see screenFormulas). */
export interface Screen {
  readonly results: ScreenResult[];
  /** Prices every variant not priced, planned or ruled out yet (a formula or a bound). */
  priceRest(): void;
}

/**
 * The screen's first half, planning nothing: the structured planners (shift, linear permutation,
 * mesh-two-stage, hierarchical, two-stage) are priced by formula from the matrix (exactly their flat
 * cost-model time, docs/cost-model.md); the others get a lower bound on their flat time. With
 * `defer`, nothing is priced yet (only the variants that do not apply are noted): `priceRest` prices
 * what is still open, after the caller has planned or ruled out some.
 */
export function screenFormulas(
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  variants: readonly AutoVariant[] = AUTO_VARIANTS,
  defer = false,
): Screen {
  const t0 = performance.now();
  const load = matrixLoad(m, machine, mode);
  const ctx: FormulaCache = {};
  const results: ScreenResult[] = variants.map((v) => ({
    variant: v,
    predicted: null,
    how: null,
    bound: null,
    schedule: null,
    note: skipReason(v, m, load),
    ms: 0,
  }));
  // the matrix's loads, shared by every variant
  const shared = (performance.now() - t0) / Math.max(1, results.length);
  for (const r of results) r.ms += shared;
  const priceRest = (): void => {
    for (const r of results) {
      if (r.note !== "" || r.schedule !== null || r.predicted !== null || r.bound !== null) continue;
      const t1 = performance.now();
      r.predicted = formulaTime(r.variant, m, machine, mode, ctx);
      if (r.predicted === null) r.bound = variantBound(r.variant, m, machine, mode, load, ctx);
      else r.how = "formula";
      r.ms += performance.now() - t1;
    }
  };
  if (!defer) priceRest();
  return { results, priceRest };
}

/**
 * The screen's second half: the variants without a formula are planned and priced only while their
 * bound is among the `keep` best values (lazily, until the `keep` best are all planned). As the
 * bounds hold, the `keep` best predictions are those that planning and pricing every variant would
 * give. Variants with a note already (skipped, or ruled out by auto) take no part.
 */
export function planLeaders(
  out: readonly ScreenResult[],
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  seed: number,
  keep: number,
  maxMemory?: number,
): void {
  const order = (r: ScreenResult): number => out.indexOf(r);
  // a planner that refuses the matrix gets a note here, and is out (its bound no longer stands in)
  const open = (): ScreenResult[] => out.filter((r) => r.note === "" || r.schedule !== null);
  for (;;) {
    const todo = leaders(open(), keep, order).filter((r) => r.schedule === null);
    if (todo.length === 0) break;
    for (const r of todo) ensurePlanned(r, m, machine, mode, seed, maxMemory);
  }
  const bar = leaders(open(), keep, order).at(-1)?.predicted;
  for (const r of out)
    if (r.how === null && r.bound !== null && r.note === "")
      r.note = `not planned: its lower bound ${round(r.bound)} us >= ${round(bar ?? Infinity)} us, the last of the ${keep} best predictions`;
}

/**
 * The analytic screen, without planning what it need not (screenFormulas, then planLeaders): the
 * `keep` best predictions are those that planning and pricing every variant would give, and are
 * returned planned.
 */
export function screenVariants(
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  seed: number,
  keep: number,
  variants: readonly AutoVariant[] = AUTO_VARIANTS,
): ScreenResult[] {
  const out = screenFormulas(m, machine, mode, variants).results;
  planLeaders(out, m, machine, mode, seed, keep);
  return out;
}

/** x rounded to 3 decimals (times in headers and reports). */
export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
