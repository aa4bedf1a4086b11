/** The Gantt and link-load charts as a person reads them: round ticks with a unit, labels inside the canvas. */
import { describe, expect, it } from "vitest";
import { timelineToSvg } from "../../src/export/svg-gantt.js";
import { linkLoadSvg, type LinkLoadEntry } from "../../src/export/svg-link-load.js";
import { TIMELINE_NONE, type Timeline } from "../../src/model/timeline.js";
import { findMachine } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { plan } from "../../src/planner/registry.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { buildMatrix } from "../helpers/arbitraries.js";
import { svgTexts, textsOutside } from "./svg-text.js";
import { timelineOf, type Interval } from "./timeline-fixture.js";

const KINDS = ["send", "recv", "copy", "compose", "wait"];

/** A timeline of `p` nodes, each sending then receiving over [0, makespan]. */
function timeline(p: number, makespan: number, kinds: readonly number[] = [0, 1]): Timeline {
  const intervals: Interval[] = [];
  for (let v = 0; v < p; v++)
    kinds.forEach((k, j) => intervals.push([v, k, (makespan * j) / kinds.length, (makespan * (j + 1)) / kinds.length]));
  return timelineOf(p, KINDS, intervals);
}

/** The time axis's tick labels: the texts on the axis line below the rows. */
function tickLabels(svg: string): string[] {
  const texts = svgTexts(svg);
  const title = texts.find((t) => /^time \(/.test(t.text));
  if (!title) return [];
  return texts.filter((t) => t.y === title.y - 14).map((t) => t.text);
}

describe("timelineToSvg: the time axis", () => {
  const cases: [number, string][] = [
    [7.3, "us"],
    [873.2, "us"],
    [2299.4, "ms"],
    [7072.2, "ms"],
    [10_000, "ms"],
    [45_987, "ms"],
    [1_000_000, "s"],
    [2.299e7, "s"],
  ];
  for (const [makespan, unit] of cases)
    it(`makespan ${makespan} us: round ticks in ${unit}, titled, no e-notation, every label in the canvas`, () => {
      const svg = timelineToSvg(timeline(4, makespan), makespan);
      expect(svg).toContain(`>time (${unit})</text>`);
      const ticks = tickLabels(svg);
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      expect(ticks[0]).toMatch(/^0(\.0+)?$/);
      const values = ticks.map((l) => Number(l.replace(/,/g, "")));
      for (const l of ticks) expect(l).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)?$/);
      // steps of 1, 2 or 5 x 10^k
      const steps = values.slice(1).map((v, k) => v - values[k]!);
      const step = Math.min(...steps);
      const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
      expect([1, 2, 5].some((f) => Math.abs(mantissa - f) < 1e-6)).toBe(true);
      for (const d of steps) expect(Math.abs(d / step - Math.round(d / step))).toBeLessThan(1e-6);
      for (const t of svgTexts(svg)) expect(t.text).not.toMatch(/\de[+-]?\d/);
      expect(svg).not.toMatch(/e\+/);
      expect(textsOutside(svg)).toEqual([]);
    });

  it("keeps the last label inside a narrow chart", () => {
    for (const makespan of [2299, 9999, 123_456, 999_999])
      for (const width of [200, 333, 640]) {
        const svg = timelineToSvg(timeline(3, makespan), makespan, { width });
        expect(textsOutside(svg), `${makespan} us, width ${width}`).toEqual([]);
      }
  });
});

describe("timelineToSvg: the legend", () => {
  it("lists only the kinds the timeline has", () => {
    const svg = timelineToSvg(timeline(3, 100, [0, 3]), 100);
    const texts = svgTexts(svg).map((t) => t.text);
    expect(texts).toContain("send");
    expect(texts).toContain("compose");
    for (const absent of ["recv", "copy", "wait"]) expect(texts).not.toContain(absent);
  });

  it("a simulated run's legend is a subset of the kinds of its intervals, and every text is in the canvas", () => {
    const m = buildMatrix({ p: 6, kind: "dense", seed: 2, maxEntry: 20 });
    const r = simulateSchedule(plan(m, "four-stage"), findMachine("t3e-004"));
    const svg = timelineToSvg(r.timeline, r.makespan);
    const present = new Set<string>();
    for (let i = 0; i < r.timeline.count; i++) present.add(r.timeline.kindNames[r.timeline.kind[i]!]!);
    const legend = svgTexts(svg)
      .map((t) => t.text)
      .filter((t) => r.timeline.kindNames.includes(t));
    expect(legend.length).toBe(present.size);
    for (const k of legend) expect(present.has(k)).toBe(true);
    expect(textsOutside(svg)).toEqual([]);
  });
});

describe("timelineToSvg: overlapping intervals", () => {
  it("draws a node's overlapping intervals in lanes of its row, so that no bar covers another", () => {
    // node 0 sends over [0, 60] while it receives over [20, 100]; node 1 only sends
    const t = timeline(2, 100, [0]);
    const tl: Timeline = {
      ...t,
      count: 3,
      node: Uint32Array.of(0, 0, 1),
      kind: Uint32Array.of(0, 1, 0),
      start: Float64Array.of(0, 20, 0),
      end: Float64Array.of(60, 100, 100),
      peer: new Uint32Array(3).fill(TIMELINE_NONE),
      size: new Float64Array(3).fill(1),
      transfer: new Uint32Array(3).fill(TIMELINE_NONE),
    };
    const svg = timelineToSvg(tl, 100, { rowHeight: 14 });
    const bars = [
      ...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"[^>]*><title>node (\d)/g),
    ].map((m) => ({ x: +m[1]!, y: +m[2]!, w: +m[3]!, h: +m[4]!, node: +m[5]! }));
    expect(bars).toHaveLength(3);
    const [send, recv, other] = bars as [(typeof bars)[0], (typeof bars)[0], (typeof bars)[0]];
    // they overlap in time, so they must not in height: each is half of node 0's row, inside it
    expect(send.x + send.w).toBeGreaterThan(recv.x);
    expect(send.y + send.h <= recv.y || recv.y + recv.h <= send.y).toBe(true);
    for (const b of [send, recv]) {
      expect(b.h).toBeGreaterThanOrEqual(6);
      expect(b.y).toBeGreaterThanOrEqual(other.y - 14);
      expect(b.y + b.h).toBeLessThanOrEqual(other.y - 1);
    }
    // a node without overlaps keeps its full row
    expect(other.h).toBe(12);
  });

  it("grows the row of a node with many lanes, so that each lane stays at least 5 px high", () => {
    // node 0: four intervals over one another (a nonblocking run's send, recv, cpu and dma); node 1: one
    const t = timeline(2, 100, [0]);
    const tl: Timeline = {
      ...t,
      count: 5,
      node: Uint32Array.of(0, 0, 0, 0, 1),
      kind: Uint32Array.of(0, 1, 2, 3, 0),
      start: Float64Array.of(0, 10, 20, 30, 0),
      end: Float64Array.of(90, 90, 90, 90, 100),
      peer: new Uint32Array(5).fill(TIMELINE_NONE),
      size: new Float64Array(5).fill(1),
      transfer: new Uint32Array(5).fill(TIMELINE_NONE),
    };
    const svg = timelineToSvg(tl, 100);
    const bars = [
      ...svg.matchAll(/<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"[^>]*><title>node (\d)/g),
    ].map((m) => ({ y: +m[1]!, h: +m[2]!, node: +m[3]! }));
    const node0 = bars.filter((b) => b.node === 0);
    expect(node0).toHaveLength(4);
    for (const b of node0) expect(b.h).toBeGreaterThanOrEqual(5);
    const bottom0 = Math.max(...node0.map((b) => b.y + b.h));
    const node1 = bars.find((b) => b.node === 1)!;
    expect(node1.y).toBeGreaterThanOrEqual(bottom0);
    expect(node1.h).toBe(12);
    // the node's label sits in its (taller) row
    const label0 = svgTexts(svg).find((x) => x.text === "0" && x.anchor === "end")!;
    expect(label0.y).toBeGreaterThan(Math.min(...node0.map((b) => b.y)));
    expect(label0.y).toBeLessThanOrEqual(bottom0);
    expect(textsOutside(svg)).toEqual([]);
  });

  it("a simulated run has no two bars of one node that cover each other", () => {
    const r = simulateSchedule(plan(generatePattern("pattern1", 16, {}, 1), "two-stage"), findMachine("t3d-004"));
    const svg = timelineToSvg(r.timeline, r.makespan);
    const bars = [
      ...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"[^>]*><title>/g),
    ].map((m) => [+m[1]!, +m[2]!, +m[1]! + +m[3]!, +m[2]! + +m[4]!] as const);
    let covered = 0;
    for (let a = 0; a < bars.length; a++)
      for (let b = a + 1; b < bars.length; b++) {
        const [ax0, ay0, ax1, ay1] = bars[a]!,
          [bx0, by0, bx1, by1] = bars[b]!;
        // more than a pixel's rounding in both directions
        if (Math.min(ax1, bx1) - Math.max(ax0, bx0) > 0.6 && Math.min(ay1, by1) - Math.max(ay0, by0) > 0.01) covered++;
      }
    expect(covered).toBe(0);
  });
});

/** A two-level tree: hosts h0..h(n-1) under switches s0, s1, with switch s2 that no link of the run uses. */
function treeLinks(n: number): LinkLoadEntry[] {
  const names = [...Array.from({ length: n }, (_, i) => `h${i}`), "s0", "s1", "s2"];
  const id = (x: string): number => names.indexOf(x);
  const links: LinkLoadEntry[] = [];
  const add = (a: string, b: string, load: number): void => {
    links.push({ label: `${a}->${b}`, load, row: id(a), col: id(b), rowLabel: a, colLabel: b });
  };
  for (let i = 0; i < n; i++) {
    const sw = i < n / 2 ? "s0" : "s1";
    add(`h${i}`, sw, 0.02 + 0.001 * i);
    add(sw, `h${i}`, 0.03);
  }
  add("s0", "s1", 0.117);
  add("s1", "s0", 0.09);
  add("s0", "s2", 0);
  add("s2", "s0", 0);
  return links;
}

describe("linkLoadSvg: the heat map", () => {
  const svg = linkLoadSvg(treeLinks(8), { title: "link load" });
  const texts = svgTexts(svg).map((t) => t.text);

  it("labels its rows and columns with the nodes' names, and titles the axes", () => {
    for (const name of ["h0", "h7", "s0", "s1"]) expect(texts.filter((t) => t === name)).toHaveLength(2);
    expect(texts).toContain("from");
    expect(texts).toContain("to");
  });

  it("draws only links that carried traffic: the unused switch is absent", () => {
    expect(texts).not.toContain("s2");
    expect(svg).not.toContain("s0-&gt;s2");
    expect(svg).not.toContain("s2-&gt;s0");
    expect(svg.match(/<rect [^>]*><title>/g)).toHaveLength(18);
  });

  it("scales the colour to the busiest link and shows the scale with its maximum", () => {
    // the busiest link (11.7 %) is the darkest colour, not near white
    expect(svg).toMatch(/fill="rgb\(175,0,0\)"[^>]*><title>s0-&gt;s1: busy 11\.7 %<\/title>/);
    expect(texts).toContain("0 % .. 11.7 % busy (the busiest link)");
  });

  it("lists the busiest links with their loads in the picture", () => {
    expect(texts).toContain("busiest links");
    expect(texts.some((t) => t.startsWith("1. s0->s1") && t.endsWith("11.7 %"))).toBe(true);
    expect(texts.some((t) => t.startsWith("2. s1->s0") && t.endsWith("9.0 %"))).toBe(true);
  });

  it("makes cells large enough to see, and keeps every text in the canvas", () => {
    const cell = Number(/<rect [^>]*width="(\d+)"[^>]*><title>/.exec(svg)?.[1]);
    expect(cell).toBeGreaterThanOrEqual(10);
    expect(textsOutside(svg)).toEqual([]);
  });

  it("labels every row and column of a large grid and numbers the listed links on their cells", () => {
    // 92 busy nodes: the busiest links after s0->s1 are h89->s1, h88->s1, ... on adjacent rows
    const big = linkLoadSvg(treeLinks(90));
    const bigTexts = svgTexts(big);
    const rowLabels = bigTexts.filter((t) => t.rotate === 0 && t.anchor === "end" && /^(h\d+|s\d)$/.test(t.text));
    const colLabels = bigTexts.filter((t) => t.rotate === -90 && /^(h\d+|s\d)$/.test(t.text));
    expect(rowLabels.map((t) => t.text).sort()).toEqual(
      [...Array.from({ length: 90 }, (_, i) => `h${i}`), "s0", "s1"].sort(),
    );
    expect(colLabels).toHaveLength(92);
    // labels a line of text apart, so that none covers its neighbour
    const ys = rowLabels.map((t) => t.y).sort((a, b) => a - b);
    for (let k = 1; k < ys.length; k++) expect(ys[k]! - ys[k - 1]!).toBeGreaterThanOrEqual(10);
    // the ten listed links are numbered 1..10 on their cells (a number needs a cell of 14 px)
    const numbers = bigTexts.filter((t) => /^\d+$/.test(t.text) && t.size === 9).map((t) => Number(t.text));
    expect(numbers.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(textsOutside(big)).toEqual([]);
  });

  it("draws a grid too large to read as the bar chart of the busiest links", () => {
    const huge = linkLoadSvg(treeLinks(300));
    expect(huge).toContain("the 32 busiest of 604 links");
    // h299 -> s1 is the busiest here: 2 % + 299 x 0.1 %
    expect(svgTexts(huge).some((t) => t.text === "0 % .. 31.9 % busy (the busiest link)")).toBe(true);
    expect(textsOutside(huge)).toEqual([]);
  });

  it("says so when no link carried traffic", () => {
    const none = linkLoadSvg([{ label: "a->b", load: 0, row: 0, col: 1 }], { title: "t" });
    expect(svgTexts(none).map((t) => t.text)).toEqual(["t: none of the 1 links carried traffic"]);
    expect(textsOutside(none)).toEqual([]);
  });
});

describe("linkLoadSvg: a lightly loaded network", () => {
  it("prints a tiny load with its digits, not as 0.0 % beside a dark red cell", () => {
    // shift, P = 4, one element per message on nvlink4-h100: every link busy 0.0003419 % of the run
    const links: LinkLoadEntry[] = [
      { label: "h0->sw", load: 3.419e-6, row: 0, col: 1, rowLabel: "h0", colLabel: "sw" },
      { label: "sw->h0", load: 3.2e-6, row: 1, col: 0, rowLabel: "sw", colLabel: "h0" },
    ];
    for (const svg of [linkLoadSvg(links), linkLoadSvg(links.map(({ label, load }) => ({ label, load })))]) {
      const texts = svgTexts(svg).map((t) => t.text);
      expect(texts.join("\n")).not.toMatch(/(^|[^\d.])0\.0 %/);
      expect(texts).toContain("0 % .. 0.00034 % busy (the busiest link)");
      expect(svg).toContain("h0-&gt;sw: busy 0.00034 %");
    }
    // a load from 0.1 % keeps one decimal
    expect(linkLoadSvg([{ label: "a", load: 0.000996 }])).toContain("busy 0.1 %");
  });
});

describe("linkLoadSvg: the bar chart", () => {
  it("keeps long labels and the scale inside the canvas", () => {
    const links = Array.from({ length: 12 }, (_, i) => ({
      label: `a-very-long-switch-name-${i}->host${i}`,
      load: i / 100,
    }));
    const svg = linkLoadSvg(links, { width: 300 });
    expect(svgTexts(svg).some((t) => t.text === "0 % .. 11.0 % busy (the busiest link)")).toBe(true);
    expect(svg).not.toContain("host0<");
    expect(textsOutside(svg)).toEqual([]);
  });
});
