/**
 * The schedule header check both schedule readers (JSON and Arrow) call: the header fields against the schedule schema.
 */
import type { Rearrange, ScheduleHeader } from "../model/schedule.js";
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
  return doc as ScheduleHeaderFields;
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
