/** Chrome trace export: a simulated Timeline as Trace Event Format JSON (opens in Perfetto and chrome://tracing). */
import { TIMELINE_NONE, type Timeline } from "../model/timeline.js";
/** The timeline this writer reads (src/machines/sim makes it). */
export type TraceTimeline = Timeline;
const NONE = TIMELINE_NONE;

/** Metadata written into the trace's `otherData`. */
export interface TraceMeta {
  readonly [k: string]: string | number | boolean;
}

/**
 * The timeline as Trace Event Format text: one complete event ("ph": "X") per interval, process 0,
 * one thread per node (named "node i"), times in microseconds as the format expects.
 */
export function timelineToChromeTrace(tl: TraceTimeline, meta: TraceMeta = {}): string {
  const parts: string[] = [];
  parts.push(`{"displayTimeUnit":"ns","otherData":${JSON.stringify(meta)},"traceEvents":[\n`);
  parts.push(`{"name":"process_name","ph":"M","pid":0,"tid":0,"args":{"name":"commplan simulated machine"}}`);
  for (let v = 0; v < tl.p; v++) {
    parts.push(`,\n{"name":"thread_name","ph":"M","pid":0,"tid":${v},"args":{"name":"node ${v}"}}`);
    parts.push(`,\n{"name":"thread_sort_index","ph":"M","pid":0,"tid":${v},"args":{"sort_index":${v}}}`);
  }
  for (let i = 0; i < tl.count; i++) {
    const kind = tl.kindNames[tl.kind[i]!]!;
    const peer = tl.peer[i]!;
    const x = tl.transfer[i]!;
    const name = peer === NONE ? kind : `${kind} ${kind === "recv" ? "from" : "to"} ${peer}`;
    const args = `{"peer":${peer === NONE ? "null" : peer},"size":${tl.size[i]},"transfer":${x === NONE ? "null" : x}}`;
    parts.push(
      `,\n{"name":"${name}","cat":"${kind}","ph":"X","pid":0,"tid":${tl.node[i]},"ts":${tl.start[i]},"dur":${tl.end[i]! - tl.start[i]!},"args":${args}}`,
    );
  }
  parts.push("\n]}\n");
  return parts.join("");
}
