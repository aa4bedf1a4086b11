/**
 * Every ```sh example of README.md and docs/ runs as written, and the README's TypeScript library
 * example runs against src (tsx). Commands run in a fresh temp dir per block, in order, with the
 * built CLI (`node bin/commplan.js`, needs dist/) in place of `commplan` and `npx commplan`; the
 * Quick start's `npm ci && ` is dropped and `npm test` skipped (this suite is that test). A line
 * whose comment is `# exit N` (or `# exit N: why`) must exit N, every other line 0.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { tempDir } from "../helpers/temp-dir.js";

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

/** The built CLI's entry (dist/cli/main.js), loaded once: simple lines run in process. */
let distMain: ((argv: readonly string[], io: CliIo) => Promise<number>) | null = null;

/**
 * The arguments of a line that is one plain `commplan` call (no quotes, pipes, redirections or
 * `&&`; its comment dropped), or null. Such a line runs in process through dist/cli/main.js (the
 * CLI's start-up, most of a spawned command's time, is paid once); any other line runs in `sh`.
 */
function plainArgs(command: string): string[] | null {
  const body = command.replace(/\s+#.*$/, "").trim();
  if (!body.startsWith(`${cli} `)) return null;
  const rest = body.slice(cli.length + 1);
  return /^[\w./=:,@%+ -]+$/.test(rest) ? rest.split(/ +/) : null;
}

/** Runs a shell command in `cwd`: its exit status and standard error. */
async function run(command: string, cwd: string): Promise<{ status: number | null; stderr: string }> {
  const args = plainArgs(command);
  if (args !== null) {
    distMain ??= ((await import(join(root, "dist/cli/main.js"))) as { main: NonNullable<typeof distMain> }).main;
    let stderr = "";
    const io: CliIo = { out: () => undefined, err: (t) => void (stderr += t), interactive: false };
    const back = process.cwd();
    process.chdir(cwd);
    try {
      return { status: await distMain(args, io), stderr };
    } finally {
      process.chdir(back);
    }
  }
  return new Promise((done, failed) => {
    const child = spawn("sh", ["-c", command], { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", failed).on("close", (status) => done({ status, stderr }));
  });
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

  it("every ```sh block (built CLI from dist/: npm test builds it first)", async () => {
    expect(
      existsSync(join(root, "dist/cli/main.js")),
      "dist/ is not built: run npx tsc -p tsconfig.build.json (npm test does)",
    ).toBe(true);
    // the lines of each block in order, in its own temp dir (one block at a time: in-process lines
    // change the working directory)
    const results: { where: string; status: number | null; want: number; stderr: string }[] = [];
    const runBlock = async (b: (typeof shBlocks)[number]): Promise<void> => {
      const dir = tempDir("example");
      for (const line of b.lines) {
        const c = exampleCommand(line);
        if (c === null) continue;
        const r = await run(c.command, dir);
        results.push({ where: `${b.file} block ${b.index + 1}: ${line.trim()}`, want: c.exit, ...r });
      }
    };
    for (const b of shBlocks) await runBlock(b);
    expect(results.length).toBeGreaterThan(0);
    for (const r of results)
      expect({ where: r.where, status: r.status, stderr: r.stderr }).toEqual({
        where: r.where,
        status: r.want,
        stderr: expect.any(String) as string,
      });
  });

  it("the README's library example runs against src", () => {
    const ts = blocks("README.md", "ts").filter((b) => b.includes('from "commplan"'));
    expect(ts).toHaveLength(1);
    const dir = tempDir("example");
    const file = join(dir, "example.ts");
    const body = ts[0]!.replace(/from "commplan"/g, `from ${JSON.stringify(join(root, "src/index.js"))}`);
    writeFileSync(file, `${body}\nif (!report.ok || !(cost.total > 0)) process.exit(3);\n`);
    const r = spawnSync(process.execPath, ["--import", "tsx", file], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
