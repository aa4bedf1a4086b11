/** commplan compare --runtime: every plan timed on an MPI runtime as plan -a auto --runtime times it, and ranked so. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("compare-runtime");
const f = (name: string): string => join(dir, name);

interface Doc {
  best: string;
  rows: { algorithm: string }[];
  runtime: { name: string; libraryDefaultUs: number; times: { algorithm: string; us: number; variant: string }[] };
}
interface AutoHeader {
  auto: {
    candidates: { algorithm: string; params: object; simulated: number | null }[];
    mpi: { mpiSimulated: number };
    runtime: { name: string; variant: string };
  };
  algorithm: string;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

describe("commplan compare --runtime", () => {
  it("on a network: the times and the default's are plan -a auto --runtime --exhaustive's; valid JSON; the text names the runtime", async () => {
    expect((await run("gen", "halo", "--ranks", "16", "-o", f("h.json"))).code).toBe(0);
    const net = ["--machine", "ib-hdr-200", "--network", "fat-tree:k=4", "--runtime", "ib-hdr-200-mpi"];
    const picked = ["--algorithms", "shift,two-stage,mesh-two-stage,hierarchical,mpi-linear,mpi-bruck"];
    const j = await run("compare", f("h.json"), ...net, ...picked, "--json");
    expect(j.code).toBe(0);
    const doc = JSON.parse(j.out) as Doc;
    expect(() => validateWithSchema("compare", doc, "test")).not.toThrow();
    expect(doc.runtime.name).toBe("ib-hdr-200-mpi");
    // planners told apart on this runtime: at least three times
    expect(new Set(doc.runtime.times.map((t) => t.us)).size).toBeGreaterThanOrEqual(3);
    const a = await run("plan", f("h.json"), "-a", "auto", ...net, "--exhaustive", "-o", f("a.json"));
    expect(a.code).toBe(0);
    const auto = (JSON.parse(readFileSync(f("a.json"), "utf8")) as AutoHeader).auto;
    expect(round(doc.runtime.libraryDefaultUs)).toBe(auto.mpi.mpiSimulated);
    for (const t of doc.runtime.times) {
      // the planner's default parameters: auto's first variant of it (mesh-two-stage's schedule=shift)
      const same = auto.candidates.find((c) => c.algorithm === t.algorithm)!;
      expect(round(t.us), t.algorithm).toBe(same.simulated);
    }
    const least = Math.min(...doc.runtime.times.map((t) => t.us));
    expect(doc.runtime.times.find((t) => t.algorithm === doc.best)!.us).toBe(least);
    const text = await run("compare", f("h.json"), ...net, ...picked);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/\balgorithm .* simulated us +x bound +ib-hdr-200-mpi us\n/);
    expect(text.out).toContain("replayed as runtime ib-hdr-200-mpi runs it");
    expect(text.out).toContain(
      "on network fat-tree:k=4, with unlimited ports (a port count is the simulated machine's); it ranks the plans, not the simulated machine\n",
    );
    expect(text.out).toContain(`* fastest on runtime ib-hdr-200-mpi: ${doc.best}\n`);
    expect(text.out).toMatch(
      /\nMPI_Alltoallv's default on runtime ib-hdr-200-mpi, as the library runs it \(every pair posted at once\): [\d.]+ us\n/,
    );
  });

  it("bad input: an unknown runtime with a did-you-mean, and what it does not go with, in one line; nothing written", async () => {
    expect((await run("gen", "uniform", "--p", "4", "-o", f("u.json"))).code).toBe(0);
    const cases: [string[], RegExp][] = [
      [["--runtime", "smpj"], /^compare: --runtime: unknown runtime model 'smpj' \(did you mean smpi\?\)\n$/],
      [["--runtime", "smpi", "--sweep", "1,2"], /^compare: --runtime does not go with --sweep, which shows/],
      [["--runtime", "smpi", "--svg", f("x.svg")], /^compare: --runtime does not go with --svg/],
      [["--runtime", "smpi", "--html", f("x.html")], /^compare: --runtime does not go with --html/],
      [["--free-copies"], /^compare: --free-copies goes with --runtime/],
    ];
    for (const [extra, msg] of cases) {
      const r = await run("compare", f("u.json"), "--machine", "t3d-004", ...extra);
      expect(r.code, extra.join(" ")).toBe(2);
      expect(r.err).toMatch(msg);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.out).toBe("");
    }
    expect(existsSync(f("x.svg")) || existsSync(f("x.html"))).toBe(false);
    const h = await run("compare", "--help");
    expect(h.out).toContain("--runtime <name>");
    expect(h.out).toContain("--free-copies");
  });
});
