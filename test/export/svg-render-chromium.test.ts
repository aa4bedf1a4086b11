/**
 * The pictures rendered in headless Chromium (run when the chromium command is present): every text element, as laid
 * out by the browser, lies inside its SVG's canvas, and the labels a reader needs are there.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareChartSvg } from "../../src/compare/compare-chart.js";
import { compareMatrix } from "../../src/compare/compare.js";
import { sweepChartSvg } from "../../src/compare/sweep-chart.js";
import { nodeLoadSvg } from "../../src/compare/html-report.js";
import { stepGrid, stepGridSvg } from "../../src/export/step-grid.js";
import { timelineToSvg } from "../../src/export/svg-gantt.js";
import { linkLoadSvg, type LinkLoadEntry } from "../../src/export/svg-link-load.js";
import { findMachine } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { findPlanner, plan, PLANNERS } from "../../src/planner/registry.js";
import { tempDir } from "../helpers/temp-dir.js";

const chromium = spawnSync("chromium", ["--version"], { stdio: "ignore" }).status === 0;

/** Laid out by the browser: for each SVG, its texts and those whose box leaves the SVG's box. */
const PROBE = `<script>
const out = [...document.querySelectorAll("svg")].map((svg) => {
  const s = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll("text")];
  const outside = texts.filter((t) => {
    const b = t.getBoundingClientRect();
    return b.left < s.left - 1 || b.right > s.right + 1 || b.top < s.top - 1 || b.bottom > s.bottom + 1;
  });
  return { texts: texts.map((t) => t.textContent), outside: outside.map((t) => t.textContent) };
});
document.body.setAttribute("data-probe", JSON.stringify(out));
</script>`;

/** The pictures, each laid out by Chromium. */
function render(svgs: readonly string[]): { texts: string[]; outside: string[] }[] {
  const dir = tempDir("render");
  try {
    const page = join(dir, "page.html");
    writeFileSync(
      page,
      `<!DOCTYPE html><html><body>${svgs.map((s) => `<div>${s}</div>`).join("")}${PROBE}</body></html>`,
    );
    // Chromium's own temporary files (org.chromium.Chromium.*, its profile) go under this case's directory, removed
    // below: left in the run's temporary directory by a slow or killed Chromium, they failed the whole run
    const r = spawnSync(
      "chromium",
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        `--user-data-dir=${join(dir, "profile")}`,
        "--window-size=1600,1200",
        "--dump-dom",
        `file://${page}`,
      ],
      { encoding: "utf8", timeout: 60_000, env: { ...process.env, TMPDIR: dir } },
    );
    const probe = /data-probe="([^"]*)"/.exec(r.stdout)?.[1];
    if (probe === undefined) throw new Error(`chromium printed no probe: ${r.stderr.slice(0, 400)}`);
    return JSON.parse(
      probe
        .replace(/&quot;/g, '"')
        .replace(/&gt;/g, ">")
        .replace(/&lt;/g, "<")
        .replace(/&amp;/g, "&"),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The links of a small fat tree: hosts under two edge switches, one switch idle. */
function links(): LinkLoadEntry[] {
  const names = ["h0", "h1", "h2", "h3", "edge0", "edge1", "core0", "core1"];
  const out: LinkLoadEntry[] = [];
  const add = (a: string, b: string, load: number): void => {
    out.push({ label: `${a}->${b}`, load, row: names.indexOf(a), col: names.indexOf(b), rowLabel: a, colLabel: b });
  };
  ["h0", "h1"].forEach((h) => (add(h, "edge0", 0.05), add("edge0", h, 0.04)));
  ["h2", "h3"].forEach((h) => (add(h, "edge1", 0.06), add("edge1", h, 0.03)));
  add("edge0", "core0", 0.117);
  add("core0", "edge1", 0.117);
  add("edge1", "core1", 0);
  add("core1", "edge0", 0);
  return out;
}

describe("the pictures in headless Chromium", () => {
  it(`keep every label inside the canvas${chromium ? "" : " (chromium absent: runs the check that says so)"}`, () => {
    if (!chromium) {
      process.stdout.write("svg-render-chromium: chromium is not installed: the pictures are not rendered\n");
      expect(spawnSync("chromium", ["--version"], { stdio: "ignore" }).status).not.toBe(0);
      return;
    }
    const m = generatePattern("pattern1", 8, {}, 1);
    const s = plan(m, "two-stage");
    const sim = simulateSchedule(s, findMachine("t3d-004"), { timeline: true });
    const scaled = (k: number): string => timelineToSvg(sim.timeline, sim.makespan * k, { width: 640 });
    const pictures = [
      timelineToSvg(sim.timeline, sim.makespan),
      scaled(0.1),
      scaled(1000),
      timelineToSvg(sim.timeline, sim.makespan, { width: 200 }),
      linkLoadSvg(links(), { title: "link load" }),
      nodeLoadSvg(sim),
      stepGridSvg(stepGrid(s, 0, [0, 1])),
      compareChartSvg(
        compareMatrix(generatePattern("pattern1", 16, {}, 1), {
          machine: findMachine("t3d-004"),
          planners: ["linear-permutation", "te-direct"].map(findPlanner),
        }).report,
      ),
    ];
    const halo = simulateSchedule(plan(generatePattern("halo", 256, {}, 1), "coloring"), findMachine("ib-hdr-200"), {
      timeline: true,
    });
    pictures.push(timelineToSvg(halo.timeline, halo.makespan));
    // a P = 256 stage's grid, compact: colours, a label every few senders and steps, the hue scale
    pictures.push(stepGridSvg(stepGrid(plan(generatePattern("random", 256, { density: 0.5 }, 1), "coloring"), 0)));
    // 8 senders over 517 steps: readable columns, the steps binned, the swatches of distance 0, a stall and idle
    pictures.push(stepGridSvg(stepGrid(plan(m, "split-coloring", { params: { chunk: 4 } }), 0)));
    // sweeps: times of 1 .. 200 s (the axis in s); every planner with both kinds of circle (the legend beside the plot)
    const sweepOf = (algorithms: readonly string[], bytes: readonly number[], k0: number): string =>
      sweepChartSvg(
        {
          mode: "blocking",
          algorithms,
          points: bytes.map((b, f) => ({
            factor: f + 1,
            meanMessageBytes: b,
            times: algorithms.map((_, k) => b * k0 * (k + 2)),
            bound: b * k0,
            best: algorithms[0]!,
          })),
          crossovers: [
            {
              algorithms: ["x", "y"],
              before: "x",
              after: "y",
              meanMessageBytes: 2 * bytes[0]!,
              timeUs: 6 * k0 * bytes[0]!,
              leaderChange: true,
            },
            {
              algorithms: ["x", "y"],
              before: "x",
              after: "y",
              meanMessageBytes: 200,
              timeUs: 3e4,
              leaderChange: false,
            },
          ],
        },
        "sweep",
      );
    pictures.push(sweepOf(["shift", "coloring", "two-stage"], [3e6, 5e7], 2));
    pictures.push(
      sweepOf(
        PLANNERS.map((p) => p.name),
        [32, 8192],
        50,
      ),
    );
    const laid = render(pictures);
    expect(laid).toHaveLength(pictures.length);
    laid.forEach((p, k) => expect(p.outside, `picture ${k}`).toEqual([]));
    expect(laid[0]!.texts.some((t) => /^time \((us|ms|s)\)$/.test(t))).toBe(true);
    for (const name of ["h0", "edge0", "core0", "from", "to", "busiest links"]) expect(laid[4]!.texts).toContain(name);
    expect(laid[4]!.texts).not.toContain("core1");
    expect(laid[4]!.texts).toContain("0 % .. 11.7 % busy (the busiest link)");
    expect(laid[7]!.texts).toContain("1,000,000");
    // the raster view of 256 nodes: its note, axis and legend laid out inside the canvas
    expect(laid[8]!.texts.some((t) => t.startsWith("256 nodes, a row per node;"))).toBe(true);
    expect(laid[8]!.texts).toContain("time (us)");
    for (const label of ["(receiver - sender) mod P, P = 256", "255", "248", "step"])
      expect(laid[9]!.texts).toContain(label);
    for (const label of ["0", "7", "0: to itself", "stall", "idle"]) expect(laid[10]!.texts).toContain(label);
    for (const label of ["simulated time (s, log)", "1", "1,000"]) expect(laid[11]!.texts).toContain(label);
    for (const label of ["mpi-impi", "lower bound", "the fastest changes", "10,000"])
      expect(laid[12]!.texts).toContain(label);
  });
});
