/** commplan show (issue 5): figure 10 of 004 printed from a planned schedule, text, JSON and SVG. */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { nodeList } from "../../src/cli/commands/show.js";
import { nodeArrayRow, stepGrid, stepGridText } from "../../src/export/step-grid.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/index.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const fig10 = JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/004-fig10.json"), "utf8")) as {
  senders: number[];
  steps: (number | "X" | null)[][];
};
const dir = tempDir("show");

describe("commplan show", () => {
  it("prints figure 10 of 004 (stage I, row 2 of P = 61, with node 58 sending into the row)", async () => {
    const m = join(dir, "m.json"),
      s = join(dir, "s.json");
    expect((await run("gen", "uniform", "--p", "61", "--size", "61", "-o", m)).code).toBe(0);
    expect((await run("plan", m, "--algorithm", "four-stage", "-o", s)).code).toBe(0);
    const j = await run("show", s, "--stage", "1", "--row", "2", "--json");
    expect(j.code).toBe(0);
    const g = JSON.parse(j.out) as { senders: number[]; steps: unknown[][] };
    expect(g.senders).toEqual(fig10.senders);
    expect(g.steps).toEqual(fig10.steps);
    const t = await run("show", s, "--stage", "1", "--row", "2");
    const lines = t.out.trim().split("\n");
    expect(lines[1]!.trim().split(/\s+/)).toEqual(["step", ...fig10.senders.map(String)]);
    expect(lines[4]!.trim().split(/\s+/)).toEqual(["3", "19", "20", "X", "22", "23", "16", "17", "18", "21"]);
    const svg = await run("show", s, "--row", "2", "--svg", "-");
    expect(svg.out.startsWith("<svg")).toBe(true);
    expect(svg.out.match(/>X</g)?.length).toBe(6);
  });

  it("rejects a bad stage, row or node list with exit 2 and one line", async () => {
    const m = join(dir, "m8.json"),
      s = join(dir, "s8.json");
    await run("gen", "uniform", "--p", "8", "-o", m);
    await run("plan", m, "--algorithm", "shift", "-o", s);
    for (const [args, msg] of [
      [["--stage", "2"], /--stage must be in 1..1, got 2/],
      [["--row", "3"], /--row must be in 0..2/],
      [["--nodes", "1,x"], /--nodes must be/],
      [["--nodes", "9"], /node 9 is not in 0..7/],
      [["--nodes", "5-2"], /--nodes: bad range '5-2' \(it ends before it starts\)/],
      [["--row", "0", "--nodes", "1"], /option .--row <r>. cannot be used with option .--nodes <list>./],
    ] as const) {
      const r = await run("show", s, ...args);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(msg);
      expect(r.err.trim().split("\n").length).toBe(1);
    }
    // a plan of a matrix that sends nothing has no stages: said so, not "--stage must be in 1..0"
    const z = join(dir, "z.json"),
      zs = join(dir, "zs.json");
    await run("gen", "zero", "--p", "4", "-o", z);
    expect((await run("plan", z, "--algorithm", "te-offline", "-o", zs)).code).toBe(0);
    const empty = await run("show", zs);
    expect(empty.code).toBe(2);
    expect(empty.err).toBe("show: the schedule has no stages (its matrix sends nothing): there is no grid to show\n");
  });

  it("shows a node given twice in --nodes once, drawn as in its own column (as te-table drops a repeated N)", async () => {
    const m = join(dir, "m4.json"),
      s = join(dir, "s4.json");
    await run("gen", "uniform", "--p", "4", "-o", m);
    await run("plan", m, "--algorithm", "shift", "-o", s);
    const once = JSON.parse((await run("show", s, "--nodes", "2,1", "--json")).out) as {
      senders: number[];
      steps: unknown[][];
    };
    expect(once.steps.flat()).not.toContain(null); // shift: every node sends in every step
    const twice = await run("show", s, "--nodes", "2,1,2", "--json");
    expect(twice.code).toBe(0);
    expect(JSON.parse(twice.out)).toEqual(once);
    expect((await run("show", s, "--nodes", "2,1,1-2")).out).toBe((await run("show", s, "--nodes", "2,1")).out);
    const g = stepGrid(plan(generatePattern("uniform", 4, {}, 1), "shift"), 0, [3, 3, 0]);
    expect(g.senders).toEqual([3, 0]);
    expect(g.rows.flat()).not.toContain(null);
  });

  it("without --row or --nodes shows every active sender; the grid agrees with the transfers", () => {
    const m = generatePattern("random", 9, {}, 3);
    const s = plan(m, "shift");
    const g = stepGrid(s, 0);
    let cells = 0;
    for (const r of g.rows) for (const c of r) if (c !== null) cells++;
    expect(cells).toBe(s.transferCount);
    expect(stepGridText(g).split("\n").length).toBe(g.rows.length + 3);
  });

  it("the header maps the rows (from 1 within the stage) to the schedule's steps (from 0, as verify and cost name them)", () => {
    const m = generatePattern("uniform", 16, {}, 1);
    const s = plan(m, "four-stage");
    const g = stepGrid(s, 1);
    const first = s.stages[1]!.firstStep;
    expect(first).toBeGreaterThan(0);
    expect(stepGridText(g).split("\n")[0]).toBe(
      `stage 2 (${s.stages[1]!.name}): receiver of each sender per step (steps 1-${g.rows.length} here are the ` +
        `schedule's ${first}-${first + g.rows.length - 1}); X a stall, . idle`,
    );
  });

  it("parses node lists and node-array rows", () => {
    expect(nodeList("16-19,58")).toEqual([16, 17, 18, 19, 58]);
    expect(nodeArrayRow(61, 7)).toEqual([56, 57, 58, 59, 60]);
    expect(nodeArrayRow(64, 0)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(nodeArrayRow(1, 0)).toEqual([0]);
    // P = 11 = 4 * 3 - 1: rearranged to rows of floor(sqrt 11) = 3 nodes
    expect(nodeArrayRow(11, 3)).toEqual([9, 10]);
  });
});
