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

/**
 * The timeline as Trace Event Format text: one complete event ("ph": "X") per interval, process 0,
 * one thread per node (named "node i"), times in microseconds as the format expects.
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
  add(`{"displayTimeUnit":"ns","otherData":${JSON.stringify(meta)},"traceEvents":[\n`);
  add(`{"name":"process_name","ph":"M","pid":0,"tid":0,"args":{"name":"commplan simulated machine"}}`);
  for (let v = 0; v < tl.p; v++) {
    add(`,\n{"name":"thread_name","ph":"M","pid":0,"tid":${v},"args":{"name":"node ${v}"}}`);
    add(`,\n{"name":"thread_sort_index","ph":"M","pid":0,"tid":${v},"args":{"sort_index":${v}}}`);
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
    const args = `{"peer":${peer === NONE ? "null" : peer},"size":${tl.size[i]},"transfer":${x === NONE ? "null" : x}}`;
    add(
      `,\n{"name":"${name}","cat":"${kind}","ph":"X","pid":0,"tid":${tl.node[i]},"ts":${tl.start[i]},"dur":${tl.end[i]! - tl.start[i]!},"args":${args}}`,
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
