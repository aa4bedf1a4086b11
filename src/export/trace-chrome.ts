/** Chrome trace export: a simulated Timeline as Trace Event Format JSON (opens in Perfetto and chrome://tracing). */
import { TIMELINE_NONE, type Timeline } from "../model/timeline.js";
import { timelineLanes, toNs } from "./timeline-lanes.js";
import { checkTimelineArg } from "../model/timeline.js";
import { checkOptionsObject } from "../model/option-checks.js";
/** The timeline this writer reads (src/machines/sim makes it). */
export type TraceTimeline = Timeline;
const NONE = TIMELINE_NONE;

/** Metadata written into the trace's `otherData`. */
export interface TraceMeta {
  readonly [k: string]: string | number | boolean;
}

/** Characters of trace text gathered into one piece of timelineToChromeTracePieces. */
const PIECE_CHARS = 1 << 20;

/**
 * The timeline as Trace Event Format text: one complete event ("ph": "X") per interval, process 0, times in
 * microseconds as the format expects (rounded to whole ns, so that back-to-back intervals touch and never overlap).
 * A node is thread "node i" (tid i); when its intervals overlap (a send during a receive), the overlapping ones go to
 * further threads "node i (2)", "node i (3)", ... sorted right below it, so that no two events of a thread overlap
 * (a viewer drops such events); every event names its node in `args.node`.
 */
export function timelineToChromeTrace(tl: TraceTimeline, meta: TraceMeta = {}): string {
  checkTimelineArg("trace", "timelineToChromeTrace", tl);
  checkOptionsObject("trace", "meta", meta);
  return [...timelineToChromeTracePieces(tl, meta)].join("");
}

/**
 * timelineToChromeTrace's text in pieces of about a MiB, made as they are taken (a file writer streams a big trace
 * without holding it).
 */
export function* timelineToChromeTracePieces(
  tl: TraceTimeline,
  meta: TraceMeta = {},
): Generator<string, void, undefined> {
  let parts: string[] = [];
  let chars = 0;
  const add = (text: string): void => {
    parts.push(text);
    chars += text.length;
  };
  const lanes = timelineLanes(tl);
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
  // a program replay's sizes are bytes, a schedule's elements
  const sizeKey = tl.sizeUnit === "bytes" ? "bytes" : "size";
  for (let i = 0; i < tl.count; i++) {
    const kind = tl.kindNames[tl.kind[i]!]!;
    const peer = tl.peer[i]!;
    const x = tl.transfer[i]!;
    const name = peer === NONE ? kind : `${kind} ${kind === "recv" ? "from" : "to"} ${peer}`;
    const args = `{"node":${tl.node[i]},"peer":${peer === NONE ? "null" : peer},"${sizeKey}":${tl.size[i]},"transfer":${x === NONE ? "null" : x}}`;
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
