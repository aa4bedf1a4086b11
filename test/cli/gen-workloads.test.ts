/** commplan gen for the workload patterns: --file for spmv, notes on stderr, refusals in one line, and `commplan patterns` listing them. */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("workloads");
const FIXTURE = new URL("../fixtures/matrices/west0479.mtx", import.meta.url).pathname;

describe("commplan gen, workload patterns", () => {
  it("spmv --file reads the Matrix Market matrix; the notes go to stderr; plan and verify pass", async () => {
    const m = join(dir, "spmv.json");
    const r = await run("gen", "spmv", "--p", "8", "--file", FIXTURE, "-o", m);
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      "gen: spmv: 479 x 479 matrix, 1910 stored entries; 30 messages carry 506 x entries\n" +
        `gen: spmv: P = 8, 30 non-zero entries, json -> ${m}\n`,
    );
    expect((JSON.parse(readFileSync(m, "utf8")) as { p: number }).p).toBe(8);
    const s = join(dir, "spmv-plan.json");
    expect((await run("plan", m, "--algorithm", "shift", "--payload", "-o", s)).code).toBe(0);
    expect((await run("verify", s, "--matrix", m)).code).toBe(0);
  });

  it("moe, halo and shuffle take their options as flags and tell their notes", async () => {
    const moe = await run(
      "gen",
      "moe",
      "--p",
      "4",
      "--tokens",
      "10",
      "--k",
      "1",
      "--capacityFactor",
      "0.5",
      "-o",
      join(dir, "moe.json"),
    );
    expect(moe.code).toBe(0);
    expect(moe.err).toMatch(
      /^gen: moe: \d+ of 40 token copies dropped \(\d+\.\d\d%\); capacity 2 copies per expert per rank\ngen: moe: P = 4, \d+ non-zero entries, json -> \S+moe\.json\n$/,
    );
    const halo = await run(
      "gen",
      "halo",
      "--p",
      "64",
      "--neighbours",
      "26",
      "--periodic",
      "1",
      "-o",
      join(dir, "halo.json"),
    );
    expect(halo.err).toBe(
      "gen: halo: process grid 4 x 4 x 4, 26 neighbours, periodic\n" +
        `gen: halo: P = 64, 1664 non-zero entries, json -> ${join(dir, "halo.json")}\n`,
    );
    const shuffle = await run(
      "gen",
      "shuffle",
      "--p",
      "4",
      "--range",
      "1",
      "--rows",
      "100",
      "-o",
      join(dir, "sh.json"),
    );
    expect(shuffle.code).toBe(0);
  });

  it("refuses in one line: spmv without --file, --file for another pattern, a missing file, a bad line", async () => {
    const none = await run("gen", "spmv", "--p", "4");
    expect([none.code, none.err]).toEqual([
      2,
      expect.stringMatching(/^gen: pattern 'spmv' needs a sparse matrix: --file path\.mtx .*\n$/),
    ]);
    const other = await run("gen", "halo", "--p", "4", "--file", FIXTURE);
    expect([other.code, other.err]).toEqual([2, "gen: pattern 'halo' reads no file; it takes no --file\n"]);
    const missing = await run("gen", "spmv", "--p", "4", "--file", join(dir, "nope.mtx"));
    expect([missing.code, missing.err]).toEqual([2, `gen: ${join(dir, "nope.mtx")}: no such file\n`]);
    const bad = await run("gen", "moe", "--p", "2", "--k", "3");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/option 'k' of pattern 'moe' must be at most the number of experts/);
  });

  it("commplan patterns lists the workloads, spmv with its --file", async () => {
    const r = await run("patterns");
    for (const name of ["moe", "halo", "shuffle", "spmv"]) expect(r.out).toMatch(new RegExp(`^${name}: `, "m"));
    expect(r.out).toContain("    --file <path> (required): a Matrix Market coordinate file");
    const json = JSON.parse((await run("patterns", "--json")).out) as { name: string; file?: { kind: string } }[];
    expect(json.find((d) => d.name === "spmv")!.file!.kind).toBe("sparse-matrix");
    expect(json.find((d) => d.name === "moe")!.file).toBeUndefined();
  });
});
