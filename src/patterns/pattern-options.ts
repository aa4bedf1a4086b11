/**
 * Pattern options: definePattern, the shared elementBytes option and the checks of options against p (used by every
 * generator).
 */
import { fail } from "../model/errors.js";
import { integer } from "../model/param-spec.js";
import type { PatternDef, PatternOptions, PatternOptionSpec } from "./types.js";

/** Upper bound for size-like options: keeps every entry and every row or column sum below 2^53 for P <= 16384. */
export const MAX_SIZE_OPTION = 2 ** 32;

/** The options of 004's spike patterns (pattern1, pattern2): the spike M_max and the small entries elsewhere. */
export const SPIKE_OPTIONS = {
  mmax: integer({
    description: "the spike: M_max elements (004 uses 1024 and up)",
    min: 0,
    max: MAX_SIZE_OPTION,
    default: 1024,
  }),
  small: integer({
    description: "elements to every other node (004: 'a small number')",
    min: 0,
    max: MAX_SIZE_OPTION,
    default: 1,
  }),
} as const;

/** The largest elementBytes option (and --element-bytes). */
export const MAX_ELEMENT_BYTES = 1 << 20;

/** The `elementBytes` option every pattern has (bytes per element, stored in the matrix). */
export function elementBytesOption(defaultBytes: number): PatternOptionSpec {
  return integer({
    description: "bytes per element (stored in the matrix for cost models)",
    min: 1,
    max: MAX_ELEMENT_BYTES,
    default: defaultBytes,
  });
}

/** A pattern whose generate function receives its options typed (inferred from `options`). */
export function definePattern<S extends PatternOptions>(def: PatternDef<S>): PatternDef<S> {
  return def;
}

/** Throws a BAD_OPTION CommplanError for an option whose allowed range depends on p. */
export function optionAgainstP(pattern: string, name: string, value: number, p: number, why: string): never {
  throw fail("patterns", "BAD_OPTION", `option '${name}' of pattern '${pattern}' ${why} (p = ${p}), got ${value}`, {
    field: name,
  });
}

/** Checks a fixture's p (for direct calls of generate; generatePattern checks it first). */
export function requireFixedP(pattern: string, fixedP: number, p: number): void {
  if (p !== fixedP)
    throw fail(
      "patterns",
      "BAD_OPTION",
      `pattern '${pattern}' is a fixed ${fixedP} x ${fixedP} matrix; p must be ${fixedP}, got ${p}`,
      { field: "p" },
    );
}
