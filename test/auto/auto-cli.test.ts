/** plan --algorithm auto on the command line: it plans, the schedule verifies and reads back with its auto block, --help says what auto does, and bad requests are refused. */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseScheduleJsonText } from "../../src/io/schedule-json-read.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("auto");

describe("plan --algorithm auto", () => {
  it("writes a schedule whose header has the auto block; verify accepts it; it reads back", async () => {
    const m = join(dir, "m.json"),
      s = join(dir, "s.json");
    expect((await run("gen", "liu-pattern3", "--p", "16", "--seed", "3", "-o", m)).code).toBe(0);
    const r = await run("plan", m, "--algorithm", "auto", "--machine", "t3d-004", "--payload", "-o", s);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^plan: auto chose \S+ .*lowest simulated makespan/);
    const text = readFileSync(s, "utf8");
    const doc = JSON.parse(text) as {
      algorithm: string;
      auto: { winner: { algorithm: string }; candidates: unknown[] };
    };
    expect(doc.auto.winner.algorithm).toBe(doc.algorithm);
    expect(doc.auto.candidates.length).toBeGreaterThan(5);
    const back = parseScheduleJsonText(text, s);
    expect(back.auto).toEqual(doc.auto);
    expect((await run("verify", s, "--matrix", m)).code).toBe(0);
    // a plan without auto has no auto key
    const plain = join(dir, "p.json");
    expect((await run("plan", m, "--algorithm", "shift", "-o", plain)).code).toBe(0);
    expect(JSON.parse(readFileSync(plain, "utf8"))).not.toHaveProperty("auto");
  });

  it("--runtime: the header names the runtime and the variant to export, which runs; --runtime needs auto and a known name", async () => {
    const m = join(dir, "rt.json"),
      s = join(dir, "rt-s.json"),
      prog = join(dir, "rt-prog.json");
    expect((await run("gen", "random", "--p", "16", "-o", m)).code).toBe(0);
    const r = await run(
      "plan",
      m,
      "-a",
      "auto",
      "--machine",
      "ib-hdr-200",
      "--runtime",
      "ib-hdr-200-mpi",
      "--payload",
      "-o",
      s,
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(s, "utf8")) as { auto: { runtime: { name: string; variant: string } } };
    expect(doc.auto.runtime.name).toBe("ib-hdr-200-mpi");
    expect(r.err).toContain(`export --variant ${doc.auto.runtime.variant}`);
    const e = await run("export", s, "--matrix", m, "-f", "program", "--variant", doc.auto.runtime.variant, "-o", prog);
    expect(e.code).toBe(0);
    const sim = await run(
      "simulate",
      "--program",
      prog,
      "--machine",
      "ib-hdr-200",
      "--runtime",
      "ib-hdr-200-mpi",
      "--json",
    );
    expect(sim.code).toBe(0);
    expect(r.err).toMatch(/^plan: (use the plan|call MPI_Alltoallv)/m);
    const bad = await run("plan", m, "-a", "shift", "--runtime", "smpi");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--runtime goes with --algorithm auto/);
    const unknown = await run("plan", m, "-a", "auto", "--machine", "ib-hdr-200", "--runtime", "smpj");
    expect(unknown.err).toMatch(/unknown runtime model 'smpj'/);
    expect(unknown.err.trim().split("\n")).toHaveLength(1);
  });

  it("--network: the finalists are simulated on it and the header names it; --network and --port-sharing need auto and a network", async () => {
    const m = join(dir, "u.json"),
      s = join(dir, "n.json");
    expect((await run("gen", "uniform", "--p", "16", "--size", "64", "-o", m)).code).toBe(0);
    const net = ["--network", "fat-tree:oversub=4"];
    const r = await run("plan", m, "--algorithm", "auto", "--machine", "ib-hdr-200", ...net, "-o", s);
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(s, "utf8")) as { auto: { network: unknown } };
    expect(doc.auto.network).toEqual({ name: "fat-tree:oversub=4", portSharing: "serial" });
    for (const [args, msg] of [
      [["--algorithm", "shift", ...net], /^plan: --network goes with --algorithm auto/],
      [
        ["--algorithm", "auto", "--machine", "ib-hdr-200", "--port-sharing", "fair"],
        /^plan: --port-sharing goes with --network/,
      ],
      [
        ["--algorithm", "auto", "--machine", "cm5-fat-tree", ...net],
        /^plan: --network replaces the machine's topology; cm5-fat-tree is on cm5-fat-tree/,
      ],
    ] as const) {
      const bad = await run("plan", m, ...args, "-o", join(dir, "x.json"));
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(msg);
      expect(bad.err.trim().split("\n")).toHaveLength(1);
    }
  });

  it("--help says what auto does", async () => {
    const h = await run("plan", "--help");
    const text = (h.out + h.err).replace(/\s+/g, " ");
    expect(text).toMatch(
      /or auto: needs --machine \(or a --runtime made for one machine\), prices every applicable planner/,
    );
    expect(text).toMatch(/simulates mpi-linear, shift, linear-permutation, .* and the \d+ best predictions/);
    expect(text).toMatch(/answers "call MPI_Alltoallv" when/);
  });

  it("needs --machine and refuses --param, exit 2 with one line", async () => {
    const m = join(dir, "m2.json");
    await run("gen", "pattern1", "--p", "8", "-o", m);
    const a = await run("plan", m, "--algorithm", "auto");
    expect(a.code).toBe(2);
    expect(a.err.trim()).toMatch(/^plan: --algorithm auto needs --machine/);
    expect(a.err.trim().split("\n")).toHaveLength(1);
    const b = await run("plan", m, "--algorithm", "auto", "--machine", "cm5-004", "--param", "x=1");
    expect(b.code).toBe(2);
    expect(b.err.trim()).toMatch(/^plan: --algorithm auto chooses the parameters itself/);
  });
});

describe("plan --algorithm auto --exhaustive", () => {
  it("--exhaustive: every finalist gets a time, the winner is the same; --exhaustive needs auto", async () => {
    const m = join(dir, "ex.json");
    expect((await run("gen", "uniform", "--p", "16", "-o", m)).code).toBe(0);
    const base = ["plan", m, "-a", "auto", "--machine", "ib-hdr-200", "--runtime", "ib-hdr-200-mpi"];
    base.push("--element-bytes", "1");
    type Auto = { winner: unknown; candidates: { simulated: number | null; note: string }[] };
    const autoOf = async (...more: string[]): Promise<Auto> => {
      const out = join(dir, `ex-${more.length}.json`);
      expect((await run(...base, ...more, "-o", out)).code).toBe(0);
      return (JSON.parse(readFileSync(out, "utf8")) as { auto: Auto }).auto;
    };
    const pruned = await autoOf();
    const all = await autoOf("--exhaustive");
    const skipped = (a: Auto) => a.candidates.filter((c) => /^finalist, not simulated: its lower bound/.test(c.note));
    expect(skipped(pruned).length).toBeGreaterThan(0);
    expect(skipped(all)).toEqual([]);
    const timed = (a: Auto) => a.candidates.filter((c) => c.simulated !== null).length;
    expect(timed(all)).toBe(timed(pruned) + skipped(pruned).length);
    expect(all.winner).toEqual(pruned.winner);
    const bad = await run("plan", m, "-a", "shift", "--exhaustive");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^plan: --exhaustive goes with --algorithm auto/);
  });
});

describe("plan --algorithm auto --runtime", () => {
  it("--runtime without --payload: a relaying winner is written at element level, so the printed export runs", async () => {
    const m = join(dir, "rt-u.json"),
      s = join(dir, "rt-u-s.json"),
      prog = join(dir, "rt-u-prog.json");
    expect((await run("gen", "uniform", "--p", "16", "--seed", "1", "-o", m)).code).toBe(0);
    const r = await run("plan", m, "-a", "auto", "--machine", "ib-hdr-200", "--runtime", "ib-hdr-200-mpi", "-o", s);
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(s, "utf8")) as {
      algorithm: string;
      auto: { runtime: { variant: string } };
      transfers: { chunks?: unknown }[];
    };
    // mesh-two-stage relays: its export needs the chunks
    expect(doc.algorithm).toBe("mesh-two-stage");
    const variant = doc.auto.runtime.variant;
    expect(r.err).toContain(`export --variant ${variant}`);
    const e = await run("export", s, "--matrix", m, "-f", "program", "--variant", variant, "-o", prog);
    expect([e.code, e.err.split("\n")[0]]).toEqual([0, expect.stringMatching(/^export: mesh-two-stage, P = 16/)]);
  });
});

describe("plan --algorithm auto --ports", () => {
  it("--ports k: auto chooses for the machine with k ports, as compare and simulate take it; refused without auto", async () => {
    const m = join(dir, "ports.json"),
      s = join(dir, "ports-s.json");
    expect((await run("gen", "h-relation", "--p", "8", "-o", m)).code).toBe(0);
    const one = await run("plan", m, "-a", "auto", "--machine", "ib-hdr-200", "-o", s);
    expect(one.err).toMatch(/the ib-hdr-200 model's \(1 port per node\)/);
    const four = await run("plan", m, "-a", "auto", "--machine", "ib-hdr-200", "--ports", "4", "-o", s);
    expect(four.code).toBe(0);
    expect(four.err).toMatch(/the ib-hdr-200 model's \(4 ports per node\)/);
    const help = (await run("plan", "--help")).out.replace(/\s+/g, " ");
    expect(help).toContain("send and receive ports per node on the simulated machine (default: the machine's)");
    for (const [args, err] of [
      [["--ports", "0"], /--ports must be an integer in 1\.\.1024, got '0'\n$/],
      [["--ports", "unlimited"], /^plan: --ports unlimited is not supported: the simulator replays a finite number/],
      [["--ports", "2", "--runtime", "ib-hdr-200-mpi"], /^plan: --ports goes with the simulated machine: a --runtime/],
    ] as const) {
      const r = await run("plan", m, "-a", "auto", "--machine", "ib-hdr-200", ...args, "-o", s);
      expect({ code: r.code, lines: r.err.trimEnd().split("\n").length }).toEqual({ code: 2, lines: 1 });
      expect(r.err).toMatch(err);
    }
    const shift = await run("plan", m, "-a", "shift", "--ports", "2", "-o", s);
    expect(shift.err).toBe("plan: --ports goes with --algorithm auto (it simulates the finalists there)\n");
  });
});
