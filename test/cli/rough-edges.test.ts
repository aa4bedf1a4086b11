/**
 * The command line's rough edges of issue 36: an error names the spelling of the option the user typed and the command
 * the user ran, in one style of suggestion; a P = 1 schedule costs no barrier.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("a one-letter pattern option is named as typed", () => {
  it("--non-uniformity, --l and -l: the error names --non-uniformity (--l), never the letter alone", async () => {
    for (const flag of ["--non-uniformity", "--l", "-l"]) {
      const r = await run("gen", "ranka-kl", "--p", "8", flag, "0x1");
      expect([r.code, r.out], flag).toEqual([2, ""]);
      expect(r.err, flag).toBe("gen: --non-uniformity (--l) must be a number, got '0x1'\n");
    }
  });
  it("every one-letter option of every pattern: an out-of-range or malformed value names its readable flag", async () => {
    // h-relation's --messages (--h), the Wang sets' --degree (--d), ranka-kl's --fan-out (--k) and --row-sum (--t)
    for (const [pattern, letter, long] of [
      ["h-relation", "h", "messages"],
      ["wang-set1", "d", "degree"],
      ["ranka-kl", "k", "fan-out"],
      ["ranka-kl", "t", "row-sum"],
    ] as const) {
      for (const flag of [`--${long}`, `--${letter}`]) {
        const r = await run("gen", pattern, "--p", "8", flag, "x");
        expect(r.code, `${pattern} ${flag}`).toBe(2);
        expect(r.err, `${pattern} ${flag}`).toMatch(new RegExp(`^gen: --${long} \\(--${letter}\\) must be `));
      }
    }
  });
  it("a pattern without the option names it by its readable flag too", async () => {
    const r = await run("gen", "pattern1", "--p", "8", "--l", "3");
    expect(r.err).toMatch(/^gen: pattern 'pattern1' has no option --non-uniformity \(--l\) \(its options: /);
  });
  it("a camelCase alias and a kebab-case flag are each named as given", async () => {
    expect((await run("gen", "pattern1", "--p", "8", "--element-bytes", "0")).err).toMatch(
      /^gen: --element-bytes must be an integer in 1\.\./,
    );
    expect((await run("gen", "pattern1", "--p", "8", "--elementBytes", "0")).err).toMatch(
      /^gen: --elementBytes must be an integer in 1\.\./,
    );
  });
});

describe("an option's range error names the command, not commplan", () => {
  it("--ports 0 on every command that takes it", async () => {
    const dir = tempDir("rough-ports");
    const f = (n: string): string => join(dir, n);
    expect((await run("gen", "random", "--p", "4", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "shift", "-o", f("s.json"))).code).toBe(0);
    const cases: [string, string[]][] = [
      ["verify", ["verify", f("s.json"), "-m", f("m.json")]],
      ["simulate", ["simulate", f("s.json"), "--machine", "t3d-004"]],
      ["compare", ["compare", f("m.json"), "--machine", "t3d-004", "--algorithms", "shift"]],
      ["plan", ["plan", f("m.json"), "-a", "auto", "--machine", "t3d-004", "-o", f("a.json")]],
      ["check-planner", ["check-planner", "--command", "true"]],
    ];
    for (const [command, argv] of cases) {
      const r = await run(...argv, "--ports", "0");
      expect([r.code, r.out], command).toEqual([2, ""]);
      expect(r.err, command).toMatch(new RegExp(`^${command}: --ports must be an integer in 1\\.\\.\\d+`));
    }
  });
});

describe("suggestions", () => {
  it("commander's own read '(did you mean ...)' as ours do", async () => {
    const option = await run("plan", "m.json", "--algoritm", "shift");
    expect(option.err).toBe("plan: unknown option '--algoritm' (did you mean --algorithm?) (add --help for usage)\n");
    const command = await run("verfy");
    expect(command.err).toBe("commplan: unknown command 'verfy' (did you mean verify?) (add --help for usage)\n");
    const ours = await run("gen", "unifrom", "--p", "4");
    expect(ours.err).toMatch(/\(did you mean uniform\?\)/);
    for (const r of [option, command, ours]) expect(r.err).not.toMatch(/Did you mean/);
  });
});

describe("a P = 1 schedule", () => {
  it("costs no barrier: a single node has no one to wait for", async () => {
    const dir = tempDir("rough-p1");
    const f = (n: string): string => join(dir, n);
    expect((await run("gen", "uniform", "--p", "1", "-o", f("m1.json"))).code).toBe(0);
    expect((await run("plan", f("m1.json"), "-a", "two-stage", "-o", f("s1.json"))).code).toBe(0);
    const cost = await run("cost", f("s1.json"), "--machine", "t3d-004", "--json");
    expect(cost.code).toBe(0);
    const doc = JSON.parse(cost.out) as { total: number; stages: { barrier: number }[] };
    expect(doc.stages.length).toBeGreaterThan(0);
    for (const st of doc.stages) expect(st.barrier).toBe(0);
    const sim = await run("simulate", f("s1.json"), "--machine", "t3d-004", "--json");
    expect(sim.code).toBe(0);
    expect((JSON.parse(sim.out) as { makespan: number }).makespan).toBe(doc.total);
    // P = 2 still pays the machine's barrier (2 T_s = 76 us on t3d-004) in every stage
    expect((await run("gen", "uniform", "--p", "2", "-o", f("m2.json"))).code).toBe(0);
    expect((await run("plan", f("m2.json"), "-a", "two-stage", "-o", f("s2.json"))).code).toBe(0);
    const two = JSON.parse((await run("cost", f("s2.json"), "--machine", "t3d-004", "--json")).out) as {
      stages: { barrier: number }[];
    };
    for (const st of two.stages) expect(st.barrier).toBe(76);
  });
});

describe("a newcomer's audit: a missing file, an empty file, a directory", () => {
  it("each command that reads a file refuses it in one line naming it, exit 2, and writes nothing", async () => {
    const dir = tempDir("rough-audit");
    const f = (n: string): string => join(dir, n);
    expect((await run("gen", "random", "--p", "4", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "shift", "-o", f("s.json"))).code).toBe(0);
    writeFileSync(f("empty.json"), "");
    mkdirSync(f("a-dir"));
    const commands = (x: string): string[][] => [
      ["stats", x],
      ["plan", x, "-a", "shift", "-o", f("out.json")],
      ["verify", x, "-m", f("m.json")],
      ["verify", f("s.json"), "-m", x],
      ["cost", x, "--machine", "t3d-004"],
      ["show", x],
      ["simulate", x, "--machine", "t3d-004"],
      ["export", x, "-m", f("m.json"), "-f", "program", "-o", f("out.json")],
      ["export", f("s.json"), "-m", x, "-f", "program", "-o", f("out.json")],
      ["verify-program", x, "-m", f("m.json")],
      ["compare", x, "--machine", "t3d-004"],
      ["gen", "spmv", "--p", "4", "--file", x, "-o", f("out.json")],
      ["precompute", x, "--store", f("store")],
      ["store", "add", f("store"), x, "-a", "shift"],
    ];
    for (const x of [f("missing.json"), f("empty.json"), f("a-dir")])
      for (const argv of commands(x)) {
        const r = await run(...argv);
        const what = argv.join(" ");
        expect([r.code, r.out], what).toEqual([2, ""]);
        expect(r.err.split("\n"), what).toHaveLength(2); // one line and its newline
        expect(r.err, what).toContain(x);
        expect(readdirSync(dir).sort(), what).toEqual(["a-dir", "empty.json", "m.json", "s.json"]);
      }
  });
});

describe("export's summary", () => {
  it("counts one round as '1 round'", async () => {
    const dir = tempDir("rough-round");
    const f = (n: string): string => join(dir, n);
    expect((await run("gen", "random", "--p", "4", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "mpi-linear", "-o", f("s.json"))).code).toBe(0);
    const r = await run("export", f("s.json"), "-m", f("m.json"), "-f", "program", "-o", f("p.json"));
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^export: mpi-linear, P = 4, program \(nonblocking\): 1 round, /);
  });
});

describe("check-planner's module that does not load", () => {
  it("a missing file or a directory is named without the sandbox's own worker", async () => {
    const dir = join(tempDir("rough-module"), "my dir"); // Node's importer text holds the path, spaces and all
    mkdirSync(join(dir, "a-dir"), { recursive: true });
    for (const x of [join(dir, "missing.mjs"), join(dir, "a-dir")]) {
      const r = await run("check-planner", x, "--runs", "1");
      expect([r.code, r.out], x).toEqual([2, ""]);
      expect(r.err, x).toMatch(new RegExp(`^check-planner: ${x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: cannot load`));
      expect(r.err, x).not.toContain("[worker eval]");
    }
  });

  it("a TypeScript planner and a package missing beside the module are refused with what to do", async () => {
    const dir = tempDir("rough-module-hint");
    writeFileSync(join(dir, "planner.ts"), "export function plan(m: unknown): unknown { return m; }\n");
    const ts = await run("check-planner", join(dir, "planner.ts"), "--runs", "1");
    expect([ts.code, ts.out]).toEqual([2, ""]);
    expect(ts.err).toMatch(
      /cannot load the planner module: Unknown file extension "\.ts".*: check-planner runs JavaScript; compile/,
    );
    expect(ts.err.trimEnd()).not.toContain("\n");
    writeFileSync(join(dir, "imports.mjs"), 'import { x } from "no-such-package-qa";\nexport const plan = () => x;\n');
    const pkg = await run("check-planner", join(dir, "imports.mjs"), "--runs", "1");
    expect([pkg.code, pkg.out]).toEqual([2, ""]);
    expect(pkg.err).toMatch(
      /Cannot find package 'no-such-package-qa'.* \(the module's imports are resolved from its own folder: install no-such-package-qa there/,
    );
    // an installed package whose main file is missing: Node names the file's path, which is no package to install
    mkdirSync(join(dir, "node_modules", "broken-main-qa"), { recursive: true });
    writeFileSync(join(dir, "node_modules", "broken-main-qa", "package.json"), '{"main": "nope.js"}\n');
    writeFileSync(join(dir, "broken.mjs"), 'import x from "broken-main-qa";\nexport const plan = () => x;\n');
    const broken = await run("check-planner", join(dir, "broken.mjs"), "--runs", "1");
    expect([broken.code, broken.out]).toEqual([2, ""]);
    expect(broken.err).toMatch(/Cannot find (package|module)/);
    expect(broken.err).not.toContain("npm install");
  });
});

describe("a schedule or program made for another matrix", () => {
  it("is refused under the name of the command the user ran, naming both files", async () => {
    const dir = tempDir("rough-made-for");
    const f = (n: string): string => join(dir, n);
    expect((await run("gen", "random", "--p", "4", "-o", f("m4.json"))).code).toBe(0);
    expect((await run("gen", "random", "--p", "5", "-o", f("m5.json"))).code).toBe(0);
    expect((await run("plan", f("m4.json"), "-a", "mpi-linear", "-o", f("s.json"))).code).toBe(0);
    expect((await run("export", f("s.json"), "-m", f("m4.json"), "-f", "program", "-o", f("p.json"))).code).toBe(0);
    const p5 = `is for P = 4, --matrix ${f("m5.json")} has P = 5\n`;
    const exported = await run("export", f("s.json"), "-m", f("m5.json"), "-f", "program", "-o", f("q.json"));
    expect([exported.code, exported.err]).toEqual([2, `export: ${f("s.json")}: the schedule ${p5}`]);
    const program = await run("verify-program", f("p.json"), "-m", f("m5.json"));
    expect([program.code, program.err]).toEqual([2, `verify-program: ${f("p.json")}: the program ${p5}`]);
    // a schedule without a matrix digest (export lowers it): its P checked, still under export's name
    const doc = JSON.parse(readFileSync(f("s.json"), "utf8")) as object;
    writeFileSync(f("no-digest.json"), JSON.stringify({ ...doc, matrixDigest: "" }));
    const bare = await run("export", f("no-digest.json"), "-m", f("m5.json"), "-f", "program", "-o", f("q.json"));
    expect([bare.code, bare.err]).toEqual([2, `export: ${f("no-digest.json")}: the schedule ${p5}`]);
    expect(readdirSync(dir).sort()).toEqual(["m4.json", "m5.json", "no-digest.json", "p.json", "s.json"]);
  });
});

describe("help help", () => {
  it("is the program's help on stdout, exit 0, as --help", async () => {
    const help = await run("--help");
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: commplan /);
    expect(await run("help", "help")).toEqual({ code: 0, out: help.out, err: "" });
  });
});

describe("help of a command that does not exist", () => {
  it("is one usage line naming it, with a suggestion, not the whole help", async () => {
    const r = await run("help", "stor");
    expect(r).toEqual({
      code: 2,
      out: "",
      err: "commplan: unknown command 'stor' (did you mean store?) (add --help for usage)\n",
    });
    expect((await run("help", "xyzzy")).err).toBe("commplan: unknown command 'xyzzy' (add --help for usage)\n");
    // a command's help and the program's stay
    expect((await run("help", "store")).out).toMatch(/^Usage: commplan store /);
    expect((await run("help")).out).toMatch(/^Usage: commplan \[options\] \[command\]/);
  });
});

describe("store list's P filter", () => {
  it("takes --p and -p as gen and demo do, and refuses both spellings at once", async () => {
    const dir = tempDir("rough-list");
    const f = (n: string): string => join(dir, n);
    expect((await run("gen", "random", "--p", "4", "-o", f("m.json"))).code).toBe(0);
    expect((await run("store", "add", f("st"), f("m.json"), "-a", "shift")).code).toBe(0);
    const ranks = await run("store", "list", f("st"), "--ranks", "4");
    expect(ranks.code).toBe(0);
    expect(ranks.out).toMatch(/\bshift\s+4\b/);
    for (const flag of ["--p", "-p"]) expect(await run("store", "list", f("st"), flag, "4"), flag).toEqual(ranks);
    expect((await run("store", "list", f("st"), "--p", "5")).out).not.toMatch(/\bshift\b/);
    const both = await run("store", "list", f("st"), "--p", "4", "--ranks", "4");
    expect([both.code, both.err]).toEqual([
      2,
      "store list: option '--ranks <n>' cannot be used with option '--p <n>' (add --help for usage)\n",
    ]);
    expect((await run("store", "list", f("st"), "--p", "x")).err).toBe(
      "store list: --ranks (--p) must be an integer >= 1, got 'x'\n",
    );
  });
});
