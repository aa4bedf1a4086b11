/** planAuto: chooses the planner and parameters for a matrix and a machine by predicted, then simulated, time (`plan --algorithm auto`). */
import { checkProgress } from "../model/progress.js";
import { checkMachine } from "../model/machine.js";
import { fail } from "../model/errors.js";
import { checkSeed } from "../model/param-spec.js";
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { JsonValue, Schedule } from "../model/schedule.js";
import { simulateSchedule, type PortSharing, type SimMode } from "../machines/sim/index.js";
import { resolveTopology } from "../machines/sim/options.js";
import { BoundScratch, blockingMakespanBound, type BoundTopology } from "../machines/sim/blocking-bound.js";
import type { NetworkRoutes } from "../model/network.js";
import { checkFlatForNetwork, networkOptions } from "./network-options.js";
import {
  AUTO_VARIANTS,
  ensurePlanned,
  planVariant,
  round,
  screenVariants,
  variantLabel,
  type AutoVariant,
  type ScreenResult,
} from "./auto-candidates.js";

/** Options of planAuto. */
export interface AutoOptions {
  /** Plan the winner with payload chunks. Default false. */
  readonly payload?: boolean;
  /** Seed of every planner's and the simulator's random choices. Default 1. */
  readonly seed?: number;
  /** Simulated (and flat-model) mode. Default blocking. */
  readonly mode?: SimMode;
  /** Finalists simulated besides shift (the best predictions). Default AUTO_FINALISTS. */
  readonly finalists?: number;
  /** Simulate the finalists on this network with link contention (the screen stays the flat model). Default none. */
  readonly network?: NetworkRoutes | null;
  /** With a network: how a node's ports serve concurrent messages (default serial). */
  readonly portSharing?: PortSharing;
  /** Called now and then while the finalists are simulated, with (transfers simulated, transfers of every finalist). */
  readonly progress?: ((done: number, total: number) => void) | null;
}

/** Finalists simulated besides shift, by default: the bench (bench/results/auto.md) measured this many enough. */
export const AUTO_FINALISTS = 3;

/** One candidate in the auto header. */
export interface AutoCandidate {
  readonly algorithm: string;
  readonly params: { readonly [k: string]: JsonValue };
  /** Flat-model time (us), or null when not planned. */
  readonly predicted: number | null;
  /** Simulated makespan (us), or null when not a finalist. */
  readonly simulated: number | null;
  /** winner, finalist, screened out, not planned or not applicable, with the reason. */
  readonly note: string;
}

/** What planAuto decided, as the schedule header's `auto` block records it. */
export interface AutoReport {
  readonly machine: string;
  readonly mode: SimMode;
  /** The network the finalists were simulated on, with its port sharing; absent without one. */
  readonly network?: { readonly name: string; readonly portSharing: PortSharing };
  readonly winner: { readonly algorithm: string; readonly params: { readonly [k: string]: JsonValue } };
  readonly reason: string;
  readonly candidates: readonly AutoCandidate[];
}

/** planAuto's result: the winner's schedule (its header carries `auto`), the report, and where the time went (not in the header: it is not deterministic). */
export interface AutoResult {
  readonly schedule: Schedule;
  readonly report: AutoReport;
  /** Milliseconds per candidate label: planning and pricing (screen), the finalists' lower bounds (bound), simulating (finalists not pruned by their bound). */
  readonly ms: {
    readonly screen: Readonly<Record<string, number>>;
    readonly bound: Readonly<Record<string, number>>;
    readonly simulate: Readonly<Record<string, number>>;
  };
}

/**
 * Variants simulated whatever the screen says (labels): shift (what MPI libraries do for alltoallv;
 * so auto never loses to it), linear permutation, mesh-two-stage and hierarchical. The flat model
 * misjudges all four (it sums lock-step steps; the simulated machine overlaps them), and the last
 * two simulate cheaply (few messages). bench/results/auto.md weighs other choices.
 */
export const AUTO_ALWAYS_FINAL: readonly string[] = [
  "shift",
  "linear-permutation",
  "mesh-two-stage(schedule=shift)",
  "hierarchical",
];

/** A parameter variant of a finalist's planner is a finalist too when its prediction is within this factor of the finalist's. */
const SIBLING_SLACK = 1.05;

/**
 * The finalists: AUTO_ALWAYS_FINAL always, the best `k` predictions, and the other
 * parameter variants of their planners predicted within SIBLING_SLACK of them; in tie-break order.
 * Every finalist is planned (a planner that refuses the matrix drops out).
 */
function pickFinalists(screen: readonly ScreenResult[], k: number, plan: (r: ScreenResult) => boolean): ScreenResult[] {
  const known = (): ScreenResult[] => screen.filter((r) => r.predicted !== null);
  const chosen = new Set<ScreenResult>();
  // the k best predictions; a refusal lets the next one in
  while (chosen.size < k) {
    const next = known()
      .filter((r) => !chosen.has(r))
      .sort((a, b) => a.predicted! - b.predicted! || screen.indexOf(a) - screen.indexOf(b))[0];
    if (next === undefined) break;
    if (plan(next)) chosen.add(next);
  }
  for (const r of known()) if (AUTO_ALWAYS_FINAL.includes(variantLabel(r.variant))) chosen.add(r);
  for (const r of [...chosen])
    for (const q of known())
      if (q.variant.algorithm === r.variant.algorithm && q.predicted! <= r.predicted! * SIBLING_SLACK) chosen.add(q);
  return screen.filter((r) => chosen.has(r) && plan(r));
}

/** The reason in the header: the winner's makespan, the next one, what it saves against shift (simulated, or at least by shift's bound), and where the flat model disagreed. */
function describeWhy(winner: AutoCandidate, all: readonly AutoCandidate[], shiftBound: number | null): string {
  const sims = all.filter((c) => c.simulated !== null && c !== winner).sort((a, b) => a.simulated! - b.simulated!);
  const shift = all.find((c) => c.algorithm === "shift" && c.simulated !== null);
  const parts = [`lowest simulated makespan ${winner.simulated} us`];
  const next = sims[0];
  if (next) parts.push(`next ${variantLabel(next)} ${next.simulated} us`);
  const saved = (t: number): number => (100 * (t - winner.simulated!)) / t;
  if (shift && shift !== winner) parts.push(`shift ${shift.simulated} us (${round(saved(shift.simulated!))} % saved)`);
  else if (!shift && shiftBound !== null)
    parts.push(`shift at least ${floor3(shiftBound)} us by its bound (at least ${floor3(saved(shiftBound))} % saved)`);
  const bestPredicted = all.filter((c) => c.predicted !== null).sort((a, b) => a.predicted! - b.predicted!)[0];
  if (bestPredicted && bestPredicted !== winner)
    parts.push(
      `the flat model preferred ${variantLabel(bestPredicted)} (${bestPredicted.predicted} us) but it simulated slower`,
    );
  return parts.join("; ");
}

/** x rounded down to 3 decimals (an "at least" figure). */
function floor3(x: number): number {
  return Math.floor(x * 1000) / 1000;
}

/** x to 3 decimals, or whole when that would print it equal to `other` (the two differ). */
function apart(x: number, other: number): number {
  return round(x) === round(other) ? x : round(x);
}

/** The topology auto's pruning bounds the replay on: blocking mode on the node-port model (the machine's topology, as the replay takes it), except the OCPC; else null. */
function boundTopology(
  mode: SimMode,
  network: NetworkRoutes | null | undefined,
  machine: MachineModel,
): BoundTopology | null {
  if (mode !== "blocking" || network) return null;
  const t = resolveTopology(undefined, machine);
  return t === "ocpc" ? null : t;
}

/** Relative slack of the pruning: a finalist is skipped only when its bound exceeds the best makespan by more. */
const PRUNE_SLACK = 1e-6;

/** How simulateFinalists runs. */
interface FinalistRun {
  readonly mode: SimMode;
  readonly seed: number;
  readonly simNet: ReturnType<typeof networkOptions>;
  /** Prune by blockingMakespanBound on this topology; null: replay every finalist (nonblocking mode, a network, the OCPC). */
  readonly boundTopology: BoundTopology | null;
  readonly progress: AutoOptions["progress"];
}

/**
 * Simulates the finalists, in the order of their lower bounds with a `boundTopology` (ties: screen order),
 * skipping a finalist whose bound already exceeds the best makespan simulated so far: it cannot win
 * or tie, so the winner is the one simulating every finalist would find, at the cost of a pass over
 * its transfers instead of a replay. Without bounds, in screen order. Returns the makespans, the
 * finalists' bounds, and the time spent per label.
 */
function simulateFinalists(
  finalists: readonly ScreenResult[],
  screen: readonly ScreenResult[],
  machine: MachineModel,
  run: FinalistRun,
): {
  simulated: Map<ScreenResult, number>;
  bounds: Map<ScreenResult, number>;
  ms: { bound: Record<string, number>; simulate: Record<string, number> };
} {
  const { mode, seed, simNet } = run;
  const simulated = new Map<ScreenResult, number>();
  const bounds = new Map<ScreenResult, number>();
  const boundMs: Record<string, number> = {},
    simMs: Record<string, number> = {};
  let order = [...finalists];
  const topology = run.boundTopology;
  if (topology !== null) {
    const scratch = new BoundScratch();
    for (const r of finalists) {
      const t0 = performance.now();
      bounds.set(r, blockingMakespanBound(r.schedule!, machine, topology, scratch));
      boundMs[variantLabel(r.variant)] = performance.now() - t0;
    }
    order = order.sort((a, b) => bounds.get(a)! - bounds.get(b)! || screen.indexOf(a) - screen.indexOf(b));
  }
  const tell = checkProgress(run.progress, "compare");
  let total = 0,
    before = 0,
    best = Infinity;
  for (const r of order) total += r.schedule!.transferCount;
  tell?.(0, total);
  for (const r of order) {
    // a bound above the best so far, beyond rounding: the bound sums the same times in another
    // order, and a replay's clock can absorb a duration below half an ulp of a late time (2^-53
    // relative per event); the events of at most MAX_SIM_TRANSFERS transfers stay far below this slack
    const bound = bounds.get(r);
    if (bound === undefined || bound <= best * (1 + PRUNE_SLACK) + 1e-9) {
      const t0 = performance.now();
      const progress = tell === null ? null : (done: number): void => tell(before + done, total);
      const sim = simulateSchedule(r.schedule!, machine, { mode, seed, timeline: false, progress, ...simNet });
      simulated.set(r, sim.makespan);
      best = Math.min(best, sim.makespan);
      simMs[variantLabel(r.variant)] = performance.now() - t0;
    }
    before += r.schedule!.transferCount;
    tell?.(before, total);
  }
  return { simulated, bounds, ms: { bound: boundMs, simulate: simMs } };
}

/**
 * Chooses a planner and its parameters for `m` on `machine`: a flat-model screen of every applicable
 * variant (auto-candidates.ts: formulas for the structured planners, lower bounds and lazy planning
 * for the others), then the simulated machine on AUTO_ALWAYS_FINAL and the best `finalists`
 * predictions (with their planners' other parameter variants predicted within 5 %); only finalists
 * are planned. The lowest simulated makespan wins (ties: the earlier variant). Deterministic; never
 * slower than shift in simulation, as shift is always a finalist.
 */
export function planAuto(m: CommMatrix, machine: MachineModel, options: AutoOptions = {}): AutoResult {
  checkMachine(machine, "compare");
  const seed = checkSeed("compare", options.seed ?? 1);
  const mode = options.mode ?? "blocking";
  if (mode !== "blocking" && mode !== "nonblocking")
    throw fail("compare", "BAD_OPTION", `auto: unknown mode '${String(mode)}'; known: blocking, nonblocking`, {
      field: "mode",
    });
  const k = options.finalists ?? AUTO_FINALISTS;
  if (!Number.isInteger(k) || k < 0 || k > AUTO_VARIANTS.length)
    throw fail(
      "compare",
      "BAD_OPTION",
      `auto: finalists must be an integer in 0..${AUTO_VARIANTS.length}, got ${String(k)}`,
      {
        field: "finalists",
      },
    );
  checkFlatForNetwork(machine, options.network, "auto: a network");
  const simNet = networkOptions(options);
  const screen = screenVariants(m, machine, mode, seed, Math.max(1, k));
  const finalists = pickFinalists(screen, k, (r) => ensurePlanned(r, m, machine, mode, seed));
  const { simulated, bounds, ms } = simulateFinalists(finalists, screen, machine, {
    mode,
    seed,
    simNet,
    boundTopology: boundTopology(mode, options.network, machine),
    progress: options.progress,
  });
  let best: ScreenResult | null = null;
  for (const r of screen) {
    const t = simulated.get(r);
    if (t !== undefined && (best === null || t < simulated.get(best)!)) best = r;
  }
  if (best === null) throw fail("compare", "UNSUPPORTED", `auto: no planner could plan this matrix (P = ${m.p})`);
  const bestTime = simulated.get(best)!;
  const note = (r: ScreenResult): string => {
    if (r === best) return "winner";
    if (simulated.has(r)) return "finalist";
    const bound = bounds.get(r);
    if (bound !== undefined)
      return `finalist, not simulated: its lower bound ${apart(bound, bestTime)} us (blocking-bound.ts) exceeds the winner's ${apart(bestTime, bound)} us`;
    return r.note || "not a finalist (predicted slower)";
  };
  const candidates: AutoCandidate[] = screen.map((r) => ({
    algorithm: r.variant.algorithm,
    params: r.variant.params,
    predicted: r.predicted === null ? null : round(r.predicted),
    simulated: simulated.has(r) ? round(simulated.get(r)!) : null,
    note: note(r),
  }));
  const winner = candidates[screen.indexOf(best)]!;
  const shiftResult = screen.find((r) => r.variant.algorithm === "shift");
  const report: AutoReport = {
    machine: machine.name,
    mode,
    ...(options.network
      ? { network: { name: options.network.name, portSharing: options.portSharing ?? "serial" } }
      : {}),
    winner: { algorithm: best.variant.algorithm, params: best.variant.params },
    reason: describeWhy(winner, candidates, shiftResult === undefined ? null : (bounds.get(shiftResult) ?? null)),
    candidates,
  };
  const planned = options.payload ? planVariant(m, best.variant, machine, seed, true).schedule! : best.schedule!;
  const screenMs = Object.fromEntries(screen.map((r) => [variantLabel(r.variant), r.ms]));
  return { schedule: { ...planned, auto: autoHeader(report) }, report, ms: { screen: screenMs, ...ms } };
}

/** The report as the JSON of the schedule header's `auto` block (schemas/schedule.v1.schema.json, $defs/auto). */
export function autoHeader(r: AutoReport): JsonValue {
  return {
    machine: r.machine,
    mode: r.mode,
    ...(r.network ? { network: { name: r.network.name, portSharing: r.network.portSharing } } : {}),
    winner: { algorithm: r.winner.algorithm, params: r.winner.params },
    reason: r.reason,
    candidates: r.candidates.map((c) => ({
      algorithm: c.algorithm,
      params: c.params,
      predicted: c.predicted,
      simulated: c.simulated,
      note: c.note,
    })),
  };
}

/** The variants auto weighs (for help text and docs). */
export function autoVariantLabels(): string[] {
  return AUTO_VARIANTS.map((v: AutoVariant) => variantLabel(v));
}
