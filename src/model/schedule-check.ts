/**
 * Well-formedness of a schedule object (docs/formats.md, Schedule): the IR's columns and offset tables, indices in
 * range, positive integer sizes, chunks that add up. A user's planner may hand-build a schedule; the verifier reports
 * this as its first check, and the functions that take a schedule refuse one that fails it.
 */
import { fail } from "./errors.js";
import { MAX_P } from "./limits.js";
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

const isIndex = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/**
 * What makes `s` no Schedule object at all, or null: not an object, or a plain `commplan.schedule/v1` document (stages
 * of steps, no typed columns), which a reader turns into one. The functions that take a Schedule refuse either with
 * this line rather than fail on a missing column.
 */
export function scheduleArgProblem(s: unknown): string | null {
  if (typeof s !== "object" || s === null || Array.isArray(s))
    return `the schedule is not a Schedule object, got ${s === null ? "null" : Array.isArray(s) ? "an array" : typeof s}`;
  const o = s as { readonly stepStart?: unknown; readonly stages?: unknown };
  const plain =
    Array.isArray(o.stages) && o.stages.some((st) => Array.isArray((st as { steps?: unknown } | null)?.steps));
  if (o.stepStart === undefined && plain)
    return (
      "the schedule is a plain commplan.schedule/v1 object, not a Schedule: read the document with readScheduleFile " +
      "(or parseScheduleJsonText of commplan/io)"
    );
  return null;
}

/**
 * Throws a one-line BAD_INPUT error of `module` (field "schedule") naming the public function `fn` unless `s` is a
 * Schedule object of sound shape: scheduleArgProblem, p, then scheduleShapeProblem (the columns' kinds and lengths and
 * the offset tables, O(steps + stalls); no pass over the transfers, whose contents the caller's own loop meets).
 */
export function checkScheduleArg(module: string, s: unknown, fn: string): void {
  let w = scheduleArgProblem(s);
  if (w === null) {
    const p = (s as Schedule).p;
    const shape =
      isIndex(p) && p >= 1 && p <= MAX_P
        ? scheduleShapeProblem(s as Schedule)
        : `p ${String(p)} is not an integer in 1..${MAX_P}`;
    w = shape === null ? null : `the schedule is not well formed: ${shape}`;
  }
  if (w !== null) throw fail(module, "BAD_INPUT", `${fn}: ${w}`, { field: "schedule" });
}

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

/** A positive integer that is exact in a double. */
const isCountValue = (z: number): boolean => z >= 1 && z <= Number.MAX_SAFE_INTEGER && Math.floor(z) === z;

/** The first transfer with a node outside 0..p-1 or a size that is not a positive integer, or -1. */
function badTransfer(src: Uint32Array, dst: Uint32Array, size: Float64Array, p: number): number {
  for (let x = 0; x < src.length; x++) if (!isTransferOk(src[x]!, dst[x]!, size[x]!, p)) return x;
  return -1;
}

/**
 * The first chunk with a node outside 0..p-1, a count that is not a positive integer or an offset that is not a whole
 * number >= 0, or -1.
 */
function badChunk(
  origin: Uint32Array,
  dest: Uint32Array,
  offset: Float64Array,
  count: Float64Array,
  p: number,
): number {
  for (let k = 0; k < origin.length; k++) {
    const off = offset[k]!;
    if (origin[k]! >= p || dest[k]! >= p || !isCountValue(count[k]!) || !(off >= 0 && Math.floor(off) === off))
      return k;
  }
  return -1;
}

/** The first transfer whose chunks do not carry its size, or -1. */
function badChunkSum(start: Uint32Array, count: Float64Array, size: Float64Array): number {
  for (let x = 0; x < size.length; x++) {
    let sum = 0;
    const k1 = start[x + 1]!;
    for (let k = start[x]!; k < k1; k++) sum += count[k]!;
    if (sum !== size[x]) return x;
  }
  return -1;
}

/** The first transfer whose start or end time is not a finite number >= 0, or -1. */
function badTime(start: Float64Array, end: Float64Array): number {
  for (let x = 0; x < start.length; x++) {
    const t0 = start[x]!,
      t1 = end[x]!;
    if (!(t0 >= 0 && t0 < Infinity && t1 >= 0 && t1 < Infinity)) return x;
  }
  return -1;
}

/** The transfer chunk k belongs to (start: the chunk offsets, which scheduleShapeProblem checked). */
function transferOfChunk(start: Uint32Array, k: number): number {
  let x = 0;
  while (start[x + 1]! <= k) x++;
  return x;
}

/**
 * What is wrong with a schedule, or null: its shape (scheduleShapeProblem), then the stages cover
 * the steps in order, every node is in 0..P-1, sizes and chunk counts are positive integers, chunk
 * offsets whole numbers >= 0, each transfer's chunks carry its size, and times (when given) are
 * finite numbers >= 0. O(T + C). `transfers` false leaves out the transfers' nodes and sizes (checkSchedule's option).
 */
export function scheduleProblem(s: Schedule, transfers = true): string | null {
  const arg = scheduleArgProblem(s);
  if (arg !== null) return arg;
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
  // the loops over every transfer and chunk are small functions of their own: V8 runs them faster alone than
  // inside this long function (docs/architecture.md, "Why some hot code looks as it does", has the figures)
  const { src, dst, size } = s;
  const x = transfers ? badTransfer(src, dst, size, p) : -1;
  if (x >= 0) {
    const a = src[x]!,
      b = dst[x]!;
    if (a >= p || b >= p) return `transfer ${x}: node ${Math.max(a, b)} is not in 0..${p - 1}`;
    return `transfer ${x}: size ${size[x]} is not a positive integer`;
  }
  const stallNode = s.stallNode;
  for (let k = 0; k < stallNode.length; k++)
    if (stallNode[k]! >= p) return `stall of node ${stallNode[k]} is not in 0..${p - 1}`;
  const c = s.chunks;
  if (c) {
    // scheduleShapeProblem checked the offsets; here the contents
    const k = badChunk(c.origin, c.dest, c.offset, c.count, p);
    if (k >= 0) {
      const t = transferOfChunk(c.start, k);
      if (c.origin[k]! >= p || c.dest[k]! >= p) return `transfer ${t}, chunk ${k - c.start[t]!}: node out of range`;
      return `transfer ${t}, chunk ${k - c.start[t]!}: offset ${c.offset[k]} / count ${c.count[k]} invalid`;
    }
    const t = badChunkSum(c.start, c.count, size);
    if (t >= 0) {
      let sum = 0;
      for (let j = c.start[t]!; j < c.start[t + 1]!; j++) sum += c.count[j]!;
      return `transfer ${t} (${src[t]} -> ${dst[t]}) has size ${size[t]} but its chunks carry ${sum} elements`;
    }
  }
  if (s.times !== null) {
    const x = badTime(s.times.start, s.times.end);
    if (x >= 0) return `transfer ${x}: times ${s.times.start[x]}..${s.times.end[x]} are not finite numbers >= 0`;
  }
  return null;
}

/**
 * Throws a one-line BAD_INPUT of `module` naming what is wrong with a schedule (scheduleProblem); `transfers: false`
 * leaves out the pass over the transfers' nodes and sizes, for a caller that checks each transfer as it reads it
 * (isTransferOk) and calls checkSchedule again for the error when one is not.
 */
export function checkSchedule(s: Schedule, module: string, opts: { readonly transfers?: boolean } = {}): void {
  const w = scheduleProblem(s, opts.transfers ?? true);
  if (w !== null) throw fail(module, "BAD_INPUT", `the schedule is not well formed: ${w}`, { field: "schedule" });
}

/** Whether a transfer passes checkSchedule's check of its nodes and size (both nodes in 0..p-1, a positive integer). */
export function isTransferOk(src: number, dst: number, size: number, p: number): boolean {
  return src < p && dst < p && isCountValue(size);
}
