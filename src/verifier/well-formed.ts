/** Well-formedness: indices in range, positive integer sizes, chunks that add up to their transfer (DESIGN.md IR). */
import type { Schedule } from "../model/schedule.js";
import { columnProblem, offsetsProblem } from "./columns.js";
import { check, type Check } from "./report.js";

const SOURCE = "docs/formats.md, Schedule";
const isCount = (v: number): boolean => v >= 1 && Number.isInteger(v) && v <= Number.MAX_SAFE_INTEGER;

const isIndex = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/**
 * What is wrong with the shape of a schedule object (a planner under test may hand-build one): the
 * columns are the IR's typed arrays with the lengths the counts give, and the offset tables (steps,
 * stalls, chunks) start at 0, never decrease and end at their table's length; null when sound.
 */
function shapeProblem(s: Schedule): string | null {
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

/** Checks the columns of a schedule against P; later checks run only when this holds. */
export function checkWellFormed(s: Schedule): Check {
  const { p } = s;
  const bad = (w: string): Check =>
    check("well-formed", "indices in range, sizes positive integers, chunks add up", SOURCE, false, null, null, w);
  const shape = shapeProblem(s);
  if (shape !== null) return bad(shape);
  let expectStep = 0;
  for (const [k, stage] of s.stages.entries()) {
    if (stage.firstStep !== expectStep) return bad(`stage ${k + 1} does not start where stage ${k} ends`);
    expectStep += stage.stepCount;
  }
  if (expectStep !== s.stepCount) return bad("the stages do not cover every step");
  const { src, dst, size } = s; // locals for the loop over every transfer
  for (let x = 0; x < s.transferCount; x++) {
    if (src[x]! >= p || dst[x]! >= p)
      return bad(`transfer ${x}: node ${Math.max(src[x]!, dst[x]!)} is not in 0..${p - 1}`);
    if (!isCount(size[x]!)) return bad(`transfer ${x}: size ${size[x]} is not a positive integer`);
  }
  for (let k = 0; k < s.stallNode.length; k++)
    if (s.stallNode[k]! >= p) return bad(`stall of node ${s.stallNode[k]} is not in 0..${p - 1}`);
  const c = s.chunks;
  if (c) {
    // shapeProblem checked the offsets; here the contents
    for (let x = 0; x < s.transferCount; x++) {
      let sum = 0;
      for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
        if (c.origin[k]! >= p || c.dest[k]! >= p)
          return bad(`transfer ${x}, chunk ${k - c.start[x]!}: node out of range`);
        if (!isCount(c.count[k]!) || !(c.offset[k]! >= 0 && Number.isInteger(c.offset[k]!)))
          return bad(`transfer ${x}, chunk ${k - c.start[x]!}: offset ${c.offset[k]} / count ${c.count[k]} invalid`);
        sum += c.count[k]!;
      }
      if (sum !== s.size[x])
        return bad(
          `transfer ${x} (${s.src[x]} -> ${s.dst[x]}) has size ${s.size[x]} but its chunks carry ${sum} elements`,
        );
    }
  }
  return check("well-formed", "indices in range, sizes positive integers, chunks add up", SOURCE, true);
}
