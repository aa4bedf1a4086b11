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
  { algorithm: "hierarchical", params: {} },
  { algorithm: "four-stage", params: {} },
  { algorithm: "te-offline", params: {} },
];

/** rs-nh's planning time grows fast with the messages (20 ms for 4,032 at P = 64, 0.2-2.5 s at P = 256, 106 s at P = 1,024): it is planned only up to this many messages (P = 64 dense). */
export const RS_NH_MAX_MESSAGES = 4096;
/** The total-exchange planners make one transfer per element: planned only up to this many off-diagonal elements. */
export const TE_MAX_ELEMENTS = 1 << 14;

/** The order the screen plans in: the cheap planners first, so that the lower bounds of the dear ones can rule them out. */
const SCREEN_ORDER = [
  "shift",
  "linear-permutation",
  "mesh-two-stage",
  "hierarchical",
  "four-stage",
  "coloring",
  "rs-n",
  "split-coloring",
  "rs-nh",
  "two-stage",
  "te-offline",
];
/** Planners always planned (never ruled out by a bound): shift and linear permutation are always finalists; mesh-two-stage is cheap. */
const ALWAYS = new Set(["shift", "linear-permutation", "mesh-two-stage"]);

/** What the screen found for one variant. */
export interface ScreenResult {
  readonly variant: AutoVariant;
  /** Predicted time (us) by the flat cost model, or null when the variant was not planned. */
  readonly predicted: number | null;
  /** The plan (no payload), kept for the finalists; null when not planned. */
  readonly schedule: Schedule | null;
  /** Why the variant was not planned or not applicable; "" when it was planned. */
  readonly note: string;
  /** Milliseconds spent planning and pricing it (0 when not planned); for benches, never in a header. */
  readonly ms: number;
}

/** A short label: `two-stage(schedule=shift)`, `coloring`. */
export function variantLabel(v: AutoVariant): string {
  const keys = Object.keys(v.params).sort();
  return keys.length === 0
    ? v.algorithm
    : `${v.algorithm}(${keys.map((k) => `${k}=${String(v.params[k])}`).join(",")})`;
}

/** What the screen's bounds need, from one pass over the matrix. */
interface Load {
  /** Off-diagonal elements. */
  readonly total: number;
  /** Non-empty off-diagonal messages. */
  readonly messages: number;
  /** Most off-diagonal elements one node sends or receives (the h of an element-level h-relation). */
  readonly most: number;
  /** max over nodes of the sum over its messages, sent or received, of T_s + bytes (t_c + t_d): a lower bound on any one-port plan's communication time. */
  readonly direct: number;
}

/** One pass over m for the bounds. */
function matrixLoad(m: CommMatrix, machine: MachineModel): Load {
  const { p, data } = m;
  const col = new Float64Array(p);
  const colTime = new Float64Array(p);
  const per = m.elementBytes * (machine.tc + machine.td);
  let total = 0,
    most = 0,
    direct = 0,
    messages = 0;
  for (let i = 0; i < p; i++) {
    let row = 0,
      rowTime = 0;
    for (let j = 0; j < p; j++) {
      const v = data[i * p + j]!;
      if (i === j || v === 0) continue;
      row += v;
      messages++;
      rowTime += machine.ts + v * per;
      col[j] = col[j]! + v;
      colTime[j] = colTime[j]! + machine.ts + v * per;
    }
    total += row;
    most = Math.max(most, row);
    direct = Math.max(direct, rowTime);
  }
  for (let j = 0; j < p; j++) {
    most = Math.max(most, col[j]!);
    direct = Math.max(direct, colTime[j]!);
  }
  return { total, messages, most, direct };
}

/**
 * A lower bound on the flat blocking time of variant v, from the matrix alone: every message needs
 * at least one start-up and its bytes on the node's one port (direct, split and cut plans); the
 * two-stage plans move every byte twice; the relaying four-stage and hierarchical plans at least move
 * every byte once through its node's port; total-exchange plans need a round per element.
 */
function variantBound(v: AutoVariant, m: CommMatrix, machine: MachineModel, load: Load): number {
  const per = m.elementBytes * (machine.tc + machine.td);
  if (v.algorithm.startsWith("te-")) return load.most * (machine.ts + per);
  if (v.algorithm === "two-stage") return 2 * machine.barrier + ((2 * (m.p - 1)) / m.p) * load.most * per;
  if (v.algorithm === "four-stage" || v.algorithm === "hierarchical") return machine.barrier + load.most * per;
  return machine.barrier + load.direct;
}

/** Why variant v is not planned for m (a cheap test, before planning); "" when it is. */
function skipReason(v: AutoVariant, load: Load): string {
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
 * The analytic screen: plans every applicable variant and prices it with the flat cost model
 * (docs/cost-model.md), the cheap planners first; a dear variant whose lower bound (variantBound) is
 * no better than the `keep`-th best prediction so far is not planned (it could not be a finalist).
 */
export function screenVariants(
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  seed: number,
  keep: number,
  variants: readonly AutoVariant[] = AUTO_VARIANTS,
): ScreenResult[] {
  const load = matrixLoad(m, machine);
  const out: ScreenResult[] = [];
  const predictions: number[] = [];
  const rank = (v: AutoVariant): number => SCREEN_ORDER.indexOf(v.algorithm) * 100 + variants.indexOf(v);
  for (const v of [...variants].sort((a, b) => rank(a) - rank(b))) {
    const why = skipReason(v, load);
    if (why !== "") {
      out.push({ variant: v, predicted: null, schedule: null, note: why, ms: 0 });
      continue;
    }
    const bar = predictions.length >= keep ? predictions[keep - 1]! : Infinity;
    const bound = variantBound(v, m, machine, load);
    if (!ALWAYS.has(v.algorithm) && bound >= bar) {
      const note = `screened out: its lower bound ${round(bound)} us >= ${round(bar)} us, the ${keep}th best prediction`;
      out.push({ variant: v, predicted: null, schedule: null, note, ms: 0 });
      continue;
    }
    const t0 = performance.now();
    const { schedule, error } = planVariant(m, v, machine, seed);
    if (!schedule) {
      const ms = performance.now() - t0;
      out.push({ variant: v, predicted: null, schedule: null, note: `not applicable: ${error}`, ms });
      continue;
    }
    const predicted = scheduleCost(schedule, machine, mode).total;
    predictions.push(predicted);
    predictions.sort((a, b) => a - b);
    out.push({ variant: v, predicted, schedule, note: "", ms: performance.now() - t0 });
  }
  const order = (v: AutoVariant): number => variants.indexOf(v);
  return out.sort((a, b) => order(a.variant) - order(b.variant));
}

/** x rounded to 3 decimals (times in headers and reports). */
export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
