/** show --svg past 64 senders or steps: the compact grid (colours by the receiver's distance, not numbers). */
import { describe, expect, it } from "vitest";
import { GRID_NUMBERS_MAX, stepGrid, stepGridSvg, type GridCell } from "../../src/export/step-grid.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { plan } from "../../src/planner/registry.js";

/** The cells a compact SVG paints (rects' and paths' widths over the cell size), and its tooltips. */
function painted(svg: string, cell: number): { cells: number; tips: string[] } {
  let cells = 0;
  for (const m of svg.matchAll(/<rect x="\d+" y="(\d+)" width="(\d+)" height="(\d+)" fill="(?:hsl|#d6)/g))
    if (Number(m[3]) === cell) cells += Number(m[2]) / cell;
  for (const m of svg.matchAll(/h(\d+)v\d+h-\d+z/g)) cells += Number(m[1]) / cell;
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
    const cell = Math.max(2, Math.min(8, Math.floor(1024 / Math.max(g.senders.length, g.rows.length))));
    const { cells, tips } = painted(svg, cell);
    expect(cells).toBe(busy);
    expect(tips).toEqual([]);
    expect((svg.match(/<path /g) ?? []).length).toBeLessThanOrEqual(64);
  });

  it("stalls are red, idle cells unpainted, and a grid without P takes it from its nodes", () => {
    const senders = Array.from({ length: 70 }, (_, u) => u);
    const rows: GridCell[][] = [senders.map((u) => (u + 1) % 70), senders.map((u) => (u === 5 ? "X" : null))];
    const svg = stepGridSvg({ stage: 0, stageName: "hand", firstStep: 0, senders, rows });
    expect(svg).toContain("P = 70");
    const { cells, tips } = painted(svg, 8);
    expect(cells).toBe(71);
    expect(tips).toEqual(["step 1, senders 0..69: send to sender + 1 (mod P)", "step 2, sender 5: stall"]);
    expect(svg).toContain('fill="#d62728"><title>step 2, sender 5: stall</title>');
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
