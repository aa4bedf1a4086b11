/**
 * The determinism check of the planner properties: one matrix planned twice must give the same bytes (the schedule's
 * canonical JSON), else the planner is reported as nondeterministic with the first difference.
 */
import type { CommMatrix } from "../model/matrix.js";
import { scheduleToJsonText } from "../io/schedule-json-write.js";
import type { CheckFailure } from "./schedule-check.js";
import { scheduleFromOutput } from "./schedule-input.js";

/** What one call of a planner ended with: its output, or what it threw. */
export type PlanOutcome = { readonly output: unknown } | { readonly thrown: unknown };

/** Every how many runs a planner property plans a passing input a second time (failing inputs always are). */
export const DETERMINISM_SAMPLE = 10;

/** The id of the determinism check. */
export const DETERMINISM_CHECK = "deterministic";

/** Longest excerpt of a differing line shown in the witness. */
const EXCERPT = 120;

/** An outcome as canonical text: the schedule's JSON when it reads as one for `m`, else the raw output or the error. */
export function canonicalOutcome(m: CommMatrix, o: PlanOutcome): string {
  if ("thrown" in o) return `throws: ${o.thrown instanceof Error ? o.thrown.message : String(o.thrown)}`;
  try {
    return scheduleToJsonText(scheduleFromOutput(o.output, m));
  } catch {
    return typeof o.output === "string" ? o.output : `unreadable output: ${String(JSON.stringify(o.output))}`;
  }
}

/** One line cut to EXCERPT characters around column `at`, JSON-quoted. */
function excerpt(line: string, at: number): string {
  const from = Math.max(0, Math.min(at - 40, line.length - EXCERPT));
  const cut = line.slice(from, from + EXCERPT);
  return JSON.stringify(`${from > 0 ? "..." : ""}${cut}${from + EXCERPT < line.length ? "..." : ""}`);
}

/** Where two texts first differ: `line n: first "...", then "..."`; null when they are equal. */
export function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  const la = a.split("\n"),
    lb = b.split("\n");
  let n = 0;
  while (n < la.length && n < lb.length && la[n] === lb[n]) n++;
  const x = la[n] ?? "(end of output)",
    y = lb[n] ?? "(end of output)";
  let col = 0;
  while (col < x.length && col < y.length && x[col] === y[col]) col++;
  return `line ${n + 1}: first ${excerpt(x, col)}, then ${excerpt(y, col)}`;
}

/** The determinism failure of two outcomes for one matrix, or null when their canonical texts are equal. */
export function determinismFailure(m: CommMatrix, first: PlanOutcome, second: PlanOutcome): CheckFailure | null {
  const diff = firstDifference(canonicalOutcome(m, first), canonicalOutcome(m, second));
  if (diff === null) return null;
  return {
    check: DETERMINISM_CHECK,
    title: "the same matrix planned twice gives the same schedule",
    witness: `nondeterministic planner: P = ${m.p} planned twice gives two different schedules; ${diff}`,
  };
}
