/**
 * Progress of long library runs (planners, lowering, writers, the verifier): the callback an options object may carry,
 * its check, and the closures that call it at a coarse grain.
 */
import { fail } from "./errors.js";

/**
 * `done` of `total` units of work so far (the units are the run's own: ranks, rounds, messages, or
 * a planner's phases summed). Within one run `total` stays the same and `done` never decreases; a
 * run that completes ends with `done === total`.
 */
export type ProgressCallback = (done: number, total: number) => void;

/**
 * A progress callback option: a function, or null / undefined for none (a one-line BAD_OPTION of `module` naming
 * `progress` otherwise).
 */
export function checkProgress<F extends (...args: never[]) => void>(v: F | null | undefined, module: string): F | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "function")
    throw fail(module, "BAD_OPTION", `progress must be a function (done, total), got ${typeof v}`, {
      field: "progress",
    });
  return v;
}

/** A run calls its callback at most about this many times (every 1/1000 of the work) beside the first and last call. */
export const PROGRESS_REPORTS = 1000;

/**
 * A loop's reporter over `total` units: `tick(done)` calls the callback when `done` has reached the
 * mark (about every total / PROGRESS_REPORTS units) and returns the next mark, so a hot loop keeps
 * the mark in a local and pays one comparison per iteration (`if (x >= mark) mark = tick(x)`), and a
 * coarse loop may call it every time. Reports never go down and never pass the total;
 * `tick(Infinity)` ends the run (reports the total unless it already did). Without a callback every
 * call returns Infinity.
 *
 * A closure, not an object with methods: in V8, a class instance made or used in a function with a hot
 * loop slows that loop, a closure call does not (docs/architecture.md, "Progress of long runs", has the figures).
 */
export type ProgressTick = (done: number) => number;

const noProgress: ProgressTick = () => Infinity;

/** The ProgressTick of a run of `total` units (see there); a no-op without a callback. */
export function progressTicker(callback: ProgressCallback | null | undefined, total: number): ProgressTick {
  if (!callback) return noProgress;
  const stride = Math.max(1, Math.ceil(total / PROGRESS_REPORTS));
  let mark = 0,
    last = -1;
  return (done) => {
    if (done < mark && done < total) return mark;
    const d = Math.min(done, total);
    if (d > last) {
      last = d;
      callback(d, total);
    }
    mark = d >= total ? Infinity : d + stride;
    return mark;
  };
}

/**
 * A run made of consecutive phases with fixed weights (the run's total is their sum, e.g. 1000): the
 * callback of phase k takes that phase's own `done` of `total` and reports base_k + floor(weight_k
 * done / total), so each phase may count in its own units and the run's count still only rises.
 * Phases are used in order; a phase that reports nothing (or stops short) is passed over.
 */
export interface ProgressPhases {
  readonly total: number;
  /** The callback of phase k, or null without a run callback. */
  phase(k: number): ProgressCallback | null;
  /** Phase k is complete (for a phase that does not report on its way). */
  complete(k: number): void;
  /** The run is complete: reports the total (once). */
  end(): void;
}

/** The ProgressPhases of a run (closures, as progressTicker). */
export function progressPhases(
  callback: ProgressCallback | null | undefined,
  weights: readonly number[],
): ProgressPhases {
  const base: number[] = [];
  let total = 0;
  for (const w of weights) {
    base.push(total);
    total += w;
  }
  let last = -1;
  const report = (done: number): void => {
    if (callback && done > last) {
      last = done;
      callback(done, total);
    }
  };
  return {
    total,
    phase: (k) => {
      if (!callback) return null;
      const b = base[k]!,
        w = weights[k]!;
      return (done, t) => report(b + (t > 0 ? Math.floor((w * Math.min(done, t)) / t) : w));
    },
    complete: (k) => report(base[k]! + weights[k]!),
    end: () => report(total),
  };
}
