/**
 * Options of the export functions checked where a library caller passes them: a wrong type or range is a one-line
 * BAD_OPTION naming the option, never NaN in a file or a TypeError.
 */
import { fail } from "../model/errors.js";
import { quoted } from "../internal/quoted.js";

/** A value for a message: symbols and functions by their type, other values as String gives them. */
function shown(v: unknown): string {
  return typeof v === "symbol" || typeof v === "function" ? typeof v : String(v);
}

/**
 * `v` (an option of `module`) when it is a finite number in [min, max] (an integer when `integer`); `fallback` when
 * undefined.
 */
export function numberOpt(
  module: string,
  name: string,
  v: unknown,
  fallback: number,
  range: { readonly min: number; readonly max: number; readonly integer?: boolean },
): number {
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !(v >= range.min && v <= range.max) || (range.integer === true && !Number.isInteger(v)))
    throw fail(
      module,
      "BAD_OPTION",
      `${name} must be ${range.integer === true ? "an integer" : "a number"} in ${range.min}..${range.max}, got ${shown(v)}`,
      { field: name },
    );
  return v;
}

/** `v` (an option of `module`) when it is a string (one of `choices` when given); `fallback` when undefined. */
export function stringOpt(
  module: string,
  name: string,
  v: unknown,
  fallback: string,
  choices?: readonly string[],
): string {
  if (v === undefined) return fallback;
  if (typeof v !== "string" || (choices !== undefined && !choices.includes(v)))
    throw fail(
      module,
      "BAD_OPTION",
      choices === undefined
        ? `${name} must be a string, got ${typeof v}`
        : `${name} must be one of ${choices.join(", ")}, got ${typeof v === "string" ? quoted(v) : shown(v)}`,
      { field: name },
    );
  return v;
}
