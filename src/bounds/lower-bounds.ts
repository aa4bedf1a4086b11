/**
 * lowerBounds: the named lower bounds of docs/bounds.md for a matrix on a machine, per target (cost model or simulated
 * machine, mode).
 */
import { checkMachine } from "../model/machine.js";
import { fail } from "../model/errors.js";
import { checkMatrixArg, type CommMatrix } from "../model/matrix.js";
import { checkOptionKeys, checkOptionsObject, describeValue } from "../model/option-checks.js";
import { nodeLoads, type NodeLoads } from "./node-loads.js";
import type { BoundRequest, BoundScope, BoundTarget, LowerBound } from "./types.js";
import { BOUND_TARGETS } from "./types.js";
import { cheapestNetworkCost, networkCost } from "../model/fabric-cost.js";
import { checkArg, isIntIn } from "../model/option-checks.js";

/** max over nodes of f(i). */
function maxOver(p: number, f: (i: number) => number): number {
  let best = 0;
  for (let i = 0; i < p; i++) best = Math.max(best, f(i));
  return best;
}

/**
 * Rounds needed to reach `d` nodes from one (or gather from `d` into one) when every round each holder adds at most `k`
 * more: ceil(log_(k+1)(d + 1)).
 */
export function relayRounds(d: number, k: number): number {
  checkArg("bounds", "relayRounds", "d", d, isIntIn(d, 0, Number.MAX_SAFE_INTEGER), "an integer >= 0", "BAD_OPTION");
  checkArg("bounds", "relayRounds", "k", k, isIntIn(k, 1, Number.MAX_SAFE_INTEGER), "an integer >= 1", "BAD_OPTION");
  let n = 0;
  for (let reach = 1; reach < d + 1; reach *= k + 1) n++;
  return n;
}

/** Cost model (docs/cost-model.md): one send and one receive per node per step, machine.td everywhere. */
function costBounds(l: NodeLoads, r: BoundRequest, mode: "blocking" | "nonblocking"): LowerBound[] {
  const { ts, tc, td, barrier: B } = r.machine;
  const L = maxOver(l.p, (i) => Math.max(l.rowBytes[i]!, l.colBytes[i]!));
  const D = maxOver(l.p, (i) => Math.max(l.fanOut[i]!, l.fanIn[i]!));
  const on = l.traffic ? 1 : 0;
  if (mode === "blocking") {
    const beta = tc + td;
    return [
      bound(
        "traffic",
        "cost-blocking",
        "all",
        true,
        on * (B + relayRounds(D, 1) * ts + L * beta),
        "B + ceil(log2(D + 1)) T_s + L (t_c + t_d)",
      ),
      bound("busiest-node", "cost-blocking", "direct", true, on * (B + D * ts + L * beta), "B + D T_s + L (t_c + t_d)"),
    ];
  }
  const perByte = Math.max(tc, td);
  return [
    bound(
      "traffic",
      "cost-nonblocking",
      "all",
      false,
      on * (B + Math.max(ts, L * perByte)),
      "B + max(T_s, L max(t_c, t_d))",
    ),
    bound(
      "busiest-node",
      "cost-nonblocking",
      "direct",
      false,
      on * (B + Math.max(D * ts, L * perByte)),
      "B + max(D T_s, L max(t_c, t_d))",
    ),
  ];
}

/** Simulated machine, blocking: a message holds a send port and a receive port for T_s + m (t_c + t_d(i, j)). */
function simBlockingBounds(l: NodeLoads, r: BoundRequest, k: number): LowerBound[] {
  const { ts, tc, barrier: B } = r.machine;
  const on = l.traffic ? 1 : 0;
  const traffic = maxOver(l.p, (i) => {
    const beta = tc + l.tdMin[i]!;
    return Math.max(l.rowBytes[i]! * beta, l.colBytes[i]! * beta);
  });
  const busiest = maxOver(l.p, (i) =>
    Math.max(
      l.fanOut[i]! * ts + tc * l.rowBytes[i]! + l.rowTd[i]!,
      l.fanIn[i]! * ts + tc * l.colBytes[i]! + l.colTd[i]!,
    ),
  );
  const all = on * (B + ts + traffic / k);
  let tdLow = Infinity;
  for (let i = 0; i < l.p; i++) tdLow = Math.min(tdLow, l.tdMin[i]!);
  const D = maxOver(l.p, (i) => Math.max(l.fanOut[i]!, l.fanIn[i]!));
  const depth = on * (B + relayRounds(D, k) * (ts + l.elementBytes * (tc + tdLow)));
  return [
    bound("relay-depth", "sim-blocking", "all", false, depth, "B + ceil(log_(k+1)(D + 1)) (T_s + b (t_c + min t_d))"),
    bound("port-traffic", "sim-blocking", "all", false, all, "B + T_s + max_i max(R_i, C_i) (t_c + t_d,min(i)) / k"),
    bound(
      "port-busiest-node",
      "sim-blocking",
      "direct",
      false,
      Math.max(all, depth, on * (B + busiest / k)),
      "B + max_i max(f_i T_s + sum_j M_ij b (t_c + t_d(i,j)), g_i T_s + sum_j M_ji b (t_c + t_d(j,i))) / k",
    ),
  ];
}

/**
 * Simulated machine, nonblocking: per node one processor (T_s_send per send, T_s - T_s_send per receive), one copy
 * engine (m t_c), k output and k input ports (m t_d).
 */
function simNonblockingBounds(l: NodeLoads, r: BoundRequest, k: number): LowerBound[] {
  const { ts, tsSend, tc, barrier: B } = r.machine;
  const tsRecv = ts - tsSend;
  const on = l.traffic ? 1 : 0;
  const pipe = (i: number, outTd: number, inTd: number): number =>
    l.rowBytes[i]! + l.colBytes[i]! === 0 ? 0 : ts + Math.max(l.rowBytes[i]! * tc, outTd / k, inTd / k);
  const all = maxOver(l.p, (i) => pipe(i, l.rowBytes[i]! * l.tdMin[i]!, l.colBytes[i]! * l.tdMin[i]!));
  const busiest = maxOver(l.p, (i) => {
    const f = l.fanOut[i]!,
      g = l.fanIn[i]!;
    const cpu = f * tsSend + g * tsRecv + (f > 0 && g === 0 ? tsRecv : 0) + (g > 0 && f === 0 ? tsSend : 0);
    return Math.max(cpu, pipe(i, l.rowTd[i]!, l.colTd[i]!));
  });
  return [
    bound(
      "pipeline-traffic",
      "sim-nonblocking",
      "all",
      false,
      on * (B + all),
      "B + max_i [T_s + max(R_i t_c, R_i t_d,min(i) / k, C_i t_d,min(i) / k)]",
    ),
    bound(
      "pipeline-busiest-node",
      "sim-nonblocking",
      "direct",
      false,
      on * (B + Math.max(all, busiest)),
      "B + max_i max(f_i T_s,send + g_i T_s,recv (+ fill), T_s + max(R_i t_c, sum_j M_ij b t_d(i,j) / k, sum_j M_ji b t_d(j,i) / k))",
    ),
  ];
}

function bound(
  name: string,
  target: BoundTarget,
  scope: BoundScope,
  contentionFree: boolean,
  value: number,
  formula: string,
): LowerBound {
  return { name, target, scope, contentionFree, value, formula };
}

/**
 * Every bound of docs/bounds.md for `m` on `req.machine` for one target (cost model or simulated machine, blocking or
 * nonblocking).
 */
export function lowerBounds(m: CommMatrix, target: BoundTarget, req: BoundRequest): LowerBound[] {
  checkOptionsObject("bounds", "options", req);
  if (req === undefined)
    throw fail("bounds", "BAD_OPTION", "lowerBounds needs options: { machine, ... }", { field: "options" });
  checkOptionKeys("bounds", req, ["machine", "ports", "pairTd", "pairTdMin"]);
  checkMatrixArg("bounds", m);
  checkMachine(req.machine, "bounds");
  if (!BOUND_TARGETS.includes(target))
    throw fail("bounds", "BAD_OPTION", `unknown bound target '${String(target)}'; known: ${BOUND_TARGETS.join(", ")}`, {
      field: "target",
    });
  const k = req.ports ?? req.machine.ports;
  if (!Number.isInteger(k) || k < 1)
    throw fail("bounds", "BAD_OPTION", `ports must be an integer >= 1, got ${String(k)}`, { field: "ports" });
  if (req.pairTd !== undefined && typeof req.pairTd !== "function")
    throw fail("bounds", "BAD_OPTION", `pairTd must be a function (a, b) => t_d, got ${typeof req.pairTd}`, {
      field: "pairTd",
    });
  const sim = target.startsWith("sim-");
  if (req.pairTdMin !== undefined && (typeof req.pairTdMin !== "function" || req.pairTd === undefined))
    throw fail("bounds", "BAD_OPTION", "pairTdMin must be a function (a) => t_d, given with pairTd", {
      field: "pairTdMin",
    });
  // without pairTd, the machine's own fabric: the CM-5 fat tree's per-level rates are faster than machine.td within a
  // cluster, so machine.td alone gave "bounds" its plans beat
  const fabric = req.machine.fabric === "cm5-fat-tree" ? req.machine.fabric : null;
  const pairTd = req.pairTd ?? (fabric === null ? undefined : networkCost(fabric, req.machine));
  const pairTdMin =
    req.pairTd !== undefined
      ? req.pairTdMin
      : fabric === null
        ? undefined
        : cheapestNetworkCost(fabric, req.machine, m.p);
  const l = sim && pairTd !== undefined ? nodeLoads(m, pairTd, pairTdMin) : nodeLoads(m, req.machine.td);
  switch (target) {
    case "cost-blocking":
      return costBounds(l, req, "blocking");
    case "cost-nonblocking":
      return costBounds(l, req, "nonblocking");
    case "sim-blocking":
      return simBlockingBounds(l, req, k);
    default:
      return simNonblockingBounds(l, req, k);
  }
}

/**
 * The largest bound among `bounds` that holds for a schedule of the given class: scope "all" bounds
 * always, "direct" ones when `direct`, bounds needing contention-free steps only when `contentionFree`.
 * Null when none applies.
 */
export function bestBound(
  bounds: readonly LowerBound[],
  schedule: { readonly direct: boolean; readonly contentionFree: boolean },
): LowerBound | null {
  if (!Array.isArray(bounds))
    throw fail(
      "bounds",
      "BAD_INPUT",
      `bestBound: bounds must be an array (lowerBounds'), got ${describeValue(bounds)}`,
      {
        field: "bounds",
      },
    );
  if (typeof schedule !== "object" || schedule === null)
    throw fail("bounds", "BAD_INPUT", "bestBound: the class must be { direct, contentionFree } (scheduleClass's)", {
      field: "schedule",
    });
  let best: LowerBound | null = null;
  for (const b of bounds) {
    if (b.scope === "direct" && !schedule.direct) continue;
    if (b.contentionFree && !schedule.contentionFree) continue;
    if (best === null || b.value > best.value) best = b;
  }
  return best;
}
