/**
 * auto's early rule-out: lower bounds on the simulated makespan of every plan of a candidate, from the matrix alone,
 * and the candidates they rule out before they are planned (docs/auto.md).
 */
import { bestBound, lowerBounds } from "../bounds/index.js";
import { stageBarrier, type MachineModel } from "../model/machine.js";
import { matrixRows, type CommMatrix } from "../model/matrix.js";
import { resolveFabric } from "../machines/sim/options.js";
import { cheapestNetworkCost, perByteCost, type FabricName } from "../machines/sim/fabric.js";
import type { SimMode } from "../machines/sim/index.js";
import { PLANNERS, autoProfileOf } from "../planner/registry.js";
import type { Planner } from "../planner/types.js";
import { directVariants, round, variantLabel, type ScreenResult } from "./candidates.js";

/**
 * One bound of the rule-out: its name (docs/bounds.md, or the composed bounds of docs/auto.md: `composed-busiest-node`,
 * `composed-N-stages`) and value (us).
 */
export interface RuleOutBound {
  readonly name: string;
  readonly value: number;
}

/**
 * The rule-out's bounds: for the planners whose plans are direct (DIRECT_VARIANTS), for those of RELAYED_STAGES by
 * planner, and for any plan.
 */
export interface RuleOutBounds {
  readonly direct: RuleOutBound | null;
  readonly relayed: ReadonlyMap<string, RuleOutBound>;
  readonly any: RuleOutBound | null;
}

/** What the composed bounds need of each node, from one pass over the non-zero entries. */
interface ComposedLoads {
  /** Bytes each node sends to other nodes (R_v). */
  readonly rowBytes: Float64Array;
  /**
   * Sums of the blocking durations T_s + (m + envelope) (t_c + t_d(a, b)) of each node's sends and receives (S_v, G_v).
   */
  readonly send: Float64Array;
  readonly recv: Float64Array;
  readonly traffic: boolean;
}

function composedLoads(m: CommMatrix, machine: MachineModel, fabric: FabricName): ComposedLoads {
  const { p, elementBytes: eb } = m;
  const { rowStart, col, val } = matrixRows(m);
  const { ts } = machine;
  const env = machine.envelope ?? 0;
  const tcd = perByteCost(fabric, machine);
  const send = new Float64Array(p),
    recv = new Float64Array(p),
    rowBytes = new Float64Array(p);
  let traffic = false;
  for (let i = 0; i < p; i++)
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const j = col[k]!;
      if (j === i) continue;
      traffic = true;
      const bytes = val[k]! * eb;
      const d = ts + (bytes + env) * tcd(i, j);
      send[i] = send[i]! + d;
      recv[j] = recv[j]! + d;
      rowBytes[i] = rowBytes[i]! + bytes;
    }
  return { rowBytes, send, recv, traffic };
}

/**
 * The blocking makespan of a direct plan of one composing stage (every DIRECT_VARIANTS plan: a test
 * checks it) is at least B + max over nodes v of [t_m R_v + max(S_v, G_v) / ports], with R_v the bytes
 * v sends to other nodes, S_v the sum of the blocking durations T_s + (m + envelope) (t_c + t_d(v, j))
 * of its messages and G_v that of the messages it receives: v composes its R_v bytes before it sends
 * or receives anything, then its sends, and its receives, hold one of its ports each. 0 without traffic.
 * O(P + E) over the non-zero entries.
 */
export function composedDirectBound(m: CommMatrix, machine: MachineModel, fabric: FabricName): number {
  return directFromLoads(composedLoads(m, machine, fabric), machine);
}

function directFromLoads(l: ComposedLoads, machine: MachineModel): number {
  if (!l.traffic) return 0;
  let most = 0;
  for (let v = 0; v < l.rowBytes.length; v++)
    most = Math.max(most, l.rowBytes[v]! * machine.tm + Math.max(l.send[v]!, l.recv[v]!) / machine.ports);
  return stageBarrier(machine, l.rowBytes.length) + most; // no barrier at P = 1 (docs/cost-model.md)
}

/**
 * The stages of the relaying planners whose plans the rule-out bounds apart (blocking mode): each
 * plan with traffic has this many stages, and every one of them rearranges (a test checks both
 * against the plans).
 */
export const RELAYED_STAGES: ReadonlyMap<string, number> = relayedStages();

/**
 * The planners among `planners` with an auto profile whose plans the rule-out bounds by their stages
 * (`AutoProfile.stagesRearrange`), with their stage count (`traits.stages`): RELAYED_STAGES.
 */
export function relayedStages(planners: readonly Planner[] = PLANNERS): ReadonlyMap<string, number> {
  const out = new Map<string, number>();
  for (const p of planners)
    if (autoProfileOf(p)?.stagesRearrange === true && typeof p.traits.stages === "number")
      out.set(p.name, p.traits.stages);
  return out;
}

/**
 * The blocking makespan of a plan of `stages` stages that all rearrange (RELAYED_STAGES) is at least
 * stages B + max over nodes v with traffic of [t_m R_v + (T_s + (R_v + envelope) c_v) / ports], c_v
 * the cheapest t_c + t_d from v. Every stage ends with a barrier and lasts at least node v's compose
 * (t_m per byte v sends in it) and then v's sends in it (`ports` at a time); each of v's R_v bytes
 * leaves v in some stage, so it is composed there and sent, in at least one message over all stages.
 * 0 without traffic. O(P + E).
 */
export function relayedBound(m: CommMatrix, machine: MachineModel, fabric: FabricName, stages: number): number {
  return relayedFromLoads(composedLoads(m, machine, fabric), machine, fabric, stages);
}

function relayedFromLoads(l: ComposedLoads, machine: MachineModel, fabric: FabricName, stages: number): number {
  const { ts, tm, tc, ports } = machine;
  const env = machine.envelope ?? 0;
  const p = l.rowBytes.length;
  const cheapest = cheapestNetworkCost(fabric, machine, p);
  let most = 0;
  for (let v = 0; v < p; v++) {
    const bytes = l.rowBytes[v]!;
    if (bytes > 0) most = Math.max(most, bytes * tm + (ts + (bytes + env) * (tc + cheapest(v))) / ports);
  }
  return most === 0 ? 0 : stages * stageBarrier(machine, p) + most;
}

/** The rule-out's bounds for `m` on `machine` in `mode` (the node-port model: no network, not the OCPC). */
export function ruleOutBounds(
  m: CommMatrix,
  machine: MachineModel,
  mode: SimMode,
  planners: readonly Planner[] = PLANNERS,
): RuleOutBounds {
  // the machine's fabric gives the per-pair t_d (lowerBounds' default: the CM-5 fat tree's levels, with the cheapest
  // partner in closed form, so the node loads stay O(P + E))
  const fabric = resolveFabric(undefined, machine);
  const bounds = lowerBounds(m, `sim-${mode}`, { machine });
  let direct: RuleOutBound | null = bestBound(bounds, { direct: true, contentionFree: false });
  const any = bestBound(bounds, { direct: false, contentionFree: false });
  const relayed = new Map<string, RuleOutBound>();
  if (mode === "blocking") {
    const loads = composedLoads(m, machine, fabric);
    const composed = directFromLoads(loads, machine);
    if (direct === null || composed > direct.value) direct = { name: "composed-busiest-node", value: composed };
    for (const [name, stages] of relayedStages(planners)) {
      const value = relayedFromLoads(loads, machine, fabric, stages);
      if (any === null || value > any.value) relayed.set(name, { name: `composed-${stages}-stages`, value });
    }
  }
  return { direct, relayed, any };
}

/**
 * Relative slack of a tie: makespans this close count as equal (the earlier candidate wins), and a
 * bound this close below the best makespan still reaches it. An exact bound and the replay add the
 * same times in different orders, and the replay's clock orders events by ticks of 1e-6 us (a
 * random check found them 2.3e-8 apart with two ports), so a finer tie would let that noise decide.
 */
export const TIE_SLACK = 1e-6;
/**
 * Relative slack of the pruning: a candidate is ruled out (or a finalist skipped) only when its bound exceeds the best
 * makespan by more.
 */
const PRUNE_SLACK = 1e-6;

/**
 * Whether a lower bound exceeds the best makespan beyond rounding (PRUNE_SLACK): a variant with it cannot win or tie.
 */
export function beyond(bound: number, best: number): boolean {
  return bound > best * (1 + PRUNE_SLACK) + 1e-9;
}

/** x to 3 decimals, or whole when that would print it equal to `other` (the two differ). */
export function apart(x: number, other: number): number {
  return round(x) === round(other) ? x : round(x);
}

/**
 * Rules out, before they are priced or planned, the candidates in `screen` (not planned, no note yet)
 * whose bound (`bounds.direct` for DIRECT_VARIANTS, `bounds.relayed` for RELAYED_STAGES, else
 * `bounds.any`) exceeds the best makespan
 * simulated so far (`best`, of candidate `bestOf`), or reaches it when they come after `bestOf` in
 * tie order: they cannot win. Their note says why; returns them with their bounds.
 */
export function ruleOut(
  screen: readonly ScreenResult[],
  bounds: RuleOutBounds,
  best: number,
  bestOf: ScreenResult,
  planners: readonly Planner[] = PLANNERS,
): Map<ScreenResult, number> {
  const out = new Map<ScreenResult, number>();
  const direct = directVariants(planners);
  const bestAt = screen.indexOf(bestOf);
  for (const r of screen) {
    if (r.schedule !== null || r.note !== "") continue;
    const b = direct.has(r.variant.algorithm) ? bounds.direct : (bounds.relayed.get(r.variant.algorithm) ?? bounds.any);
    if (b === null) continue;
    const over = beyond(b.value, best);
    // a bound that reaches the best makespan (up to rounding) of an earlier variant: at best a tie, which the earlier
    // wins
    if (!over && !(screen.indexOf(r) > bestAt && b.value >= best * (1 - TIE_SLACK))) continue;
    out.set(r, b.value);
    const what = over ? "exceeds" : "reaches";
    const tie = over ? "" : " (a tie goes to the earlier candidate)";
    r.note = `not planned: its simulated-machine lower bound ${apart(b.value, best)} us (${b.name}, ${b.name.startsWith("composed-") ? "docs/auto.md" : "docs/bounds.md"}) ${what} ${variantLabel(bestOf.variant)}'s simulated ${apart(best, b.value)} us${tie}`;
  }
  return out;
}
