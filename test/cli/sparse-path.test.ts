/**
 * The sparse path end to end through the CLI: a P = 16384 halo exchange read from Matrix Market,
 * every command run under a 256 MiB budget, so that any dense P x P copy (2 GiB) is refused and
 * fails the test. Planners whose output is P^2 refuse up front with their estimate.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("sparse-path");
const f = (name: string): string => join(dir, name);
const BUDGET = ["--max-memory", "256M"];

beforeAll(async () => {
  // faces only (6 neighbours): 94,208 messages (not periodic), enough to catch a P^2 array, cheap to
  // plan; 4^3 cells per rank (16 elements a face) so that verify-program's execution stays small
  const r = await run(
    "gen",
    "halo",
    "--p",
    "16384",
    "--dims",
    "3",
    "--neighbours",
    "6",
    "--nx",
    "4",
    "--ny",
    "4",
    "--nz",
    "4",
    "-o",
    f("h.mtx"),
  );
  expect(r.code, r.err).toBe(0);
});

describe("a sparse P = 16384 matrix under a 256 MiB budget", () => {
  it("stats names the storage and the entries", async () => {
    const r = await run("stats", f("h.mtx"), ...BUDGET);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/storage +sparse +94,208 non-zero entries/);
  });

  for (const algorithm of ["shift", "linear-permutation", "coloring", "split-coloring", "rs-n"]) {
    it(`${algorithm}: plan, verify, cost, simulate and show without a dense copy`, async () => {
      const s = f(`${algorithm}.json`);
      const plan = await run("plan", f("h.mtx"), "-a", algorithm, "-o", s, ...BUDGET);
      expect(plan.code, plan.err).toBe(0);
      const verify = await run("verify", s, "-m", f("h.mtx"), ...BUDGET);
      expect(verify.code, verify.err + verify.out).toBe(0);
      expect(verify.out).not.toMatch(/FAIL/);
      for (const cmd of [
        ["cost", s, "--machine", "t3d-004"],
        ["simulate", s, "--machine", "t3d-004"],
        ["show", s],
      ]) {
        const r = await run(...cmd, ...BUDGET);
        expect(r.code, `${cmd[0]}: ${r.err}`).toBe(0);
      }
    });
  }

  it("shift's plan has only the steps that carry a message (6 offsets)", () => {
    const doc = JSON.parse(readFileSync(f("shift.json"), "utf8")) as { stages: { steps: unknown[] }[] };
    expect(doc.stages[0]!.steps.length).toBe(6);
  });

  for (const variant of ["nonblocking", "blocking"]) {
    it(`export writes a ${variant} program in the peer form (the non-zero blocks only), and verify-program passes it`, async () => {
      const p = f(`p-${variant}.json`);
      const r = await run(
        "export",
        f("coloring.json"),
        "-m",
        f("h.mtx"),
        "-f",
        "program",
        "--variant",
        variant,
        "-o",
        p,
        ...BUDGET,
      );
      expect(r.code, r.err).toBe(0);
      const doc = JSON.parse(readFileSync(p, "utf8")) as { ranks: { sendPeers: number[]; recvCounts: number[] }[] };
      expect(doc.ranks).toHaveLength(16384);
      expect(doc.ranks[0]!.sendPeers).toEqual([1, 16, 512]); // the three faces of a corner rank (grid 32 x 32 x 16)
      expect(doc.ranks[0]!.recvCounts).toEqual([16, 16, 16]);
      const v = await run("verify-program", p, "-m", f("h.mtx"), ...BUDGET);
      expect(v.code, v.err + v.out).toBe(0);
      expect(v.out).toMatch(/all checks hold/);
    });
  }

  it("export writes GOAL from the peer form; the full form is refused in one line with its estimate", async () => {
    const r = await run("export", f("shift.json"), "-m", f("h.mtx"), "-f", "goal", "-o", f("g.goal"), ...BUDGET);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(f("g.goal"), "utf8")).toMatch(/^num_ranks 16384$/m);
    const full = await run(
      "export",
      f("shift.json"),
      "-m",
      f("h.mtx"),
      "-f",
      "program",
      "--layout",
      "full",
      "-o",
      f("full.json"),
      ...BUDGET,
    );
    expect(full.code).toBe(2);
    expect(full.err).toMatch(
      /^export: a full-form layout \(P blocks per rank\) at P = 16384 needs about 8 GiB, past the memory budget of 256 MiB/,
    );
    expect(full.err.trim().split("\n")).toHaveLength(1);
  });

  it("auto weighs the O(E) planners only, and its plan verifies", async () => {
    const s = f("auto.json");
    const r = await run("plan", f("h.mtx"), "-a", "auto", "--machine", "t3d-004", "-o", s, ...BUDGET);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(readFileSync(s, "utf8")) as { auto: { candidates: { note?: string }[] } };
    expect(JSON.stringify(doc.auto)).toMatch(/a sparse matrix at P = 16384/);
    const verify = await run("verify", s, "-m", f("h.mtx"), ...BUDGET);
    expect(verify.code, verify.err + verify.out).toBe(0);
  });

  it("two-stage and four-stage refuse up front, naming their estimate", async () => {
    for (const algorithm of ["two-stage", "four-stage"]) {
      const r = await run("plan", f("h.mtx"), "-a", algorithm, "-o", f("x.json"), ...BUDGET);
      expect(r.code, `${algorithm}: ${r.out}`).toBe(2);
      expect(r.err).toMatch(/about [\d.]+ [GM]iB/);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
  });
});
