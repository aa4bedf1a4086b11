/** The sweep chart's layout: the time axis's unit and margin, the legend beside the plot, every series told apart. */
import { describe, expect, it } from "vitest";
import { SERIES_COLOURS } from "../../src/compare/compare-format.js";
import { sweepChartSvg } from "../../src/compare/sweep-chart.js";
import type { Crossover, SweepReport } from "../../src/compare/sweep.js";
import { PLANNERS } from "../../src/planner/registry.js";
import { svgTexts, textsOutside, type SvgText } from "../export/svg-text.js";

/** A sweep of the planners over sizes `bytes`, planner k taking `time(bytes, k)` us. */
function sweep(
  algorithms: readonly string[],
  bytes: readonly number[],
  time: (b: number, k: number) => number,
  crossovers: readonly Crossover[] = [],
): SweepReport {
  const points = bytes.map((b, f) => ({
    factor: f + 1,
    meanMessageBytes: b,
    times: algorithms.map((_, k) => time(b, k)),
    bound: time(b, 0) / 2,
    best: algorithms[0]!,
  }));
  return { mode: "blocking", algorithms, points, crossovers };
}

/** A text's estimated box (0.6 em a character), unrotated texts only. */
function box(t: SvgText): { x0: number; x1: number; y0: number; y1: number } {
  const w = 0.6 * t.size * t.text.length;
  const x0 = t.anchor === "start" ? t.x : t.anchor === "middle" ? t.x - w / 2 : t.x - w;
  return { x0, x1: x0 + w, y0: t.y - t.size, y1: t.y };
}
const overlap = (a: SvgText, b: SvgText): boolean => {
  const p = box(a),
    q = box(b);
  return p.x0 < q.x1 && q.x0 < p.x1 && p.y0 < q.y1 && q.y0 < p.y1;
};

/** A colour's CIE L*a*b* (D65). */
function lab(hex: string): [number, number, number] {
  const lin = (k: number): number => {
    const c = parseInt(hex.slice(1 + 2 * k, 3 + 2 * k), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [lin(0), lin(1), lin(2)];
  const f = (v: number): number => (v > 0.008856 ? Math.cbrt(v) : 7.787 * v + 16 / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047),
    y = f(0.2126 * r + 0.7152 * g + 0.0722 * b),
    z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}
const deltaE = (a: string, b: string): number => Math.hypot(...lab(a).map((v, k) => v - lab(b)[k]!));
/** "#000" as "#000000". */
const long = (c: string): string => (c.length === 4 ? `#${[...c.slice(1)].map((d) => d + d).join("")}` : c);

describe("the sweep chart's time axis", () => {
  it("takes the unit of its lowest tick (the Gantt chart's rule) and a left margin its widest label fits", () => {
    // 1 s .. 200 s: labelled 1 .. 1,000 s, not 1,000,000 .. 1,000,000,000 us cut at the left edge
    const svg = sweepChartSvg(
      sweep(["shift", "coloring"], [3e6, 6e6, 5e7], (b, k) => (b * 4) / (k + 1)),
      "t",
    );
    const texts = svgTexts(svg);
    const title = texts.find((t) => t.rotate === -90)!;
    expect(title.text).toBe("simulated time (s, log)");
    const ticks = texts.filter((t) => t.anchor === "end");
    expect(ticks.map((t) => t.text)).toEqual(["1", "10", "100", "1,000"]);
    expect(textsOutside(svg)).toEqual([]);
    // every tick label starts to the right of the rotated title (translated to x = 16, its glyphs reach about x = 19)
    expect(svg).toContain('transform="translate(16 ');
    for (const t of ticks) expect(box(t).x0).toBeGreaterThan(19);
    // a range of 10 us .. 1,000,000,000 us in us: the margin grows with the labels
    const wide = sweepChartSvg(
      sweep(["shift"], [10, 1e9], (b) => b),
      "t",
    );
    const wideTexts = svgTexts(wide);
    const wideTitle = wideTexts.find((t) => t.rotate === -90)!;
    expect(wideTitle.text).toBe("simulated time (us, log)");
    const wideTicks = wideTexts.filter((t) => t.anchor === "end");
    expect(wideTicks.at(-1)!.text).toBe("1,000,000,000");
    for (const t of wideTicks) expect(box(t).x0).toBeGreaterThan(19);
    expect(textsOutside(wide)).toEqual([]);
  });
});

describe("the sweep chart's legend and series", () => {
  const algorithms = PLANNERS.map((p) => p.name);
  const crossovers: Crossover[] = [
    {
      algorithms: ["shift", "rs-n"],
      before: "shift",
      after: "rs-n",
      meanMessageBytes: 300,
      timeUs: 800,
      leaderChange: true,
    },
    {
      algorithms: ["rs-n", "rs-nh"],
      before: "rs-n",
      after: "rs-nh",
      meanMessageBytes: 500,
      timeUs: 900,
      leaderChange: false,
    },
  ];
  const svg = sweepChartSvg(
    sweep(algorithms, [32, 64, 128, 8192], (b, k) => b * (k + 2)),
    "t",
    {},
  );

  it("every planner, the bound and both circles: the legend stays beside the plot, over no tick label", () => {
    expect(algorithms.length).toBeGreaterThanOrEqual(25);
    const withCircles = sweepChartSvg(
      { ...sweep(algorithms, [32, 64, 128, 8192], (b, k) => b * (k + 2)), crossovers },
      "t",
    );
    const texts = svgTexts(withCircles);
    const legendNames = new Set([...algorithms, "lower bound", "two planners cross", "the fastest changes"]);
    const legend = texts.filter((t) => t.anchor === "start" && legendNames.has(t.text) && t.y > 30);
    expect(legend).toHaveLength(algorithms.length + 3);
    const plot = /<rect x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)" fill="none"/.exec(withCircles)!.map(Number);
    for (const t of legend) expect(t.y).toBeLessThanOrEqual(plot[2]! + plot[4]!);
    const ticks = texts.filter((t) => t.anchor !== "start" && t.rotate === 0);
    for (const t of legend) for (const u of ticks) expect(overlap(t, u), `${t.text} / ${u.text}`).toBe(false);
    expect(textsOutside(withCircles)).toEqual([]);
  });

  it("every pair of series differs in dash, or in colour by at least 30 in CIE L*a*b*", () => {
    const styles = [...svg.matchAll(/<polyline [^>]*>/g)].map(([t]) => ({
      colour: long(/stroke="([^"]+)"/.exec(t)![1]!),
      dash: /stroke-dasharray="([^"]+)"/.exec(t)?.[1] ?? "solid",
    }));
    expect(styles).toHaveLength(algorithms.length + 1);
    for (let a = 0; a < styles.length; a++)
      for (let b = a + 1; b < styles.length; b++)
        if (styles[a]!.dash === styles[b]!.dash)
          expect(deltaE(styles[a]!.colour, styles[b]!.colour), `series ${a} and ${b}`).toBeGreaterThanOrEqual(30);
    // the palette itself: every pair apart
    for (let a = 0; a < SERIES_COLOURS.length; a++)
      for (let b = a + 1; b < SERIES_COLOURS.length; b++)
        expect(deltaE(SERIES_COLOURS[a]!, SERIES_COLOURS[b]!)).toBeGreaterThanOrEqual(30);
  });
});
