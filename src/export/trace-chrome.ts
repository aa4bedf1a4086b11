/** Chrome trace export: a simulated Timeline as Trace Event Format JSON (opens in Perfetto and chrome://tracing). */
import { TIMELINE_NONE, type Timeline } from "../model/timeline.js";
/** The timeline this writer reads (src/machines/sim makes it). */
export type TraceTimeline = Timeline;
const NONE = TIMELINE_NONE;

/** Metadata written into the trace's `otherData`. */
export interface TraceMeta {
  readonly [k: string]: string | number | boolean;
}

/** Characters of trace text gathered into one piece of timelineToChromeTracePieces. */
const PIECE_CHARS = 1 << 20;

/** A time in us rounded to whole nanoseconds, as an integer count of ns (what a viewer keeps of it). */
const toNs = (us: number): number => Math.round(us * 1000);

/**
 * The lanes of a timeline: every node's intervals split over threads so that no two intervals of one thread overlap
 * (a viewer drops or misplaces complete events of one thread that overlap without nesting: a node sends while it
 * receives). Interval i goes to the first lane of its node free at its start (in whole ns, as written); lane 0 of
 * node v is thread v, its further lanes threads p, p + 1, ... in node order.
 */
interface Lanes {
  /** The thread of every interval. */
  readonly tid: Uint32Array;
  /** Lanes per node. */
  readonly count: Uint32Array;
  /** The thread of lane 1 of node v is firstExtra[v] (lanes 2, 3, ... follow it). */
  readonly firstExtra: Uint32Array;
}

/** Assigns every interval a lane (first fit by start time, per node). */
function traceLanes(tl: TraceTimeline): Lanes {
  const { p, count } = tl;
  const byNode = new Uint32Array(p + 1);
  for (let i = 0; i < count; i++) byNode[tl.node[i]! + 1]!++;
  for (let v = 0; v < p; v++) byNode[v + 1]! += byNode[v]!;
  const order = new Uint32Array(count);
  const fill = byNode.slice(0, p);
  for (let i = 0; i < count; i++) order[fill[tl.node[i]!]!++] = i;
  const lane = new Uint32Array(count);
  const lanes = new Uint32Array(p);
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
  return { tid, count: lanes, firstExtra };
}

/**
 * The timeline as Trace Event Format text: one complete event ("ph": "X") per interval, process 0, times in
 * microseconds as the format expects (rounded to whole ns, so that back-to-back intervals touch and never overlap).
 * A node is thread "node i" (tid i); when its intervals overlap (a send during a receive), the overlapping ones go to
 * further threads "node i (2)", "node i (3)", ... sorted right below it, so that no two events of a thread overlap
 * (a viewer drops such events); every event names its node in `args.node`.
 */
export function timelineToChromeTrace(tl: TraceTimeline, meta: TraceMeta = {}): string {
  return [...timelineToChromeTracePieces(tl, meta)].join("");
}

/**
 * timelineToChromeTrace's text in pieces of about a MiB, made as they are taken (a file writer streams a big trace
 * without holding it).
 */
export function* timelineToChromeTracePieces(tl: TraceTimeline, meta: TraceMeta = {}): Generator<string> {
  let parts: string[] = [];
  let chars = 0;
  const add = (text: string): void => {
    parts.push(text);
    chars += text.length;
  };
  const lanes = traceLanes(tl);
  add(`{"displayTimeUnit":"ns","otherData":${JSON.stringify(meta)},"traceEvents":[\n`);
  add(`{"name":"process_name","ph":"M","pid":0,"tid":0,"args":{"name":"commplan simulated machine"}}`);
  let sortIndex = 0;
  for (let v = 0; v < tl.p; v++) {
    for (let l = 0; l < lanes.count[v]!; l++) {
      const tid = l === 0 ? v : lanes.firstExtra[v]! + l - 1;
      const name = l === 0 ? `node ${v}` : `node ${v} (${l + 1})`;
      add(`,\n{"name":"thread_name","ph":"M","pid":0,"tid":${tid},"args":{"name":"${name}"}}`);
      add(`,\n{"name":"thread_sort_index","ph":"M","pid":0,"tid":${tid},"args":{"sort_index":${sortIndex++}}}`);
    }
    if (chars >= PIECE_CHARS) {
      yield parts.join("");
      parts = [];
      chars = 0;
    }
  }
  for (let i = 0; i < tl.count; i++) {
    const kind = tl.kindNames[tl.kind[i]!]!;
    const peer = tl.peer[i]!;
    const x = tl.transfer[i]!;
    const name = peer === NONE ? kind : `${kind} ${kind === "recv" ? "from" : "to"} ${peer}`;
    const args = `{"node":${tl.node[i]},"peer":${peer === NONE ? "null" : peer},"size":${tl.size[i]},"transfer":${x === NONE ? "null" : x}}`;
    const s = toNs(tl.start[i]!);
    const dur = Math.max(0, toNs(tl.end[i]!) - s);
    add(
      `,\n{"name":"${name}","cat":"${kind}","ph":"X","pid":0,"tid":${lanes.tid[i]},"ts":${s / 1000},"dur":${dur / 1000},"args":${args}}`,
    );
    if (chars >= PIECE_CHARS) {
      yield parts.join("");
      parts = [];
      chars = 0;
    }
  }
  add("\n]}\n");
  yield parts.join("");
}
