/**
 * A choice list the docs spell out (`--variant nonblocking|blocking|dataflow`, `--mode blocking|nonblocking`) is the
 * option's on the command the text names for it (the last command named in backticks before it in its paragraph,
 * `simulate --protocol async|drs-n`, `commplan simulate ... [--mode blocking|nonblocking]`): that command takes the
 * option, every value is one it takes, and none it takes is missing (but where the text says the list is a part:
 * simulate's protocols run on flat or cm5-fat-tree only). Checked against the choices commander registers on that
 * command, or the runtime models for --runtime.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.js";
import type { CliContext } from "../../src/cli/context.js";
import { RUNTIME_MODELS } from "../../src/entries/sim.js";

const root = join(import.meta.dirname, "../..");

function markdown(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((n) => {
    const p = join(dir, n);
    return statSync(join(root, p)).isDirectory() ? markdown(p) : p.endsWith(".md") ? [p] : [];
  });
}

/** Lists that name part of the choices on purpose, each with the text around it that says why. */
const PARTS: readonly (readonly [string, RegExp])[] = [
  ["--topology flat|cm5-fat-tree", /--protocol async\|drs-n <matrix> --machine NAME \[--topology flat\|cm5-fat-tree\]/],
];

/** Every command (by its path, "simulate", "store verify") with the choices of each of its options that has some. */
type CommandChoices = ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;

async function commandChoices(): Promise<CommandChoices> {
  const io = { out: () => undefined, err: () => undefined, interactive: false };
  const ctx: CliContext = { io, stdout: process.stdout, maxMemory: 1 << 30, exitCode: 0 };
  const program = await buildProgram(ctx, []);
  const runtimes = new Set(RUNTIME_MODELS.map((r) => r.name));
  const out = new Map<string, Map<string, Set<string>>>();
  const path = (c: Command): string => (c.parent?.parent ? `${c.parent.name()} ${c.name()}` : c.name());
  for (const c of program.commands.flatMap((top) => [top, ...top.commands])) {
    const options = new Map<string, Set<string>>();
    for (const o of c.options)
      if (o.long === "--runtime") options.set(o.long, runtimes);
      else if (o.long !== undefined && o.argChoices !== undefined) options.set(o.long, new Set(o.argChoices));
    out.set(path(c), options);
  }
  return out;
}

/** What is wrong with the choice lists of one markdown text, each a line naming the file, the list and the command. */
function choiceListProblems(file: string, text: string, commands: CommandChoices): { found: number; wrong: string[] } {
  const names = [...commands.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/-/g, "\\-"));
  const named = new RegExp(`\`(?:(?:npx )?commplan )?(${names.join("|")})(?=[\\s\`])`, "g");
  const wrong: string[] = [];
  let found = 0;
  for (const m of text.matchAll(/(--[a-z-]+) ([a-z0-9-]+(?:\|[a-z0-9-]+)+)/g)) {
    const [list, flag, values] = [m[0], m[1]!, m[2]!.split("|")];
    found++;
    const paragraph = text
      .slice(0, m.index)
      .split(/\n\s*\n/)
      .pop()!;
    const command = [...paragraph.matchAll(named)].pop()?.[1];
    if (command === undefined) {
      wrong.push(`${file}: ${list}: names no command before it in its paragraph`);
      continue;
    }
    const known = commands.get(command)!.get(flag);
    if (known === undefined) wrong.push(`${file}: ${list}: ${command} has no ${flag} with choices`);
    else if (values.some((v) => !known.has(v))) wrong.push(`${file}: ${list}: not all are ${command} ${flag}'s`);
    else if (values.length < known.size && !PARTS.some(([l, around]) => l === list && around.test(text)))
      wrong.push(
        `${file}: ${list}: ${command} ${flag} also takes ${[...known].filter((v) => !values.includes(v)).join(", ")}`,
      );
  }
  return { found, wrong };
}

describe("choice lists in the docs", () => {
  it("are the option's choices on the command the text names", async () => {
    const commands = await commandChoices();
    let found = 0;
    const wrong: string[] = [];
    for (const file of ["README.md", ...markdown("docs")]) {
      const r = choiceListProblems(file, readFileSync(join(root, file), "utf8"), commands);
      found += r.found;
      wrong.push(...r.wrong);
    }
    expect(found).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it("a list for a command that does not take the option, or not all of it, fails", async () => {
    const commands = await commandChoices();
    const check = (text: string): string[] => choiceListProblems("x.md", text, commands).wrong;
    expect(check("Run `simulate --mode blocking|nonblocking`.")).toEqual([]);
    // every value is some command's --mode or --port-sharing: merged across commands, these passed
    expect(check("Run `export --mode blocking|nonblocking`.")).toEqual([
      "x.md: --mode blocking|nonblocking: export has no --mode with choices",
    ]);
    expect(check("Run `cost s.json --port-sharing serial|fair`.")).toEqual([
      "x.md: --port-sharing serial|fair: cost has no --port-sharing with choices",
    ]);
    expect(check("`simulate --recv-order arrival`\n\nthen `--variant nonblocking|blocking|dataflow`")).toEqual([
      "x.md: --variant nonblocking|blocking|dataflow: names no command before it in its paragraph",
    ]);
    expect(check("`commplan export s.json --variant nonblocking|blocking`")).toEqual([
      "x.md: --variant nonblocking|blocking: export --variant also takes dataflow",
    ]);
  });
});
