/** Pattern options: shared option definitions and typed access to resolved option values (used by every generator). */
import { fail } from "../model/errors.js";
import type { PatternOption } from "./types.js";

/** Upper bound for size-like options: keeps every entry and every row or column sum below 2^53 for P <= 16384. */
export const MAX_SIZE_OPTION = 2 ** 32;

/** The `elementBytes` option every pattern has (bytes per element, stored in the matrix). */
export function elementBytesOption(defaultBytes: number): PatternOption {
  return { name: "elementBytes", description: "bytes per element (stored in the matrix for cost models)", default: defaultBytes, min: 1, max: 1 << 20, integer: true };
}

/** A resolved option value; throws if the generator was called without resolvePatternOptions. */
export function optionValue(opts: Readonly<Record<string, number>>, name: string): number {
  const v = opts[name];
  if (typeof v !== "number") throw fail("patterns", "BAD_OPTION", `option '${name}' is missing (options must come from resolvePatternOptions)`, { field: name });
  return v;
}

/** Throws a BAD_OPTION CommplanError for an option whose allowed range depends on p. */
export function optionAgainstP(pattern: string, name: string, value: number, p: number, why: string): never {
  throw fail("patterns", "BAD_OPTION", `option '${name}' of pattern '${pattern}' ${why} (p = ${p}), got ${value}`, { field: name });
}

/** Checks a fixture's p (for direct calls of generate; generatePattern checks it first). */
export function requireFixedP(pattern: string, fixedP: number, p: number): void {
  if (p !== fixedP) throw fail("patterns", "BAD_OPTION", `pattern '${pattern}' is a fixed ${fixedP} x ${fixedP} matrix; p must be ${fixedP}, got ${p}`, { field: "p" });
}
