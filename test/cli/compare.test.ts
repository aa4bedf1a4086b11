/** commplan compare: the CLI over compareMatrix (text, JSON against its schema, charts, sweep, HTML, errors). */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareProgress } from "../../src/cli/commands/compare.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { run } from "../helpers/cli.js";
import { htmlProblems } from "../helpers/html-check.js";

const dir = mkdtempSync(join(tmpdir(), "commplan-compare-"));
const f = (name: string): string => join(dir, name);

describe("commplan compare", () => {
  it("text, --json (valid commplan.compare/v1, deterministic), --svg bars, --html", async () => {
    expect((await run("gen", "pattern1", "--p", "16", "--seed", "2", "-o", f("m.json"))).code).toBe(0);
    const text = await run("compare", f("m.json"), "--machine", "sp2-004");
    expect(text.code).toBe(0);
    expect(text.err).toBe("");
    expect(text.out).toMatch(/^compare on sp2-004 \(P = 16, .*lower bound [\d,.]+ us/);
    expect(text.out).toMatch(/fastest on the simulated machine: [\w-]+/);
    const args = ["compare", f("m.json"), "--machine", "sp2-004", "--json", "--svg", f("b.svg"), "--html", f("r.html")];
    const a = await run(...args);
    expect(a.code).toBe(0);
    const doc = JSON.parse(a.out) as { format: string; rows: { algorithm: string; ratio: number }[]; best: string };
    expect(() => validateWithSchema("compare", doc, "test")).not.toThrow();
    expect(doc.format).toBe("commplan.compare/v1");
    expect(doc.rows.map((r) => r.algorithm)).toContain("four-stage");
    for (const r of doc.rows) expect(r.ratio).toBeGreaterThanOrEqual(1);
    const html = readFileSync(f("r.html"), "utf8");
    expect(htmlProblems(html)).toEqual([]);
    expect(html).toContain(`Best plan: ${doc.best}`);
    expect(readFileSync(f("b.svg"), "utf8")).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^]*<\/svg>\n$/);
    const b = await run(...args);
    expect(b.out).toBe(a.out);
    expect(readFileSync(f("r.html"), "utf8")).toBe(html);
  });

  it("--sweep: a table per factor, the crossovers, the log-log chart, and the sweep in the JSON", async () => {
    expect((await run("gen", "pattern1", "--p", "16", "--seed", "1", "-o", f("s.json"))).code).toBe(0);
    const base = ["compare", f("s.json"), "--machine", "t3d-004", "--algorithms", "coloring,four-stage,shift"];
    const t = await run(...base, "--sweep", "1/16..16", "--svg", f("sw.svg"));
    expect(t.code).toBe(0);
    expect(t.out).toContain("sweep: simulated blocking time (us) against message size");
    expect(t.out.split("\n").filter((l) => /^0\.0625 |^16 /.test(l))).toHaveLength(2);
    expect(readFileSync(f("sw.svg"), "utf8")).toContain("mean message size (bytes, log)");
    const j = await run(...base, "--sweep", "0.5,2", "--json", "--mode", "nonblocking");
    const doc = JSON.parse(j.out) as { sweep: { points: unknown[]; mode: string }; rows: unknown[] };
    expect(() => validateWithSchema("compare", doc, "test")).not.toThrow();
    expect(doc.sweep.points).toHaveLength(2);
    expect(doc.sweep.mode).toBe("nonblocking");
    expect(doc.rows).toHaveLength(3);
  });

  it("bad input: one line, exit 2, nothing written", async () => {
    expect((await run("gen", "uniform", "--p", "4", "-o", f("u.json"))).code).toBe(0);
    const cases: [string[], RegExp][] = [
      [["--sweep", "4..1"], /^compare: --sweep: the range '4..1' runs backwards/],
      [["--svg", "-"], /^compare: --svg -: stdout carries the comparison/],
      [["--algorithms", "nope"], /^planner: unknown algorithm 'nope'/],
      [["--ports", "0"], /--ports must be an integer in 1..1024/],
      [["--mode", "fast"], /argument 'fast' is invalid/],
      [["--html", f("u.json")], /u.json/],
    ];
    for (const [extra, msg] of cases) {
      const r = await run("compare", f("u.json"), "--machine", "t3d-004", ...extra);
      expect(r.code, extra.join(" ")).toBe(2);
      expect(r.err).toMatch(msg);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
    expect(existsSync(f("none.svg"))).toBe(false);
    expect(JSON.parse(readFileSync(f("u.json"), "utf8"))).toMatchObject({ format: "commplan.matrix/v1" });
  });

  it("--help describes the command; the progress bar waits a second, follows a growing total (the sweep) and nothing off a TTY", async () => {
    const h = await run("compare", "--help");
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/Usage: commplan compare \[options\] <matrix>/);
    for (const flag of [
      "--machine",
      "--mode",
      "--ports",
      "--sweep",
      "--svg",
      "--html",
      "--json",
      "--algorithms",
      "--max-memory",
    ])
      expect(h.out).toContain(flag);
    const bar = (interactive: boolean): string => {
      let text = "";
      const stream = {
        isTTY: true,
        columns: 100,
        write: (chunk: string) => ((text += chunk), true),
      } as unknown as NodeJS.WritableStream;
      let clock = 0;
      const p = compareProgress(interactive, "plans", stream, () => clock);
      p.report(1, 9); // the first second: no bar
      clock = 1500;
      p.report(9, 9);
      p.report(20, 36); // the sweep follows with its own total
      p.done();
      return text;
    };
    const shown = bar(true);
    expect(shown).not.toMatch(/1\/9 plans/);
    expect(shown).toMatch(/compare \[.*\] 100% \| 9\/9 plans/);
    expect(shown).toMatch(/compare \[.*\] 55% \| 20\/36 plans/);
    expect(bar(false)).toBe("");
  });
});
