/**
 * The candidates `--algorithm auto` weighs: every applicable planner with the parameter variants worth trying, and its
 * cheap analytic screen.
 */
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { JsonValue, Schedule } from "../model/schedule.js";
import { isCommplanError } from "../model/errors.js";
import { scheduleCost, type CostMode } from "../machines/cost-model.js";
import { PLANNERS, autoProfileOf, findPlanner, resolvePlanOptions } from "../planner/registry.js";
import type { AutoVariantSpec, Planner, PredictCache } from "../planner/types.js";
import { boundOfKind, matrixLoad, type MatrixLoad } from "./predict.js";

/** One planner with one set of parameters. */
export interface AutoVariant {
  readonly algorithm: string;
  readonly params: { readonly [k: string]: JsonValue };
}

/** A variant with the AutoVariantSpec it comes from. */
export interface AutoVariantEntry {
  readonly variant: AutoVariant;
  readonly spec: AutoVariantSpec;
}

/**
 * The variants of the planners with an auto profile (Planner.auto), in tie-break order (the earlier wins a
 * tie): by their priority (default 0), then registry order, then the order of the planner's own variants.
 */
export function autoVariantEntries(planners: readonly Planner[] = PLANNERS): AutoVariantEntry[] {
  const entries = planners.flatMap((p) =>
    (autoProfileOf(p)?.variants ?? []).map((spec) => ({ variant: { algorithm: p.name, params: spec.params }, spec })),
  );
  // Array.prototype.sort is stable: equal priorities keep registry order
  return entries.sort((a, b) => (a.spec.priority ?? 0) - (b.spec.priority ?? 0));
}

/** The variants auto weighs among `planners` (default the registry), in tie-break order (autoVariantEntries). */
export function autoVariants(planners: readonly Planner[] = PLANNERS): AutoVariant[] {
  return autoVariantEntries(planners).map((e) => e.variant);
}

/**
 * The variants auto tries, in tie-break order (the earlier wins a tie), from the registry's auto profiles.
 * The total-exchange planners route unit packets (001); te-offline, the best of them
 * (docs/algorithms/total-exchange.md), stands for the family.
 */
export const AUTO_VARIANTS: readonly AutoVariant[] = autoVariants();

/**
 * The planners among AUTO_VARIANTS whose plans are direct (not `traits.relayed`: every element goes from its
 * source to its destination in one transfer, at least one transfer per non-zero pair:
 * src/bounds/schedule-class.ts), so the direct lower bounds of docs/bounds.md hold for them; a test checks
 * it on their plans.
 */
export const DIRECT_VARIANTS: ReadonlySet<string> = directVariants();

/** The names of the planners among `planners` with an auto profile whose plans are direct (DIRECT_VARIANTS). */
export function directVariants(planners: readonly Planner[] = PLANNERS): ReadonlySet<string> {
  return new Set(planners.filter((p) => autoProfileOf(p) !== null && !p.traits.relayed).map((p) => p.name));
}

/** The planner called `name` among `planners`, else in the registry (which throws for an unknown name). */
export function plannerIn(planners: readonly Planner[], name: string): Planner {
  return planners.find((p) => p.name === name) ?? findPlanner(name);
}

/** What the screen found for one variant. */
export interface ScreenResult {
  readonly variant: AutoVariant;
  /** Predicted time (us) by the flat cost model (a formula, or the plan priced), or null when not known. */
  predicted: number | null;
  /**
   * How `predicted` was found: formula (exact, from the matrix), planned (plan priced), or null (bound only, skipped or
   * refused).
   */
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

/**
 * The exact flat time of v by its planner's prediction (AutoProfile.predict: what the planner would emit,
 * priced without building the schedule), or null when it has none (its time depends on a search).
 */
function formulaTime(
  v: AutoVariant,
  planner: Planner,
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  ctx: FormulaCache,
): number | null {
  const predict = autoProfileOf(planner)?.predict;
  return predict === undefined ? null : predict(m, machine, mode, v.params, ctx.predictions);
}

interface FormulaCache {
  readonly predictions: PredictCache;
  whole?: number;
}

/**
 * A lower bound on the flat time of v, from the matrix alone (for the variants without a prediction): the
 * bound of its planner's AutoBoundKind (boundOfKind); 0 (every time is at least that) for a planner without one.
 */
function variantBound(
  planner: Planner,
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  load: MatrixLoad,
  ctx: FormulaCache,
): number {
  const kind = autoProfileOf(planner)?.bound;
  return kind === undefined ? 0 : boundOfKind(kind, m, machine, mode, load, ctx);
}

/** Above this P a sparse matrix is screened by its O(E) candidates only (docs/sparse.md). */
export const SPARSE_SUPERLINEAR_MAX_P = 4096;
/** Why variant v of `planner` is not planned for m (a cheap test, before planning); "" when it is. */
function skipReason(planner: Planner, m: CommMatrix, load: MatrixLoad): string {
  const profile = autoProfileOf(planner);
  // plans that grow faster than the messages (P^2, P sqrt(P) or (P / g)^2 transfers, or one per element)
  if (m.sparse && m.p > SPARSE_SUPERLINEAR_MAX_P && profile !== null && planner.traits.growth === "superlinear")
    return `not planned: a sparse matrix at P = ${m.p} > ${SPARSE_SUPERLINEAR_MAX_P}, and its plans grow faster than the messages (docs/sparse.md)`;
  const most = profile?.maxMessages;
  if (most !== undefined && load.messages > most.limit)
    return `not planned above ${most.limit} messages (${load.messages}; ${most.why})`;
  const elements = profile?.maxElements;
  if (elements !== undefined && load.total > elements) return `not planned: ${load.total} unit packets > ${elements}`;
  return "";
}

/** What auto plans with: the planners to weigh (default the registry) and the bytes a plan may take. */
export interface Planning {
  readonly planners?: readonly Planner[];
  readonly maxMemory?: number;
}

/** Plans variant v (no payload); null and the error text when the planner refuses the matrix. */
export function planVariant(
  m: CommMatrix,
  v: AutoVariant,
  machine: MachineModel,
  seed: number,
  payload = false,
  planning: Planning = {},
): { schedule: Schedule | null; error: string } {
  const planner = plannerIn(planning.planners ?? PLANNERS, v.algorithm);
  const budget = planning.maxMemory === undefined ? {} : { maxMemory: planning.maxMemory };
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

/**
 * Plans r's variant if it has no plan yet; a variant without a formula is then priced. False when the planner refuses
 * the matrix (r then has no prediction).
 */
export function ensurePlanned(
  r: ScreenResult,
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  seed: number,
  planning: Planning = {},
): boolean {
  if (r.schedule !== null) return true;
  const t0 = performance.now();
  const { schedule, error } = planVariant(m, r.variant, machine, seed, false, planning);
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

/**
 * Relative slack within which two flat predictions (or a bound and a prediction) count as equal: the flat model gives
 * plans of the same shape the same time (in nonblocking mode every one-stage direct plan is priced alike), and a
 * formula and a priced plan add the same times in other orders, so a cut between equal values would be decided by
 * registry order rather than by the model.
 */
export const PREDICTION_TIE_SLACK = 1e-9;

/** Whether x is at most `cut` up to PREDICTION_TIE_SLACK: x cannot be told from the cut or is below it. */
export function withinCut(x: number, cut: number): boolean {
  return x <= cut + Math.abs(cut) * PREDICTION_TIE_SLACK;
}

/**
 * The `keep` best known predictions, bounds standing in for the variants not planned yet, and every variant tied with
 * the last of them (withinCut: the prediction cannot separate them, so none is cut off by registry order).
 */
function leaders(out: readonly ScreenResult[], keep: number, order: (r: ScreenResult) => number): ScreenResult[] {
  const value = (r: ScreenResult): number => r.predicted ?? r.bound ?? Infinity;
  const sorted = out
    .filter((r) => r.predicted !== null || r.bound !== null)
    .sort((a, b) => value(a) - value(b) || order(a) - order(b));
  const last = sorted[Math.min(keep, sorted.length) - 1];
  if (last === undefined) return [];
  return sorted.filter((r, x) => x < keep || withinCut(value(r), value(last)));
}

/** A figure of a note beside `other`: rounded, unless the rounding would make the two read equal. */
function beside(x: number, other: number): number {
  return round(x) === round(other) ? x : round(x);
}

/** The screen's variants and how to price the ones it has not priced yet (see screenFormulas). */
export interface Screen {
  readonly results: ScreenResult[];
  /** Prices every variant not priced, planned or ruled out yet (a formula or a bound). */
  priceRest(): void;
}

/**
 * The screen's first half, planning nothing: the planners with a prediction (AutoProfile.predict: shift,
 * linear permutation, mesh-two-stage, hierarchical, two-stage) are priced by formula from the matrix (exactly
 * their flat cost-model time, docs/cost-model.md); the others get a lower bound on their flat time. With
 * `defer`, nothing is priced yet (only the variants that do not apply are noted): `priceRest` prices
 * what is still open, after the caller has planned or ruled out some.
 */
export function screenFormulas(
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  variants: readonly AutoVariant[] = AUTO_VARIANTS,
  defer = false,
  planners: readonly Planner[] = PLANNERS,
): Screen {
  const t0 = performance.now();
  const load = matrixLoad(m, machine, mode);
  const ctx: FormulaCache = { predictions: new Map() };
  const of = variants.map((v) => plannerIn(planners, v.algorithm));
  const results: ScreenResult[] = variants.map((v, x) => ({
    variant: v,
    predicted: null,
    how: null,
    bound: null,
    schedule: null,
    note: skipReason(of[x]!, m, load),
    ms: 0,
  }));
  // the matrix's loads, shared by every variant
  const shared = (performance.now() - t0) / Math.max(1, results.length);
  for (const r of results) r.ms += shared;
  const priceRest = (): void => {
    results.forEach((r, x) => {
      if (r.note !== "" || r.schedule !== null || r.predicted !== null || r.bound !== null) return;
      const t1 = performance.now();
      r.predicted = formulaTime(r.variant, of[x]!, m, machine, mode, ctx);
      if (r.predicted === null) r.bound = variantBound(of[x]!, m, machine, mode, load, ctx);
      else r.how = "formula";
      r.ms += performance.now() - t1;
    });
  };
  if (!defer) priceRest();
  return { results, priceRest };
}

/**
 * The screen's second half: the variants without a formula are planned and priced only while their
 * bound is among the `keep` best values or tied with the last of them (withinCut; lazily, until those are all
 * planned). As the bounds hold, the `keep` best predictions, and those tied with the last of them, are those that
 * planning and pricing every variant would give. Variants with a note already (skipped, or ruled out by auto) take
 * no part.
 */
export function planLeaders(
  out: readonly ScreenResult[],
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  seed: number,
  keep: number,
  planning: Planning = {},
): void {
  const order = (r: ScreenResult): number => out.indexOf(r);
  // a planner that refuses the matrix gets a note here, and is out (its bound no longer stands in)
  const open = (): ScreenResult[] => out.filter((r) => r.note === "" || r.schedule !== null);
  for (;;) {
    const todo = leaders(open(), keep, order).filter((r) => r.schedule === null);
    if (todo.length === 0) break;
    for (const r of todo) ensurePlanned(r, m, machine, mode, seed, planning);
  }
  const bar = leaders(open(), keep, order).at(-1)?.predicted ?? Infinity;
  // a bound tied with the last of the best predictions was planned above: only a bound above it leaves a variant out
  for (const r of out)
    if (r.how === null && r.bound !== null && r.note === "")
      r.note = `not planned: its lower bound ${beside(r.bound, bar)} us > ${beside(bar, r.bound)} us, the last of the ${keep} best predictions`;
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
  planners: readonly Planner[] = PLANNERS,
): ScreenResult[] {
  const out = screenFormulas(m, machine, mode, variants, false, planners).results;
  planLeaders(out, m, machine, mode, seed, keep, { planners });
  return out;
}

/** x rounded to 3 decimals (times in headers and reports). */
export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
