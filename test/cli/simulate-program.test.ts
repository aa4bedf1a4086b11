/** commplan simulate --program: a lowered program replayed as SMPI runs it (text, JSON, split directories, errors). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("sim-program");
const f = (name: string): string => join(dir, name);

describe("simulate --program", () => {
  it("replays a program document and its split directory alike; --runtime and --network change the time", async () => {
    expect((await run("gen", "wang-set2", "--p", "16", "--seed", "7", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "two-stage", "--payload", "-o", f("s.json"))).code).toBe(0);
    expect((await run("export", f("s.json"), "-m", f("m.json"), "-f", "program", "-o", f("p.json"))).code).toBe(0);
    expect((await run("export", f("s.json"), "-m", f("m.json"), "-f", "program", "--split", f("split"))).code).toBe(0);
    const sim = async (...args: string[]): Promise<Record<string, unknown>> => {
      const r = await run("simulate", "--machine", "ib-hdr-200", "--json", ...args);
      expect(r.code, r.err).toBe(0);
      const doc = JSON.parse(r.out) as Record<string, unknown>;
      expect(() => validateWithSchema("simulation", doc, "test")).not.toThrow();
      return doc;
    };
    const whole = await sim("--program", f("p.json"));
    expect(whole.kind).toBe("program");
    expect(whole.variant).toBe("nonblocking");
    expect((whole.rankFinish as number[]).length).toBe(16);
    expect(whole.makespan).toBe(Math.max(...(whole.rankFinish as number[])));
    expect((await sim("--program", f("split"))).makespan).toBe(whole.makespan);
    const mpi = await sim("--program", f("p.json"), "--runtime", "ib-hdr-200-mpi");
    expect(mpi.makespan as number).toBeGreaterThan(whole.makespan as number);
    expect((mpi.runtime as { ois: string }).ois).toBe("0:3e-7:0");
    const tree = await sim("--program", f("p.json"), "--network", "fat-tree:k=8,oversub=4");
    expect(tree.network).toBe("fat-tree:k=8,oversub=4");
    // the fat tree's links are the generator's (1 / t_d, 0.1 us each), not the cluster's: another time
    expect(tree.makespan).not.toBe(whole.makespan);
    const text = await run("simulate", "--program", f("p.json"), "--machine", "ib-hdr-200");
    expect(text.code).toBe(0);
    expect(text.out).toMatch(
      /^two-stage program \(nonblocking, 30 rounds\) on ib-hdr-200, P = 16, runtime smpi, SimGrid cluster of ib-hdr-200: makespan/,
    );
  });

  it("docs/simulator.md's figures: a schedule replay is no prediction of SMPI, the program replay is", async () => {
    const m = join(dir, "doc-p4.json"),
      s = join(dir, "doc-s4.json"),
      prog = join(dir, "doc-prog4.json");
    expect((await run("gen", "pattern1", "--ranks", "4", "--seed", "1", "-o", m)).code).toBe(0);
    expect((await run("plan", m, "-a", "shift", "--payload", "-o", s)).code).toBe(0);
    const sched = await run(
      "simulate",
      s,
      "--machine",
      "t3d-004",
      "--recv-order",
      "step",
      "--envelope",
      "16",
      "--barrier",
      "0",
    );
    expect(sched.out).toMatch(/: makespan 2,950 us /);
    expect((await run("export", s, "-m", m, "-f", "program", "-o", prog)).code).toBe(0);
    // 2,056 us is also what smpirun gives on the export (runtimes/test/program-replay.ts checks the replay against it)
    expect((await run("simulate", "--program", prog, "--machine", "t3d-004")).out).toMatch(/: makespan 2,056 us\n/);
  });

  it("refuses what does not apply, in one line", async () => {
    const bad = async (args: string[], message: RegExp): Promise<void> => {
      const r = await run("simulate", "--machine", "ib-hdr-200", ...args);
      expect(r.code).not.toBe(0);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toMatch(message);
    };
    await bad(["--program", f("p.json"), "--mode", "blocking"], /--mode does not apply to --program/);
    await bad(["--program", f("p.json"), "--lockstep"], /--lockstep does not apply to --program/);
    await bad(["--program", f("p.json"), "--runtime", "smpii"], /unknown runtime model 'smpii'/);
    await bad([f("s.json"), "--runtime", "smpi"], /--runtime goes with --program/);
    await bad([f("s.json"), "--program", f("p.json")], /give a schedule file or --program <file>, not both/);
    await bad([], /give a schedule file \(or a matrix with --protocol\), or --program <file>/);
    await bad(["--program", f("nothing.json")], /nothing\.json/);
  });

  it("machines --json lists each machine's runtime models with the SMPI configuration that reproduces them", async () => {
    const r = await run("machines", "--json");
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as { name: string; runtimes: { name: string; smpi: { cfg: string[] } }[] }[];
    for (const m of list) expect(m.runtimes.map((x) => x.name)).toContain("smpi");
    const hdr = list.find((m) => m.name === "ib-hdr-200")!;
    const mpi = hdr.runtimes.find((x) => x.name === "ib-hdr-200-mpi")!;
    expect(mpi.smpi.cfg).toEqual([
      "--cfg=network/model:CM02",
      "--cfg=network/crosstraffic:0",
      "--cfg=network/TCP-gamma:0",
      "--cfg=smpi/wtime:0",
      "--cfg=smpi/send-is-detached-thresh:65536",
      "--cfg=smpi/os:0:3e-7:0",
      "--cfg=smpi/ois:0:3e-7:0",
      "--cfg=smpi/or:0:3e-7:0",
    ]);
  });
});

// uses the program the first test wrote
describe("simulate --program and --library: pictures", () => {
  it("draws the replay: --svg a Gantt chart of every rank, --trace the Chrome trace, from the run that prints", async () => {
    const args = ["simulate", "--machine", "ib-hdr-200", "--program", f("p.json"), "--runtime", "ib-hdr-200-mpi"];
    const plain = await run(...args, "--json");
    const drawn = await run(...args, "--json", "--svg", f("g.svg"), "--trace", f("t.json"));
    expect(drawn.code, drawn.err).toBe(0);
    // recording the timeline changes nothing the replay reports
    expect(drawn.out).toBe(plain.out);
    const makespan = (JSON.parse(plain.out) as { makespan: number }).makespan;
    const svg = readFileSync(f("g.svg"), "utf8");
    expect(svg).toContain("two-stage program (nonblocking, 30 rounds) on ib-hdr-200, runtime ib-hdr-200-mpi");
    for (let r = 0; r < 16; r++) expect(svg).toContain(`>${r}</text>`);
    for (const kind of ["send", "recv", "wait", "cpu"]) expect(svg).toMatch(new RegExp(`<title>node \\d+ ${kind}`));
    // sizes are bytes in a program
    expect(svg).toMatch(/<title>node \d+ send peer \d+ size \d+ B /);
    const trace = JSON.parse(readFileSync(f("t.json"), "utf8")) as {
      traceEvents: { ph: string; cat?: string; ts?: number; dur?: number; args?: Record<string, unknown> }[];
    };
    const spans = trace.traceEvents.filter((e) => e.ph === "X");
    const kinds = new Set(spans.map((e) => e.cat));
    for (const kind of ["send", "recv", "wait", "cpu"]) expect(kinds).toContain(kind);
    expect(spans.every((e) => typeof e.args!.bytes === "number")).toBe(true);
    expect(Math.max(...spans.map((e) => e.ts! + e.dur!))).toBeCloseTo(makespan, 3);
    const raster = await run(...args, "--svg", f("r.svg"), "--svg-view", "raster");
    expect(raster.code, raster.err).toBe(0);
    expect(readFileSync(f("r.svg"), "utf8")).toContain("each cell shows the kind that fills most of its time");
    // MPI_Alltoallv under a library mirror draws alike
    const lib = await run(
      "simulate",
      f("m.json"),
      "--machine",
      "ib-hdr-200",
      "--library",
      "pair",
      "--trace",
      f("l.json"),
    );
    expect(lib.code, lib.err).toBe(0);
    expect(JSON.parse(readFileSync(f("l.json"), "utf8")).traceEvents.length).toBeGreaterThan(16 * 15);
    // refused in one line before anything runs: stdout is the result's, --svg-view needs --svg, no output onto an input
    const before = readFileSync(f("p.json"));
    for (const [extra, message] of [
      [["--svg", "-"], /--svg -: stdout already carries the simulation result/],
      [["--svg-view", "lanes"], /--svg-view goes with --svg/],
      [["--trace", f("p.json")], /p\.json/],
    ] as const) {
      const r = await run(...args, ...extra);
      expect(r.code).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toMatch(message);
    }
    expect(readFileSync(f("p.json")).equals(before)).toBe(true);
  });
});
