/** show --svg past 64 senders or steps: the compact grid (colours by the receiver's distance, not numbers). */
import { describe, expect, it } from "vitest";
import {
  GRID_NUMBERS_MAX,
  stepGrid,
  stepGridSvg,
  stepGridText,
  type GridCell,
  type StepGrid,
} from "../../src/export/step-grid.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { plan } from "../../src/planner/registry.js";
import { svgTexts, textsOutside, viewBox } from "./svg-text.js";

/** The cells a compact SVG paints (rects' and paths' widths over the column width), and its tooltips. */
function painted(svg: string, colW: number, rowH = colW): { cells: number; tips: string[] } {
  let cells = 0;
  for (const m of svg.matchAll(/<rect x="\d+" y="(\d+)" width="(\d+)" height="(\d+)" fill="(?:hsl|#000000|#8c8c8c)/g))
    if (Number(m[3]) === rowH) cells += Number(m[2]) / colW;
  for (const m of svg.matchAll(/h(\d+)v\d+h-\d+z/g)) cells += Number(m[1]) / colW;
  return { cells, tips: [...svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]!) };
}

describe("the compact step grid", () => {
  it("a grid of up to 64 senders and steps keeps its numbers", () => {
    const s = plan(generatePattern("uniform", GRID_NUMBERS_MAX, {}, 1), "shift");
    const svg = stepGridSvg(stepGrid(s, 0));
    expect(svg).toContain(">63</text>");
    expect(svg).not.toContain("mod P");
  });

  it("a shift at P = 256: one run per step, each step one distance, with a tooltip naming it", () => {
    const s = plan(generatePattern("uniform", 256, {}, 1), "shift");
    const g = stepGrid(s, 0);
    const svg = stepGridSvg(g);
    expect(svg.length).toBeLessThan(100_000);
    const width = Number(/width="(\d+)"/.exec(svg)![1]);
    expect(width).toBeLessThanOrEqual(1100);
    const { cells, tips } = painted(svg, 4);
    expect(cells).toBe(256 * 255);
    expect(tips).toHaveLength(255);
    // step k sends every node to the node k further on (shift's rule)
    tips.forEach((t, k) => expect(t).toBe(`step ${k + 1}, senders 0..255: send to sender + ${k + 1} (mod P)`));
    // near distances are red, far ones magenta: the first and last steps differ in colour
    const fills = [...svg.matchAll(/height="4" fill="(hsl[^"]+)"/g)].map((m) => m[1]);
    expect(fills[0]).toBe("hsl(0,70%,48%)");
    expect(fills[254]).toBe("hsl(300,70%,48%)");
  });

  it("a dense coloring at P = 256: every busy cell painted once, as one path per colour past 4,096 runs", () => {
    const m = generatePattern("random", 256, { density: 0.5 }, 1);
    const g = stepGrid(plan(m, "coloring"), 0);
    let busy = 0;
    for (const r of g.rows) for (const c of r) if (c !== null) busy++;
    const svg = stepGridSvg(g);
    expect(svg.length).toBeLessThan(1_500_000);
    // columns and rows sized apart: 1024 px across the senders, and down the steps
    const colW = Math.max(2, Math.min(8, Math.floor(1024 / g.senders.length)));
    const rowH = Math.max(2, Math.min(8, Math.floor(1024 / g.rows.length)));
    const { cells, tips } = painted(svg, colW, rowH);
    expect(cells).toBe(busy);
    expect(tips).toEqual([]);
    expect((svg.match(/<path /g) ?? []).length).toBeLessThanOrEqual(64);
  });

  it("stalls are black, a send to itself mid grey, apart from every hue of the scale; each has a swatch", () => {
    const senders = Array.from({ length: 70 }, (_, u) => u);
    const rows: GridCell[][] = [
      senders.map((u) => (u + 1) % 70),
      senders.map((u) => (u === 5 ? "X" : null)),
      senders.map((u) => (u === 7 ? 7 : u === 9 ? 8 : null)),
    ];
    const svg = stepGridSvg({ stage: 0, stageName: "hand", firstStep: 0, senders, rows });
    expect(svg).toContain("P = 70");
    const { cells, tips } = painted(svg, 8);
    expect(cells).toBe(73);
    expect(tips).toEqual([
      "step 1, senders 0..69: send to sender + 1 (mod P)",
      "step 2, sender 5: stall",
      "step 3, sender 7: send to itself",
      "step 3, sender 9: send to sender + 69 (mod P)",
    ]);
    const fillOf = (tip: string): string => new RegExp(`fill="([^"]+)"><title>${tip}`).exec(svg)![1]!;
    const stall = fillOf("step 2, sender 5: stall"),
      self = fillOf("step 3, sender 7: send to itself"),
      next = fillOf("step 1, senders 0..69"),
      before = fillOf("step 3, sender 9");
    expect(new Set([stall, self, next, before]).size).toBe(4);
    // the scale's hues: none is the stall's or the self-send's colour
    const hues = [...svg.matchAll(/height="10" fill="(hsl[^"]+)"/g)].map((m) => m[1]!);
    expect(hues).toHaveLength(64);
    expect(hues).toContain(next);
    expect(hues).toContain(before);
    expect(hues).not.toContain(stall);
    expect(hues).not.toContain(self);
    // the swatches under the scale name the three colours off it, and idle
    for (const [fill, label] of [
      [self, "0: to itself"],
      [stall, "stall"],
      ["#f2f2f2", "idle"],
    ] as const) {
      expect(svg).toMatch(
        new RegExp(`fill="${fill}" stroke="#999"/>\n<text [^>]*>${label.replace(/[()]/g, "\\$&")}</text>`),
      );
    }
    expect(textsOutside(svg)).toEqual([]);
    // a matrix of one message: the grid of its only step
    const one = stepGridSvg(
      stepGrid(
        plan(
          matrixFromRows([
            [0, 1],
            [0, 0],
          ]),
          "shift",
        ),
        0,
      ),
    );
    expect(one).not.toContain("mod P");
  });
});

describe("the compact step grid's layout, and the text grid", () => {
  it("few senders and many steps: readable columns, every sender labelled, the steps binned to a bounded height", () => {
    const s = plan(generatePattern("pattern1", 8, {}, 1), "split-coloring", { params: { chunk: 4 } });
    const g = stepGrid(s, 0);
    expect(g.rows.length).toBeGreaterThan(512);
    const svg = stepGridSvg(g);
    const texts = svgTexts(svg);
    for (let u = 0; u < 8; u++) expect(texts.filter((t) => t.y === 56).map((t) => t.text)).toContain(String(u));
    const plot = /<rect x="56" y="64" width="(\d+)" height="(\d+)" fill="#f2f2f2"\/>/.exec(svg)!;
    expect(Number(plot[1]) / 8).toBeGreaterThanOrEqual(16);
    expect(Number(plot[2])).toBeLessThanOrEqual(1024);
    expect(texts[0]!.text).toContain("a row per 2 steps, its commonest busy cell");
    expect(textsOutside(svg)).toEqual([]);
    // 24,001 steps of 4 senders: about 1,000 px high, not 48,000
    const long = Array.from({ length: 24_001 }, (_, k): GridCell[] => [1, k % 2 ? 2 : null, 3, k < 12_000 ? 3 : "X"]);
    const big = stepGridSvg({ stage: 0, stageName: "long", firstStep: 0, senders: [0, 1, 2, 3], rows: long });
    expect(viewBox(big).height).toBeLessThanOrEqual(1200);
    expect(svgTexts(big)[0]!.text).toContain("a row per 47 steps");
    const tips = [...big.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]!);
    expect(tips[0]).toBe("steps 1-47 (mostly), senders 0..2: send to sender + 1 (mod P)");
    expect(tips[1]).toBe("steps 1-47 (mostly), sender 3: send to itself");
    expect(tips.at(-1)).toBe("steps 23971-24001 (mostly), sender 3: stall");
    expect(textsOutside(big)).toEqual([]);
  });

  it("the text grid keeps its columns past step 9,999; the numeric SVG explains its grey idle cells", () => {
    const rows = Array.from({ length: 10_001 }, (): GridCell[] => [1, null]);
    const g: StepGrid = { stage: 0, stageName: "long", firstStep: 0, senders: [0, 1], rows };
    const lines = stepGridText(g).trimEnd().split("\n").slice(1);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines.at(-1)).toBe("10001   1   .");
    const small = stepGridSvg({ ...g, rows: rows.slice(0, 3) });
    expect(svgTexts(small)[0]!.text).toContain("grey = idle");
    expect(textsOutside(small)).toEqual([]);
  });
});
