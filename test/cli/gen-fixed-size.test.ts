import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("gen-fixed-size");

// `commplan patterns` lists ranka-fig1 and wang-table1 as "(P = 8)", and --p can be nothing else for them: gen used to
// refuse them without --p ("required option '--p, --ranks <n>' not specified")
describe("gen of a fixed-size pattern needs no --p", () => {
  it.each([
    ["ranka-fig1", 10],
    ["wang-table1", 32],
  ])("%s is its 8 x 8 matrix without --p, the same as with --p 8", async (pattern, total) => {
    const without = join(dir, `${pattern}.json`),
      with8 = join(dir, `${pattern}-8.json`);
    expect((await run("gen", pattern, "-o", without)).code).toBe(0);
    expect((await run("gen", pattern, "--p", "8", "-o", with8)).code).toBe(0);
    expect(readFileSync(without, "utf8")).toBe(readFileSync(with8, "utf8"));
    const m = JSON.parse(readFileSync(without, "utf8")) as { p: number; rows: number[][] };
    expect(m.p).toBe(8);
    // ranka-fig1: every row sums to t = 10; wang-table1: 32 messages of one element
    const sums = m.rows.map((r) => r.reduce((a, b) => a + b, 0));
    expect(pattern === "ranka-fig1" ? sums : sums.reduce((a, b) => a + b, 0)).toEqual(
      pattern === "ranka-fig1" ? Array(8).fill(total) : total,
    );
  });
  it("another P is still refused, and a pattern of any size still needs --p", async () => {
    const other = await run("gen", "ranka-fig1", "--p", "16", "-o", join(dir, "x.json"));
    expect([other.code, other.err]).toEqual([
      2,
      "patterns: pattern 'ranka-fig1' is a fixed 8 x 8 matrix; p must be 8, got 16\n",
    ]);
    const any = await run("gen", "uniform", "-o", join(dir, "y.json"));
    expect(any.code).toBe(2);
    expect(any.err).toMatch(/required option '--p, --ranks <n>' not specified/);
  });
});
