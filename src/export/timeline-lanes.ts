/** Lanes of a simulated timeline: each node's intervals split so that no two of one lane overlap in time. */
import type { Timeline } from "../model/timeline.js";

/** A time in us rounded to whole nanoseconds, as an integer count of ns (what a viewer keeps of it). */
export const toNs = (us: number): number => Math.round(us * 1000);

/**
 * The lanes of a timeline: every node's intervals split so that no two of one lane overlap (a node sends while it
 * receives): the Chrome trace's threads (a viewer drops complete events of one thread that overlap without nesting)
 * and the rows of a node in the SVG Gantt chart (where one bar would hide another). Interval i goes to the first lane
 * of its node free at its start, in whole ns as the trace writes it.
 */
export interface Lanes {
  /** The lane of every interval within its node (0, 1, ...). */
  readonly lane: Uint32Array;
  /** 1 where an interval overlaps no other of its node (the Gantt chart draws it across the whole row). */
  readonly alone: Uint8Array;
  /** The trace thread of every interval: lane 0 of node v is v, its further lanes p, p + 1, ... in node order. */
  readonly tid: Uint32Array;
  /** Lanes per node. */
  readonly count: Uint32Array;
  /** The thread of lane 1 of node v is firstExtra[v] (lanes 2, 3, ... follow it). */
  readonly firstExtra: Uint32Array;
}

/**
 * Interval indices grouped by node, `size` consecutive nodes a group (a counting sort, intervals in their order within
 * a group): group g's are order[start[g] .. start[g + 1]).
 */
export function intervalsByGroup(tl: Timeline, size: number): { start: Uint32Array; order: Uint32Array } {
  const groups = Math.ceil(tl.p / size);
  const start = new Uint32Array(groups + 1);
  for (let i = 0; i < tl.count; i++) start[Math.floor(tl.node[i]! / size) + 1]!++;
  for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, groups);
  const order = new Uint32Array(tl.count);
  for (let i = 0; i < tl.count; i++) order[fill[Math.floor(tl.node[i]! / size)]!++] = i;
  return { start, order };
}

/** Assigns every interval a lane (first fit by start time, per node). */
export function timelineLanes(tl: Timeline): Lanes {
  const { p, count } = tl;
  const { start: byNode, order } = intervalsByGroup(tl, 1);
  const lane = new Uint32Array(count);
  const lanes = new Uint32Array(p);
  const alone = new Uint8Array(count);
  for (let v = 0; v < p; v++) {
    const seg = order.subarray(byNode[v]!, byNode[v + 1]!);
    seg.sort((a, b) => tl.start[a]! - tl.start[b]! || a - b);
    const ends: number[] = [];
    for (const i of seg) {
      const s = toNs(tl.start[i]!);
      let l = ends.findIndex((e) => e <= s);
      if (l < 0) l = ends.push(0) - 1;
      ends[l] = Math.max(s, toNs(tl.end[i]!));
      lane[i] = l;
    }
    lanes[v] = Math.max(1, ends.length);
    let reach = -Infinity;
    seg.forEach((i, k) => {
      const s = toNs(tl.start[i]!),
        e = toNs(tl.end[i]!);
      const next = k + 1 < seg.length ? toNs(tl.start[seg[k + 1]!]!) : Infinity;
      alone[i] = reach <= s && next >= e ? 1 : 0;
      reach = Math.max(reach, e);
    });
  }
  const firstExtra = new Uint32Array(p);
  let next = p;
  for (let v = 0; v < p; v++) {
    firstExtra[v] = next;
    next += lanes[v]! - 1;
  }
  const tid = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const v = tl.node[i]!;
    tid[i] = lane[i] === 0 ? v : firstExtra[v]! + lane[i]! - 1;
  }
  return { lane, alone, tid, count: lanes, firstExtra };
}
