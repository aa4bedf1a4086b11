/** Timelines made by hand for the picture tests. */
import { TIMELINE_NONE, type Timeline } from "../../src/model/timeline.js";

/** One interval: [node, kind code, start us, end us]. */
export type Interval = readonly [number, number, number, number];

/** A timeline of `p` nodes holding `intervals` (no peers, size 1 each). */
export function timelineOf(p: number, kindNames: readonly string[], intervals: readonly Interval[]): Timeline {
  const count = intervals.length;
  const t = {
    p,
    kindNames,
    count,
    node: new Uint32Array(count),
    kind: new Uint32Array(count),
    start: new Float64Array(count),
    end: new Float64Array(count),
    peer: new Uint32Array(count).fill(TIMELINE_NONE),
    size: new Float64Array(count).fill(1),
    transfer: new Uint32Array(count).fill(TIMELINE_NONE),
  };
  intervals.forEach(([v, k, a, b], i) => {
    t.node[i] = v;
    t.kind[i] = k;
    t.start[i] = a;
    t.end[i] = b;
  });
  return t;
}
