/**
 * Schedule Arrow metadata: the header JSON an Arrow plan keeps in its schema metadata, checked, and what a decode
 * derives from it and the columns, without apache-arrow (shared by the apache-arrow decoder and the plan store's
 * reader of its own entries).
 */
import { fail } from "../model/errors.js";
import { REARRANGE_KINDS } from "../model/schedule.js";
import type { ChunkTable, JsonValue, Rearrange, Schedule, ScheduleHeader, StageInfo } from "../model/schedule.js";
import { checkScheduleHeader, scheduleHeaderDocument, wholeNumberProblem } from "./schedule-header.js";

const MODULE = "schedule-arrow";

/**
 * The format name written into the schema metadata (key `commplan`). v2 writes the stage and step
 * columns in the narrowest unsigned type that holds them (v1 wrote int32: a third of a
 * message-level plan's bytes); both are read.
 */
export const SCHEDULE_ARROW_FORMAT = "commplan.schedule-arrow/v2";
/** Every format name decode reads. */
const READABLE_FORMATS: readonly string[] = ["commplan.schedule-arrow/v1", SCHEDULE_ARROW_FORMAT];
/** The schema metadata key holding the header JSON. */
export const SCHEDULE_ARROW_META_KEY = "commplan";

/** The header JSON stored in the schema metadata under `commplan`. */
export interface ScheduleArrowHeader extends ScheduleHeader {
  readonly format: string;
  readonly stepCount: number;
  readonly stages: readonly StageInfo[];
  /** Stalled nodes of step s are stalls.node[stalls.start[s] .. stalls.start[s + 1]). */
  readonly stalls: { readonly start: readonly number[]; readonly node: readonly number[] };
  /** Extra string fields a caller adds (the plan store's key); ignored by decode. */
  readonly [extra: string]: JsonValue | readonly StageInfo[] | ScheduleArrowHeader["stalls"] | undefined;
}

/** The typed arrays of the integer columns decode accepts for stage and step (any writer's width up to 32 bits). */
export type IndexArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

/**
 * The header JSON of an Arrow plan from its schema metadata's `commplan` text (undefined when the file has none),
 * checked: format, p, steps, stages and stalls.
 */
export function parseArrowHeader(text: string | undefined): ScheduleArrowHeader {
  if (text === undefined)
    throw fail(MODULE, "BAD_FORMAT", `no '${SCHEDULE_ARROW_META_KEY}' schema metadata: not a commplan plan`);
  let h: ScheduleArrowHeader;
  try {
    h = JSON.parse(text) as ScheduleArrowHeader;
  } catch {
    throw fail(MODULE, "BAD_FORMAT", "the 'commplan' schema metadata is not JSON");
  }
  if (typeof h !== "object" || h === null || !READABLE_FORMATS.includes(h.format))
    throw fail(MODULE, "BAD_FORMAT", `metadata format is not one of ${READABLE_FORMATS.join(", ")}`, {
      field: "format",
    });
  const ok =
    Number.isInteger(h.p) &&
    h.p >= 1 &&
    Number.isInteger(h.stepCount) &&
    h.stepCount >= 0 &&
    Array.isArray(h.stages) &&
    typeof h.stalls === "object" &&
    h.stalls !== null &&
    Array.isArray(h.stalls.start) &&
    Array.isArray(h.stalls.node) &&
    h.stalls.start.length === h.stepCount + 1;
  if (!ok) throw fail(MODULE, "BAD_FORMAT", "metadata lacks p, stepCount, stages or stalls (or they disagree)");
  checkScheduleHeader(scheduleHeaderDocument(h, h.stages), MODULE);
  checkStalls(h.stalls, h.p);
  return h;
}

/** A problem of the header's stall table. */
function badStalls(field: string, text: string): never {
  throw fail(MODULE, "BAD_INPUT", `${field} ${text}`, { field });
}

/**
 * Checks the header's stall table as the JSON reader checks a step's stalls: offsets that start at
 * 0, never decrease and end at the node count; every node an index in 0..p-1, at most once a step.
 */
function checkStalls(stalls: ScheduleArrowHeader["stalls"], p: number): void {
  const { start, node } = stalls;
  for (let k = 0; k < start.length; k++) {
    const v: unknown = start[k];
    const field = `stalls.start[${k}]`;
    if (typeof v !== "number") badStalls(field, "must be integer");
    const problem = wholeNumberProblem(v, k === 0 ? 0 : start[k - 1]!);
    if (problem !== null) badStalls(field, problem);
    if (k === 0 && v !== 0) badStalls(field, "must be 0");
  }
  if (start[start.length - 1] !== node.length) badStalls(`stalls.start[${start.length - 1}]`, `must be ${node.length}`);
  const lastStep = new Map<number, number>();
  for (let s = 0; s + 1 < start.length; s++) {
    for (let q = start[s]!; q < start[s + 1]!; q++) {
      const v: unknown = node[q];
      const field = `stalls.node[${q}]`;
      if (typeof v !== "number") badStalls(field, "must be integer");
      const problem = wholeNumberProblem(v, 0);
      if (problem !== null) badStalls(field, problem);
      if (v >= p) badStalls(field, `= ${v} is not a node index in 0..${p - 1}`);
      if (lastStep.get(v) === s)
        badStalls(field, `= ${v} repeats a node the step already lists as stalled (each node at most once)`);
      lastStep.set(v, s);
    }
  }
}

/** The stages of a checked header, checked to tile its steps 0 .. stepCount - 1. */
export function decodeStages(h: ScheduleArrowHeader): StageInfo[] {
  let next = 0;
  const stages = h.stages.map((st, k) => {
    const rearrange = st.rearrange as Rearrange;
    if (
      typeof st.name !== "string" ||
      !REARRANGE_KINDS.includes(rearrange) ||
      st.firstStep !== next ||
      !Number.isInteger(st.stepCount) ||
      st.stepCount < 0
    )
      throw fail(MODULE, "BAD_FORMAT", `stage ${k} in the metadata is malformed`, { field: `stages[${k}]` });
    next += st.stepCount;
    return { name: st.name, rearrange, firstStep: st.firstStep, stepCount: st.stepCount };
  });
  if (next !== h.stepCount)
    throw fail(MODULE, "BAD_FORMAT", `the metadata's stages cover ${next} steps, not stepCount = ${h.stepCount}`, {
      field: "stages",
    });
  return stages;
}

/**
 * The step starts of a trusted file (its bytes checked against a checksum its writer made): a binary
 * search of the nondecreasing step column per step, O(steps log transfers), no pass over the rows.
 */
export function trustedStepStarts(step: IndexArray, stepCount: number): Uint32Array {
  const n = step.length;
  if (n > 0 && (step[0]! < 0 || step[n - 1]! >= stepCount))
    throw fail(MODULE, "BAD_FORMAT", `the step column is out of range 0..${stepCount - 1}`);
  const stepStart = new Uint32Array(stepCount + 1);
  let lo = 0;
  for (let k = 1; k <= stepCount; k++) {
    let hi = n; // first x >= lo with step[x] >= k
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (step[mid]! < k) lo = mid + 1;
      else hi = mid;
    }
    stepStart[k] = lo;
  }
  return stepStart;
}

/** The columns of a decoded plan: views of (or copies from) the file's buffers. */
export interface ArrowPlanColumns {
  readonly src: Uint32Array;
  readonly dst: Uint32Array;
  readonly size: Float64Array;
  readonly chunks: ChunkTable | null;
  readonly times: Schedule["times"];
}

/** The Schedule of a checked header, its stages and step starts, and its columns. */
export function scheduleOfArrow(
  h: ScheduleArrowHeader,
  stages: StageInfo[],
  stepStart: Uint32Array,
  c: ArrowPlanColumns,
): Schedule {
  return {
    p: h.p,
    algorithm: h.algorithm,
    params: h.params,
    seed: h.seed,
    elementBytes: h.elementBytes,
    matrixDigest: h.matrixDigest,
    stages,
    stepCount: h.stepCount,
    stepStart,
    stallStart: Uint32Array.from(h.stalls.start),
    stallNode: Uint32Array.from(h.stalls.node),
    transferCount: c.src.length,
    src: c.src,
    dst: c.dst,
    size: c.size,
    chunks: c.chunks,
    times: c.times,
  };
}
