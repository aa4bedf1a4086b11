/**
 * Every flag a message or help text names (`--send-waits`, `give -o FILE`) is an option of some commplan command, so a
 * renamed option cannot leave a message pointing at a flag that no longer exists: the string literals of src/ are
 * scanned (comments are not user-visible) and each `--flag` is looked up among the registered options.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.js";
import type { CliContext } from "../../src/cli/context.js";

const root = join(import.meta.dirname, "../..");

/** Flags of other programs that commplan's strings name: SimGrid's smpirun (--cfg, --log), Node's (node --check). */
const FOREIGN = new Set(["--cfg", "--log", "--max-old-space-size", "--import", "--check"]);

function walk(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((n) => {
    const p = join(dir, n);
    return statSync(join(root, p)).isDirectory() ? walk(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The string literals and template pieces of a TypeScript file. */
function literals(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(join(root, file), "utf8"), ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateLiteralToken(n))
      out.push(n.text);
    n.forEachChild(visit);
  };
  visit(sf);
  return out;
}

/** The `--flag`s a text names (not a decrement such as `--x`, which is no text). */
const flagsIn = (text: string): string[] =>
  [...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => `--${m[1]}`);

describe("flags named in messages and help", () => {
  it("the scan finds flags", () => {
    expect(flagsIn("give --out DIR, not -o; --no-stage-barriers (--x-y)")).toEqual([
      "--out",
      "--no-stage-barriers",
      "--x-y",
    ]);
    expect(flagsIn("a--b 3--c")).toEqual([]);
  });

  it("every --flag in a string of src/ is an option of a command", async () => {
    const io = { out: () => undefined, err: () => undefined, interactive: false };
    const ctx: CliContext = { io, stdout: process.stdout, maxMemory: 1 << 30, exitCode: 0 };
    const program = await buildProgram(ctx, []);
    const known = new Set<string>(["--help", "--version"]);
    for (const c of program.commands.flatMap((top) => [top, ...top.commands]))
      for (const o of c.options) for (const f of [o.short, o.long]) if (f?.startsWith("--")) known.add(f);
    const files = walk("src");
    expect(files.length).toBeGreaterThan(100);
    const unknown = files.flatMap((f) =>
      literals(f)
        .flatMap(flagsIn)
        .filter((flag) => !known.has(flag) && !FOREIGN.has(flag))
        .map((flag) => `${f}: ${flag}`),
    );
    expect([...new Set(unknown)]).toEqual([]);
  });

  it("every 'commplan <command>' a string of src/ quotes is a command (and a sub-command, 'commplan store gc')", async () => {
    const io = { out: () => undefined, err: () => undefined, interactive: false };
    const ctx: CliContext = { io, stdout: process.stdout, maxMemory: 1 << 30, exitCode: 0 };
    const program = await buildProgram(ctx, []);
    const named = walk("src").flatMap((f) =>
      literals(f).flatMap((t) =>
        [...t.matchAll(/'commplan ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/g)].map((m) => ({ f, m })),
      ),
    );
    expect(named.length).toBeGreaterThan(20);
    const bad = named.filter(({ m }) => {
      const top = program.commands.find((c) => c.name() === m[1]);
      return top === undefined || (top.commands.length > 0 && !top.commands.some((c) => c.name() === m[2]));
    });
    expect(bad.map(({ f, m }) => `${f}: ${m[0]}`)).toEqual([]);
  });
});
