/** Timeline exports of a simulated run: the Chrome trace and the SVG gantt chart. */
import { describe, expect, it } from "vitest";
import { timelineToSvg } from "../../src/export/svg-gantt.js";
import { timelineToChromeTrace } from "../../src/export/trace-chrome.js";
import { findMachine } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { plan } from "../../src/planner/registry.js";
import { buildMatrix } from "../helpers/arbitraries.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { validateWithSchema } from "../../src/io/json-schema.js";

/** A complete event of the trace. */
interface TraceEvent {
  readonly tid: number;
  readonly ts: number;
  readonly dur: number;
  readonly args: { readonly node: number };
}

describe("timeline exports", () => {
  const m = buildMatrix({ p: 6, kind: "dense", seed: 2, maxEntry: 20 });
  const s = plan(m, "four-stage");
  const r = simulateSchedule(s, findMachine("t3e-004"));
  it("the Chrome trace has one complete event per interval, a named thread per node, and matching times", () => {
    const t = JSON.parse(timelineToChromeTrace(r.timeline, { makespan: r.makespan }));
    const xs = t.traceEvents.filter((e: { ph: string }) => e.ph === "X");
    expect(xs.length).toBe(r.timeline.count);
    const threadNames = t.traceEvents.filter((e: { name: string }) => e.name === "thread_name");
    // node i is thread i; its overlapping intervals go to further threads "node i (2)", ...
    for (let v = 0; v < 6; v++)
      expect(threadNames.find((e: { tid: number }) => e.tid === v).args.name).toBe(`node ${v}`);
    for (let i = 0; i < r.timeline.count; i++) {
      expect(xs[i].args.node).toBe(r.timeline.node[i]);
      expect(Math.abs(xs[i].ts - r.timeline.start[i]!)).toBeLessThanOrEqual(0.0005);
      expect(Math.abs(xs[i].ts + xs[i].dur - r.timeline.end[i]!)).toBeLessThanOrEqual(0.001);
    }
    // every interval lies inside the run
    for (let i = 0; i < r.timeline.count; i++) expect(r.timeline.end[i]!).toBeLessThanOrEqual(r.makespan * (1 + 1e-12));
  });
  it("no two events of one trace thread overlap, though a node sends while it receives (viewers drop such events)", () => {
    // two-stage on pattern1, P = 16: a node's sends, receives and waits overlap in time
    const m16 = generatePattern("pattern1", 16, {}, 1);
    const r16 = simulateSchedule(plan(m16, "two-stage"), findMachine("t3d-004"));
    const t = JSON.parse(timelineToChromeTrace(r16.timeline));
    const xs: TraceEvent[] = t.traceEvents.filter((e: { ph: string }) => e.ph === "X");
    expect(xs.length).toBe(r16.timeline.count);
    const threads = new Map<number, TraceEvent[]>();
    for (const e of xs) threads.set(e.tid, [...(threads.get(e.tid) ?? []), e]);
    let overlaps = 0;
    for (const events of threads.values()) {
      // as a viewer reads them: whole ns, llround(ts * 1000)
      const ns = events.map((e) => [Math.round(e.ts * 1000), Math.round(e.ts * 1000) + Math.round(e.dur * 1000)]);
      ns.sort((a, b) => a[0]! - b[0]!);
      for (let k = 1; k < ns.length; k++) if (ns[k]![0]! < ns[k - 1]![1]!) overlaps++;
      // one node per thread
      expect(new Set(events.map((e) => e.args.node)).size).toBe(1);
    }
    expect(overlaps).toBe(0);
    // the node's further threads exist, are named after it and sorted right below it
    const names = new Map<number, string>();
    const sortIndex = new Map<number, number>();
    for (const e of t.traceEvents) {
      if (e.name === "thread_name") names.set(e.tid, e.args.name);
      if (e.name === "thread_sort_index") sortIndex.set(e.tid, e.args.sort_index);
    }
    expect(names.size).toBeGreaterThan(16);
    for (const e of xs) expect(names.get(e.tid)).toMatch(new RegExp(`^node ${e.args.node}( \\(\\d+\\))?$`));
    const byOrder = [...sortIndex.entries()].sort((a, b) => a[1] - b[1]).map(([tid]) => names.get(tid)!);
    const nodeOf = (n: string): number => Number(/^node (\d+)/.exec(n)![1]);
    for (let k = 1; k < byOrder.length; k++)
      expect(nodeOf(byOrder[k]!)).toBeGreaterThanOrEqual(nodeOf(byOrder[k - 1]!));
    validateWithSchema("chrome-trace", t, "test");
  });
  it("the SVG has one bar per interval plus the legend", () => {
    const svg = timelineToSvg(r.timeline, r.makespan);
    const bars = svg.match(/<rect [^>]*><title>/g) ?? [];
    expect(bars.length).toBe(r.timeline.count);
    expect(svg).toContain("</svg>");
  });
});
