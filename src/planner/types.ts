/** Planner: the interface every planning algorithm implements, its parameter declarations and its options. */
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { InputSpec, OutputSpec, ParamValue, Specs } from "../model/param-spec.js";
import type { ProgressCallback } from "../model/progress.js";
import type { JsonValue, Schedule } from "../model/schedule.js";

export type { ParamValue } from "../model/param-spec.js";

/**
 * Resolved parameters before typing: every declared input, defaults filled (an input without a default is absent when
 * not given).
 */
export type PlanParams = { readonly [k: string]: ParamValue };

/** An input parameter of a planner (`--param name=value`) with its name: see InputSpec. */
export type InputParam = InputSpec & { readonly name: string };

/**
 * A key the planner writes into the schedule header's params, with its name: accepted on input (so a header's params
 * can be given back) and ignored.
 */
export type OutputParam = OutputSpec & { readonly name: string };

/** One parameter declaration of a planner. */
export type PlannerParam = InputParam | OutputParam;

/**
 * Options every planner receives, made by `resolvePlanOptions` (defaults filled, params checked against the
 * declaration).
 */
export interface PlanOptions<P = PlanParams> {
  /** Emit payload chunks (element-level plan) as well as message sizes. */
  readonly payload: boolean;
  /** Seed for every random choice. */
  readonly seed: number;
  /** Machine model for planners that use a cost model; others ignore it. */
  readonly machine: MachineModel | null;
  /**
   * The planner's input parameters, checked and with defaults filled (output keys dropped); typed inside a planner made
   * by definePlanner.
   */
  readonly params: P;
  /**
   * The params exactly as the caller gave them (output keys included); planners whose header echoes the request copy
   * these.
   */
  readonly givenParams: { readonly [k: string]: JsonValue };
  /**
   * Bytes the plan may allocate (planners that estimate their memory refuse past it); default half the machine's memory
   * (plan-memory.ts).
   */
  readonly maxMemory?: number;
  /**
   * Called now and then while the plan is made (planners that can take long report: see ProgressCallback),
   * `done` of `total` units of the planner's own; a planner that does not report never calls it.
   */
  readonly progress?: ProgressCallback | null;
}

/** A named planning algorithm. */
export interface Planner {
  /** Name used on the command line and in schedule files (kebab-case). */
  readonly name: string;
  /** One-line description. */
  readonly title: string;
  /** The paper section it follows. */
  readonly source: string;
  /** Its parameters with their names: inputs, then the keys it writes into the header's params. */
  readonly params: readonly PlannerParam[];
  /** The same declaration by name (what `resolvePlanOptions` checks params against). */
  readonly specs: Specs;
  /** What it is: direct or relayed, randomised, stages, growth, element limit, family, claims. */
  readonly traits: PlannerTraits;
  /** What `--algorithm auto` needs of it, or why it is deliberately not one of auto's candidates. */
  readonly auto: AutoProfile | NoAuto;
  /**
   * Makes a schedule for the matrix; `opts` must come from `resolvePlanOptions`; throws CommplanError for matrices it
   * cannot plan.
   */
  plan(m: CommMatrix, opts: PlanOptions): Schedule;
}

/** A family of planners that share a shape and an experiment (the total-exchange protocols of 001). */
export interface PlannerFamily {
  /** The family's name. */
  readonly name: "total-exchange";
  /** Whether the family's experiment (001's total-exchange table, `commplan te-table`) reports it by default. */
  readonly inPaperTable: boolean;
}

/** What a planner is, read by compare, auto, the store, the CLI, the demo and the tests instead of its name. */
export interface PlannerTraits {
  /** Some element travels through another node (not direct: src/bounds/schedule-class.ts). */
  readonly relayed: boolean;
  /** Its plan depends on the seed. */
  readonly randomised: boolean;
  /** Stages of a plan with traffic: a number, or "rounds" (one stage per protocol round). */
  readonly stages: number | "rounds";
  /**
   * How its plans grow: with the messages (linear), or faster (P^2, P sqrt(P), (P / g)^2 transfers, one per element).
   */
  readonly growth: "linear" | "superlinear";
  /**
   * Most network elements for which compare runs it (it moves every element as its own transfer); absent: no
   * limit. auto's own screen limit is `AutoProfile.maxElements`, a different, tighter figure.
   */
  readonly elementLimit?: number;
  /** The family it belongs to, when one of its experiments selects it. */
  readonly family?: PlannerFamily;
  /** Whether the verifier states claims for it (src/verifier/claims.ts, keyed by its name) or deliberately none. */
  readonly claims: "verifier" | "none";
  /** Present when its plan is what an MPI library's MPI_Alltoallv does (docs/mpi-algorithms.md). */
  readonly mpi?: MpiLibraryTrait;
}

/** What an MPI library does that a planner mirrors: compare labels it, auto answers "call MPI_Alltoallv" with it. */
export interface MpiLibraryTrait {
  /** The libraries and algorithm names it mirrors, as compare shows them ("SMPI default, Open MPI basic linear"). */
  readonly does: string;
  /** Whether it is what MPI_Alltoallv does by default (SMPI 3.32's default: every message posted at once). */
  readonly isDefault: boolean;
  /** Whether it picks another planner's plan by P (a library's selector); auto weighs the picked planner instead. */
  readonly selector: boolean;
  /**
   * SMPI 3.32's alltoallv algorithms (`--cfg=smpi/alltoallv:NAME`) whose every call posts this plan's messages in its
   * rounds (docs/mpi-algorithms.md: empty messages and posting order aside); the vs-MPI bench maps names through it.
   */
  readonly smpi: readonly string[];
}

/** The flat cost model's modes (the same values as CostMode of src/machines/cost-model.ts). */
export type FlatMode = "blocking" | "nonblocking";

/** Values a prediction keeps per matrix, shared by the variants of one screen (two-stage's split). */
export type PredictCache = Map<string, unknown>;

/**
 * The exact flat cost-model time (us) of the plan the planner would make with `params`, from the matrix
 * alone (no schedule built), or null when it has none for these params or this matrix.
 */
export type FlatPrediction = (
  m: CommMatrix,
  machine: MachineModel,
  mode: FlatMode,
  params: { readonly [k: string]: JsonValue },
  cache: PredictCache,
) => number | null;

/**
 * The lower bound auto's screen puts on the flat time of a variant without a prediction (the formulas
 * live in src/auto/predict.ts): `unit-packets` a round per element (one transfer per element),
 * `two-relays` every byte of the busiest node moved twice in two stages, `four-stages` four stages of
 * which the first rearranges every byte a node sends, `whole-messages` partial permutations of whole
 * messages, `busiest-node` any one-stage contention-free direct plan (messages may be cut).
 */
export type AutoBoundKind = "unit-packets" | "two-relays" | "four-stages" | "whole-messages" | "busiest-node";

/** One parameter variant auto weighs, and how auto treats it. */
export interface AutoVariantSpec {
  /** The planner's parameters in this variant. */
  readonly params: { readonly [k: string]: JsonValue };
  /**
   * Tie-break position: auto's variants are ordered by priority (default 0), then registry order (the earlier wins a
   * tie).
   */
  readonly priority?: number;
  /** Simulated whatever the screen says (AUTO_ALWAYS_FINAL). */
  readonly alwaysFinal?: boolean;
  /**
   * When auto simulates it before the screen prices the rest: `first` (few transfers, so cheap; its makespan
   * rules out), `exact` (when its blocking bound is exact: a makespan without a replay), `ruling` (only where
   * the rule-out runs: it wins often, and its makespan rules out relaying planners).
   */
  readonly early?: "first" | "exact" | "ruling";
  /**
   * The variant the auto header's reason compares the winner with (shift, the one-port ring); MPI_Alltoallv's default
   * (traits.mpi.isDefault) is compared in auto's answer instead.
   */
  readonly baseline?: boolean;
}

/** What `--algorithm auto` needs of a planner that is one of its candidates. */
export interface AutoProfile {
  /** Its parameter variants, in tie-break order among themselves. */
  readonly variants: readonly AutoVariantSpec[];
  /** Its exact flat time from the matrix, when it has one. */
  readonly predict?: FlatPrediction;
  /**
   * Auto's lower bound on its flat time while it has no prediction; absent (a planner whose prediction
   * always answers) the screen takes 0, so a variant without either is planned as soon as it nears the top.
   */
  readonly bound?: AutoBoundKind;
  /**
   * Whether every plan with traffic has exactly `traits.stages` stages that all rearrange (a test checks it
   * against the plans), so that the rule-out bounds it by those stages (RELAYED_STAGES).
   */
  readonly stagesRearrange?: boolean;
  /** Most non-empty off-diagonal messages for which the screen plans it, and why (the tail of the note). */
  readonly maxMessages?: { readonly limit: number; readonly why: string };
  /** Most off-diagonal elements (unit packets) for which the screen plans it. */
  readonly maxElements?: number;
}

/** A planner deliberately left out of auto's candidates, with the reason. */
export interface NoAuto {
  /** Why auto never weighs it. */
  readonly none: string;
}
