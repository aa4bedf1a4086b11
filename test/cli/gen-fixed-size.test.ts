import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_DENSE_P, MAX_P } from "../../src/model/limits.js";
import { PATTERNS } from "../../src/patterns/index.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("gen-fixed-size");

// `commplan patterns` lists ranka-fig1 and wang-table1 as "(P = 8)", and --p can be nothing else for them: gen used to
// refuse them without --p ("required option '-p, --ranks <n>' not specified")
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
      "gen: pattern 'ranka-fig1' is a fixed 8 x 8 matrix; p must be 8, got 16\n",
    ]);
    const any = await run("gen", "uniform", "-o", join(dir, "y.json"));
    expect(any.code).toBe(2);
    expect(any.err).toMatch(/required option '-p, --ranks <n>' not specified/);
  });
});

// gen --help said P was 1..1048576 for every pattern, while every pattern but the sparse ones refuses P > 16384
describe("gen --help's range of P is the one gen keeps", () => {
  it("names the largest P of a dense pattern and every sparse pattern; one past each is refused", async () => {
    const help = (await run("gen", "--help")).out.replace(/\s+/g, " ");
    const sparse = PATTERNS.filter((d) => d.sparse === true).map((d) => d.name);
    expect(sparse.length).toBeGreaterThan(0);
    expect(help).toContain(
      `number of nodes P (1..${MAX_DENSE_P}, or 1..${MAX_P} for ${sparse.join(" and ")}, which make a sparse matrix;`,
    );
    for (const d of PATTERNS.filter((x) => x.fixedP === undefined && x.file === undefined)) {
      const over = d.sparse === true ? MAX_P + 1 : MAX_DENSE_P + 1;
      const r = await run("gen", d.name, "-p", String(over), "-o", join(dir, "over.json"));
      expect([r.code, r.err.split("\n").length], d.name).toEqual([2, 2]);
      expect(r.err).toContain(`${over}`);
    }
  });
});
