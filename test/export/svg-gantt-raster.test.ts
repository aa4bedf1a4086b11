/** The Gantt chart of many nodes: the raster view (a thin row per node, each cell its dominant kind). */
import { describe, expect, it } from "vitest";
import { timelineRaster } from "../../src/export/gantt-raster.js";
import { drawsRaster, MAX_LANE_ROWS, MAX_SVG_INTERVALS, timelineToSvg } from "../../src/export/svg-gantt.js";
import { findMachine } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import type { Timeline } from "../../src/model/timeline.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { plan } from "../../src/planner/registry.js";
import { svgTexts, textsOutside, viewBox } from "./svg-text.js";
import { timelineOf as timelineFrom, type Interval } from "./timeline-fixture.js";

const KINDS = ["send", "recv", "copy", "compose", "wait"];

/** A timeline of `p` nodes from intervals [node, kind, start, end]. */
const timelineOf = (p: number, intervals: readonly Interval[]): Timeline => timelineFrom(p, KINDS, intervals);

/** Every node sends over [0, 50) and receives over [50, 100). */
const sendThenRecv = (p: number): Timeline =>
  timelineOf(
    p,
    Array.from({ length: p }, (_, v): Interval[] => [
      [v, 0, 0, 50],
      [v, 1, 50, 100],
    ]).flat(),
  );

/** The rects of an SVG that carry a tooltip: their y, height and tooltip. */
const bars = (svg: string): { y: number; h: number; tip: string }[] =>
  [...svg.matchAll(/<rect [^>]*y="([\d.]+)"[^>]*height="([\d.]+)"[^>]*><title>([^<]*)<\/title>/g)].map((m) => ({
    y: Number(m[1]),
    h: Number(m[2]),
    tip: m[3]!,
  }));

describe("timelineRaster", () => {
  it("gives each cell the kind that fills most of it, as runs of equal cells", () => {
    const r = timelineRaster(sendThenRecv(3), 100, 10);
    expect(r.nodesPerRow).toBe(1);
    expect(r.rows).toBe(3);
    expect(r.runs).toEqual(
      [0, 1, 2].flatMap((row) => [
        { row, kind: 0, from: 0, to: 5 },
        { row, kind: 1, from: 5, to: 10 },
      ]),
    );
  });

  it("leaves a cell blank when its intervals fill less than half of it, and takes the larger share otherwise", () => {
    // cell [0, 10): send 4 us (blank); cell [10, 20): send 3, wait 6 (wait); cell [20, 30): copy 10
    const tl = timelineOf(1, [
      [0, 0, 0, 4],
      [0, 0, 10, 13],
      [0, 4, 13, 19],
      [0, 2, 20, 30],
    ]);
    expect(timelineRaster(tl, 30, 3).runs).toEqual([
      { row: 0, kind: 4, from: 1, to: 2 },
      { row: 0, kind: 2, from: 2, to: 3 },
    ]);
  });

  it("puts consecutive nodes in one row past 1,024 nodes, the share taken over the row's nodes", () => {
    // 2,048 nodes: rows of two; in row 0 only node 0 sends (half of the row's time: shown), in row 1 node 3 sends
    // for 40 % of the time (a fifth of the row's: blank)
    const tl = timelineOf(2048, [
      [0, 0, 0, 100],
      [3, 0, 0, 40],
    ]);
    const r = timelineRaster(tl, 100, 1);
    expect(r.nodesPerRow).toBe(2);
    expect(r.rows).toBe(1024);
    expect(r.runs).toEqual([{ row: 0, kind: 0, from: 0, to: 1 }]);
  });
});

describe("timelineToSvg: the raster view past MAX_LANE_ROWS nodes", () => {
  it(`draws a row per node up to ${MAX_LANE_ROWS} nodes and the raster beyond`, () => {
    const lanes = timelineToSvg(sendThenRecv(MAX_LANE_ROWS), 100);
    expect(svgTexts(lanes).map((t) => t.text)).toContain(String(MAX_LANE_ROWS - 1));
    expect(bars(lanes)).toHaveLength(2 * MAX_LANE_ROWS);
    expect(lanes).not.toContain("each cell shows");
    const raster = timelineToSvg(sendThenRecv(MAX_LANE_ROWS + 1), 100);
    expect(raster).toContain(`${MAX_LANE_ROWS + 1} nodes, a row per node; each cell shows the kind`);
  });

  it("fits a 1,024-node run in about 1,000 pixels with its axis, legend and labels inside the canvas", () => {
    const svg = timelineToSvg(sendThenRecv(1024), 100);
    const { height } = viewBox(svg);
    expect(height).toBeLessThan(1200);
    const lanesHeight = viewBox(timelineToSvg(sendThenRecv(1024), 100, { view: "lanes" })).height;
    expect(lanesHeight).toBeGreaterThan(14_000);
    const texts = svgTexts(svg).map((t) => t.text);
    for (const t of ["time (us)", "send", "recv", "node", "0", "1000"]) expect(texts).toContain(t);
    expect(textsOutside(svg)).toEqual([]);
    // a run per node and kind, a pixel high, each with its tooltip
    const b = bars(svg);
    expect(b).toHaveLength(2048);
    expect(b.every((x) => x.h === 1)).toBe(true);
    // 557 columns of 100 / 557 us: the column holding 50 us is half send, half recv, and shows the first, send
    expect(b.map((x) => x.tip)).toContain("node 1023 mostly send 0..50.0898 us");
    expect(b.map((x) => x.tip)).toContain("node 1023 mostly recv 50.0898..100 us");
    expect(new Set(b.map((x) => x.y)).size).toBe(1024);
  });

  it("names the groups of nodes its rows stand for past 1,024 nodes", () => {
    const svg = timelineToSvg(sendThenRecv(2048), 100);
    expect(svg).toContain("2,048 nodes, a row per 2 nodes;");
    expect(bars(svg).map((x) => x.tip)).toContain("nodes 2046-2047 mostly send 0..50.0898 us");
    expect(textsOutside(svg)).toEqual([]);
  });

  it("keeps every text inside a narrow canvas", () => {
    for (const width of [200, 333, 640])
      expect(textsOutside(timelineToSvg(sendThenRecv(300), 1234, { width }))).toEqual([]);
  });

  it("draws a simulated run of 256 nodes as the raster, every kind it shows present in the run", () => {
    const m = generatePattern("halo", 256, {}, 1);
    const r = simulateSchedule(plan(m, "coloring"), findMachine("ib-hdr-200"), { timeline: true });
    const svg = timelineToSvg(r.timeline, r.makespan);
    expect(svg).toContain("256 nodes, a row per node");
    const shown = new Set(bars(svg).map((x) => /mostly (\w+)/.exec(x.tip)![1]!));
    const present = new Set(Array.from(r.timeline.kind, (k) => r.timeline.kindNames[k]!));
    expect(shown.size).toBeGreaterThan(1);
    for (const k of shown) expect(present.has(k)).toBe(true);
    expect(viewBox(svg).height).toBeLessThan(1200);
    expect(textsOutside(svg)).toEqual([]);
  });

  it("draws a timeline of more intervals than the lane view draws, in at most MAX_SVG_INTERVALS runs", () => {
    // 200 nodes, each alternating send and recv every 0.01 us over 0..12 us: 240,000 intervals, a kind change in
    // every 2-px column, so the columns widen until the runs fit
    const intervals: Interval[] = [];
    for (let v = 0; v < 200; v++) for (let q = 0; q < 1200; q++) intervals.push([v, q & 1, q * 0.01, (q + 1) * 0.01]);
    const tl = timelineOf(200, intervals);
    expect(tl.count).toBeGreaterThan(MAX_SVG_INTERVALS);
    expect(() => timelineToSvg(tl, 12, { view: "lanes" })).toThrow(/draws at most 200000/);
    expect(drawsRaster(200)).toBe(true);
    const svg = timelineToSvg(tl, 12);
    const runs = bars(svg).length;
    expect(runs).toBeGreaterThan(0);
    expect(runs).toBeLessThanOrEqual(MAX_SVG_INTERVALS);
    expect(textsOutside(svg)).toEqual([]);
  });

  it("refuses a view it does not know, naming the option", () => {
    expect(() => timelineToSvg(sendThenRecv(2), 100, { view: "dense" as never })).toThrow(
      /view must be auto, lanes or raster/,
    );
  });
});
