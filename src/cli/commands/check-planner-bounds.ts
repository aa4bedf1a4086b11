/**
 * check-planner's bound flags (--max-steps, --max-buffer, --time-factor with --machine and --mode) read into the
 * testing kit's ScheduleCheckOptions.
 */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { findMachine } from "../../machines/presets.js";
import type { CostMode } from "../../machines/cost-model.js";
import type { BoundOf, ScheduleCheckOptions } from "../../testing/schedule-check.js";
import { numberOption } from "../io.js";
import { quoted } from "../../internal/quoted.js";

/** The bound flags as commander gives them. */
export interface BoundFlags {
  maxSteps?: string;
  maxBuffer?: string;
  timeFactor?: string;
  machine?: string;
  mode?: string;
}

/** The cost mode of the time bound without --mode. */
export const DEFAULT_MODE: CostMode = "nonblocking";

/** A bound: an integer, or a linear function of P written `P`, `2P`, `P-1`, `3P+2` (`*` and blanks allowed). */
const BOUND = /^\s*(?:(\d+)|(\d*)\s*\*?\s*[pP]\s*(?:([+-])\s*(\d+))?)\s*$/;

/** Parses one bound flag into a number or a function of the matrix's P. */
export function boundOption(name: string, text: string): BoundOf {
  const g = BOUND.exec(text);
  const bad = (): never => {
    throw fail(
      "check-planner",
      "BAD_OPTION",
      `--${name} must be an integer or a linear function of P (P, 2P, P-1, 3P+2), got ${quoted(text)}`,
      { field: name },
    );
  };
  if (g === null) return bad();
  if (g[1] !== undefined) return Number(g[1]);
  const a = g[2] === undefined || g[2] === "" ? 1 : Number(g[2]);
  const b = g[4] === undefined ? 0 : (g[3] === "-" ? -1 : 1) * Number(g[4]);
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) return bad();
  return (m: CommMatrix) => a * m.p + b;
}

/** The bounds the flags state (empty when none is given); throws a one-line CommplanError on a bad value. */
export function boundsOf(o: BoundFlags): Pick<ScheduleCheckOptions, "maxSteps" | "maxBuffer" | "time"> {
  if ((o.timeFactor === undefined) !== (o.machine === undefined))
    throw fail("check-planner", "BAD_OPTION", "--time-factor and --machine go together (a time bound on a machine)", {
      field: o.timeFactor === undefined ? "time-factor" : "machine",
    });
  if (o.mode !== undefined && o.timeFactor === undefined)
    throw fail("check-planner", "BAD_OPTION", "--mode goes with --time-factor (the cost mode of the time bound)", {
      field: "mode",
    });
  let time: ScheduleCheckOptions["time"];
  if (o.timeFactor !== undefined && o.machine !== undefined) {
    const factor = numberOption("time-factor", o.timeFactor);
    if (!(factor > 0))
      throw fail("check-planner", "BAD_OPTION", `--time-factor must be above 0, got ${o.timeFactor}`, {
        field: "time-factor",
      });
    time = { machine: findMachine(o.machine), mode: (o.mode ?? DEFAULT_MODE) as CostMode, factor };
  }
  return {
    ...(o.maxSteps === undefined ? {} : { maxSteps: boundOption("max-steps", o.maxSteps) }),
    ...(o.maxBuffer === undefined ? {} : { maxBuffer: boundOption("max-buffer", o.maxBuffer) }),
    ...(time === undefined ? {} : { time }),
  };
}

/** The bounds in words for check-planner's summary line ("" when none). */
export function boundsText(o: BoundFlags): string {
  const parts = [
    o.maxSteps === undefined ? "" : `steps <= ${o.maxSteps.trim()}`,
    o.maxBuffer === undefined ? "" : `buffer <= ${o.maxBuffer.trim()}`,
    o.timeFactor === undefined
      ? ""
      : `time <= ${o.timeFactor} x traffic bound on ${o.machine} (${o.mode ?? DEFAULT_MODE})`,
  ].filter((x) => x !== "");
  return parts.length === 0 ? "" : `; ${parts.join(", ")}`;
}
