/**
 * scheduleFromOutput: what a user's planner returns (a Schedule, schedule JSON text or its plain object) made a checked
 * Schedule.
 */
import { fail } from "../model/errors.js";
import { quoted } from "../internal/quoted.js";
import { checkMatrixArg, matrixDigest, type CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import { parseScheduleJsonText } from "../io/schedule-json-read.js";

/** A transfer of the plain schedule JSON (commplan.schedule/v1). */
export interface PlainTransfer {
  readonly src: number;
  readonly dst: number;
  readonly size: number;
  /** [origin, dest, offset, count] per payload chunk. */
  readonly chunks?: readonly (readonly [number, number, number, number])[];
  readonly start?: number;
  readonly end?: number;
}

/** A step of the plain schedule JSON; `stalls` may be left out. */
export interface PlainStep {
  readonly transfers: readonly PlainTransfer[];
  readonly stalls?: readonly number[];
}

/** A stage of the plain schedule JSON; `name` and `rearrange` may be left out. */
export interface PlainStage {
  readonly name?: string;
  readonly rearrange?: "none" | "compose" | "distribute" | "collect";
  readonly steps: readonly PlainStep[];
}

/**
 * The plain JSON shape of commplan.schedule/v1 as a planner may build it by hand: the header fields
 * may be left out (p, elementBytes and matrixDigest then come from the matrix, algorithm is
 * "user-planner", params {}, seed null).
 */
export interface PlainSchedule {
  readonly format?: "commplan.schedule/v1";
  readonly p?: number;
  readonly algorithm?: string;
  readonly params?: { readonly [k: string]: unknown };
  readonly seed?: number | null;
  readonly elementBytes?: number;
  readonly matrixDigest?: string;
  readonly stages: readonly PlainStage[];
}

/** What a planner under test may return: a commplan Schedule, a plain schedule object, or schedule JSON text. */
export type PlannerOutput = Schedule | PlainSchedule | string;

/** True for commplan's columnar Schedule (from ScheduleBuilder, plan or readScheduleJson). */
export function isColumnarSchedule(v: unknown): v is Schedule {
  return typeof v === "object" && v !== null && (v as { stepStart?: unknown }).stepStart instanceof Uint32Array;
}

/** The plain object with the missing header fields and stage names filled in from the matrix. */
function completed(v: PlainSchedule, m: CommMatrix): object {
  const stages = Array.isArray(v.stages) ? v.stages : [];
  return {
    ...v,
    format: v.format ?? "commplan.schedule/v1",
    p: v.p ?? m.p,
    algorithm: v.algorithm ?? "user-planner",
    params: v.params ?? {},
    seed: v.seed === undefined ? null : v.seed,
    elementBytes: v.elementBytes ?? m.elementBytes,
    matrixDigest: v.matrixDigest ?? matrixDigest(m),
    stages: stages.map((st: PlainStage, k: number) =>
      typeof st === "object" && st !== null
        ? {
            name: `stage ${k + 1}`,
            rearrange: "none",
            ...st,
            steps: Array.isArray(st.steps)
              ? st.steps.map((sp) => (typeof sp === "object" && sp !== null ? { stalls: [], ...sp } : sp))
              : st.steps,
          }
        : st,
    ),
  };
}

/**
 * What a planner returned, for the message that refuses it: null, undefined, a number, an array of n, a Promise, a
 * 'commplan.matrix/v1' document, an object with its first keys.
 */
function described(out: unknown): string {
  if (out === null || out === undefined) return String(out);
  if (Array.isArray(out)) return `an array of ${out.length}`;
  if (typeof out !== "object") return `a ${typeof out}`;
  if (typeof (out as { then?: unknown }).then === "function")
    return "a Promise (an async planner: test it with asyncPlannerProperty)";
  const format = (out as { format?: unknown }).format;
  if (typeof format === "string") return `a ${quoted(format)} document`;
  const keys = Object.keys(out);
  const some = keys.slice(0, 4).map(quoted).join(", ");
  return keys.length === 0
    ? "an empty object"
    : `an object with ${some}${keys.length > 4 ? ", ..." : ""} but no 'stages'`;
}

/**
 * The schedule a planner returned, read with every check of the schedule JSON reader (schema,
 * node indices, chunk sums, times). Throws a CommplanError (module "testing") naming what is wrong.
 */
export function scheduleFromOutput(out: unknown, m: CommMatrix): Schedule {
  checkMatrixArg("testing", m, "scheduleFromOutput");
  if (isColumnarSchedule(out)) return out;
  if (typeof out === "string") {
    let v: unknown;
    try {
      v = JSON.parse(out);
    } catch {
      return parseScheduleJsonText(out, "<planner output>"); // throws the reader's message, with line and column
    }
    return scheduleFromOutput(v, m);
  }
  if (typeof out !== "object" || out === null || !Array.isArray((out as PlainSchedule).stages))
    throw fail(
      "testing",
      "BAD_INPUT",
      `the planner returned ${described(out)}, not a schedule (an object with 'stages', schedule JSON text or a commplan Schedule)`,
    );
  return parseScheduleJsonText(JSON.stringify(completed(out as PlainSchedule, m)), "<planner output>");
}
