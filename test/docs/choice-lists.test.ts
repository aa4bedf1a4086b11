/**
 * A choice list the docs spell out (`--variant nonblocking|blocking|dataflow`, `--mode blocking|nonblocking`) is the
 * option's: every value is one the option takes, and none it takes is missing (but where the text says the list is a
 * part: simulate's protocols run on flat or cm5-fat-tree only). Checked against the choices commander registers, or the
 * runtime models for --runtime.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
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

describe("choice lists in the docs", () => {
  it("are the option's choices", async () => {
    const io = { out: () => undefined, err: () => undefined, interactive: false };
    const ctx: CliContext = { io, stdout: process.stdout, maxMemory: 1 << 30, exitCode: 0 };
    const program = await buildProgram(ctx, []);
    const choices = new Map<string, Set<string>>([["--runtime", new Set(RUNTIME_MODELS.map((r) => r.name))]]);
    for (const c of program.commands.flatMap((top) => [top, ...top.commands]))
      for (const o of c.options)
        if (o.long !== undefined && o.argChoices !== undefined)
          choices.set(o.long, new Set([...(choices.get(o.long) ?? []), ...o.argChoices]));
    const found: string[] = [];
    const wrong: string[] = [];
    for (const file of ["README.md", ...markdown("docs")]) {
      const text = readFileSync(join(root, file), "utf8");
      for (const m of text.matchAll(/(--[a-z-]+) ([a-z0-9-]+(?:\|[a-z0-9-]+)+)/g)) {
        const [list, flag, values] = [m[0], m[1]!, m[2]!.split("|")];
        const known = choices.get(flag);
        found.push(list);
        if (known === undefined) wrong.push(`${file}: ${list}: ${flag} has no choices`);
        else if (values.some((v) => !known.has(v))) wrong.push(`${file}: ${list}: not all are ${flag}'s`);
        else if (values.length < known.size && !PARTS.some(([l, around]) => l === list && around.test(text)))
          wrong.push(
            `${file}: ${list}: ${flag} also takes ${[...known].filter((v) => !values.includes(v)).join(", ")}`,
          );
      }
    }
    expect(found.length).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });
});
