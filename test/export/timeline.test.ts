/** Timeline exports of a simulated run: the Chrome trace and the SVG gantt chart. */
import { describe, expect, it } from "vitest";
import { timelineToSvg } from "../../src/export/svg-gantt.js";
import { timelineToChromeTrace } from "../../src/export/trace-chrome.js";
import { findMachine } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { plan } from "../../src/planner/registry.js";
import { buildMatrix } from "../helpers/arbitraries.js";

describe("timeline exports", () => {
  const m = buildMatrix({ p: 6, kind: "dense", seed: 2, maxEntry: 20 });
  const s = plan(m, "four-stage");
  const r = simulateSchedule(s, findMachine("t3e-004"));
  it("the Chrome trace has one complete event per interval, a named thread per node, and matching times", () => {
    const t = JSON.parse(timelineToChromeTrace(r.timeline, { makespan: r.makespan }));
    const xs = t.traceEvents.filter((e: { ph: string }) => e.ph === "X");
    expect(xs.length).toBe(r.timeline.count);
    expect(t.traceEvents.filter((e: { name: string }) => e.name === "thread_name").length).toBe(6);
    for (let i = 0; i < r.timeline.count; i++) {
      expect(xs[i].tid).toBe(r.timeline.node[i]);
      expect(xs[i].ts).toBe(r.timeline.start[i]);
      expect(xs[i].ts + xs[i].dur).toBeCloseTo(r.timeline.end[i]!, 9);
    }
    // every interval lies inside the run
    for (let i = 0; i < r.timeline.count; i++) expect(r.timeline.end[i]!).toBeLessThanOrEqual(r.makespan * (1 + 1e-12));
  });
  it("the SVG has one bar per interval plus the legend", () => {
    const svg = timelineToSvg(r.timeline, r.makespan);
    const bars = svg.match(/<rect [^>]*><title>/g) ?? [];
    expect(bars.length).toBe(r.timeline.count);
    expect(svg).toContain("</svg>");
  });
});
