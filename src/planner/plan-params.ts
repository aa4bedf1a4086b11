/** Planner parameters: the one check of given params against a planner's declaration (defaults filled), and typed access to the result. */
import { fail } from "../model/errors.js";
import type { JsonValue } from "../model/schedule.js";
import type { InputParam, ParamValue, PlannerParam, PlanParams } from "./types.js";

/** The input parameters of a declaration (output keys left out). */
export function inputParams(decl: readonly PlannerParam[]): InputParam[] {
  return decl.filter((d): d is InputParam => d.output !== true);
}

/** A number range in words: "a positive integer", "an integer in 0..4", "a number >= 1". */
function numberPhrase(d: InputParam): string {
  const kind = d.type === "integer" ? "integer" : "number";
  let text: string;
  if (d.min !== undefined && d.max !== undefined) text = `${kind === "integer" ? "an" : "a"} ${kind} in ${d.min}..${d.max}`;
  else if (d.min === 1 && kind === "integer") text = "a positive integer";
  else if (d.min !== undefined) text = `${kind === "integer" ? "an" : "a"} ${kind} >= ${d.min}`;
  else if (d.max !== undefined) text = `${kind === "integer" ? "an" : "a"} ${kind} <= ${d.max}`;
  else text = kind === "integer" ? "an integer" : "a finite number";
  return d.unit !== undefined ? `${text} (${d.unit})` : text;
}

/** What a parameter takes, in words, as error messages say it: `"chunk" or "bvn"`, `"auto", "none" or a positive integer (elements)`. */
export function describeParamType(d: InputParam): string {
  if (d.type === "boolean") return "true or false";
  const parts = (d.values ?? []).map((v) => JSON.stringify(v));
  if (d.type !== "enum") parts.push(numberPhrase(d));
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]!}`;
}

/** True when v is a value parameter d takes. */
function accepts(d: InputParam, v: JsonValue): v is ParamValue {
  if (d.type === "boolean") return typeof v === "boolean";
  if (typeof v === "string") return d.values !== undefined && d.values.includes(v);
  if (d.type === "enum" || typeof v !== "number") return false;
  if (d.type === "integer" ? !Number.isSafeInteger(v) : !Number.isFinite(v)) return false;
  return (d.min === undefined || v >= d.min) && (d.max === undefined || v <= d.max);
}

/**
 * Checks `given` against the declaration of `algorithm` and fills the defaults: an unknown key, or a
 * value the declaration does not take, throws a BAD_OPTION CommplanError with field `params.<name>`.
 * Output keys are accepted and left out of the result.
 */
export function resolveParams(algorithm: string, decl: readonly PlannerParam[], given: { readonly [k: string]: JsonValue }): PlanParams {
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw fail("planner", "BAD_OPTION", `${algorithm}: params must be an object of name: value, got ${JSON.stringify(given)}`, { field: "params" });
  }
  const inputs = inputParams(decl);
  for (const key of Object.keys(given)) {
    if (!decl.some((d) => d.name === key)) {
      const known = inputs.length > 0 ? inputs.map((d) => d.name).join(", ") : "(none)";
      throw fail("planner", "BAD_OPTION", `${algorithm}: unknown parameter '${key}'; known: ${known}`, { field: `params.${key}` });
    }
  }
  const out: Record<string, ParamValue> = {};
  for (const d of inputs) {
    if (!Object.prototype.hasOwnProperty.call(given, d.name)) {
      if (d.default !== undefined) out[d.name] = d.default;
      continue;
    }
    const v = given[d.name]!;
    if (!accepts(d, v)) throw fail("planner", "BAD_OPTION", `${algorithm}: ${d.name} must be ${describeParamType(d)}, got ${JSON.stringify(v)}`, { field: `params.${d.name}` });
    out[d.name] = v;
  }
  return out;
}

/** The resolved value of `name`; throws when the params did not come from `resolveParams` (a programming error). */
function resolved(params: PlanParams, name: string, want: string): never {
  throw fail("planner", "BAD_OPTION", `params.${name} is ${JSON.stringify(params[name])}, expected ${want}; plan options must come from resolvePlanOptions`, { field: `params.${name}` });
}

/** A resolved number parameter. */
export function numberParam(params: PlanParams, name: string): number {
  const v = params[name];
  return typeof v === "number" ? v : resolved(params, name, "a number");
}

/** A resolved boolean parameter. */
export function booleanParam(params: PlanParams, name: string): boolean {
  const v = params[name];
  return typeof v === "boolean" ? v : resolved(params, name, "true or false");
}

/** A resolved parameter that is one of `values`. */
export function enumParam<T extends string>(params: PlanParams, name: string, values: readonly T[]): T {
  const v = params[name];
  return typeof v === "string" && (values as readonly string[]).includes(v) ? (v as T) : resolved(params, name, values.join(" | "));
}
