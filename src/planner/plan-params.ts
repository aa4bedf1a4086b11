/**
 * Planner parameters: the one check of given params against a planner's declaration, and definePlanner, which hands a
 * planner its params typed.
 */
import { fail } from "../model/errors.js";
import { checkProgress } from "../model/progress.js";
import type { CommMatrix } from "../model/matrix.js";
import {
  describeSpec,
  inputSpecs,
  namedSpecs,
  resolvedFrom,
  resolveSpecs,
  type Resolved,
  type Specs,
} from "../model/param-spec.js";
import type { JsonValue, Schedule } from "../model/schedule.js";
import type { AutoProfile, InputParam, NoAuto, Planner, PlannerParam, PlannerTraits, PlanOptions } from "./types.js";
import { jsonExcerpt } from "../internal/quoted.js";

/** The input parameters of a declaration (output keys left out). */
export function inputParams(decl: readonly PlannerParam[]): InputParam[] {
  return inputSpecs(decl);
}

/**
 * What a parameter takes, in words, as error messages say it: `"chunk" or "bvn"`, `"auto", "none" or a positive integer
 * (elements)`.
 */
export const describeParamType: (d: InputParam) => string = describeSpec;

/**
 * Checks `given` against the declaration of `algorithm` and fills the defaults: an unknown key, or a
 * value the declaration does not take, throws a BAD_OPTION CommplanError with field `params.<name>`.
 * Output keys are accepted and left out of the result.
 */
export function resolveParams<S extends Specs>(
  algorithm: string,
  specs: S,
  given: { readonly [k: string]: JsonValue },
): Resolved<S> {
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw fail(
      "planner",
      "BAD_OPTION",
      `${algorithm}: params must be an object of name: value, got ${jsonExcerpt(given)}`,
      { field: "params" },
    );
  }
  return resolveSpecs(specs, given, {
    module: "planner",
    label: (name) => `${algorithm}: ${name}`,
    unknown: (name, known, suggestion) => `${algorithm}: unknown parameter '${name}'${suggestion}; known: ${known}`,
    field: (name) => `params.${name}`,
  });
}

/** What a planner is besides its plan function: names, its parameter declaration, its traits and its auto profile. */
export interface PlannerInfo<S extends Specs> {
  readonly name: string;
  readonly title: string;
  readonly source: string;
  readonly params: S;
  /** What it is (Planner.traits). */
  readonly traits: PlannerTraits;
  /** What auto needs of it, or why it is not auto's candidate (Planner.auto). */
  readonly auto: AutoProfile | NoAuto;
}

/**
 * A planner from its declaration and a plan function that receives its params typed (e.g. `params:
 * { factor: number({ ... default: 3 }) }` gives `opts.params.factor: number`). The params must come
 * from `resolvePlanOptions` for this planner (checked: a programming error otherwise).
 */
export function definePlanner<S extends Specs>(
  info: PlannerInfo<S>,
  plan: (m: CommMatrix, opts: PlanOptions<Resolved<S>>) => Schedule,
): Planner {
  const specs = info.params;
  return {
    name: info.name,
    title: info.title,
    source: info.source,
    params: namedSpecs(specs),
    specs,
    traits: info.traits,
    auto: info.auto,
    plan(m, opts) {
      if (!resolvedFrom(opts.params, specs)) {
        throw fail(
          "planner",
          "BAD_OPTION",
          `${info.name}: params ${JSON.stringify(opts.params)} were not resolved for this planner; plan options must come from resolvePlanOptions`,
          { field: "params" },
        );
      }
      checkProgress(opts.progress, "planner");
      return plan(m, opts as PlanOptions<Resolved<S>>);
    },
  };
}
