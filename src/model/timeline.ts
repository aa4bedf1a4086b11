/** The timeline of a simulation as columns (the simulator writes it, the trace and SVG exporters read it). */

import { MAX_P } from "./limits.js";
import { checkArg, isIntIn, isOptionsObject } from "./option-checks.js";

/** Peer or transfer index meaning "none". */
export const TIMELINE_NONE = 0xffffffff;

/**
 * A recorded timeline: interval i is node[i] doing kind[i] from start[i] to end[i] with peer[i] (-1: none) and size[i]
 * elements.
 */
export interface Timeline {
  readonly p: number;
  /** Names of the kind codes (INTERVAL_KINDS), so that readers need not import this module. */
  readonly kindNames: readonly string[];
  readonly count: number;
  readonly node: Uint32Array;
  readonly kind: Uint32Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** Peer node, or 0xffffffff for none. */
  readonly peer: Uint32Array;
  readonly size: Float64Array;
  /** The transfer index of the interval, or 0xffffffff for none. */
  readonly transfer: Uint32Array;
  /** What `size` counts: elements (a schedule's simulation; the default) or bytes (a program's replay). */
  readonly sizeUnit?: "elements" | "bytes";
}

/** Refuses `tl` unless it is a Timeline (a simulation's, with `timeline: true`), naming `fn` (O(1)). */
export function checkTimelineArg(module: string, fn: string, tl: unknown): void {
  const ok =
    isOptionsObject(tl) &&
    isIntIn(tl["p"], 1, MAX_P) &&
    Array.isArray(tl["kindNames"]) &&
    tl["node"] instanceof Uint32Array &&
    tl["start"] instanceof Float64Array &&
    tl["end"] instanceof Float64Array;
  checkArg(module, fn, "tl", tl, ok, "a Timeline (a simulation's, run with timeline: true)");
}
