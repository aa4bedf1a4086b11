/**
 * Every ```sh example of README.md and docs/ runs as written, and the README's TypeScript library
 * example runs against src (tsx). Commands run in a fresh temp dir per block, in order, with the
 * built CLI (`node bin/commplan.js`, needs dist/) in place of `commplan` and `npx commplan`; the
 * Quick start's `npm ci && ` is dropped and `npm test` skipped (this suite is that test). A line
 * whose comment is `# exit N` (or `# exit N: why`) must exit N, every other line 0.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url).pathname;
const cli = `node ${join(root, "bin/commplan.js")}`;

function markdownFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((n) =>
    statSync(join(root, dir, n)).isDirectory() ? markdownFiles(join(dir, n)) : n.endsWith(".md") ? [join(dir, n)] : [],
  );
}

/** The fenced blocks of one language in a markdown file. */
const blocks = (file: string, lang: string): string[] =>
  [...readFileSync(join(root, file), "utf8").matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map(
    (m) => m[1]!,
  );

/** One example line as the shell runs it, with its expected exit code; null for a line not to run. */
export function exampleCommand(line: string): { command: string; exit: number } | null {
  const trimmed = line.trim();
  if (trimmed === "" || trimmed.startsWith("#")) return null;
  const exit = /#\s*exit\s+(\d+)(:.*)?$/.exec(trimmed);
  let command = trimmed.replace(/^npm ci && /, "");
  if (/^npm (test|ci)\b/.test(command)) return null;
  command = command.replace(/(^|&& |\| )(npx )?commplan\b/g, (_m, pre: string) => `${pre}${cli}`);
  return { command, exit: exit ? Number(exit[1]) : 0 };
}

const files = ["README.md", ...markdownFiles("docs")];
const shBlocks = files.flatMap((f) => blocks(f, "sh").map((b, i) => ({ file: f, index: i, lines: b.split("\n") })));

describe("the examples of README.md and docs/ run as written", () => {
  it("the line conventions: commplan and npx commplan become the built CLI, # exit N sets the expected code", () => {
    expect(exampleCommand("npx commplan stats m.json   # r, c")).toEqual({
      command: `${cli} stats m.json   # r, c`,
      exit: 0,
    });
    expect(exampleCommand("commplan plan a && commplan show b")).toEqual({
      command: `${cli} plan a && ${cli} show b`,
      exit: 0,
    });
    expect(exampleCommand("commplan verify bad.json --matrix m.json   # exit 1")?.exit).toBe(1);
    expect(exampleCommand("commplan plan m.json -a mesh-two-stage   # exit 2: P is not a square")?.exit).toBe(2);
    expect(exampleCommand("commplan verify s.json   # exits 1 if a check fails")?.exit).toBe(0);
    expect(exampleCommand("npm ci && npm test")).toBeNull();
    expect(exampleCommand("npm ci && npx commplan demo")?.command).toBe(`${cli} demo`);
    expect(shBlocks.length).toBeGreaterThanOrEqual(3);
  });

  it("every ```sh block (built CLI from dist/: npm test builds it first)", () => {
    expect(
      existsSync(join(root, "dist/cli/main.js")),
      "dist/ is not built: run npx tsc -p tsconfig.build.json (npm test does)",
    ).toBe(true);
    for (const b of shBlocks) {
      const dir = mkdtempSync(join(tmpdir(), "commplan-example-"));
      for (const line of b.lines) {
        const c = exampleCommand(line);
        if (c === null) continue;
        const r = spawnSync("sh", ["-c", c.command], { cwd: dir, encoding: "utf8" });
        expect({ where: `${b.file} block ${b.index + 1}: ${line.trim()}`, status: r.status, stderr: r.stderr }).toEqual(
          {
            where: `${b.file} block ${b.index + 1}: ${line.trim()}`,
            status: c.exit,
            stderr: expect.any(String) as string,
          },
        );
      }
    }
  });

  it("the README's library example runs against src", () => {
    const ts = blocks("README.md", "ts");
    expect(ts).toHaveLength(1);
    const dir = mkdtempSync(join(tmpdir(), "commplan-example-"));
    const file = join(dir, "example.ts");
    const body = ts[0]!.replace(/from "commplan"/g, `from ${JSON.stringify(join(root, "src/index.js"))}`);
    writeFileSync(file, `${body}\nif (!report.ok || !(cost.total > 0)) process.exit(3);\n`);
    const r = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
