/**
 * --help describes every option in a user's words, by the spelling the user types (issue 36): gen's pattern options by
 * what each pattern says of them, not by the library's internal names; no command's help says a camelCase identifier.
 */
import { describe, expect, it } from "vitest";
import { PATTERNS } from "../../src/patterns/index.js";
import { patternFlag } from "../../src/cli/pattern-flags.js";
import { buildProgram } from "../../src/cli/program.js";
import type { CliContext } from "../../src/cli/context.js";
import { run } from "../helpers/cli.js";

describe("gen --help", () => {
  it("describes each pattern option as its patterns do, with the patterns' names, never as 'pattern option x'", async () => {
    const r = await run("gen", "--help");
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/pattern option/);
    const help = r.out.replace(/\s+/g, " ");
    for (const p of PATTERNS)
      for (const [name, o] of Object.entries(p.options as { [k: string]: { description: string } })) {
        if (name === "elementBytes") continue; // gen's own --element-bytes
        const text = o.description.replace(/\s+/g, " ");
        expect(help, `${p.name} --${patternFlag(name)}`).toMatch(
          new RegExp(
            `--${patternFlag(name)} <value> [^]{0,400}?\\b${p.name}\\b[^:]*: ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
          ),
        );
      }
  });
  it("shows no camelCase spelling; it stays accepted (--capacityFactor as --capacity-factor)", async () => {
    const help = (await run("gen", "--help")).out.replace(/\s+/g, " ");
    expect(help).toMatch(/--capacity-factor <value> moe: expert capacity per rank = ceil\(capacity factor x tokens/);
    expect(help).not.toMatch(/capacityFactor|maxFactor/);
    const kebab = await run("gen", "moe", "-p", "4", "--capacity-factor", "0.5", "--max-memory", "1G");
    expect(kebab.code).toBe(0);
    expect(await run("gen", "moe", "-p", "4", "--capacityFactor", "0.5", "--max-memory", "1G")).toEqual(kebab);
    expect((await run("gen", "moe", "-p", "4")).out).not.toBe(kebab.out);
  });
});

/**
 * The camelCase words --help may say: proper names, and fields of commplan's files and documents, which a user reads
 * as they are spelt there (the matrix file's `elementBytes`, stats --json's `perNode`).
 */
const CAMEL_CASE_ALLOWED = new Set(["SimGrid", "elementBytes", "perNode"]);

describe("every command's --help", () => {
  it("says no internal camelCase identifier: only flags (kebab case), plain words, proper names and file fields", async () => {
    const io = { out: () => undefined, err: () => undefined, interactive: false };
    const ctx: CliContext = { io, stdout: process.stdout, maxMemory: 1 << 30, exitCode: 0 };
    const program = await buildProgram(ctx, []);
    const found: string[] = [];
    for (const c of [program, ...program.commands.flatMap((top) => [top, ...top.commands])]) {
      const name = c === program ? "commplan" : c.parent === program ? c.name() : `${c.parent!.name()} ${c.name()}`;
      for (const [word] of c.helpInformation().matchAll(/[A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*/g))
        if (!CAMEL_CASE_ALLOWED.has(word)) found.push(`${name}: ${word}`);
    }
    expect(found).toEqual([]);
    // the check sees the help of every command and sub-command: a camelCase word there would be found
    expect(program.commands.length).toBeGreaterThan(15);
  });
});
