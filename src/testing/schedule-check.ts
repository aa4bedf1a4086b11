/**
 * checkScheduleFor: the verifier's report on what a planner returned, plus the bounds a user states, reduced to the
 * first failure.
 */
import { isCommplanError } from "../model/errors.js";
import type { CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import { findMachine } from "../machines/presets.js";
import { scheduleCost } from "../machines/cost-model.js";
import { verifySchedule, type Report } from "../verifier/index.js";
import { scheduleFromOutput } from "./schedule-input.js";
import { trafficLowerBound } from "./traffic-bound.js";
import {
  checkBoundValue,
  checkScheduleCheckOptions,
  type BoundOf,
  type ScheduleCheckOptions,
  type TimeBound,
} from "./check-options.js";
import { checkArg, isOptionsObject } from "../model/option-checks.js";
import { checkMatrixArg } from "../model/matrix.js";

export type { BoundOf, ScheduleCheckOptions, TimeBound } from "./check-options.js";

/** The first check a schedule fails: its id (a verifier row id or one of the kit's), title and witness. */
export interface CheckFailure {
  readonly check: string;
  readonly title: string;
  readonly witness: string;
}

/** The outcome of checking one schedule. */
export interface ScheduleCheckResult {
  /** Null when the output could not be read as a schedule for this matrix. */
  readonly schedule: Schedule | null;
  /** Null when there is no schedule to verify. */
  readonly report: Report | null;
  /** Null when everything holds. */
  readonly failure: CheckFailure | null;
}

/** A bound's value for m; a function's result is checked as the option would be (checkBoundValue). */
const boundValue = (field: string, b: BoundOf, m: CommMatrix): number =>
  typeof b === "function" ? checkBoundValue(field, b(m), "(matrix)") : b;

/** A failure from an error: a CommplanError's one-line message, else the error's message. */
export function failureOfError(check: string, title: string, e: unknown): CheckFailure {
  const text = isCommplanError(e) || e instanceof Error ? e.message : String(e);
  return { check, title, witness: text.replace(/\s*\n\s*/g, " ") };
}

/**
 * The first failing row of the report (causality before delivery when both fail), the unproven delivery (unless
 * allowed), then the stated bounds.
 */
function firstFailure(m: CommMatrix, s: Schedule, r: Report, o: ScheduleCheckOptions): CheckFailure | null {
  const failed = r.checks.filter((c) => !c.holds);
  // a relay that forwards before it receives strands the element too: the cause is reported, not the strand
  const bad = failed[0]?.id === "delivery" ? (failed.find((c) => c.id === "causality") ?? failed[0]) : failed[0];
  if (bad) return { check: bad.id, title: bad.title, witness: bad.witness ?? "(no witness)" };
  const u = r.unproven?.[0];
  if (u && o.allowUnproven !== true)
    return { check: u.id, title: `${u.title} (unproven ${u.reason})`, witness: `${u.detail}; ${u.howToProve}` };
  if (o.maxSteps !== undefined) {
    const b = boundValue("maxSteps", o.maxSteps, m);
    if (s.stepCount > b)
      return { check: "max-steps", title: `steps <= ${b}`, witness: `the schedule has ${s.stepCount} steps` };
  }
  if (o.maxBuffer !== undefined) {
    const b = boundValue("maxBuffer", o.maxBuffer, m);
    const per = r.peakBufferPerNode ?? [];
    const node = per.findIndex((x) => x > b);
    if (node >= 0)
      return {
        check: "max-buffer",
        title: `every node holds at most ${b} elements at a step boundary`,
        witness: `node ${node} holds ${per[node]} elements`,
      };
  }
  return o.time === undefined ? null : timeFailure(m, s, o.time);
}

/** The modelled-time bound, as a failure or null. */
function timeFailure(m: CommMatrix, s: Schedule, t: TimeBound): CheckFailure | null {
  const machine = typeof t.machine === "string" ? findMachine(t.machine) : t.machine;
  const lb = trafficLowerBound(m, machine);
  const total = scheduleCost(s, machine, t.mode ?? "nonblocking").total;
  const bound = lb === 0 ? machine.barrier : t.factor * lb;
  if (total <= bound) return null;
  return {
    check: "modelled-time",
    title: `modelled time on ${machine.name} <= ${t.factor} x the traffic lower bound`,
    witness: `${total} us on ${machine.name} (${t.mode ?? "nonblocking"}), bound ${bound} us (traffic lower bound ${lb} us)`,
  };
}

/**
 * Reads what a planner returned as a schedule for `m`, verifies it and applies the stated bounds; never throws for a
 * bad schedule (bad options: a BAD_OPTION CommplanError, checkScheduleCheckOptions).
 */
export function checkScheduleFor(m: CommMatrix, output: unknown, o: ScheduleCheckOptions = {}): ScheduleCheckResult {
  checkMatrixArg("testing", m, "checkScheduleFor");
  checkScheduleCheckOptions(o);
  let s: Schedule;
  try {
    s = scheduleFromOutput(output, m);
  } catch (e) {
    return {
      schedule: null,
      report: null,
      failure: failureOfError("schedule-json", "the planner returns a readable schedule", e),
    };
  }
  let r: Report;
  try {
    r = verifySchedule(m, s, o.ports === undefined ? {} : { ports: o.ports });
  } catch (e) {
    return {
      schedule: s,
      report: null,
      failure: failureOfError("made-for", "the schedule is made for this matrix", e),
    };
  }
  return { schedule: s, report: r, failure: firstFailure(m, s, r, o) };
}

/** A failure as one line: `check 'id' fails (title): witness`. */
export function failureLine(f: CheckFailure): string {
  const ok = isOptionsObject(f) && typeof f["check"] === "string" && typeof f["witness"] === "string";
  checkArg("testing", "failureLine", "f", f, ok, "a CheckFailure (a check's failure: { check, title, witness })");
  return `check '${f.check}' fails (${f.title}): ${f.witness}`;
}
