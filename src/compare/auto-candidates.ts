/** The candidates `--algorithm auto` weighs: every applicable planner with the parameter variants worth trying, and its cheap analytic screen. */
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { JsonValue, Schedule } from "../model/schedule.js";
import { isCommplanError } from "../model/errors.js";
import { scheduleCost, type CostMode } from "../machines/cost-model.js";
import { findPlanner, resolvePlanOptions } from "../planner/registry.js";

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
  { algorithm: "four-stage", params: {} },
  { algorithm: "te-offline", params: {} },
];

/** rs-nh's planning time grows about as P^3 (10 s at P = 1,024): it is planned only up to this P. */
export const RS_NH_MAX_P = 256;
/** The total-exchange planners make one transfer per element: planned only up to this many off-diagonal elements. */
export const TE_MAX_ELEMENTS = 1 << 16;

/** What the screen found for one variant. */
export interface ScreenResult {
  readonly variant: AutoVariant;
  /** Predicted time (us) by the flat cost model, or null when the variant was not planned. */
  readonly predicted: number | null;
  /** The plan (no payload), kept for the finalists; null when not planned. */
  readonly schedule: Schedule | null;
  /** Why the variant was not planned or not applicable; "" when it was planned. */
  readonly note: string;
}

/** A short label: `two-stage(schedule=shift)`, `coloring`. */
export function variantLabel(v: AutoVariant): string {
  const keys = Object.keys(v.params).sort();
  return keys.length === 0
    ? v.algorithm
    : `${v.algorithm}(${keys.map((k) => `${k}=${String(v.params[k])}`).join(",")})`;
}

/** Off-diagonal elements and the most elements one node sends or receives (the h of an element-level h-relation). */
function elementLoad(m: CommMatrix): { total: number; most: number } {
  const { p, data } = m;
  const col = new Float64Array(p);
  let total = 0,
    most = 0;
  for (let i = 0; i < p; i++) {
    let row = 0;
    for (let j = 0; j < p; j++) {
      if (i === j) continue;
      const v = data[i * p + j]!;
      row += v;
      col[j] = col[j]! + v;
    }
    total += row;
    if (row > most) most = row;
  }
  for (let j = 0; j < p; j++) if (col[j]! > most) most = col[j]!;
  return { total, most };
}

/** Why variant v is not planned for m (a cheap test, before planning); "" when it is. */
function skipReason(v: AutoVariant, m: CommMatrix, load: { total: number; most: number }): string {
  if (v.algorithm === "mesh-two-stage" && Math.round(Math.sqrt(m.p)) ** 2 !== m.p)
    return `needs P a perfect square (P = ${m.p})`;
  if (v.algorithm === "rs-nh" && m.p > RS_NH_MAX_P)
    return `not planned above P = ${RS_NH_MAX_P} (planning grows as P^3; coloring stands for it)`;
  if (v.algorithm === "te-offline" && load.total > TE_MAX_ELEMENTS)
    return `not planned: ${load.total} unit packets > ${TE_MAX_ELEMENTS}`;
  return "";
}

/**
 * A lower bound on a total-exchange plan's flat blocking time without planning it: every round moves
 * one element per node, so at least `most` rounds of T_s + b (t_c + t_d).
 */
function unitPacketBound(m: CommMatrix, machine: MachineModel, most: number): number {
  return most * (machine.ts + m.elementBytes * (machine.tc + machine.td));
}

/** Plans variant v (no payload); null and the error text when the planner refuses the matrix. */
export function planVariant(
  m: CommMatrix,
  v: AutoVariant,
  machine: MachineModel,
  seed: number,
  payload = false,
): { schedule: Schedule | null; error: string } {
  const planner = findPlanner(v.algorithm);
  try {
    return {
      schedule: planner.plan(m, resolvePlanOptions(planner, { payload, seed, machine, params: v.params })),
      error: "",
    };
  } catch (e) {
    if (isCommplanError(e)) return { schedule: null, error: e.message };
    throw e;
  }
}

/**
 * The analytic screen: plans every applicable variant that is cheap to plan and prices it with the
 * flat cost model (docs/cost-model.md); the total-exchange family is priced by a lower bound first
 * and planned only if that bound could beat the best prediction so far.
 */
export function screenVariants(
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  seed: number,
  variants: readonly AutoVariant[] = AUTO_VARIANTS,
): ScreenResult[] {
  const load = elementLoad(m);
  const out: ScreenResult[] = [];
  let best = Infinity;
  const deferred: AutoVariant[] = [];
  for (const v of variants) {
    const why = skipReason(v, m, load);
    if (why !== "") {
      out.push({ variant: v, predicted: null, schedule: null, note: why });
      continue;
    }
    if (v.algorithm.startsWith("te-")) {
      deferred.push(v);
      continue;
    }
    const { schedule, error } = planVariant(m, v, machine, seed);
    if (!schedule) {
      out.push({ variant: v, predicted: null, schedule: null, note: `not applicable: ${error}` });
      continue;
    }
    const predicted = scheduleCost(schedule, machine, mode).total;
    best = Math.min(best, predicted);
    out.push({ variant: v, predicted, schedule, note: "" });
  }
  for (const v of deferred) {
    const bound = unitPacketBound(m, machine, load.most);
    if (bound >= best) {
      out.push({
        variant: v,
        predicted: null,
        schedule: null,
        note: `screened out: its lower bound ${round(bound)} us >= ${round(best)} us`,
      });
      continue;
    }
    const { schedule, error } = planVariant(m, v, machine, seed);
    if (!schedule) out.push({ variant: v, predicted: null, schedule: null, note: `not applicable: ${error}` });
    else out.push({ variant: v, predicted: scheduleCost(schedule, machine, mode).total, schedule, note: "" });
  }
  const order = (v: AutoVariant): number => variants.indexOf(v);
  return out.sort((a, b) => order(a.variant) - order(b.variant));
}

/** x rounded to 3 decimals (times in headers and reports). */
export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
