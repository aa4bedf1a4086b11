/**
 * Commands with several outputs check every target before the work and write all of them or none: a bad target is one
 * line and exit 2, and no output file is made (docs/formats.md, "Output files").
 */
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

/** A directory holding a P = 4 uniform matrix m4.json and its shift plan s4.json; `f` names a file in it. */
async function setup(): Promise<{ dir: string; f: (name: string) => string }> {
  const dir = tempDir("outputs");
  const f = (name: string): string => join(dir, name);
  expect((await run("gen", "uniform", "--ranks", "4", "-o", f("m4.json"))).code).toBe(0);
  expect((await run("plan", f("m4.json"), "-a", "shift", "-o", f("s4.json"))).code).toBe(0);
  return { dir, f };
}

/** The error is one line naming `target`. */
function oneLineNaming(err: string, target: string, reason: string): void {
  expect(err.split("\n")).toEqual([expect.stringContaining(target), ""]);
  expect(err).toContain(reason);
}

/** simulate of s4.json on t3d-004 with a --trace and an --svg target. */
const simulateTo = (f: (name: string) => string, trace: string, svg: string): ReturnType<typeof run> =>
  run("simulate", f("s4.json"), "--machine", "t3d-004", "--trace", trace, "--svg", svg);

describe("simulate: every output checked before the replay, all or none written", () => {
  it("an --svg into a missing directory leaves no --trace (and the other way round)", async () => {
    const { dir, f } = await setup();
    const r = await simulateTo(f, f("t.json"), f("no/g.svg"));
    expect(r.code).toBe(2);
    oneLineNaming(r.err, f("no/g.svg"), `the directory ${f("no")} does not exist`);
    expect(r.out).toBe("");
    expect(existsSync(f("t.json"))).toBe(false);
    const r2 = await simulateTo(f, f("no/t.json"), f("g.svg"));
    expect(r2.code).toBe(2);
    oneLineNaming(r2.err, f("no/t.json"), `the directory ${f("no")} does not exist`);
    expect(readdirSync(dir).sort()).toEqual(["m4.json", "s4.json"]);
  });

  it("an --svg target that is a directory leaves no --trace", async () => {
    const { dir, f } = await setup();
    const r = await simulateTo(f, f("t.json"), dir);
    expect(r.code).toBe(2);
    oneLineNaming(r.err, dir, "is a directory");
    expect(readdirSync(dir).sort()).toEqual(["m4.json", "s4.json"]);
  });

  it("writes every output when all are good", async () => {
    const { dir, f } = await setup();
    const r = await simulateTo(f, f("t.json"), f("g.svg"));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/makespan/);
    expect(readdirSync(dir).sort()).toEqual(["g.svg", "m4.json", "s4.json", "t.json"]);
  });

  it("refuses a lane view the schedule shows too big before the replay, and writes no trace", async () => {
    const { dir, f } = await setup();
    expect((await run("gen", "uniform", "--p", "512", "-o", f("u.json"))).code).toBe(0);
    expect((await run("plan", f("u.json"), "-a", "shift", "-o", f("s5.json"))).code).toBe(0);
    const svg = ["--svg", f("g.svg"), "--svg-view", "lanes"];
    const r = await run("simulate", f("s5.json"), "--machine", "t3d-004", ...svg, "--trace", f("t5.json"));
    expect(r.code).toBe(2);
    // 512 x 511 transfers between nodes, a send and a receive interval each
    oneLineNaming(r.err, f("g.svg"), "the timeline has at least 523264 intervals; an SVG chart (--svg) draws at most");
    expect(readdirSync(dir).sort()).toEqual(["m4.json", "s4.json", "s5.json", "u.json"]);
    // by default, past 128 nodes, the chart is the raster, which draws any number of intervals
    const drawn = await run("simulate", f("s5.json"), "--machine", "t3d-004", "--svg", f("g.svg"));
    expect(drawn.code).toBe(0);
    expect(readFileSync(f("g.svg"), "utf8")).toContain("512 nodes, a row per node; each cell shows the kind");
  });

  it("--svg-view names its views and goes with --svg", async () => {
    const { f } = await setup();
    const bad = await run("simulate", f("s4.json"), "--machine", "t3d-004", "--svg", f("g.svg"), "--svg-view", "grid");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--svg-view.*grid.*auto, lanes, raster/);
    const alone = await run("simulate", f("s4.json"), "--machine", "t3d-004", "--svg-view", "raster");
    expect(alone.code).toBe(2);
    expect(alone.err).toMatch(/--svg-view goes with --svg/);
    const raster = await run(
      "simulate",
      f("s4.json"),
      "--machine",
      "t3d-004",
      "--svg",
      f("g.svg"),
      "--svg-view",
      "raster",
    );
    expect(raster.code).toBe(0);
    expect(readFileSync(f("g.svg"), "utf8")).toContain("4 nodes, a row per node; each cell shows");
  });

  it("an SVG found too big only after a protocol run still leaves no trace or realised schedule", async () => {
    const { dir, f } = await setup();
    expect((await run("gen", "uniform", "--p", "512", "-o", f("u.json"))).code).toBe(0);
    const r = await run(
      "simulate",
      f("u.json"),
      "--protocol",
      "async",
      "--machine",
      "t3d-004",
      "--svg",
      f("g.svg"),
      "--svg-view",
      "lanes",
      "--trace",
      f("t.json"),
      "--realised",
      f("r.json"),
    );
    expect(r.code).toBe(2);
    oneLineNaming(r.err, f("g.svg"), "an SVG chart (--svg) draws at most 200000");
    expect(readdirSync(dir).sort()).toEqual(["m4.json", "s4.json", "u.json"]);
  });

  it("a directory that takes no new file (/proc) is named as such, not as missing", async () => {
    const { dir, f } = await setup();
    const r = await simulateTo(f, f("t.json"), "/proc/g.svg");
    expect(r.code).toBe(2);
    expect(r.err).toBe("simulate: /proc/g.svg: cannot create a file in /proc\n");
    expect(readdirSync(dir).sort()).toEqual(["m4.json", "s4.json"]);
    const g = await run("gen", "uniform", "--ranks", "4", "-o", "/proc/x.json");
    expect(g.code).toBe(2);
    expect(g.err).toBe("gen: /proc/x.json: cannot create a file in /proc\n");
  });
});

describe("platform, compare: every output checked before the work", () => {
  it("platform: a --hostfile into a missing directory leaves no -o file", async () => {
    const { dir, f } = await setup();
    const r = await run(
      "platform",
      "--topology",
      "fat-tree:k=4",
      "-P",
      "16",
      "-o",
      f("pf.xml"),
      "--hostfile",
      f("no/h"),
    );
    expect(r.code).toBe(2);
    oneLineNaming(r.err, f("no/h"), `the directory ${f("no")} does not exist`);
    expect(readdirSync(dir).sort()).toEqual(["m4.json", "s4.json"]);
    const ok = await run("platform", "--topology", "fat-tree:k=4", "-P", "16", "-o", f("pf.xml"), "--hostfile", f("h"));
    expect(ok.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["h", "m4.json", "pf.xml", "s4.json"]);
  });

  it("compare: an --html into a missing directory leaves no --svg", async () => {
    const { dir, f } = await setup();
    const r = await run(
      "compare",
      f("m4.json"),
      "--machine",
      "t3d-004",
      "--algorithms",
      "shift",
      "--svg",
      f("c.svg"),
      "--html",
      f("no/r.html"),
    );
    expect(r.code).toBe(2);
    oneLineNaming(r.err, f("no/r.html"), `the directory ${f("no")} does not exist`);
    expect(readdirSync(dir).sort()).toEqual(["m4.json", "s4.json"]);
  });
});

describe("export: the directory of --out and --split checked before the lowering", () => {
  it("a directory under a file, or one that takes no file, is one line and nothing is made", async () => {
    const { dir, f } = await setup();
    writeFileSync(f("afile"), "mine");
    const out = await run(
      "export",
      f("s4.json"),
      "-m",
      f("m4.json"),
      "--format",
      "simgrid",
      "--machine",
      "t3d-004",
      "--out",
      f("afile/d"),
    );
    expect(out.code).toBe(2);
    oneLineNaming(out.err, f("afile/d"), "a part of the path is not a directory");
    const file = await run("export", f("s4.json"), "-m", f("m4.json"), "--format", "program", "--split", f("afile"));
    expect(file.code).toBe(2);
    oneLineNaming(file.err, f("afile"), "it is not a directory");
    const proc = await run("export", f("s4.json"), "-m", f("m4.json"), "--format", "program", "--split", "/proc/d");
    expect(proc.code).toBe(2);
    expect(proc.err).toBe("export: /proc/d: cannot create a file in /proc\n");
    expect(readdirSync(dir).sort()).toEqual(["afile", "m4.json", "s4.json"]);
    const ok = await run(
      "export",
      f("s4.json"),
      "-m",
      f("m4.json"),
      "--format",
      "simgrid",
      "--machine",
      "t3d-004",
      "--out",
      f("new/d"),
    );
    expect(ok.code).toBe(0);
    expect(readdirSync(f("new/d")).sort()).toEqual([
      "hosts",
      "index.txt",
      "platform.xml",
      "rank-0.txt",
      "rank-1.txt",
      "rank-2.txt",
      "rank-3.txt",
    ]);
  });
});

describe("plan store: a directory that takes no new directory", () => {
  it("store add and precompute into /proc fail with one line (Node's recursive mkdir would spin there)", async () => {
    const { f } = await setup();
    const add = await run("store", "add", "/proc/commplan-store", f("m4.json"), "-a", "shift");
    expect(add.code).toBe(2);
    expect(add.err).toBe("store add: /proc/commplan-store: cannot create a file in /proc\n");
    writeFileSync(f("spec.json"), JSON.stringify({ patterns: ["uniform"], p: [4], seeds: [1], algorithms: ["shift"] }));
    const pre = await run("precompute", f("spec.json"), "--store", "/proc/commplan-store/a", "--jobs", "1");
    expect(pre.code).toBe(2);
    expect(pre.err).toBe("precompute: /proc/commplan-store/a: cannot create a file in /proc\n");
  });
});
