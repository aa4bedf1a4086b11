/** Planner registry: every planning algorithm by name, and the one place plan options are checked. */
import { deepFreeze } from "../internal/deep-freeze.js";
import { fail } from "../model/errors.js";
import { quoted } from "../internal/quoted.js";
import { checkSeed } from "../model/param-spec.js";
import { checkMatrixArg, type CommMatrix } from "../model/matrix.js";
import { checkMachine, type MachineModel } from "../model/machine.js";
import { checkProgress, type ProgressCallback } from "../model/progress.js";
import { checkMaxMemory } from "../model/memory-budget.js";
import {
  checkArg,
  checkBooleanOption,
  checkOptionKeys,
  checkOptionsObject,
  describeValue,
  isOptionsObject,
} from "../model/option-checks.js";
import type { JsonValue, Schedule } from "../model/schedule.js";
import { fourStage } from "./four-stage/index.js";
import { linearPermutation } from "./linear-permutation.js";
import { MPI_PLANNERS } from "./mpi/index.js";
import { PERMUTATION_PLANNERS } from "./permutation/index.js";
import { resolveParams } from "./plan-params.js";
import { shift } from "./shift.js";
import { TOTAL_EXCHANGE_PLANNERS } from "./total-exchange/index.js";
import { TWO_STAGE_PLANNERS } from "./two-stage/index.js";
import type { AutoProfile, Planner, PlanOptions } from "./types.js";
import { didYouMean } from "../internal/did-you-mean.js";

/** Every registered planner, in the order `commplan algorithms` lists them. */
export const PLANNERS: readonly Planner[] = deepFreeze([
  linearPermutation,
  shift,
  ...PERMUTATION_PLANNERS,
  ...TWO_STAGE_PLANNERS,
  fourStage,
  ...TOTAL_EXCHANGE_PLANNERS,
  ...MPI_PLANNERS,
]);

/**
 * The planner called `name`; throws a one-line CommplanError (BAD_OPTION, field `algorithm`) listing the known names
 * (with a did-you-mean), or saying the name is not a string.
 */
export function findPlanner(name: string): Planner {
  if (typeof name !== "string")
    throw fail(
      "planner",
      "BAD_OPTION",
      `the algorithm must be a planner's name (a string), got ${describeValue(name)}`,
      {
        field: "algorithm",
      },
    );
  const found = PLANNERS.find((x) => x.name === name);
  if (!found)
    throw fail(
      "planner",
      "BAD_OPTION",
      `unknown algorithm ${quoted(name)}${
        name === "auto"
          ? ": auto is no planner but a choice among them for a machine, made by planAuto(matrix, machine, options)"
          : didYouMean(
              name,
              PLANNERS.map((x) => x.name),
            )
      }; known: ${PLANNERS.map((x) => x.name).join(", ")}`,
      { field: "algorithm" },
    );
  return found;
}

/**
 * Throws a one-line BAD_OPTION error of `module` (field `planners`) unless `planners` is undefined, null (the registry)
 * or an array of planner objects (a name in it is named, with the findPlanner call that gives its planner): a plain
 * JavaScript caller writing names got a TypeError from inside compareMatrix or planAuto.
 */
export function checkPlanners(module: string, planners: unknown): void {
  if (planners === undefined || planners === null) return;
  if (!Array.isArray(planners))
    throw fail(
      module,
      "BAD_OPTION",
      `planners must be an array of planners (PLANNERS, findPlanner), got ${describeValue(planners)}`,
      { field: "planners" },
    );
  (planners as unknown[]).forEach((p, k) => {
    if (typeof p === "string")
      throw fail(
        module,
        "BAD_OPTION",
        `planners[${k}] is a name, not a planner: give findPlanner(${JSON.stringify(p)})`,
        {
          field: "planners",
        },
      );
    const x = typeof p === "object" && p !== null ? (p as Partial<Planner>) : null;
    if (x === null || typeof x.name !== "string" || typeof x.plan !== "function" || typeof x.traits !== "object")
      throw fail(
        module,
        "BAD_OPTION",
        `planners[${k}] is not a planner (an entry of PLANNERS or findPlanner's), got ${x === null ? describeValue(p) : "an object without a name, plan and traits"}`,
        { field: "planners" },
      );
  });
}

/** Options as a caller gives them; `resolvePlanOptions` fills the defaults. */
export interface PlanRequest {
  readonly payload?: boolean;
  readonly seed?: number;
  readonly machine?: MachineModel | null;
  readonly params?: { readonly [k: string]: JsonValue };
  /** Bytes the plan may allocate (PlanOptions.maxMemory). */
  readonly maxMemory?: number;
  /** Progress of the plan (PlanOptions.progress); never part of what a plan is keyed or stored by. */
  readonly progress?: ProgressCallback | null;
}

/** The keys of a PlanRequest. */
export const PLAN_REQUEST_KEYS: readonly string[] = Object.freeze([
  "payload",
  "seed",
  "machine",
  "params",
  "maxMemory",
  "progress",
]);

/** A plan request's checked common options (PlanRequest without params), under one `module`'s errors. */
export interface CheckedPlanRequest {
  readonly payload: boolean;
  readonly seed: number;
  readonly machine: MachineModel | null;
  readonly maxMemory?: number;
  readonly progress: ProgressCallback | null;
}

/**
 * The one check of a plan request's common options: the request an object or undefined, payload a boolean, the seed,
 * the machine, maxMemory a positive finite number, the progress callback, no other key; defaults filled (no payload,
 * seed 1, no machine, no progress). Throws a one-line BAD_OPTION error of `module` naming the option.
 */
export function checkPlanRequest(module: string, req: PlanRequest | undefined): CheckedPlanRequest {
  checkOptionsObject(module, "options", req);
  checkOptionKeys(module, req, PLAN_REQUEST_KEYS);
  const r = req ?? {};
  checkBooleanOption(module, "payload", r.payload);
  const seed = checkSeed(module, r.seed ?? 1);
  if (r.machine !== undefined && r.machine !== null) checkMachine(r.machine, module);
  const maxMemory = checkMaxMemory(module, r.maxMemory);
  const progress = checkProgress(r.progress, module);
  return {
    payload: r.payload ?? false,
    seed,
    machine: r.machine ?? null,
    ...(maxMemory === undefined ? {} : { maxMemory }),
    progress,
  };
}

/**
 * Fills defaults and checks the common options (checkPlanRequest), then checks the params against the planner's
 * declaration (its defaults filled).
 */
export function resolvePlanOptions(planner: Planner, req: PlanRequest = {}): PlanOptions {
  const isPlanner =
    isOptionsObject(planner) && typeof planner["name"] === "string" && isOptionsObject(planner["specs"]);
  checkArg(
    "planner",
    "resolvePlanOptions",
    "planner",
    planner,
    isPlanner,
    "a Planner (an entry of PLANNERS or findPlanner's)",
    "BAD_OPTION",
  );
  const c = checkPlanRequest("planner", req);
  const givenParams = req.params ?? {};
  const params = resolveParams(planner.name, planner.specs, givenParams);
  return {
    payload: c.payload,
    seed: c.seed,
    machine: c.machine,
    params,
    givenParams,
    ...(c.maxMemory === undefined ? {} : { maxMemory: c.maxMemory }),
    ...(c.progress ? { progress: c.progress } : {}),
  };
}

/**
 * Whether a planner's plans depend on the machine model (its cost model writes `machine` into the
 * header: rs-nh, split-coloring); the others accept a machine and ignore it.
 */
export function plannerUsesMachine(p: Pick<Planner, "params">): boolean {
  return p.params.some((d) => d.output === true && d.name === "machine");
}

/**
 * Plans matrix m with the named algorithm. Throws a one-line CommplanError: BAD_INPUT when m is no CommMatrix,
 * BAD_OPTION for an unknown algorithm, an unknown key of `req` or a bad value, UNSUPPORTED when the planner cannot plan
 * this matrix.
 */
export function plan(m: CommMatrix, algorithm: string, req: PlanRequest = {}): Schedule {
  checkMatrixArg("planner", m);
  const planner = findPlanner(algorithm);
  return planner.plan(m, resolvePlanOptions(planner, req));
}

/** The planner's auto profile, or null when it is deliberately not one of auto's candidates (Planner.auto). */
export function autoProfileOf(p: Pick<Planner, "auto">): AutoProfile | null {
  return "variants" in p.auto ? p.auto : null;
}
