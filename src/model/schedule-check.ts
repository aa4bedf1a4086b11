/** Well-formedness of a schedule object (DESIGN.md IR): the IR's columns and offset tables, indices in range, positive integer sizes, chunks that add up. A user's planner may hand-build a schedule; the verifier reports this as its first check, and the functions that take a schedule refuse one that fails it. */
import { fail } from "./errors.js";
import { MAX_P } from "./matrix.js";
import type { Schedule } from "./schedule.js";

/** The typed array classes of the IR's columns. */
export type TypedArrayClass = typeof Uint8Array | typeof Uint32Array | typeof Float64Array;

/** What is wrong with a column: not the IR's typed array, or not `length` entries long (when given). */
export function columnProblem(name: string, a: unknown, type: TypedArrayClass, length?: number): string | null {
  if (!(a instanceof type)) return `${name} is not a ${type.name}`;
  return length === undefined || a.length === length ? null : `${name} has ${a.length} entries, not ${length}`;
}

/** What is wrong with offsets into `end` items: not starting at 0, decreasing, or not ending at `end`. */
export function offsetsProblem(name: string, a: Uint32Array, end: number, what: string): string | null {
  if (a[0] !== 0) return `${name}[0] is ${a[0]}, not 0`;
  for (let k = 1; k < a.length; k++) if (a[k]! < a[k - 1]!) return `${name}[${k}] is below ${name}[${k - 1}]`;
  return a[a.length - 1] === end ? null : `${name} ends at ${a[a.length - 1]}, not at the ${end} ${what}`;
}

const isCount = (v: number): boolean => v >= 1 && Number.isInteger(v) && v <= Number.MAX_SAFE_INTEGER;

const isIndex = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/**
 * What is wrong with the shape of a schedule object (a planner under test may hand-build one): the
 * columns are the IR's typed arrays with the lengths the counts give, and the offset tables (steps,
 * stalls, chunks) start at 0, never decrease and end at their table's length; null when sound.
 */
export function scheduleShapeProblem(s: Schedule): string | null {
  if (!isIndex(s.elementBytes) || s.elementBytes < 1)
    return `elementBytes ${String(s.elementBytes)} is not a positive integer`;
  if (!isIndex(s.stepCount)) return `stepCount ${String(s.stepCount)} is not a non-negative integer`;
  if (!isIndex(s.transferCount)) return `transferCount ${String(s.transferCount)} is not a non-negative integer`;
  const n = s.transferCount;
  const problem =
    columnProblem("stepStart", s.stepStart, Uint32Array, s.stepCount + 1) ??
    columnProblem("stallStart", s.stallStart, Uint32Array, s.stepCount + 1) ??
    (s.stallNode instanceof Uint32Array ? null : "stallNode is not a Uint32Array") ??
    columnProblem("src", s.src, Uint32Array, n) ??
    columnProblem("dst", s.dst, Uint32Array, n) ??
    columnProblem("size", s.size, Float64Array, n) ??
    offsetsProblem("stepStart", s.stepStart, n, "transfers") ??
    offsetsProblem("stallStart", s.stallStart, s.stallNode.length, "stalls");
  if (problem !== null) return problem;
  if (!Array.isArray(s.stages)) return "stages is not an array";
  for (const [k, st] of (s.stages as unknown[]).entries()) {
    const { firstStep, stepCount } = (typeof st === "object" && st !== null ? st : {}) as Record<string, unknown>;
    if (!isIndex(firstStep) || !isIndex(stepCount)) return `stage ${k + 1} has no whole firstStep and stepCount`;
  }
  const c = s.chunks;
  if (c !== null) {
    if (typeof c !== "object") return "chunks is neither null nor a chunk table";
    const chunks = c.origin instanceof Uint32Array ? c.origin.length : 0;
    const bad =
      columnProblem("chunks.start", c.start, Uint32Array, n + 1) ??
      columnProblem("chunks.origin", c.origin, Uint32Array, chunks) ??
      columnProblem("chunks.dest", c.dest, Uint32Array, chunks) ??
      columnProblem("chunks.offset", c.offset, Float64Array, chunks) ??
      columnProblem("chunks.count", c.count, Float64Array, chunks) ??
      offsetsProblem("chunks.start", c.start, chunks, "chunks");
    if (bad !== null) return bad;
  }
  const t = s.times;
  if (t !== null) {
    if (typeof t !== "object") return "times is neither null nor a times table";
    return columnProblem("times.start", t.start, Float64Array, n) ?? columnProblem("times.end", t.end, Float64Array, n);
  }
  return null;
}

/**
 * What is wrong with a schedule, or null: its shape (scheduleShapeProblem), then the stages cover
 * the steps in order, every node is in 0..P-1, sizes and chunk counts are positive integers, chunk
 * offsets whole numbers >= 0, and each transfer's chunks carry its size. O(T + C).
 */
export function scheduleProblem(s: Schedule): string | null {
  if (typeof s !== "object" || s === null) return "the schedule is not an object";
  const { p } = s;
  if (!isIndex(p) || p < 1 || p > MAX_P) return `p ${String(p)} is not an integer in 1..${MAX_P}`;
  const shape = scheduleShapeProblem(s);
  if (shape !== null) return shape;
  let expectStep = 0;
  for (const [k, stage] of s.stages.entries()) {
    if (stage.firstStep !== expectStep) return `stage ${k + 1} does not start where stage ${k} ends`;
    expectStep += stage.stepCount;
  }
  if (expectStep !== s.stepCount) return "the stages do not cover every step";
  const { src, dst, size } = s; // locals for the loop over every transfer
  for (let x = 0; x < s.transferCount; x++) {
    if (src[x]! >= p || dst[x]! >= p) return `transfer ${x}: node ${Math.max(src[x]!, dst[x]!)} is not in 0..${p - 1}`;
    if (!isCount(size[x]!)) return `transfer ${x}: size ${size[x]} is not a positive integer`;
  }
  for (let k = 0; k < s.stallNode.length; k++)
    if (s.stallNode[k]! >= p) return `stall of node ${s.stallNode[k]} is not in 0..${p - 1}`;
  const c = s.chunks;
  if (c) {
    // scheduleShapeProblem checked the offsets; here the contents
    for (let x = 0; x < s.transferCount; x++) {
      let sum = 0;
      for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
        if (c.origin[k]! >= p || c.dest[k]! >= p) return `transfer ${x}, chunk ${k - c.start[x]!}: node out of range`;
        if (!isCount(c.count[k]!) || !(c.offset[k]! >= 0 && Number.isInteger(c.offset[k]!)))
          return `transfer ${x}, chunk ${k - c.start[x]!}: offset ${c.offset[k]} / count ${c.count[k]} invalid`;
        sum += c.count[k]!;
      }
      if (sum !== s.size[x])
        return `transfer ${x} (${s.src[x]} -> ${s.dst[x]}) has size ${s.size[x]} but its chunks carry ${sum} elements`;
    }
  }
  return null;
}

/** Throws a one-line BAD_INPUT of `module` naming what is wrong with a schedule (scheduleProblem). */
export function checkSchedule(s: Schedule, module: string): void {
  const w = scheduleProblem(s);
  if (w !== null) throw fail(module, "BAD_INPUT", `the schedule is not well formed: ${w}`, { field: "schedule" });
}
