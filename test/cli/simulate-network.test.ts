/** commplan simulate --network: a replay on a generated or described topology with link contention, its report, the link-load SVG, and the refusals. */
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("sim-network");
const f = (name: string): string => join(dir, name);

describe("simulate --network", () => {
  it("a uniform all-to-all slows down as the fat tree's uplinks are oversubscribed, and the report names the hottest links", async () => {
    expect((await run("gen", "uniform", "--p", "16", "--size", "100000", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "shift", "-o", f("s.json"))).code).toBe(0);
    const sim = async (oversub: number) => {
      const r = await run(
        "simulate",
        f("s.json"),
        "--machine",
        "ib-hdr-200",
        "--network",
        `fat-tree:k=4,oversub=${oversub}`,
        "--json",
      );
      expect(r.code, r.err).toBe(0);
      return JSON.parse(r.out) as { makespan: number; network: { flc: number; hottest: { label: string }[] } };
    };
    const [a, b, c] = [await sim(1), await sim(2), await sim(4)];
    expect(b.makespan).toBeGreaterThan(a.makespan);
    expect(c.makespan).toBeGreaterThan(b.makespan);
    expect(c.network.flc).toBeGreaterThan(b.network.flc);
    expect(b.network.flc).toBeGreaterThanOrEqual(1);
    expect(c.network.hottest.length).toBeGreaterThan(0);
    const text = await run("simulate", f("s.json"), "--machine", "ib-hdr-200", "--network", "fat-tree:k=4,oversub=4");
    expect(text.out).toMatch(/network fat-tree:k=4,oversub=4 \(\d+ links, port sharing serial\): f_lc /);
    expect(text.out).toMatch(/hottest links \(by busy time\):\n {2}\S+->\S+: busy/);
  });

  it("writes the link load as an SVG heat map, and runs AC (async) on the network too", async () => {
    const r = await run(
      "simulate",
      f("s.json"),
      "--machine",
      "ib-hdr-200",
      "--network",
      "torus:dims=4x4",
      "--port-sharing",
      "fair",
      "--link-svg",
      f("links.svg"),
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/port sharing fair/);
    const svg = readFileSync(f("links.svg"), "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toMatch(/<rect/);
    const ac = await run(
      "simulate",
      f("m.json"),
      "--protocol",
      "async",
      "--machine",
      "ib-hdr-200",
      "--network",
      "flat",
    );
    expect(ac.code, ac.err).toBe(0);
    expect(ac.out).toMatch(/network flat/);
  });

  it("reads a topology JSON file", async () => {
    const hosts = Array.from({ length: 16 }, (_, i) => `n${i}`);
    const links = hosts.map((h, i) => ({ a: h, b: i < 8 ? "left" : "right", bandwidth: 25000, latency: 0.1 }));
    links.push({ a: "left", b: "right", bandwidth: 25000, latency: 0.1 });
    writeFileSync(
      f("net.json"),
      JSON.stringify({ format: "commplan.topology/v1", name: "two", hosts, switches: ["left", "right"], links }),
    );
    const r = await run("simulate", f("s.json"), "--machine", "ib-hdr-200", "--network", f("net.json"), "--json");
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).network.links).toBe(2 * links.length);
  });

  it("refuses in one line: options without --network, a bad spec, too few hosts, the link SVG on stdout", async () => {
    const cases: [string[], RegExp][] = [
      [["--port-sharing", "fair"], /--port-sharing goes with --network/],
      [["--link-svg", f("x.svg")], /--link-svg goes with --network/],
      [["--network", "fat-tree:k=4", "--link-svg", "-"], /--link-svg -: stdout/],
      [["--network", "no-such:x=1"], /^simulate: .*no-such/],
      [["--network", f("small.json")], /has 2 hosts, fewer than P = 16/],
      [["--network", "fat-tree:k=4,oversub=0"], /oversub/],
    ];
    writeFileSync(
      f("small.json"),
      JSON.stringify({
        format: "commplan.topology/v1",
        name: "small",
        hosts: ["a", "b"],
        switches: ["s"],
        links: [
          { a: "a", b: "s", bandwidth: 1, latency: 0 },
          { a: "b", b: "s", bandwidth: 1, latency: 0 },
        ],
      }),
    );
    for (const [extra, re] of cases) {
      const r = await run("simulate", f("s.json"), "--machine", "ib-hdr-200", ...extra);
      expect(r.code, extra.join(" ")).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toMatch(re);
    }
  });
});

describe("simulate --network --no-link-factor", () => {
  it("--no-link-factor: the same run and link books without the second replay; f_lc null; refused without --network", async () => {
    expect((await run("gen", "uniform", "--p", "16", "--size", "100000", "-o", f("n.json"))).code).toBe(0);
    expect((await run("plan", f("n.json"), "-a", "shift", "-o", f("t.json"))).code).toBe(0);
    const args = ["simulate", f("t.json"), "--machine", "ib-hdr-200", "--network", "fat-tree:k=4,oversub=4", "--json"];
    type Out = {
      makespan: number;
      network: { flc: number | null; freeCoreMakespan: number | null; linkBytes: number[] };
    };
    const full = JSON.parse((await run(...args)).out) as Out;
    const skip = await run(...args, "--no-link-factor");
    expect(skip.code, skip.err).toBe(0);
    const lean = JSON.parse(skip.out) as Out;
    expect(lean.makespan).toBe(full.makespan);
    expect(lean.network.linkBytes).toEqual(full.network.linkBytes);
    expect(full.network.flc).toBeGreaterThan(1);
    expect([lean.network.flc, lean.network.freeCoreMakespan]).toEqual([null, null]);
    const text = await run(...args.slice(0, -1), "--no-link-factor");
    expect(text.out).toMatch(/port sharing serial\): f_lc not computed \(--no-link-factor\), link load bound/);
    const alone = await run("simulate", f("t.json"), "--machine", "ib-hdr-200", "--no-link-factor");
    expect(alone.code).toBe(2);
    expect(alone.err).toMatch(/--no-link-factor goes with --network/);
  });
});

describe("simulate --network: names from the topology file", () => {
  it("a network's and a host's names are printed on one line: their newlines and terminal escapes escaped", async () => {
    const esc = "\u001b[2J";
    const net = {
      format: "commplan.topology/v1",
      name: `t\nX${esc}`,
      hosts: [`a\n${esc}`, "c"],
      switches: ["s"],
      links: [
        { a: `a\n${esc}`, b: "s", bandwidth: 1, latency: 1 },
        { a: "c", b: "s", bandwidth: 1, latency: 1 },
      ],
    };
    writeFileSync(f("hostile-net.json"), JSON.stringify(net));
    expect((await run("gen", "uniform", "--p", "2", "-o", f("m2.json"))).code).toBe(0);
    expect((await run("plan", f("m2.json"), "-a", "shift", "-o", f("s2.json"))).code).toBe(0);
    const r = await run("simulate", f("s2.json"), "--machine", "ib-hdr-200", "--network", f("hostile-net.json"));
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain("\u001b");
    expect(r.out).toContain("network t\\nX\\u001b[2J: makespan");
    expect(r.out).toContain("network t\\nX\\u001b[2J (4 links");
    expect(r.out).toMatch(/^ {2}a\\n\\u001b\[2J->s: busy/m);
  });
});
