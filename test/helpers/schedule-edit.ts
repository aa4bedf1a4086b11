/** Editable schedules for tests: unpack a Schedule into plain steps, change it, pack it again. */
import { ScheduleBuilder, type Rearrange, type Schedule, type ScheduleHeader } from "../../src/model/schedule.js";

/** A chunk [origin, dest, offset, count]. */
export type Chunk = [number, number, number, number];
/** A transfer in plain form. */
export interface PlainTransfer {
  src: number;
  dst: number;
  size: number;
  chunks: Chunk[] | null;
}
/** A step in plain form. */
export interface PlainStep {
  transfers: PlainTransfer[];
  stalls: number[];
}
/** A stage in plain form. */
export interface PlainStage {
  name: string;
  rearrange: Rearrange;
  steps: PlainStep[];
}

/** Unpacks a schedule. */
export function unpack(s: Schedule): PlainStage[] {
  return s.stages.map((st) => {
    const steps: PlainStep[] = [];
    for (let k = st.firstStep; k < st.firstStep + st.stepCount; k++) {
      const transfers: PlainTransfer[] = [];
      for (let x = s.stepStart[k]!; x < s.stepStart[k + 1]!; x++) {
        let chunks: Chunk[] | null = null;
        if (s.chunks) {
          chunks = [];
          for (let c = s.chunks.start[x]!; c < s.chunks.start[x + 1]!; c++)
            chunks.push([s.chunks.origin[c]!, s.chunks.dest[c]!, s.chunks.offset[c]!, s.chunks.count[c]!]);
        }
        transfers.push({ src: s.src[x]!, dst: s.dst[x]!, size: s.size[x]!, chunks });
      }
      steps.push({ transfers, stalls: Array.from(s.stallNode.subarray(s.stallStart[k]!, s.stallStart[k + 1]!)) });
    }
    return { name: st.name, rearrange: st.rearrange, steps };
  });
}

/** Packs plain stages into a schedule with the header of `like`. */
export function pack(like: Schedule, stages: PlainStage[]): Schedule {
  const {
    stages: _s,
    stepCount: _c,
    stepStart: _a,
    stallStart: _b,
    stallNode: _n,
    transferCount: _t,
    src: _x,
    dst: _y,
    size: _z,
    chunks,
    times: _tt,
    ...header
  } = like;
  const b = new ScheduleBuilder(header, chunks !== null);
  for (const st of stages) {
    b.stage(st.name, st.rearrange);
    for (const step of st.steps) {
      b.step();
      for (const t of step.transfers) {
        b.transfer(t.src, t.dst, t.size);
        for (const c of t.chunks ?? []) b.chunk(...c);
      }
      for (const n of step.stalls) b.stall(n);
    }
  }
  return b.build();
}

/** A one-stage message-level schedule made by hand: one list of [src, dst, size] per step (header: algorithm "hand", 1-byte elements, no matrix digest, unless given). */
export function handSchedule(
  p: number,
  steps: [number, number, number][][],
  header: Partial<Pick<ScheduleHeader, "algorithm" | "elementBytes" | "matrixDigest">> = {},
): Schedule {
  const b = new ScheduleBuilder(
    { p, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "", ...header },
    false,
  );
  b.stage("main");
  for (const step of steps) {
    b.step();
    for (const [a, d, z] of step) b.transfer(a, d, z);
  }
  return b.build();
}
