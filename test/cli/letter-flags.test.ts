/**
 * A one-letter option (`--p`, gen's `--d`, te-table's `--n`) also takes its letter as a short flag (`-p 8`, the flag a
 * user types first), and every command's --help shows it: checked for every option of every command the code
 * registers, so a new one-letter option cannot be left out.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { Command, Option } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram, expandLetterFlags } from "../../src/cli/program.js";
import type { CliContext } from "../../src/cli/context.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

/** The program with every command, as --help builds it. */
async function everyCommand(): Promise<Command> {
  const io = { out: () => undefined, err: () => undefined, interactive: false };
  const ctx: CliContext = { io, stdout: process.stdout, maxMemory: 1 << 30, exitCode: 0 };
  return buildProgram(ctx, []);
}

/** Every command and sub-command with the words that run it (`["store", "add"]`). */
function commands(program: Command): [string[], Command][] {
  return program.commands.flatMap((top) => [
    [[top.name()], top] as [string[], Command],
    ...top.commands.map((sub) => [[top.name(), sub.name()], sub] as [string[], Command]),
  ]);
}

describe("one-letter options take their letter as a short flag", () => {
  it("every option with a one-letter long flag shows -x in --help, and -x runs as --x (but -h, which is help)", async () => {
    const program = await everyCommand();
    const seen: string[] = [];
    for (const [words, c] of commands(program)) {
      const help = c.helpInformation();
      for (const o of c.options) {
        const letter = [o.short, o.long].find((f) => f !== undefined && /^--[A-Za-z]$/.test(f))?.slice(2);
        if (o.hidden || letter === undefined || letter === "h") continue;
        seen.push(`${words.join(" ")} -${letter}`);
        expect(help, `${words.join(" ")} --help`).toContain(shownTerm(o, `-${letter}`));
        // another option's value that looks like the flag stays a value
        const valued = c.options.find((v) => v !== o && v.required && v.long !== undefined)?.long ?? "--";
        const argv = [...words, `-${letter}`, "8", valued, `-${letter}`];
        const expanded = [...words, `--${letter}`, "8", valued, `-${letter}`];
        expect(expandLetterFlags(program, argv), words.join(" ")).toEqual(expanded);
      }
    }
    expect(seen).toEqual(expect.arrayContaining(["gen -p", "gen -d", "demo -p", "te-table -n", "platform -p"]));
  });

  it("gen pattern1 -p 8 writes what --p 8 writes; -p8 too; -p 8 --ranks 4 is refused as two spellings", async () => {
    const long = await run("gen", "pattern1", "--p", "8", "--seed", "3");
    expect(long.code).toBe(0);
    expect(await run("gen", "pattern1", "-p", "8", "--seed", "3")).toEqual(long);
    expect(await run("gen", "pattern1", "-p8", "--seed", "3")).toEqual(long);
    const both = await run("gen", "pattern1", "-p", "8", "--ranks", "4");
    expect(both.code).toBe(2);
    // each flag named as it was typed
    expect(both.err).toMatch(/^gen: option '--ranks <n>' cannot be used with option '-p <n>'/);
    const glued = await run("gen", "pattern1", "--ranks", "4", "-p8");
    expect(glued.err).toMatch(/^gen: option '-p <n>' cannot be used with option '--ranks <n>'/);
    const spelt = await run("gen", "pattern1", "--p", "8", "--ranks", "4");
    expect(spelt.err).toMatch(/^gen: option '--ranks <n>' cannot be used with option '--p <n>'/);
  });

  it("demo -p 4 and platform -p 4 run as --p 4; -h stays help (gen's --h is spelt long)", async () => {
    expect(await run("demo", "-p", "4", "--json")).toEqual(await run("demo", "--p", "4", "--json"));
    const platform = await run("platform", "-p", "4", "--network", "flat");
    expect(platform.code).toBe(0);
    expect(platform).toEqual(await run("platform", "-P", "4", "--network", "flat"));
    expect((await run("gen", "pattern1", "-h")).out).toMatch(/^Usage: commplan gen/);
  });

  it("help shows no one-letter long flag (--p), which stays accepted: gen --p 8 runs as -p 8 and --ranks 8", async () => {
    const program = await everyCommand();
    for (const [words, c] of commands(program)) {
      const help = c.helpInformation();
      expect(help, `${words.join(" ")} --help`).not.toMatch(/(^|[\s,(/])--[A-Za-z](?=[\s,)=]|$)/m);
    }
    expect((await run("gen", "--help")).out).toMatch(/^ {2}-p, --ranks <n> {2,}number of nodes P/m);
    const long = await run("gen", "uniform", "--p", "8");
    expect(long.code).toBe(0);
    expect(JSON.parse(long.out)).toMatchObject({ p: 8 });
    expect(await run("gen", "uniform", "-p", "8")).toEqual(long);
    expect(await run("gen", "uniform", "--ranks", "8")).toEqual(long);
    const nodes = await run("te-table", "--n", "8,8", "--h", "1", "--seeds", "1", "--json");
    expect(nodes.code).toBe(0);
    expect(await run("te-table", "--nodes", "8", "--h-over-n", "1", "--seeds", "1", "--json")).toEqual(nodes);
  });

  it("a value that looks like a letter flag stays the value of the option before it", async () => {
    const program = await everyCommand();
    expect(expandLetterFlags(program, ["gen", "pattern1", "-o", "-d", "-d", "2", "--", "-p"])).toEqual([
      "gen",
      "pattern1",
      "-o",
      "-d",
      "--d",
      "2",
      "--",
      "-p",
    ]);
  });
});

/** The single-dash flags that run option `o` of `c`: its short flag, and the letter of a one-letter long flag. */
function shortsOf(c: Command, o: Option, help: string): string[] {
  const short = o.short !== undefined && !o.short.startsWith("--") ? [o.short] : [];
  const letter = [o.short, o.long].find((f) => f !== undefined && /^--[A-Za-z]$/.test(f))?.slice(1);
  return letter !== undefined && help.includes(shownTerm(o, letter)) ? [...short, letter] : short;
}

/** How --help writes option `o` taking `letter` (`-p`): the letter, its flags but a one-letter long one, its value. */
function shownTerm(o: Option, letter: string): string {
  const flags = [o.short, o.long].filter((f): f is string => f !== undefined && !/^--[A-Za-z]$/.test(f));
  const value = o.flags.replace(/^[^<[]*/, "");
  return [letter, ...flags].join(", ") + (value === "" ? "" : ` ${value}`);
}

describe("a short flag means one option on every command", () => {
  it("an option's short flag on one command is its short flag on every command that has the option", async () => {
    const program = await everyCommand();
    const all = commands(program).map(([words, c]) => ({ words, c, help: c.helpInformation() }));
    // platform's -P (smpirun's spelling, -np) is platform's alone; its -p is the one gen and demo take
    const kept = new Set(["platform -P"]);
    const shortsByLong = new Map<string, Set<string>>();
    for (const { words, c, help } of all)
      for (const o of c.options)
        if (o.long !== undefined)
          // a short flag proper (a letter of a one-letter long flag, te-table's -n, is that option's own)
          for (const s of shortsOf(c, o, help))
            if (s === o.short && !kept.has(`${words.join(" ")} ${s}`))
              shortsByLong.set(o.long, (shortsByLong.get(o.long) ?? new Set()).add(s));
    const missing: string[] = [];
    for (const { words, c, help } of all) {
      const taken = new Set(c.options.flatMap((o) => shortsOf(c, o, help)).concat("-h"));
      for (const o of c.options) {
        const own = shortsOf(c, o, help);
        for (const s of shortsByLong.get(o.long ?? "") ?? [])
          if (!own.includes(s) && !taken.has(s)) missing.push(`${words.join(" ")} ${o.long} lacks ${s}`);
      }
    }
    expect(missing).toEqual([]);
    expect(shortsByLong.get("--format")).toEqual(new Set(["-f"]));
  });

  it("gen -f csv writes what --format csv writes", async () => {
    const long = await run("gen", "uniform", "-p", "3", "--format", "csv");
    expect(long.out).toMatch(/^# commplan elementBytes=8\n0,1,1\n/);
    expect(await run("gen", "uniform", "-p", "3", "-f", "csv")).toEqual(long);
  });
});

describe("defaults in --help", () => {
  it("no option shows commander's rendering of an empty list or object as its default", async () => {
    const shown = commands(await everyCommand()).flatMap(([words, c]) =>
      c.options
        .filter((o) => /^(\[\]|\{\})$/.test(JSON.stringify(o.defaultValue)) && o.defaultValueDescription === undefined)
        .map((o) => `${words.join(" ")} ${o.long}`),
    );
    expect(shown).toEqual([]);
  });
});

describe("arguments read from stdin", () => {
  it("every file argument's help says '-' reads stdin (every such command reads it)", async () => {
    const files = new Set(["matrix", "schedule", "program", "input", "spec"]);
    const args = commands(await everyCommand()).flatMap(([words, c]) =>
      c.registeredArguments.filter((a) => files.has(a.name())).map((a) => ({ words, a })),
    );
    expect(args.map(({ words, a }) => `${words.join(" ")} ${a.name()}`)).toEqual(
      expect.arrayContaining(["plan matrix", "store add matrix", "store get matrix", "precompute spec"]),
    );
    // store add reads its matrix from stdin (the installed command: in-process runs have none)
    const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
    const matrix = JSON.stringify({
      format: "commplan.matrix/v1",
      p: 2,
      rows: [
        [0, 1],
        [1, 0],
      ],
    });
    const store = join(tempDir("letter-flags"), "s");
    const r = spawnSync(process.execPath, [bin, "store", "add", store, "-", "-a", "shift"], {
      input: matrix,
      encoding: "utf8",
    });
    expect([r.status, r.stderr]).toEqual([0, expect.stringMatching(/^store add: [0-9a-f]{64} added\n$/)]);
    for (const { words, a } of args)
      expect(a.description, `${words.join(" ")} ${a.name()}`).toMatch(/- (or none )?for stdin/);
  });
});
