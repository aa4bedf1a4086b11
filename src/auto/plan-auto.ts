/**
 * planAuto: chooses the planner and parameters for a matrix and a machine by predicted, then simulated, time (`plan
 * --algorithm auto`).
 */
import { checkProgress, progressPhases, type ProgressCallback, type ProgressPhases } from "../model/progress.js";
import { checkMachine } from "../model/machine.js";
import { checkMaxMemory } from "../model/memory-budget.js";
import { checkBooleanOption, checkOptionKeys, checkOptionsObject } from "../model/option-checks.js";
import { fail } from "../model/errors.js";
import { checkSeed } from "../model/param-spec.js";
import { checkMatrixArg, type CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { JsonValue, Schedule } from "../model/schedule.js";
import type { PortSharing, SimMode } from "../machines/sim/index.js";
import { resolveFabric } from "../machines/sim/options.js";
import { BoundScratch, blockingBoundExact, type BoundFabric } from "../machines/sim/blocking-bound.js";
import type { NetworkRoutes } from "../model/network.js";
import { checkFlatForNetwork, networkOptions } from "../machines/sim/network-options.js";
import { TIE_SLACK, apart, beyond, ruleOut, ruleOutBounds, type RuleOutBounds } from "./rule-out.js";
import { checkPlanners, PLANNERS } from "../planner/registry.js";
import { predictMakespan } from "./predict-makespan.js";
import { predictLibraryDefault, predictOnRuntime, runtimeTarget, type RuntimeTarget } from "./runtime-predict.js";
import { runtimeLowerBound } from "./runtime-bound.js";
import type { RuntimeModel } from "../machines/runtime/runtime-model.js";
import type { ProgramVariant } from "../model/program.js";
import {
  MPI_MARGIN,
  RUNTIME_MPI_MARGIN,
  mpiVerdict,
  hasMessages,
  scheduleLoad,
  type MpiVerdict,
  type VerdictRuntime,
  type VerdictCandidate,
} from "./mpi-verdict.js";
import { counted } from "../internal/plural.js";
import type { Planner } from "../planner/types.js";
import {
  AUTO_VARIANTS,
  autoVariantEntries,
  ensurePlanned,
  planLeaders,
  withinCut,
  planVariant,
  plannerIn,
  round,
  screenFormulas,
  variantLabel,
  type AutoVariant,
  type AutoVariantEntry,
  type Planning,
  type ScreenResult,
} from "./candidates.js";
import { checkArg, isOptionsObject } from "../model/option-checks.js";

/** Options of planAuto. */
export interface AutoOptions {
  /** Plan the winner with payload chunks. Default false. */
  readonly payload?: boolean;
  /** Seed of every planner's and the simulator's random choices. Default 1. */
  readonly seed?: number;
  /** Simulated (and flat-model) mode. Default blocking. */
  readonly mode?: SimMode;
  /**
   * Finalists simulated besides shift (the best predictions). Default AUTO_FINALISTS (at most the variants of
   * `planners`); every variant on a runtime.
   */
  readonly finalists?: number;
  /** Simulate the finalists on this network with link contention (the screen stays the flat model). Default none. */
  readonly network?: NetworkRoutes | null;
  /** With a network: how a node's ports serve concurrent messages (default serial). */
  readonly portSharing?: PortSharing;
  /** Bytes each plan may allocate (PlanOptions.maxMemory); by default half the machine's memory, at most 32 GiB. */
  readonly maxMemory?: number;
  /**
   * Called now and then with (done, total) in thousandths of the run (AUTO_PROGRESS_PHASES: the finalists are known
   * only round by round, so each round has a fixed share, counted within it by the transfers of its finalists).
   */
  readonly progress?: ((done: number, total: number) => void) | null;
  /** The planners to weigh, by their auto profiles (default the registry, PLANNERS). */
  readonly planners?: readonly Planner[];
  /**
   * Plan for today's machine: the finalists' times are their lowered programs replayed as this MPI runtime runs them
   * (a runtime model or its name, docs/simulator.md "Program replay"), on `network` or the machine's flat cluster, in
   * the fastest program variant; ports are unlimited and `mode` only prices the screen. Default none: the papers'
   * machine, simulated in `mode`.
   */
  readonly runtime?: RuntimeModel | string | null;
  /**
   * Simulate (or, on a runtime, replay) every finalist, also one whose lower bound shows it cannot win, and on a
   * runtime a finalist's nonblocking program beside its dataflow one: the same winner, a time for every finalist in
   * the report, at the cost the bounds save (bench/results/auto-runtime.md measures both). Default false.
   */
  readonly exhaustive?: boolean;
}

/** Finalists simulated besides shift, by default: the bench (bench/results/auto.md) measured this many enough. */
export const AUTO_FINALISTS = 3;

/** auto's reason for a matrix with no messages between ranks (hasMessages false): all it says. */
export const NOTHING_TO_SEND_REASON = "no messages between ranks: there is nothing to send";

/** The module planAuto's errors name (not compare's, whose runCandidates it shares code with). */
const MODULE = "auto";

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
  /** With AutoOptions.runtime: the runtime model and the program variant the winner runs fastest in. */
  readonly runtime?: { readonly name: string; readonly variant: ProgramVariant };
  readonly winner: { readonly algorithm: string; readonly params: { readonly [k: string]: JsonValue } };
  readonly reason: string;
  /** The answer against MPI_Alltoallv's default: call it, or use the plan and gain this much, by this effect. */
  readonly mpi: MpiVerdict;
  readonly candidates: readonly AutoCandidate[];
}

/**
 * planAuto's result: the winner's schedule (its header carries `auto`), the report, and where the time went (not in the
 * header: it is not deterministic).
 */
export interface AutoResult {
  readonly schedule: Schedule;
  readonly report: AutoReport;
  /**
   * Milliseconds per candidate label: planning and pricing (screen), the finalists' lower bounds and the
   * simulated-machine bounds of the rule-out (bound), replaying (finalists neither pruned by their bound nor given
   * their makespan by an exact one).
   */
  readonly ms: {
    readonly screen: Readonly<Record<string, number>>;
    readonly bound: Readonly<Record<string, number>>;
    readonly simulate: Readonly<Record<string, number>>;
  };
}

/** The labels of the entries whose spec passes `which`, in tie-break order. */
function labelsOf(entries: readonly AutoVariantEntry[], which: (e: AutoVariantEntry) => boolean): string[] {
  return entries.filter(which).map((e) => variantLabel(e.variant));
}

/** auto's variants of some planners and the roles their specs give them (AutoVariantSpec). */
interface AutoRoles {
  readonly variants: readonly AutoVariant[];
  readonly alwaysFinal: readonly string[];
  readonly first: readonly string[];
  readonly exact: readonly string[];
  readonly ruling: readonly string[];
  /** The planner the reason compares the winner with (the spec marked `baseline`), or null. */
  readonly baseline: string | null;
  /**
   * Labels of the variants of planners that are what an MPI library does (traits.mpi): they win only where their
   * plan fits the machine's ports (a one-port machine refuses MPI's linear plan).
   */
  readonly library: readonly string[];
}

function autoRoles(planners: readonly Planner[]): AutoRoles {
  const entries = autoVariantEntries(planners);
  return {
    variants: entries.map((e) => e.variant),
    alwaysFinal: labelsOf(entries, (e) => e.spec.alwaysFinal === true),
    first: labelsOf(entries, (e) => e.spec.early === "first"),
    exact: labelsOf(entries, (e) => e.spec.early === "exact"),
    ruling: labelsOf(entries, (e) => e.spec.early === "ruling"),
    baseline: entries.find((e) => e.spec.baseline === true)?.variant.algorithm ?? null,
    library: entries
      .filter((e) => planners.find((p) => p.name === e.variant.algorithm)?.traits.mpi !== undefined)
      .map((e) => variantLabel(e.variant)),
  };
}

/** The roles of the registry's variants. */
const REGISTRY_ROLES = autoRoles(PLANNERS);

/**
 * Variants simulated whatever the screen says (labels; the specs marked `alwaysFinal`): MPI_Alltoallv's default
 * (mpi-linear: compared with wherever it cannot win), shift (so auto never loses to it), linear permutation,
 * mesh-two-stage and hierarchical. The flat model misjudges the last four (it sums lock-step steps; the simulated
 * machine overlaps them), and the last two simulate cheaply (few messages). bench/results/auto.md weighs other choices.
 */
export const AUTO_ALWAYS_FINAL: readonly string[] = REGISTRY_ROLES.alwaysFinal;

/**
 * The variants of AUTO_ALWAYS_FINAL simulated before anything else is priced (`early: "first"`): their plans
 * have few transfers (about 2 P sqrt(P), and 2 P g + (P / g)^2), so planning and replaying them is cheap, and
 * where they win (fewer start-ups than any direct plan) their makespan rules out every direct planner.
 */
export const AUTO_SIMULATED_FIRST: readonly string[] = REGISTRY_ROLES.first;

/**
 * A parameter variant of a finalist's planner is a finalist too when its prediction is within this factor of the
 * finalist's.
 */
const SIBLING_SLACK = 1.05;

/**
 * planAuto's progress phases, in thousandths of the run: the first simulated variants, the exact ones, the ruling
 * ones, the screen with the planning of its leaders, the finalists. A phase's share is fixed (its finalists are not
 * known before it), so the total never changes; a phase that does not run is passed over.
 */
const AUTO_PROGRESS_PHASES: readonly number[] = [200, 50, 150, 150, 450];

/**
 * The finalists after the screen (planLeaders has planned the `k` best predictions) besides `always`
 * (the variants of AUTO_ALWAYS_FINAL still in, planned): the best `k` predictions that can win and those tied with
 * the last of them (withinCut), with the predictions before them that cannot (`canWin`: MPI's plans with more
 * messages per node in a step than the machine has ports, simulated to be compared with, so they take no finalist's
 * place), and the other
 * parameter variants of their planners and of `always` predicted within SIBLING_SLACK of them; in
 * tie-break order. Variants ruled out (a note) take no part. Every finalist is planned (a planner
 * that refuses the matrix drops out).
 */
function pickFinalists(
  screen: readonly ScreenResult[],
  k: number,
  always: readonly ScreenResult[],
  plan: (r: ScreenResult) => boolean,
  canWin: (r: ScreenResult) => boolean,
): ScreenResult[] {
  const known = screen.filter((r) => r.predicted !== null && (r.note === "" || r.schedule !== null));
  const chosen = new Set<ScreenResult>();
  let places = k;
  // the prediction of the last place taken: a variant tied with it (withinCut) is a finalist too, not cut off by
  // tie-break order, as the flat model cannot tell the two apart
  let cut: number | null = null;
  for (const r of [...known].sort((a, b) => a.predicted! - b.predicted! || screen.indexOf(a) - screen.indexOf(b))) {
    if (places === 0 && (cut === null || !withinCut(r.predicted!, cut))) break;
    chosen.add(r);
    if (canWin(r) && places > 0 && --places === 0) cut = r.predicted!;
  }
  for (const r of [...chosen, ...always])
    for (const q of known)
      if (q.variant.algorithm === r.variant.algorithm && q.predicted! <= r.predicted! * SIBLING_SLACK) chosen.add(q);
  return screen.filter((r) => chosen.has(r) && !always.includes(r) && plan(r));
}

/** What the reason knows of each candidate besides its row: Finals, by the candidate's screen result. */
interface ReasonFacts {
  /** Why it lost (whyNot). */
  readonly whyNot: (c: AutoCandidate) => string;
  /** Whether it could have been chosen: it has a simulated makespan and fits the machine's ports. */
  readonly canWin: (c: AutoCandidate) => boolean;
  /**
   * The lower bound it was skipped by (a finalist not simulated, or a candidate ruled out unplanned), or null; a
   * candidate that cannot win either way (more messages at once than ports) has none.
   */
  readonly skippedBy: (c: AutoCandidate) => number | null;
}

/**
 * The reason's runner-up: the fastest other candidate simulated that could have been chosen (it fits the machine's
 * ports). When candidates skipped by a lower bound have their bound below its time, it is only the next simulated,
 * and the words count them and give the lowest bound; null when there is neither.
 */
function nextWords(winner: AutoCandidate, all: readonly AutoCandidate[], facts: ReasonFacts): string | null {
  const next = all
    .filter((c) => c !== winner && c.simulated !== null && facts.canWin(c))
    .sort((a, b) => a.simulated! - b.simulated!)[0];
  const below = all
    .map((c) => ({ c, bound: c === winner ? null : facts.skippedBy(c) }))
    .filter((x): x is { c: AutoCandidate; bound: number } => x.bound !== null)
    .filter((x) => next === undefined || round(x.bound) < next.simulated!)
    .sort((a, b) => a.bound - b.bound || all.indexOf(a.c) - all.indexOf(b.c));
  const lowest = below[0];
  if (lowest === undefined) return next ? `next ${variantLabel(next)} ${next.simulated} us` : null;
  const at = `${variantLabel(lowest.c)} at least ${floor3(lowest.bound)} us`;
  const skipped = below.length === 1 ? `1 skipped by a lower bound` : `${below.length} skipped by lower bounds`;
  return next
    ? `next simulated ${variantLabel(next)} ${next.simulated} us (${skipped} below it, the lowest ${at})`
    : `no other simulated plan could be chosen (${skipped}, the lowest ${at})`;
}

/**
 * The reason in the header: the winner's makespan, the runner-up (nextWords), what it saves against shift (simulated,
 * or at least by shift's bound), and where the flat model disagreed.
 */
function describeWhy(
  winner: AutoCandidate,
  all: readonly AutoCandidate[],
  shiftBound: number | null,
  baseline: string | null,
  facts: ReasonFacts,
): string {
  const shift = all.find((c) => c.algorithm === baseline && c.simulated !== null);
  const parts = [`lowest simulated makespan ${winner.simulated} us`];
  const next = nextWords(winner, all, facts);
  if (next !== null) parts.push(next);
  // a time within TIE_SLACK of the winner's is a tie (and 0 against 0 saves no percent)
  const tied = (t: number): boolean => t <= winner.simulated! * (1 + TIE_SLACK);
  const saved = (t: number): number => (100 * (t - winner.simulated!)) / t;
  if (shift && shift !== winner)
    parts.push(
      `${baseline} ${shift.simulated} us (${tied(shift.simulated!) ? "a tie" : `${round(saved(shift.simulated!))} % saved`})`,
    );
  else if (!shift && shiftBound !== null)
    parts.push(
      `${baseline} at least ${floor3(shiftBound)} us by its bound (${tied(shiftBound) ? "at most a tie" : `at least ${floor3(saved(shiftBound))} % saved`})`,
    );
  const bestPredicted = all.filter((c) => c.predicted !== null).sort((a, b) => a.predicted! - b.predicted!)[0];
  if (bestPredicted && bestPredicted !== winner)
    parts.push(
      `the flat model preferred ${variantLabel(bestPredicted)} (${bestPredicted.predicted} us) but it ${facts.whyNot(bestPredicted)}`,
    );
  return parts.join("; ");
}

/** Why a variant that is not the winner lost, in the order candidateRows' notes say it. */
function whyNot(r: ScreenResult, f: Finals): string {
  if (f.misfits.has(r)) return "posts more messages per node at once than the machine has ports (see its note)";
  const t = f.simulated.get(r);
  if (t !== undefined)
    return t <= f.best * (1 + TIE_SLACK)
      ? "simulated as fast (a tie, which the earlier candidate wins)"
      : "simulated slower";
  if (f.unpredicted.has(r)) return "has no prediction on the runtime (see its note)";
  if (f.bounds.has(r)) return "cannot be faster: its lower bound is above the winner's time";
  return "was left out (see its note)";
}

/** The facts the reason reads of `candidates` (the rows of `screen`, in its order) from what the finalists found. */
function reasonFacts(screen: readonly ScreenResult[], candidates: readonly AutoCandidate[], f: Finals): ReasonFacts {
  const of = (c: AutoCandidate): ScreenResult => screen[candidates.indexOf(c)]!;
  return {
    whyNot: (c) => whyNot(of(c), f),
    canWin: (c) => f.simulated.has(of(c)) && !f.misfits.has(of(c)),
    skippedBy: (c) => {
      const r = of(c);
      if (f.simulated.has(r) || f.misfits.has(r) || f.unpredicted.has(r)) return null;
      return f.bounds.get(r) ?? f.ruled.get(r) ?? null;
    },
  };
}

/** x rounded down to 3 decimals (an "at least" figure). */
function floor3(x: number): number {
  return Math.floor(x * 1000) / 1000;
}

/**
 * The fabric auto's pruning bounds the replay on: blocking mode on the node-port model (the machine's fabric, as
 * the replay takes it), except the OCPC; else null.
 */
function boundFabric(
  mode: SimMode,
  network: NetworkRoutes | null | undefined,
  machine: MachineModel,
): BoundFabric | null {
  if (mode !== "blocking" || network) return null;
  const t = resolveFabric(undefined, machine);
  return t === "ocpc" ? null : t;
}

/** Whether a finalist's plan may win on the machine: not an MPI plan with more messages per node at once than ports. */
function fitsPorts(r: ScreenResult, run: FinalistRun): boolean {
  return !run.library.includes(variantLabel(r.variant)) || scheduleLoad(r.schedule!).atOnce <= run.ports;
}

/**
 * MPI_Alltoallv's default as the library runs it (every round posted at once: nonblocking), for the verdict: its
 * makespan (the finalist's own in nonblocking mode without a difference to make), via predictMakespan.
 */
function libraryMakespan(
  r: ScreenResult,
  simulated: Map<ScreenResult, number>,
  machine: MachineModel,
  run: FinalistRun,
): number {
  if (run.target !== null) return predictLibraryDefault(run.m, machine, run.target);
  if (run.mode === "nonblocking" && simulated.has(r)) return simulated.get(r)!;
  return predictMakespan(r.schedule!, machine, {
    mode: run.mode,
    seed: run.seed,
    simNet: run.simNet,
    asLibrary: true,
    progress: null,
  });
}

/**
 * The verdict against MPI_Alltoallv's default (mpi-verdict.ts): the winner, the default among the screen
 * (traits.mpi.isDefault) with `makespan` (planned and run as the library runs it; false when it cannot be planned),
 * and the best other finalist that fits the machine's ports (the words of `the best plan`).
 */
function verdictFor(
  best: ScreenResult,
  screen: readonly ScreenResult[],
  planners: readonly Planner[],
  f: Pick<Finals, "simulated" | "misfits">,
  makespan: (r: ScreenResult) => number | false,
  moves: boolean,
  { margin, onRuntime }: { margin: number; onRuntime: VerdictRuntime | null },
): MpiVerdict {
  const { simulated, misfits } = f;
  const of = (r: ScreenResult, t: number | undefined): VerdictCandidate => ({
    planner: plannerIn(planners, r.variant.algorithm),
    label: variantLabel(r.variant),
    simulated: t === undefined ? null : round(t),
    schedule: r.schedule,
  });
  const d = screen.find((x) => plannerIn(planners, x.variant.algorithm).traits.mpi?.isDefault === true);
  const t = d === undefined ? false : makespan(d);
  const next = screen
    .filter((r) => r !== best && simulated.has(r) && !misfits.has(r))
    .sort((a, b) => simulated.get(a)! - simulated.get(b)!)[0];
  const nextWords = next === undefined ? null : `${variantLabel(next.variant)}, ${round(simulated.get(next)!)} us`;
  const def = d === undefined || t === false ? null : of(d, t);
  return mpiVerdict(of(best, simulated.get(best)), def, nextWords, margin, moves, onRuntime);
}

/**
 * The verdict's margin and runtime: MPI_MARGIN on the papers' machine; on a runtime RUNTIME_MPI_MARGIN, with P, the
 * runtime model, the variant the winner runs in and the links' time per byte (for the effect's words).
 */
function verdictTarget(
  run: FinalistRun,
  best: ScreenResult,
  machine: MachineModel,
): { margin: number; onRuntime: VerdictRuntime | null } {
  if (run.target === null) return { margin: MPI_MARGIN, onRuntime: null };
  const variant = run.variants.get(best)!;
  const onRuntime = { p: run.m.p, runtime: run.target.runtime, variant, usPerByte: machine.tc + machine.td };
  return { margin: RUNTIME_MPI_MARGIN, onRuntime };
}

/** How simulateFinalists runs. */
interface FinalistRun {
  readonly mode: SimMode;
  readonly seed: number;
  readonly simNet: ReturnType<typeof networkOptions>;
  /**
   * Bound by blockingBoundExact on this fabric (prune, and skip the replay of an exact one); null: replay every
   * finalist (nonblocking mode, a network, the OCPC).
   */
  readonly boundFabric: BoundFabric | null;
  /** The run's progress (AUTO_PROGRESS_PHASES). */
  readonly phases: ProgressPhases;
  /** AutoRoles.library: MPI's plans, which win only where they fit the machine's ports (`ports`). */
  readonly library: readonly string[];
  /** The machine's send and receive ports per node (unlimited on a runtime). */
  readonly ports: number;
  /** With a runtime: where finalists are predicted (runtime-predict.ts), and how a relaying one gets payload chunks. */
  readonly target: RuntimeTarget | null;
  readonly m: CommMatrix;
  readonly machine: MachineModel;
  readonly payload: (r: ScreenResult) => { readonly schedule: Schedule | null; readonly error: string };
  /** The program variant each finalist was predicted fastest in (with a runtime). */
  readonly variants: Map<ScreenResult, ProgramVariant>;
  /** AutoOptions.exhaustive: no finalist or program variant is skipped for its bound. */
  readonly exhaustive: boolean;
}

/**
 * A finalist's predicted makespan on the run's runtime (the variant that gives it recorded in `run.variants`), or why
 * it has none: a plan that relays whose payload plan its planner refuses (two-stage past its chunk limit) cannot be
 * lowered, so it is left out, not the whole run.
 */
function predictFinalist(r: ScreenResult, run: FinalistRun): number | string {
  const p = predictOnRuntime(run.m, r.schedule!, run.machine, run.target!, () => run.payload(r), run.exhaustive);
  if (typeof p === "string") return p;
  run.variants.set(r, p.variant);
  return p.makespan;
}

/** How planAuto's finalists run (FinalistRun), from its options and what it resolved of them. */
function finalistRun(
  m: CommMatrix,
  machine: MachineModel,
  options: AutoOptions,
  r: Pick<FinalistRun, "mode" | "seed" | "simNet" | "target" | "library"> & { readonly planning: Planning },
): FinalistRun {
  const { mode, seed, target, planning } = r;
  return {
    library: r.library,
    ports: target === null ? machine.ports : Infinity,
    mode,
    seed,
    simNet: r.simNet,
    boundFabric: target === null ? boundFabric(mode, options.network, machine) : null,
    phases: progressPhases(checkProgress(options.progress, MODULE), AUTO_PROGRESS_PHASES),
    target,
    m,
    machine,
    payload: (x) => planVariant(m, x.variant, machine, seed, true, planning),
    variants: new Map(),
    exhaustive: options.exhaustive === true,
  };
}

/** What the finalists' replays found so far (both rounds of planAuto add to it). */
class Finals {
  readonly simulated = new Map<ScreenResult, number>();
  /** Finalists with no prediction on the runtime, and why (predictFinalist). */
  readonly unpredicted = new Map<ScreenResult, string>();
  readonly bounds = new Map<ScreenResult, number>();
  readonly boundMs: Record<string, number> = {};
  readonly simMs: Record<string, number> = {};
  readonly scratch = new BoundScratch();
  /** The rule-out's bounds of the matrix (rule-out.ts), once computed. */
  ruleBounds: RuleOutBounds | null = null;
  /** Variants ruled out unplanned, with their simulated-machine lower bound (ruleOutByBound). */
  readonly ruled = new Map<ScreenResult, number>();
  /** Finalists that cannot win: MPI's plans with more messages per node in a step than the machine has ports. */
  readonly misfits = new Set<ScreenResult>();
  /** Finalists whose bound is their makespan (blockingBoundExact): no replay needed. */
  readonly exact = new Set<ScreenResult>();
  /**
   * The least makespan simulated so far, and the leader: the earliest in screen order among the makespans within
   * TIE_SLACK of it.
   */
  best = Infinity;
  bestOf: ScreenResult | null = null;
  /** The finalists seen so far (bounded, with a bound fabric), and those simulated or spared. */
  readonly seen = new Set<ScreenResult>();
  readonly done = new Set<ScreenResult>();
}

/**
 * Simulates the finalists not simulated yet, in the order of their lower bounds with a
 * `boundFabric` or on a runtime (runtime-bound.ts; ties: screen order), skipping a finalist whose bound
 * already exceeds the best makespan simulated so far: it cannot win or tie, so the winner is the one
 * simulating every finalist would find, at the cost of a pass over its transfers instead of a replay
 * (on a runtime, also of the payload plan and the lowering a relaying plan needs). Without bounds, in
 * screen order. With `exactOnly`, only the finalists whose bound is exact (the others
 * are left for a later call). Adds the makespans, the
 * finalists' bounds, and the time spent per label to `f`. Reports to `phase` (a phase of run.phases, or null) over
 * the transfers of the finalists it takes up, a simulated or spared one counting in full.
 */
function simulateFinalists(
  finalists: readonly ScreenResult[],
  screen: readonly ScreenResult[],
  machine: MachineModel,
  run: FinalistRun,
  f: Finals,
  phase: ProgressCallback | null,
  exactOnly = false,
): void {
  const { mode, seed, simNet } = run;
  const fresh = finalists.filter((r) => !f.seen.has(r));
  for (const r of fresh) f.seen.add(r);
  const fabric = run.boundFabric;
  for (const r of fresh) if (!fitsPorts(r, run)) f.misfits.add(r);
  const target = run.target;
  if (fabric !== null || target !== null)
    for (const r of fresh) {
      const t0 = performance.now();
      if (fabric !== null) {
        const { bound, exact } = blockingBoundExact(r.schedule!, machine, fabric, "arrival", f.scratch);
        f.bounds.set(r, bound);
        if (exact) f.exact.add(r);
      } else f.bounds.set(r, runtimeLowerBound(r.schedule!, run.m.elementBytes, machine, target!));
      f.boundMs[variantLabel(r.variant)] = performance.now() - t0;
    }
  const todo = finalists.filter((r) => !f.done.has(r) && (!exactOnly || f.exact.has(r)));
  if (fabric !== null || target !== null)
    todo.sort((a, b) => f.bounds.get(a)! - f.bounds.get(b)! || screen.indexOf(a) - screen.indexOf(b));
  const total = todo.reduce((sum, r) => sum + r.schedule!.transferCount, 0);
  let transfersDone = 0;
  // r is simulated or spared: its transfers count as done
  const finished = (r: ScreenResult): void => {
    f.done.add(r);
    transfersDone += r.schedule!.transferCount;
    phase?.(transfersDone, total);
  };
  phase?.(0, total);
  for (const r of todo) {
    // a bound above the best so far, beyond rounding: the bound sums the same times in another
    // order, and a replay's clock can absorb a duration below half an ulp of a late time (2^-53
    // relative per event); the events of at most MAX_SIM_TRANSFERS transfers stay far below this slack
    const bound = f.bounds.get(r);
    if (bound === undefined || run.exhaustive || !beyond(bound, f.best)) {
      const t0 = performance.now();
      const before = transfersDone;
      const progress = phase === null ? null : (done: number): void => phase(before + done, total);
      // a bound that is the makespan needs no replay (the replay adds the same times in another order)
      const makespan = f.exact.has(r)
        ? bound!
        : run.target !== null
          ? predictFinalist(r, run)
          : predictMakespan(r.schedule!, machine, { mode, seed, simNet, asLibrary: false, progress });
      if (typeof makespan === "string") {
        f.unpredicted.set(r, makespan);
        finished(r);
        continue;
      }
      f.simulated.set(r, makespan);
      if (f.misfits.has(r)) {
        // simulated to be compared with, but it cannot win here: it prunes and rules out nothing
        finished(r);
        continue;
      }
      // the leader: the earliest in screen order among the makespans within rounding of the least
      if (
        f.bestOf === null ||
        makespan < f.best * (1 - TIE_SLACK) ||
        (makespan <= f.best * (1 + TIE_SLACK) && screen.indexOf(r) < screen.indexOf(f.bestOf))
      )
        f.bestOf = r;
      f.best = Math.min(f.best, makespan);
      if (!f.exact.has(r)) f.simMs[variantLabel(r.variant)] = performance.now() - t0;
    }
    finished(r);
  }
}

/**
 * Rules out, before they are planned, what the best makespan simulated so far shows cannot win (rule-out.ts); only
 * without a network and off the OCPC, where the bounds are tested against the replay.
 */
function ruleOutByBound(
  screen: readonly ScreenResult[],
  m: CommMatrix,
  machine: MachineModel,
  mode: SimMode,
  f: Finals,
  planners: readonly Planner[],
): void {
  if (f.bestOf === null) return;
  const t0 = performance.now();
  f.ruleBounds ??= ruleOutBounds(m, machine, mode, planners);
  for (const [r, b] of ruleOut(screen, f.ruleBounds, f.best, f.bestOf, planners)) f.ruled.set(r, b);
  f.boundMs["simulated-machine bounds"] = (f.boundMs["simulated-machine bounds"] ?? 0) + performance.now() - t0;
}

/** The keys of AutoOptions. */
const AUTO_OPTION_KEYS: readonly string[] = Object.freeze([
  "payload",
  "seed",
  "mode",
  "finalists",
  "network",
  "portSharing",
  "maxMemory",
  "progress",
  "planners",
  "runtime",
  "exhaustive",
]);

/** The shape of planAuto's arguments: a machine model, an options object of AutoOptions' keys, a CommMatrix. */
function checkAutoArguments(m: CommMatrix, machine: MachineModel, options: AutoOptions): void {
  checkMachine(machine, MODULE);
  checkOptionsObject(MODULE, "options", options);
  checkOptionKeys(MODULE, options, AUTO_OPTION_KEYS);
  checkMatrixArg(MODULE, m);
}

/**
 * Chooses a planner and its parameters for `m` on `machine`: a flat-model screen of every applicable
 * variant (candidates.ts: the planners' predictions, lower bounds and lazy planning
 * for the others), then the simulated machine on AUTO_ALWAYS_FINAL and the best `finalists`
 * predictions (with their planners' other parameter variants predicted within 5 %); only finalists
 * are planned, and what the makespans simulated first show cannot win is ruled out before it is
 * priced (rule-out.ts). The lowest simulated makespan wins (ties within TIE_SLACK: the earlier
 * variant; MPI's plans win only where they fit the machine's ports). Deterministic; never slower than shift (the
 * `baseline`) in simulation beyond TIE_SLACK, as shift is a finalist unless its bound shows it cannot win. The
 * report's `mpi` answer compares the winner with MPI_Alltoallv's default as the library runs it (mpiVerdict).
 */
export function planAuto(m: CommMatrix, machine: MachineModel, options: AutoOptions = {}): AutoResult {
  checkAutoArguments(m, machine, options);
  checkBooleanOption(MODULE, "payload", options.payload);
  const seed = checkSeed(MODULE, options.seed ?? 1);
  checkMaxMemory(MODULE, options.maxMemory);
  const mode = options.mode ?? "blocking";
  if (mode !== "blocking" && mode !== "nonblocking")
    throw fail(MODULE, "BAD_OPTION", `unknown mode '${String(mode)}'; known: blocking, nonblocking`, {
      field: "mode",
    });
  checkPlanners(MODULE, options.planners);
  const planners = options.planners ?? PLANNERS;
  const planning: Planning = { planners, ...(options.maxMemory === undefined ? {} : { maxMemory: options.maxMemory }) };
  const roles = planners === PLANNERS ? REGISTRY_ROLES : autoRoles(planners);
  const variants = roles.variants;
  const target =
    options.runtime === undefined || options.runtime === null ? null : runtimeTarget(options.runtime, options.network);
  // on a runtime the flat one-port screen says little about the runtime's order (aggregation wins by its overheads,
  // many messages at once by its ports): every variant is a finalist unless told otherwise
  // a default never exceeds the variants there are (planners: [shift] has one): only a given count is refused
  const k = options.finalists ?? (target === null ? Math.min(AUTO_FINALISTS, variants.length) : variants.length);
  if (!Number.isInteger(k) || k < 0 || k > variants.length)
    throw fail(MODULE, "BAD_OPTION", `finalists must be an integer in 0..${variants.length}, got ${String(k)}`, {
      field: "finalists",
    });
  checkFlatForNetwork(machine, options.network, "a network", MODULE);
  const simNet = networkOptions(options);
  const fabric = resolveFabric(undefined, machine);
  const plan = (r: ScreenResult): boolean => ensurePlanned(r, m, machine, mode, seed, planning);
  const run = finalistRun(m, machine, options, { mode, seed, simNet, target, planning, library: roles.library });
  const f = new Finals();
  const sc = screenFormulas(m, machine, mode, variants, true, planners);
  const screen = sc.results;
  // first the always-simulated variants with few transfers, planned (so priced) and simulated before
  // anything else is priced: their best makespan rules out, unpriced and unplanned, every variant
  // whose simulated-machine lower bound exceeds it; then the screen prices the rest and plans the
  // best predictions, and the finalists are simulated in the order of their bounds
  const ruling = !options.network && fabric !== "ocpc" && target === null;
  // the variants of `labels` still in, planned, bounded and simulated (exactOnly: only those whose
  // bound is exact, the others wait for the screen), then what the best makespan shows cannot win is
  // ruled out (not on a network or the OCPC)
  const early = (labels: readonly string[], exactOnly: boolean, phase: number): void => {
    const todo = screen.filter((r) => r.note === "" && labels.includes(variantLabel(r.variant)) && plan(r));
    simulateFinalists(todo, screen, machine, run, f, run.phases.phase(phase), exactOnly);
    if (ruling) ruleOutByBound(screen, m, machine, mode, f, planners);
  };
  early(roles.first, false, 0);
  // shift and linear permutation when still in: their exact bounds (no message waits) are makespans
  // for free, and the one of a plan at the direct bound rules out every later direct planner
  early(roles.exact, true, 1);
  // coloring only where its makespan can rule out (else it waits for the screen, as any planner)
  if (ruling) early(roles.ruling, false, 2);
  sc.priceRest();
  planLeaders(screen, m, machine, mode, seed, Math.max(1, k), planning);
  run.phases.complete(3);
  const always = screen.filter(
    (r) =>
      r.predicted !== null &&
      (r.note === "" || r.schedule !== null) &&
      roles.alwaysFinal.includes(variantLabel(r.variant)) &&
      plan(r),
  );
  // an MPI plan that cannot fit the machine's ports takes no finalist's place (a planner that refuses the matrix
  // still takes one, as before the screen knew it)
  const canWin = (r: ScreenResult): boolean =>
    !run.library.includes(variantLabel(r.variant)) || !plan(r) || fitsPorts(r, run);
  const finalists = [...always, ...pickFinalists(screen, k, always, plan, canWin)];
  simulateFinalists(finalists, screen, machine, run, f, run.phases.phase(4));
  const { simulated, bounds } = f;
  const ms = { bound: f.boundMs, simulate: f.simMs };
  // the winner: the earliest in screen order among the makespans within rounding (TIE_SLACK) of the
  // least, as a replay and an exact bound add the same times in different orders
  const best: ScreenResult | null =
    screen.find((r) => simulated.has(r) && !f.misfits.has(r) && simulated.get(r)! <= f.best * (1 + TIE_SLACK)) ?? null;
  if (best === null) throw fail(MODULE, "UNSUPPORTED", `no planner could plan this matrix (P = ${m.p})`);
  const candidates = candidateRows(screen, best, f, machine, target !== null);
  const moves = hasMessages(m);
  const winner = candidates[screen.indexOf(best)]!;
  const shiftResult = screen.find((r) => r.variant.algorithm === roles.baseline);
  const report: AutoReport = {
    machine: machine.name,
    mode,
    ...(options.network
      ? { network: { name: options.network.name, portSharing: options.portSharing ?? "serial" } }
      : {}),
    ...(target === null ? {} : { runtime: { name: target.runtime.name, variant: run.variants.get(best)! } }),
    winner: { algorithm: best.variant.algorithm, params: best.variant.params },
    mpi: verdictFor(
      best,
      screen,
      planners,
      f,
      (r) => plan(r) && libraryMakespan(r, simulated, machine, run),
      moves,
      verdictTarget(run, best, machine),
    ),
    // with nothing to send every plan is empty: times, ties and the flat model's favourite would only be noise
    reason: moves
      ? describeWhy(
          winner,
          candidates,
          shiftResult === undefined ? null : (bounds.get(shiftResult) ?? f.ruled.get(shiftResult) ?? null),
          roles.baseline,
          reasonFacts(screen, candidates, f),
        )
      : NOTHING_TO_SEND_REASON,
    candidates,
  };
  const planned = options.payload
    ? planVariant(m, best.variant, machine, seed, true, planning).schedule!
    : best.schedule!;
  const screenMs = Object.fromEntries(screen.map((r) => [variantLabel(r.variant), r.ms]));
  run.phases.end();
  return { schedule: { ...planned, auto: autoHeader(report) }, report, ms: { screen: screenMs, ...ms } };
}

/** The report's candidates: every screened variant with its prediction, makespan and note (why it won or lost). */
function candidateRows(
  screen: readonly ScreenResult[],
  best: ScreenResult,
  f: Finals,
  machine: MachineModel,
  onRuntime: boolean,
): AutoCandidate[] {
  const { simulated, bounds } = f;
  const bestTime = simulated.get(best)!;
  const note = (r: ScreenResult): string => {
    if (r === best) return "winner";
    const bound = bounds.get(r);
    // a finalist skipped by its bound says so, with the bound, also when it could not have won anyway (a misfit)
    const skipped =
      bound === undefined || simulated.has(r)
        ? null
        : `not simulated: its lower bound ${apart(bound, bestTime)} us (${onRuntime ? "runtime-bound.ts" : "blocking-bound.ts"}) exceeds the winner's ${apart(bestTime, bound)} us`;
    if (f.misfits.has(r))
      return `finalist, cannot win: ${scheduleLoad(r.schedule!).atOnce} messages of a node in one step on a machine with ${counted(machine.ports, "port", "ports")} (compared with as what MPI does)${skipped === null ? "" : `; ${skipped}`}`;
    if (simulated.has(r)) return "finalist";
    const why = f.unpredicted.get(r);
    if (why !== undefined) return `finalist, not predicted on the runtime: ${why}`;
    if (skipped !== null) return `finalist, ${skipped}`;
    return r.note || "not a finalist (predicted slower)";
  };
  return screen.map((r) => ({
    algorithm: r.variant.algorithm,
    params: r.variant.params,
    predicted: r.predicted === null ? null : round(r.predicted),
    simulated: simulated.has(r) ? round(simulated.get(r)!) : null,
    note: note(r),
  }));
}

/** The report as the JSON of the schedule header's `auto` block (schemas/schedule.v1.schema.json, $defs/auto). */
export function autoHeader(r: AutoReport): JsonValue {
  const ok = isOptionsObject(r) && typeof r["machine"] === "string" && Array.isArray(r["candidates"]);
  checkArg("auto", "autoHeader", "r", r, ok, "an AutoReport (planAuto's report)");
  return {
    machine: r.machine,
    mode: r.mode,
    ...(r.network ? { network: { name: r.network.name, portSharing: r.network.portSharing } } : {}),
    ...(r.runtime ? { runtime: { name: r.runtime.name, variant: r.runtime.variant } } : {}),
    winner: { algorithm: r.winner.algorithm, params: r.winner.params },
    reason: r.reason,
    mpi: {
      answer: r.mpi.answer,
      mpiDefault: r.mpi.mpiDefault,
      mpiSimulated: r.mpi.mpiSimulated,
      gain: r.mpi.gain,
      planSimulated: r.mpi.planSimulated,
      speedup: r.mpi.speedup,
      effect: r.mpi.effect,
    },
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
