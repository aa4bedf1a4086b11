import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CliIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { run } from "../helpers/cli.js";
import { didYouMean, editDistance } from "../../src/internal/did-you-mean.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("forgiving");
const matrix = join(dir, "m.json");
writeFileSync(
  matrix,
  JSON.stringify({
    format: "commplan.matrix/v1",
    p: 3,
    elementBytes: 8,
    rows: [
      [0, 1, 2],
      [3, 0, 4],
      [5, 6, 0],
    ],
  }),
);

describe("did you mean", () => {
  it("counts a swap of adjacent characters as one edit", () => {
    expect(editDistance("shfit", "shift")).toBe(1);
    expect(editDistance("colouring", "coloring")).toBe(1);
    expect(didYouMean("t3d", ["t3d-004", "cm5-004"])).toBe(" (did you mean t3d-004?)");
    expect(didYouMean("zzz", ["shift"])).toBe("");
  });

  it("a name in another case is the known name it spells, however many letters differ", () => {
    expect(didYouMean("FAT-TREE", ["flat", "fat-tree", "torus"])).toBe(" (did you mean fat-tree?)");
    expect(didYouMean("T3D-004", ["t3d-004", "t3e-004"])).toBe(" (did you mean t3d-004?)");
    expect(didYouMean("Shift", ["shift", "rs-n"])).toBe(" (did you mean shift?)");
  });
});

describe("a mistyped option is named before a required one", () => {
  it("gen pattern1 -q 8 names -q, not the missing --p (-p is --p: test/cli/letter-flags.test.ts)", async () => {
    const r = await run("gen", "pattern1", "-q", "8");
    expect(r.code).toBe(2);
    expect(r.err).toBe("gen: unknown option '-q' (add --help for usage)\n");
  });
  it("plan m.json --algoritm shift names --algoritm and suggests --algorithm", async () => {
    const r = await run("plan", matrix, "--algoritm", "shift");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown option '--algoritm' \(did you mean --algorithm\?\)/);
  });
  it("a required option given no value is still refused, and --help still marks it", async () => {
    expect((await run("gen", "pattern1")).err).toMatch(/required option '-p, --ranks <n>' not specified/);
    expect((await run("gen", "--help")).out).toMatch(/-p, --ranks <n>\s+number of nodes P \([^)]*\)\s+\(required\)/);
  });
});

describe("values get a suggestion", () => {
  it.each([
    [["plan", matrix, "-a", "shfit"], "unknown algorithm 'shfit' (did you mean shift?)"],
    [["plan", matrix, "-a", "colouring"], "unknown algorithm 'colouring' (did you mean coloring?)"],
    [["gen", "patern1", "--p", "4"], "unknown pattern 'patern1' (did you mean pattern1?)"],
    // the mistyped value first, not the required option or host count also missing
    [["gen", "patern1"], "unknown pattern 'patern1' (did you mean pattern1?)"],
    [["platform", "--network", "fat-tre:k=8"], "unknown topology 'fat-tre' (did you mean fat-tree?)"],
    [["cost", matrix, "--machine", "t3d"], "unknown machine 't3d' (did you mean t3d-004 or t3d-002?)"],
    [
      ["plan", matrix, "-a", "auto", "--machine", "t3d-004", "--network", "fat-tre:k=8"],
      "unknown topology 'fat-tre' (did you mean fat-tree?)",
    ],
    [["plan", matrix, "-a", "rs-nh", "--param", "cutof=3"], "unknown parameter 'cutof' (did you mean cutoff?)"],
  ])("%j", async (argv, text) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(text);
  });
  it("store add -a cloring suggests coloring and lists auto", async () => {
    const r = await run("store", "add", "-a", "cloring", join(dir, "store"), matrix);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown algorithm 'cloring' \(did you mean coloring\?\); known: .*, auto\n$/);
  });
  it("a precompute spec's unknown algorithm lists auto", async () => {
    const spec = join(dir, "spec.json");
    writeFileSync(
      spec,
      JSON.stringify({ patterns: ["uniform"], p: [4], seeds: [1], machines: [null], algorithms: ["cloring"] }),
    );
    const r = await run("precompute", spec, "--store", join(dir, "pstore"), "--jobs", "1");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown algorithm 'cloring' \(did you mean coloring\?\); known: .*, auto\n$/);
  });
});

describe("pattern flags", () => {
  it.each([
    ["moe", "capacity-factor", "capacityFactor", "1.5"],
    ["wang-set2", "max-factor", "maxFactor", "4"],
    ["pattern1", "element-bytes", "elementBytes", "4"],
  ])("%s: --%s and the old --%s make the same matrix", async (pattern, kebab, camel, value) => {
    const a = join(dir, `${pattern}-a.json`);
    const b = join(dir, `${pattern}-b.json`);
    expect((await run("gen", pattern, "--ranks", "8", `--${kebab}`, value, "-o", a)).code).toBe(0);
    expect((await run("gen", pattern, "--p", "8", `--${camel}`, value, "-o", b)).code).toBe(0);
    expect(readFileSync(a, "utf8")).toBe(readFileSync(b, "utf8"));
  });
  it.each([
    ["wang-set1", "d", "degree", "3"],
    ["h-relation", "h", "messages", "3"],
    ["ranka-kl", "k", "fan-out", "2"],
    ["ranka-kl", "l", "non-uniformity", "0.5"],
    ["ranka-kl", "t", "row-sum", "64"],
  ])("%s: --%s and --%s are one option", async (pattern, letter, readable, value) => {
    const a = join(dir, `${pattern}-${letter}-a.json`);
    const b = join(dir, `${pattern}-${letter}-b.json`);
    expect((await run("gen", pattern, "--p", "8", `--${letter}`, value, "-o", a)).code).toBe(0);
    expect((await run("gen", pattern, "--ranks", "8", `--${readable}`, value, "-o", b)).code).toBe(0);
    expect(readFileSync(a, "utf8")).toBe(readFileSync(b, "utf8"));
  });
  it("te-table: --n / --nodes and --h / --h-over-n are one option each", async () => {
    const a = await run("te-table", "--n", "8", "--h", "2", "--seeds", "1", "--json");
    const b = await run("te-table", "--nodes", "8", "--h-over-n", "2", "--seeds", "1", "--json");
    expect(a.code).toBe(0);
    expect(b).toEqual(a);
  });
  it("te-table: a value given twice in --nodes or --h-over-n is computed and printed once", async () => {
    const once = await run("te-table", "--nodes", "8", "--h-over-n", "2", "--seeds", "1", "--json");
    const twice = await run("te-table", "--nodes", "8,8", "--h-over-n", "2,2N", "--seeds", "1", "--json");
    expect(twice.code).toBe(0);
    expect(twice).toEqual(once);
    expect((JSON.parse(twice.out) as { cells: unknown[] }).cells).toHaveLength(1);
  });
  it.each([
    ["gen", "uniform", "--p", "8", "--ranks", "16"],
    ["gen", "uniform", "--ranks=16", "--p=8"],
    ["gen", "wang-set1", "--p", "8", "--d", "3", "--degree", "2"],
    ["gen", "h-relation", "--p", "8", "--h", "3", "--messages", "2"],
    ["gen", "ranka-kl", "--p", "8", "--k", "2", "--fan-out", "2"],
    ["gen", "ranka-kl", "--p", "8", "--l", "0.5", "--non-uniformity", "0.5"],
    ["gen", "ranka-kl", "--p", "8", "--t", "64", "--row-sum", "64"],
    ["te-table", "--n", "8", "--nodes", "16", "--seeds", "1"],
    ["te-table", "--n", "8", "--h-over-n", "2", "--h", "4", "--seeds", "1"],
    ["demo", "--p", "4", "--ranks", "8"],
  ])("giving both spellings of a one-letter option is refused: %s %s %s %s %s %s", async (...args) => {
    const r = await run(...args);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(
      new RegExp(`^${args[0]}: option '--[\\w-]+ <\\w+>' cannot be used with option '--[\\w-]+ <\\w+>' \\(add --help`),
    );
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });
  it("giving both spellings of a camelCase option is refused", async () => {
    const r = await run("gen", "moe", "--p", "8", "--capacity-factor", "1.5", "--capacityFactor", "2");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot be used with/);
  });
});

describe("-o on every command that writes an output", () => {
  it.each([["gen"], ["plan"], ["export"], ["check-planner"], ["store", "get"], ["platform"]])(
    "%s takes -o, --output",
    async (...command) => {
      const r = await run(...command, "--help");
      expect(r.out).toMatch(/-o, --output <file>/);
    },
  );

  it.each([["simulate"], ["verify"], ["stats"], ["compare"], ["cost"]])(
    "%s, which prints its result on stdout, answers -o or --output with the redirection to use",
    async (command) => {
      for (const flag of ["-o", "--output"]) {
        const r = await run(command, flag, "out.txt");
        expect(r.code).toBe(2);
        expect(r.err).toBe(
          `${command}: unknown option '${flag}': ${command} prints its result on stdout; redirect it to a file (> FILE) (add --help for usage)\n`,
        );
      }
    },
  );
});

describe("-o where the result is not what stdout shows", () => {
  it.each([[["precompute", "spec.json", "--store", "st"]], [["store", "add", "st", "m.json"]]])(
    "%j: no redirection is offered (precompute prints nothing on stdout, store add the entry's id)",
    async (args) => {
      const r = await run(...args, "-o", "out.txt");
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/unknown option '-o'/);
      expect(r.err).not.toContain("redirect");
    },
  );
});

describe("stats without a file", () => {
  const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
  it("reads stdin when stdin is not a terminal", () => {
    const r = spawnSync(process.execPath, [bin, "stats", "--json"], { input: readFileSync(matrix), encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ p: 3 });
  });
  it("is a one-line usage error when stdin is a terminal", async () => {
    let err = "";
    const io: CliIo = { out: () => {}, err: (t) => void (err += t), interactive: false, stdinIsTerminal: true };
    expect(await main(["stats"], io)).toBe(2);
    expect(err).toMatch(/^stats: missing required argument 'matrix' \(give a file, or - to read the terminal\)/);
    expect(err.split("\n")).toHaveLength(2);
  });
});
