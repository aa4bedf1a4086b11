/**
 * Numbers a text export writes only when the target reads them back exactly: byte counts below 2^53, SimGrid bandwidths
 * and latencies finite.
 */
import { fail } from "../model/errors.js";
import type { Program } from "../model/program.js";

/**
 * The bytes of `count` elements of `elementBytes` bytes, refused (a one-line BAD_INPUT naming
 * `field`) past 2^53 - 1, where a double, and so the written decimal, no longer holds every integer.
 */
export function exactBytes(count: number, elementBytes: number, field: string | (() => string)): number {
  const bytes = count * elementBytes;
  if (bytes > Number.MAX_SAFE_INTEGER)
    throw tooManyBytes(count, elementBytes, typeof field === "string" ? field : field());
  return bytes;
}

/** The refusal of exactBytes. */
function tooManyBytes(count: number, elementBytes: number, field: string): Error {
  return fail(
    "export",
    "BAD_INPUT",
    `${field}: ${count} elements of ${elementBytes} bytes are more than 2^53 - 1 = ${Number.MAX_SAFE_INTEGER} bytes, which the format cannot write exactly`,
    { field },
  );
}

/**
 * A SimGrid value of `v` in `unit` (12 significant digits), refused unless finite and > 0 (`positive`: a bandwidth) or
 * >= 0 (a latency).
 */
export function simgridValue(v: number, unit: string, field: string, positive: boolean): string {
  const shown = Number(v.toPrecision(12));
  if (!Number.isFinite(shown) || (positive ? !(shown > 0) : !(shown >= 0)))
    throw fail(
      "export",
      "BAD_INPUT",
      `${field} is ${shown} ${unit}: SimGrid needs a finite number ${positive ? "> 0" : ">= 0"}`,
      { field },
    );
  return `${shown}${unit}`;
}

/** The bytes of operation x of a program (exactBytes, the operation named on refusal). */
export function operationBytes(prog: Program, x: number): number {
  const { ops } = prog;
  return exactBytes(ops.count[x]!, prog.elementBytes, () => {
    const kind = ["send", "recv", "copy"][ops.kind[x]!] ?? "operation";
    return `the ${kind} of rank ${ops.rank[x]} (peer ${ops.peer[x]}, round ${ops.round[x]})`;
  });
}
