/**
 * The schedule header check both schedule readers (JSON and Arrow) call: the header fields against the schedule schema.
 */
import type { Rearrange, ScheduleHeader } from "../model/schedule.js";
import { fail } from "../model/errors.js";
import { FORMAT_NAMES, validateWithSchema } from "./json-schema.js";

/** A schedule's header fields as its readers keep them (the JSON reader's document root, without the steps). */
export interface ScheduleHeaderFields extends ScheduleHeader {
  readonly stages: readonly { readonly name: string; readonly rearrange: Rearrange }[];
}

/**
 * Checks a schedule header document (format, p, algorithm, params, seed, elementBytes,
 * matrixDigest, auto, stages with their name and rearrange; steps are not looked into) against the
 * schedule schema and returns it typed; throws the one-line error naming the first field that fails.
 */
export function checkScheduleHeader(doc: unknown, module: string, file?: string): ScheduleHeaderFields {
  validateWithSchema("schedule-header", doc, module, file);
  const params = (doc as { params?: unknown }).params;
  if (params !== undefined && nestedPast(params, MAX_PARAMS_DEPTH))
    throw fail(
      module,
      "BAD_INPUT",
      `/params is nested more than ${MAX_PARAMS_DEPTH} levels deep (a planner's parameters are flat; a schedule's ` +
        "params are written again by every export)",
      { ...(file === undefined ? {} : { file }), field: "/params" },
    );
  return doc as ScheduleHeaderFields;
}

/**
 * How deep a schedule's `params` may nest (the object itself is level 1). The schema takes any JSON value there; the
 * writers (JSON.stringify, canonical JSON) recurse, and a 10 KB file of arrays 5,000 deep overflowed their stack: an
 * internal error in export -f arrow, "cannot write" in export -f program.
 */
export const MAX_PARAMS_DEPTH = 64;

/** Whether `v` nests arrays and objects more than `limit` levels deep (found without recursion). */
function nestedPast(v: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length > 0) {
    const [x, depth] = stack.pop()!;
    if (typeof x !== "object" || x === null) continue;
    if (depth > limit) return true;
    for (const c of Array.isArray(x) ? x : Object.values(x)) stack.push([c, depth + 1]);
  }
  return false;
}

/**
 * The header document of a schedule whose header fields came from elsewhere (the Arrow metadata): what
 * checkScheduleHeader checks.
 */
export function scheduleHeaderDocument(h: { readonly [k: string]: unknown }, stages: readonly unknown[]): unknown {
  const doc: { [k: string]: unknown } = { format: FORMAT_NAMES.schedule };
  for (const k of ["p", "algorithm", "params", "seed", "elementBytes", "matrixDigest"]) {
    if (Object.hasOwn(h, k)) doc[k] = h[k];
  }
  doc["stages"] = stages.map((st) => {
    if (typeof st !== "object" || st === null || Array.isArray(st)) return st;
    const { name, rearrange } = st as { name?: unknown; rearrange?: unknown };
    return { ...(name === undefined ? {} : { name }), ...(rearrange === undefined ? {} : { rearrange }), steps: [] };
  });
  return doc;
}

/** The largest count, size, offset or time a schedule holds: past it a double no longer holds every integer. */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;
/** What a schedule reader says of a value past MAX_EXACT. */
export const TOO_BIG = `must be <= ${MAX_EXACT} (2^53 - 1: past it a double does not hold every integer exactly)`;

/**
 * What is wrong with a whole number field of a transfer or chunk that must be in min..MAX_EXACT (the JSON reader's
 * words), or null.
 */
export function wholeNumberProblem(v: number, min: number): string | null {
  if (!Number.isInteger(v)) return "must be integer";
  if (v < min) return `must be >= ${min}`;
  return v > MAX_EXACT ? TOO_BIG : null;
}
