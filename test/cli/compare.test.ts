/** commplan compare: the CLI over compareMatrix (text, JSON against its schema, charts, sweep, HTML, errors). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { progressBar } from "../../src/cli/progress.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { run } from "../helpers/cli.js";
import { htmlProblems } from "../helpers/html-check.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("compare");
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
      [["--algorithms", "nope"], /^compare: unknown algorithm 'nope'/],
      // auto chooses among the planners compare already runs: refused with what to do instead
      [
        ["--algorithms", "shift,auto"],
        /^compare: --algorithms takes planners, and auto is not one: compare already runs every planner auto chooses from .* and marks the fastest; for auto's own pick, run plan --algorithm auto\n$/,
      ],
      [["--ports", "0"], /--ports must be an integer in 1..1024/],
      [
        ["--mode", "fast"],
        /^compare: option '--mode <mode>': unknown value 'fast'; known: blocking, nonblocking \(add/,
      ],
      [["--html", f("u.json")], /u.json/],
      [["--port-sharing", "fair"], /^compare: --port-sharing goes with --network/],
      [["--network", "fat-tree:k=2"], /^compare: fat-tree: k = 2 gives 2 hosts, fewer than P = 4/],
    ];
    for (const [extra, msg] of cases) {
      const r = await run("compare", f("u.json"), "--machine", "t3d-004", ...extra);
      expect(r.code, extra.join(" ")).toBe(2);
      expect(r.err).toMatch(msg);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
    const cm5 = await run("compare", f("u.json"), "--machine", "cm5-fat-tree", "--network", "fat-tree");
    expect(cm5.code).toBe(2);
    expect(cm5.err).toMatch(/^compare: --network replaces the machine's topology; cm5-fat-tree is on cm5-fat-tree/);
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
      const p = progressBar(interactive, "compare", "plans", stream, () => clock);
      p.report(1, 9); // the first second: no bar
      clock = 1500;
      p.report(9, 9);
      p.report(20, 36); // the sweep follows with its own total
      p.stop();
      return text;
    };
    const shown = bar(true);
    expect(shown).not.toMatch(/1\/9 plans/);
    expect(shown).toMatch(/compare \[.*\] 100% \| 9\/9 plans/);
    expect(shown).toMatch(/compare \[.*\] 55% \| 20\/36 plans/);
    expect(bar(false)).toBe("");
  });
});

describe("commplan compare --network", () => {
  it("--network: every plan simulated on the network (as simulate --network replays it), link bounds, valid JSON", async () => {
    expect((await run("gen", "uniform", "--p", "16", "--size", "64", "-o", f("n.json"))).code).toBe(0);
    const base = ["compare", f("n.json"), "--machine", "ib-hdr-200", "--algorithms", "shift,coloring,two-stage"];
    const net = ["--network", "fat-tree:oversub=4"];
    const t = await run(...base, ...net);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(
      /^compare on ib-hdr-200 \(P = 16, .*network fat-tree:oversub=4, port sharing serial\): lower bound [\d.]+ us \(host-links: /,
    );
    const j = await run(...base, ...net, "--port-sharing", "fair", "--json", "--html", f("n.html"));
    const doc = JSON.parse(j.out) as {
      best: string;
      network: { name: string; portSharing: string };
      bounds: { name: string; target: string }[];
      rows: { algorithm: string; simulatedUs: number; ratio: number }[];
    };
    expect(() => validateWithSchema("compare", doc, "test")).not.toThrow();
    expect(doc.network).toEqual({ name: "fat-tree:oversub=4", portSharing: "fair" });
    const html = readFileSync(f("n.html"), "utf8");
    expect(htmlProblems(html)).toEqual([]);
    expect(html).toContain("network fat-tree:oversub=4 with link contention (port sharing fair)");
    // the best plan's link load on the network, as simulate --link-svg draws it: the fabric's links by name
    const links = html.slice(html.indexOf("<h3>Link load (simulated)</h3>"));
    expect(links).toContain(`<text x=`);
    expect(links).toContain(`link load: ${doc.best} on fat-tree:oversub=4`);
    expect(links).toContain("busiest links");
    expect(links).toMatch(/>edge0_0</);
    expect(doc.bounds.filter((b) => b.target === "sim-blocking").map((b) => b.name)).toEqual([
      "host-links",
      "busiest-link",
    ]);
    for (const r of doc.rows) expect(r.ratio).toBeGreaterThanOrEqual(1);
    // the row of shift is simulate --network's makespan of the same plan
    expect((await run("plan", f("n.json"), "-a", "shift", "--payload", "-o", f("n-shift.json"))).code).toBe(0);
    const sim = await run(
      "simulate",
      f("n-shift.json"),
      "--machine",
      "ib-hdr-200",
      ...net,
      "--port-sharing",
      "fair",
      "--no-link-factor",
      "--json",
    );
    const makespan = (JSON.parse(sim.out) as { makespan: number }).makespan;
    expect(doc.rows.find((r) => r.algorithm === "shift")!.simulatedUs).toBe(makespan);
    // without the network the same plans run faster: the 4:1 uplinks hold them back
    const flat = JSON.parse((await run(...base, "--json")).out) as { rows: { simulatedUs: number }[] };
    expect(doc.rows[0]!.simulatedUs).toBeGreaterThan(flat.rows[0]!.simulatedUs);
  });
});
