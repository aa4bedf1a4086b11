/**
 * fast-check arbitraries of the pattern families of `commplan gen` (src/patterns/registry.ts), h-relations and
 * d-regular sets.
 */
import fc from "fast-check";
import { fail, isCommplanError } from "../model/errors.js";
import type { CommMatrix } from "../model/matrix.js";
import { createRng } from "../model/rng.js";
import { PATTERNS, findPattern, patternNamed, patternOptionList, resolvePatternOptions } from "../patterns/registry.js";
import type { PatternInput, PatternOption } from "../patterns/types.js";
import { baseThenNodeShrinking } from "./matrix-shrink.js";
import { checkOptionKeys, checkOptionsObject, describeValue } from "../model/option-checks.js";
import { checkPRange } from "./check-options.js";

/** An option of a pattern arbitrary: a fixed value, or an inclusive [min, max] range to draw from. */
export type PatternOptionRange = number | readonly [number, number];

/** Options of patternArb. */
export interface PatternArbOptions {
  /** Smallest P (default 1; a fixed-size pattern such as ranka-fig1 always has its own P). */
  readonly minP?: number;
  /** Largest P (default 8). */
  readonly maxP?: number;
  /**
   * Values or ranges of the pattern's options (default: each integer option from its minimum to at most 64 above it,
   * elementBytes at its default).
   */
  readonly options?: { readonly [name: string]: PatternOptionRange };
  /** The data a pattern that reads a file needs (spmv: its sparse matrix); such a pattern is refused without it. */
  readonly input?: PatternInput;
}

/**
 * The default draw of one option: integers from the minimum up to 64 more, numbers over their range, elementBytes
 * fixed.
 */
function defaultRange(o: PatternOption): PatternOptionRange {
  if (o.name === "elementBytes") return o.default ?? 8;
  const min = o.min ?? 0;
  if (o.type === "number") return [min, o.max ?? min + 1];
  return [min, Math.min(o.max ?? min + 64, min + 64)];
}

/** An arbitrary for one option value (integers shrink toward the low end, numbers toward it too). */
function optionArb(o: PatternOption, r: PatternOptionRange): fc.Arbitrary<number> {
  if (typeof r === "number") return fc.constant(r);
  const [lo, hi] = r;
  if (o.type === "integer") return fc.integer({ min: lo, max: hi });
  return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x));
}

/**
 * Checks the value or range given for option `o` of pattern `name`: a number or a [min, max] pair (integers for an
 * integer option, finite numbers else) with min <= max that meets the option's own range; a one-line BAD_OPTION error
 * naming the option, before anything is drawn (a value only some P refuse, d <= p - 1, falls back when drawn).
 */
function checkOptionRange(name: string, o: PatternOption, r: unknown): void {
  const ok = (x: unknown): x is number =>
    typeof x === "number" && (o.type === "integer" ? Number.isInteger(x) : Number.isFinite(x));
  const [lo, hi]: unknown[] = typeof r === "number" ? [r, r] : Array.isArray(r) && r.length === 2 ? r : [NaN, NaN];
  const shown = Array.isArray(r) ? `[${r.map(describeValue).join(", ")}]` : describeValue(r);
  const refuse = (why: string): never => {
    throw fail("testing", "BAD_OPTION", `patternArb: option '${o.name}' of pattern '${name}' ${why}, got ${shown}`, {
      field: o.name,
    });
  };
  const kind = o.type === "integer" ? "integers" : "finite numbers";
  if (!ok(lo) || !ok(hi) || lo > hi) refuse(`must be a value or a [min, max] range of ${kind}`);
  if ((o.min !== undefined && (hi as number) < o.min) || (o.max !== undefined && (lo as number) > o.max))
    refuse(`must allow a value in ${o.min ?? "-Infinity"}..${o.max ?? "Infinity"}`);
}

/**
 * Generates the pattern; an option whose allowed range depends on P (d <= p - 1, k < p, ...) is
 * set to its minimum and the pattern tried again; null when even that is refused.
 */
function generateOrNull(
  name: string,
  p: number,
  given: { [k: string]: number },
  seed: number,
  input: PatternInput | undefined,
): CommMatrix | null {
  const def = findPattern(name);
  const opts = { ...given };
  for (let tries = 0; tries <= Object.keys(opts).length; tries++) {
    try {
      return def.generate(p, resolvePatternOptions(def, opts), createRng(seed), input);
    } catch (e) {
      if (!isCommplanError(e) || e.code !== "BAD_OPTION") throw e;
      const field = e.place.field;
      const spec = patternOptionList(def).find((x) => x.name === field);
      if (spec === undefined || opts[spec.name] === (spec.min ?? 0)) return null;
      opts[spec.name] = spec.min ?? 0;
    }
  }
  return null;
}

/** How many values of P makesSomeP tries at most: a wider range is taken to hold one the pattern allows. */
const PROBED_PS = 64;

/**
 * Whether pattern `name` makes a matrix for some P of minP..maxP (seed 0, the options at the low ends of their ranges,
 * those P refuses at their minimum as when drawn); true without trying for a range wider than PROBED_PS.
 */
function makesSomeP(
  name: string,
  minP: number,
  maxP: number,
  low: { [k: string]: number },
  input: PatternInput | undefined,
): boolean {
  if (maxP - minP >= PROBED_PS) return true;
  for (let p = minP; p <= maxP; p++) if (generateOrNull(name, p, low, 0, input) !== null) return true;
  return false;
}

/**
 * Matrices of the pattern `name` (a name of `commplan patterns`), its options drawn from the given ranges; shrinks
 * toward small P, small options and seed 0, then on the matrix itself (nodes deleted down to the smallest P, entries
 * zeroed and lowered: src/testing/matrix-shrink.ts), so that a counterexample keeps only the entries that matter.
 */
export function patternArb(name: string, options: PatternArbOptions = {}): fc.Arbitrary<CommMatrix> {
  checkOptionsObject("testing", "options", options);
  checkOptionKeys("testing", options, ["minP", "maxP", "options", "input"], "patternArb");
  checkOptionsObject("testing", "options.options", options.options);
  const def = patternNamed(name, "patternArb");
  if (def.file !== undefined && options.input === undefined)
    throw fail(
      "testing",
      "BAD_OPTION",
      `patternArb: pattern '${name}' reads a file (${def.file.description}): give its data as options.input`,
      { field: "input" },
    );
  const list = patternOptionList(def);
  for (const k of Object.keys(options.options ?? {}))
    if (!list.some((o) => o.name === k))
      throw fail("testing", "BAD_OPTION", `patternArb: unknown option '${k}' for pattern '${name}'`, { field: k });
  checkPRange("patternArb", options.minP ?? 1, options.maxP ?? Math.max(8, options.minP ?? 1));
  const minP = def.fixedP ?? options.minP ?? 1;
  const maxP = def.fixedP ?? options.maxP ?? Math.max(8, minP);
  const record: { [k: string]: fc.Arbitrary<number> } = {};
  const low: { [k: string]: number } = {};
  for (const o of list) {
    const given = options.options?.[o.name];
    if (given !== undefined) checkOptionRange(name, o, given);
    const r = given ?? defaultRange(o);
    record[o.name] = optionArb(o, r);
    low[o.name] = typeof r === "number" ? r : r[0];
  }
  // a pattern that makes no matrix in the P range would be drawn again forever (ranka-kl needs k < p: none at P = 1)
  if (!makesSomeP(name, minP, maxP, low, options.input))
    throw fail(
      "testing",
      "BAD_OPTION",
      `patternArb: pattern '${name}' makes no matrix for P in ${minP}..${maxP}, even with its options at their minimum`,
      { field: "minP" },
    );
  const drawn = fc
    .tuple(fc.integer({ min: minP, max: maxP }), fc.record(record), fc.integer({ min: 0, max: 0xffffffff }))
    .map(([p, given, seed]) => generateOrNull(name, p, given, seed, options.input))
    .filter((m): m is CommMatrix => m !== null);
  return baseThenNodeShrinking(drawn, minP);
}

/** Random h-relations (each node sends and receives h unit messages; 001): h drawn from `h` (default [0, 8]). */
export function hRelationArb(
  options: { minP?: number; maxP?: number; h?: PatternOptionRange; self?: boolean } = {},
): fc.Arbitrary<CommMatrix> {
  checkOptionsObject("testing", "options", options);
  checkOptionKeys("testing", options, ["minP", "maxP", "h", "self"], "hRelationArb");
  return patternArb("h-relation", {
    ...pick(options),
    options: { h: options.h ?? [0, 8], self: options.self === false ? 0 : 1 },
  });
}

/**
 * d-regular sets (003's test sets: exactly d messages in every row and column; `maxFactor` > 1 gives set 2's varied
 * sizes).
 */
export function dRegularArb(
  options: {
    minP?: number;
    maxP?: number;
    d?: PatternOptionRange;
    unit?: PatternOptionRange;
    maxFactor?: PatternOptionRange;
  } = {},
): fc.Arbitrary<CommMatrix> {
  checkOptionsObject("testing", "options", options);
  checkOptionKeys("testing", options, ["minP", "maxP", "d", "unit", "maxFactor"], "dRegularArb");
  const d = options.d ?? [0, 8];
  const unit = options.unit ?? [1, 4];
  if (options.maxFactor === undefined) return patternArb("wang-set1", { ...pick(options), options: { d, unit } });
  return patternArb("wang-set2", { ...pick(options), options: { d, unit, maxFactor: options.maxFactor } });
}

/**
 * Matrices of every pattern of `commplan gen` that reads no file and makes a matrix for some P of minP..maxP
 * (fixed-size ones only when their P is within it; not ranka-kl at P = 1), with default option ranges.
 */
export function anyPatternArb(options: { minP?: number; maxP?: number } = {}): fc.Arbitrary<CommMatrix> {
  checkOptionsObject("testing", "options", options);
  checkOptionKeys("testing", options, ["minP", "maxP"], "anyPatternArb");
  const minP = options.minP ?? 1;
  const maxP = options.maxP ?? Math.max(8, minP);
  checkPRange("anyPatternArb", minP, maxP);
  const inRange = (fixedP: number | undefined): boolean => fixedP === undefined || (fixedP >= minP && fixedP <= maxP);
  const names = PATTERNS.filter((d) => d.file === undefined && inRange(d.fixedP))
    .map((d) => d.name)
    .filter((n) => makesSomeP(n, minP, maxP, lowOfDefaults(n), undefined));
  return fc.oneof(...names.map((n) => patternArb(n, options)));
}

/** The low ends of a pattern's default option ranges. */
function lowOfDefaults(name: string): { [k: string]: number } {
  const low: { [k: string]: number } = {};
  for (const o of patternOptionList(findPattern(name))) {
    const r = defaultRange(o);
    low[o.name] = typeof r === "number" ? r : r[0];
  }
  return low;
}

function pick(o: { minP?: number; maxP?: number }): { minP?: number; maxP?: number } {
  return { ...(o.minP === undefined ? {} : { minP: o.minP }), ...(o.maxP === undefined ? {} : { maxP: o.maxP }) };
}
