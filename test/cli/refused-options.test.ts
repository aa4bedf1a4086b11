/** Options that were accepted and then silently ignored or overridden are refused with one line and exit 2 (issue 11 item 8), and enumerated options are checked by commander's choices. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("refused");
const f = (name: string): string => join(dir, name);

/** Runs argv, expects exit 2, nothing on stdout and exactly `line` on stderr. */
async function refused(argv: string[], line: string): Promise<void> {
  const r = await run(...argv);
  expect(r.code).toBe(2);
  expect(r.out).toBe("");
  expect(r.err).toBe(`${line}\n`);
}

describe("options that exclude each other or do not apply are refused, naming the conflict", () => {
  it("setup: a matrix and a schedule", async () => {
    expect((await run("gen", "uniform", "--p", "8", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "shift", "-o", f("s.json"))).code).toBe(0);
  });

  it("plan: a --param key given twice (the later used to win)", async () => {
    await refused(
      ["plan", f("m.json"), "-a", "rs-nh", "--param", "factor=2", "--param", "factor=3"],
      "plan: --param factor is given twice ('factor=2' and 'factor=3'); give it once",
    );
    expect((await run("plan", f("m.json"), "-a", "rs-nh", "--param", "factor=2", "--param", "cutoff=mean")).code).toBe(
      0,
    );
  });

  it("export: --layout or --variant with a format that writes the schedule itself (arrow ignored them)", async () => {
    const lowered = "program or simgrid or goal or msccl-xml";
    await refused(
      ["export", f("s.json"), "-f", "arrow", "--layout", "peers", "-o", f("x.arrow")],
      `export: --layout goes with --format ${lowered} (arrow writes the schedule, not a program)`,
    );
    await refused(
      ["export", f("s.json"), "-f", "arrow", "--variant", "nonblocking", "-o", f("x.arrow")],
      `export: --variant goes with --format ${lowered} (arrow writes the schedule, not a program)`,
    );
    expect((await run("export", f("s.json"), "-f", "arrow", "-o", f("x.arrow"))).code).toBe(0);
    const lowering = ["-m", f("m.json"), "--layout", "peers", "--variant", "dataflow", "-o", f("x.prog.json")];
    expect((await run("export", f("s.json"), "-f", "program", ...lowering)).code).toBe(0);
  });

  it("cost: --steps with --mode nonblocking (printed nothing for the steps)", async () => {
    await refused(
      ["cost", f("s.json"), "--machine", "t3d-004", "--mode", "nonblocking", "--steps"],
      "cost: --steps lists the steps of the blocking mode; the nonblocking cost has no per-step times",
    );
    expect((await run("cost", f("s.json"), "--machine", "t3d-004", "--steps")).code).toBe(0);
  });

  it("show: --svg - with --json (the JSON was dropped)", async () => {
    await refused(
      ["show", f("s.json"), "--svg", "-", "--json"],
      "show: --svg -: stdout carries the SVG in place of the text, so --json has nowhere to go; write --svg to a file",
    );
    const r = await run("show", f("s.json"), "--svg", f("g.svg"), "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).stage).toBe(1);
    expect(readFileSync(f("g.svg"), "utf8")).toMatch(/^<svg /);
  });

  it("simulate: --buffers other than 1 or 2 (the help's values)", async () => {
    await refused(
      ["simulate", f("s.json"), "--machine", "t3d-004", "--mode", "nonblocking", "--buffers", "3"],
      "simulate: option '--buffers <n>': unknown value '3'; known: 1, 2 (add --help for usage)",
    );
    expect(
      (await run("simulate", f("s.json"), "--machine", "t3d-004", "--mode", "nonblocking", "--buffers", "1")).code,
    ).toBe(0);
  });

  it("gen: --element-bytes with the pattern option --elementBytes (the later used to win), in either order", async () => {
    const line =
      "gen: option '--elementBytes <value>' cannot be used with option '--element-bytes <n>' (add --help for usage)";
    await refused(["gen", "uniform", "--p", "4", "--element-bytes", "4", "--elementBytes", "16"], line);
    await refused(["gen", "uniform", "--p", "4", "--elementBytes", "16", "--element-bytes", "4"], line);
    for (const flag of ["--element-bytes", "--elementBytes"]) {
      expect((await run("gen", "uniform", "--p", "2", flag, "12", "-o", f("eb.json"))).code).toBe(0);
      expect(JSON.parse(readFileSync(f("eb.json"), "utf8")).elementBytes).toBe(12);
    }
    await refused(
      ["gen", "uniform", "--p", "4", "--elementBytes", "0"],
      "gen: --elementBytes must be an integer in 1..1048576, got '0'",
    );
  });

  it("export: --out with --format program (the program went to stdout), --chunk with a format other than msccl-xml (ignored)", async () => {
    await refused(
      ["export", f("s.json"), "-m", f("m.json"), "-f", "program", "--out", f("prog")],
      "export: --format program writes one file (-o FILE, or nothing for stdout) or one per rank (--split DIR), not --out",
    );
    await refused(
      ["export", f("s.json"), "-m", f("m.json"), "-f", "goal", "--chunk", "3"],
      "export: --chunk goes with --format msccl-xml (goal has no chunks)",
    );
    await refused(
      ["export", f("s.json"), "-f", "arrow", "--chunk", "3", "-o", f("s.arrow")],
      "export: --chunk goes with --format msccl-xml (arrow has no chunks)",
    );
    expect((await run("export", f("s.json"), "-m", f("m.json"), "-f", "msccl-xml", "--chunk", "1")).code).toBe(0);
  });

  it("gen and patterns name the documented --element-bytes, not the pattern option's name --elementBytes", async () => {
    const listing = (await run("patterns")).out;
    expect(listing).toContain("    --element-bytes (default 8, integer");
    expect(listing).not.toContain("--elementBytes");
    await refused(
      ["gen", "pattern1", "--p", "4", "--neighbours", "3"],
      "gen: pattern 'pattern1' has no option --neighbours (its options: --mmax, --small, --element-bytes)",
    );
  });

  it("an integer option without an upper limit says '>= min', not 'in min..9007199254740991'", async () => {
    // past 2^53 - 1 an integer is named as too large; a hugely negative one is below the range
    for (const [v, why] of [
      ["0", "must be an integer >= 1"],
      ["9007199254740993", "is past the largest integer taken (2^53 - 1)"],
      ["-99999999999999999999", "must be an integer >= 1"],
    ] as const)
      await refused(["show", f("s.json"), "--stage", v], `show: --stage ${why}, got '${v}'`);
  });

  it("gen: --sparse with --dense", async () => {
    await refused(
      ["gen", "uniform", "--p", "4", "--sparse", "--dense"],
      "gen: option '--sparse' cannot be used with option '--dense' (add --help for usage)",
    );
  });
});

describe("enumerated options are checked by commander's choices, one line and exit 2", () => {
  const cases: [string[], string][] = [
    [
      ["gen", "uniform", "--p", "4", "--format", "xml"],
      "gen: option '-f, --format <fmt>': unknown value 'xml'; known: json, csv, mtx",
    ],
    [
      ["cost", "x.json", "--machine", "t3d-004", "--mode", "fast"],
      "cost: option '--mode <mode>': unknown value 'fast'; known: blocking, nonblocking",
    ],
    [
      ["simulate", "x.json", "--machine", "t3d-004", "--mode", "fast"],
      "simulate: option '--mode <mode>': unknown value 'fast'; known: blocking, nonblocking",
    ],
    [
      ["simulate", "x.json", "--machine", "t3d-004", "--topology", "ring"],
      "simulate: option '--topology <name>': unknown value 'ring'; known: flat, cm5-fat-tree, ocpc",
    ],
    [
      ["simulate", "x.json", "--machine", "t3d-004", "--protocol", "nope"],
      "simulate: option '--protocol <name>': unknown value 'nope'; known: async, drs-n",
    ],
  ];
  it("suggests the nearest choice, as the other value errors do", async () => {
    await refused(
      ["simulate", "x.json", "--machine", "t3d-004", "--mode", "nonblock"],
      "simulate: option '--mode <mode>': unknown value 'nonblock' (did you mean nonblocking?); known: blocking, " +
        "nonblocking (add --help for usage)",
    );
  });
  for (const [argv, text] of cases) {
    it(argv.slice(0, 1).concat(argv.slice(-2)).join(" "), async () => {
      await refused(argv, `${text} (add --help for usage)`);
    });
  }
});

describe("'-' as a directory of several files", () => {
  it("export --split - and --out -, store add -, precompute --store -: refused in one line; no directory named - is made", () => {
    const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
    const cwd = tempDir("dash-dir");
    const sh = (...argv: string[]) => spawnSync(process.execPath, [bin, ...argv], { cwd, encoding: "utf8" });
    expect(sh("gen", "uniform", "-p", "4", "-o", "m.json").status).toBe(0);
    expect(sh("plan", "m.json", "-a", "shift", "-o", "s.json").status).toBe(0);
    const tail =
      "'-' is no directory here (stdout cannot hold several files): give a path (./- for a directory named -)";
    for (const [argv, what] of [
      [["export", "s.json", "-m", "m.json", "-f", "program", "--split", "-"], "export: --split"],
      [["export", "s.json", "-m", "m.json", "-f", "simgrid", "--machine", "t3d-004", "--out", "-"], "export: --out"],
      [["store", "add", "-", "m.json", "-a", "shift"], "store add: the store directory"],
      [["precompute", "spec.json", "--store", "-"], "precompute: --store"],
      [["precompute", "--from-capture", "cap", "--store", "-", "--machine", "t3d-004"], "precompute: --store"],
    ] as const) {
      const r = sh(...argv);
      expect([r.status, r.stdout, r.stderr], argv.join(" ")).toEqual([2, "", `${what}: ${tail}\n`]);
      expect(existsSync(join(cwd, "-")), argv.join(" ")).toBe(false);
    }
    // a directory named - on purpose
    expect(sh("export", "s.json", "-m", "m.json", "-f", "program", "--split", "./-").status).toBe(0);
    expect(existsSync(join(cwd, "-", "index.json"))).toBe(true);
  });
});
