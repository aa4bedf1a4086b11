/**
 * Typed parameter specs: one way to declare the options of patterns, planners and the simulator, checked once by
 * `resolveSpecs` into a typed object.
 */
import { describeValue } from "./option-checks.js";
import { fail } from "./errors.js";
import { didYouMean } from "../internal/did-you-mean.js";

/** A value a parameter takes once resolved. */
export type ParamValue = number | boolean | string;

/** Carries a spec's value type and whether it has a default, for type inference only (never set at run time). */
declare const VALUE: unique symbol;

/**
 * An input parameter. `type` "integer" or "number" takes a number in min..max (bounds inclusive, either
 * may be absent); with `values` it also takes those strings (a union, e.g. a positive integer or one of
 * auto|mean|median|none). "boolean" takes true or false; "enum" one of `values`.
 */
export interface InputSpec<T extends ParamValue = ParamValue, D extends boolean = boolean> {
  /** One line: what the parameter does. */
  readonly description: string;
  readonly type: "integer" | "number" | "boolean" | "enum";
  readonly values?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** The unit of a number, named in messages and listings (e.g. "elements"). */
  readonly unit?: string;
  /** The value used when the parameter is not given; absent when the owner derives it (then `derived` says how). */
  readonly default?: T;
  /** How the owner chooses the value when the parameter has no default and is not given. */
  readonly derived?: string;
  readonly output?: false;
  readonly [VALUE]?: { readonly value: T; readonly hasDefault: D };
}

/** A key an owner writes into its output (a planner's header params): accepted on input and ignored. */
export interface OutputSpec {
  /** One line: what the owner reports under this key. */
  readonly description: string;
  readonly output: true;
}

/** A declaration: parameter name to spec, in the order listings show them. */
export type Specs = { readonly [name: string]: InputSpec | OutputSpec };

/** The value type of an input spec. */
type ValueOf<X> = X extends InputSpec<infer T, boolean> ? T : never;

/**
 * The resolved object of a declaration: every input typed (optional only when it has no default); output keys left out.
 */
export type Resolved<S extends Specs> = {
  readonly [K in keyof S as S[K] extends InputSpec<ParamValue, true> ? K : never]: ValueOf<S[K]>;
} & {
  readonly [K in keyof S as S[K] extends InputSpec<ParamValue, false> ? K : never]?: ValueOf<S[K]>;
};

/** A spec with its name (the shape listings and docs use). */
export type NamedSpec = (InputSpec & { readonly name: string }) | (OutputSpec & { readonly name: string });

/** What number specs take besides the kind: a description, the bounds and a unit. */
interface NumberOpts {
  readonly description: string;
  readonly min?: number;
  readonly max?: number;
  readonly unit?: string;
}

/** Builds a spec with its fields in one order (so listings print them alike), leaving absent fields out. */
function spec<T extends ParamValue, D extends boolean>(
  type: InputSpec["type"],
  o: {
    description: string;
    values?: readonly string[];
    min?: number;
    max?: number;
    unit?: string;
    default?: ParamValue;
    derived?: string;
  },
): InputSpec<T, D> {
  const out: { [k: string]: unknown } = { description: o.description, type };
  for (const k of ["values", "min", "max", "unit", "default", "derived"] as const)
    if (o[k] !== undefined) out[k] = o[k];
  return out as unknown as InputSpec<T, D>;
}

/** An integer parameter (or, with `values`, an integer or one of those strings), with a default or a `derived` rule. */
export function integer<const V extends string>(
  o: NumberOpts & { readonly values: readonly V[]; readonly default: number | NoInfer<V> },
): InputSpec<number | V, true>;
export function integer<const V extends string>(
  o: NumberOpts & { readonly values: readonly V[]; readonly derived: string },
): InputSpec<number | V, false>;
export function integer(o: NumberOpts & { readonly default: number }): InputSpec<number, true>;
export function integer(o: NumberOpts & { readonly derived: string }): InputSpec<number, false>;
export function integer(
  o: NumberOpts & { readonly values?: readonly string[]; readonly default?: ParamValue; readonly derived?: string },
): InputSpec {
  return spec("integer", o);
}

/**
 * A finite-number parameter (or, with `values`, a number or one of those strings), with a default or a `derived` rule.
 */
export function number<const V extends string>(
  o: NumberOpts & { readonly values: readonly V[]; readonly default: number | NoInfer<V> },
): InputSpec<number | V, true>;
export function number<const V extends string>(
  o: NumberOpts & { readonly values: readonly V[]; readonly derived: string },
): InputSpec<number | V, false>;
export function number(o: NumberOpts & { readonly default: number }): InputSpec<number, true>;
export function number(o: NumberOpts & { readonly derived: string }): InputSpec<number, false>;
export function number(
  o: NumberOpts & { readonly values?: readonly string[]; readonly default?: ParamValue; readonly derived?: string },
): InputSpec {
  return spec("number", o);
}

/** A parameter that is one of `values`, with a default or a `derived` rule. */
export function choice<const V extends string>(
  values: readonly V[],
  o: { readonly description: string; readonly default: NoInfer<V> },
): InputSpec<V, true>;
export function choice<const V extends string>(
  values: readonly V[],
  o: { readonly description: string; readonly derived: string },
): InputSpec<V, false>;
export function choice(
  values: readonly string[],
  o: { readonly description: string; readonly default?: string; readonly derived?: string },
): InputSpec {
  return spec("enum", { ...o, values });
}

/** A true / false parameter. */
export function boolean(o: { readonly description: string; readonly default: boolean }): InputSpec<boolean, true> {
  return spec("boolean", o);
}

/** An output key (see OutputSpec). */
export function output(description: string): OutputSpec {
  return { description, output: true };
}

/** The specs of a declaration with their names, in order. */
export function namedSpecs(specs: Specs): NamedSpec[] {
  return Object.entries(specs).map(([name, s]) => ({ name, ...s }));
}

/** The input specs of a named list (output keys left out). */
export function inputSpecs<T extends NamedSpec>(list: readonly T[]): Extract<T, { readonly output?: false }>[] {
  return list.filter((d): d is Extract<T, { readonly output?: false }> => d.output !== true);
}

/** A number range in words: "a positive integer", "an integer in 0..4", "a number >= 1". */
function numberPhrase(d: InputSpec): string {
  const kind = d.type === "integer" ? "integer" : "number";
  const a = kind === "integer" ? "an" : "a";
  let text: string;
  if (d.min !== undefined && d.max !== undefined) text = `${a} ${kind} in ${d.min}..${d.max}`;
  else if (d.min === 1 && kind === "integer") text = "a positive integer";
  else if (d.min !== undefined) text = `${a} ${kind} >= ${d.min}`;
  else if (d.max !== undefined) text = `${a} ${kind} <= ${d.max}`;
  else text = kind === "integer" ? "an integer" : "a finite number";
  return d.unit !== undefined ? `${text} (${d.unit})` : text;
}

/**
 * What a parameter takes, in words, as error messages say it: `"chunk" or "bvn"`, `"auto", "none" or a positive integer
 * (elements)`.
 */
export function describeSpec(d: InputSpec): string {
  if (d.type === "boolean") return "true or false";
  const parts = (d.values ?? []).map((v) => JSON.stringify(v));
  if (d.type !== "enum") parts.push(numberPhrase(d));
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]!}`;
}

/** True when v is a value spec d takes. */
export function specAccepts(d: InputSpec, v: unknown): v is ParamValue {
  if (d.type === "boolean") return typeof v === "boolean";
  if (typeof v === "string") return d.values !== undefined && d.values.includes(v);
  if (d.type === "enum" || typeof v !== "number") return false;
  if (d.type === "integer" ? !Number.isSafeInteger(v) : !Number.isFinite(v)) return false;
  return (d.min === undefined || v >= d.min) && (d.max === undefined || v <= d.max);
}

/** A given value as messages quote it (JSON, but NaN and the infinities by name). */
function shown(v: unknown): string {
  return typeof v === "number" && !Number.isFinite(v) ? String(v) : v === undefined ? "undefined" : JSON.stringify(v);
}

/** How an owner names its parameters in messages; errors are BAD_OPTION CommplanErrors of `module`. */
export interface SpecContext {
  readonly module: string;
  /** The parameter as the start of a message: "algo: cutoff", "option 'k' of pattern 'uniform'". */
  label(name: string): string;
  /**
   * The message for an unknown key, given the known input names ("a, b" or "(none)") and a suggestion
   * (" (did you mean a?)" or "").
   */
  unknown(name: string, known: string, suggestion: string): string;
  /** The error's field for a parameter. */
  field(name: string): string;
}

/** Which declaration made a resolved object (checked by owners that take resolved objects from callers). */
const resolvedBy = new WeakMap<object, Specs>();

/**
 * Checks `given` against `specs` once and fills the defaults: an unknown key, or a value a spec does
 * not take, throws a one-line BAD_OPTION CommplanError naming the parameter. Output keys are accepted
 * and left out; an input without default that is not given stays absent. Keys come out in declaration order.
 */
export function resolveSpecs<S extends Specs>(
  specs: S,
  given: { readonly [k: string]: unknown },
  ctx: SpecContext,
): Resolved<S> {
  const names = Object.keys(specs);
  for (const key of Object.keys(given)) {
    if (!Object.prototype.hasOwnProperty.call(specs, key)) {
      const inputs = names.filter((n) => specs[n]!.output !== true);
      throw fail(
        ctx.module,
        "BAD_OPTION",
        ctx.unknown(key, inputs.length > 0 ? inputs.join(", ") : "(none)", didYouMean(key, inputs)),
        {
          field: ctx.field(key),
        },
      );
    }
  }
  const out: { [k: string]: ParamValue } = {};
  for (const name of names) {
    const d = specs[name]!;
    if (d.output === true) continue;
    if (!Object.prototype.hasOwnProperty.call(given, name) || given[name] === undefined) {
      if (d.default !== undefined) out[name] = d.default;
      continue;
    }
    const v = given[name];
    if (!specAccepts(d, v)) {
      // A mistyped word of a parameter that takes words (cutoff=medain) gets a "did you mean", as a mistyped name does.
      const near = typeof v === "string" && d.values !== undefined ? didYouMean(v, d.values) : "";
      throw fail(ctx.module, "BAD_OPTION", `${ctx.label(name)} must be ${describeSpec(d)}, got ${shown(v)}${near}`, {
        field: ctx.field(name),
      });
    }
    out[name] = v;
  }
  resolvedBy.set(out, specs);
  return out as Resolved<S>;
}

/** True when `values` came from resolveSpecs with exactly `specs`. */
export function resolvedFrom(values: object, specs: Specs): boolean {
  return resolvedBy.get(values) === specs;
}

/** The largest seed accepted; seeds are unsigned 32-bit integers. */
export const MAX_SEED = 0xffffffff;

/**
 * The one check of a seed (an integer in 0..2^32 - 1); throws a BAD_OPTION CommplanError of `module` on field "seed".
 */
export function checkSeed(module: string, seed: unknown): number {
  if (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw fail(module, "BAD_OPTION", `seed must be an integer in 0..${MAX_SEED}, got ${describeValue(seed)}`, {
      field: "seed",
    });
  }
  return seed;
}
