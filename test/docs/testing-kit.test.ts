/**
 * The ```js and ```ts examples of docs/testing-kit.md run as written, against src (tsx), with
 * "commplan/testing" and "commplan" resolved to src/testing/index.ts and src/index.ts. A block
 * passes when it exits 0 (each ends in assertions or fc.assert, which throw).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const root = new URL("../../", import.meta.url).pathname;
const doc = readFileSync(join(root, "docs/testing-kit.md"), "utf8");

/** The fenced blocks of one language. */
const blocks = (lang: string): string[] =>
  [...doc.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]!);

/** Runs one block as an ES module under tsx; its exit code and output. */
function runBlock(body: string, ext: "mjs" | "mts"): { status: number | null; stdout: string; stderr: string } {
  const dir = tempDir("kit-doc");
  const file = join(dir, `example.${ext}`);
  const source = body
    .replace(/from "commplan\/testing"/g, `from ${JSON.stringify(join(root, "src/testing/index.js"))}`)
    .replace(/from "commplan"/g, `from ${JSON.stringify(join(root, "src/index.js"))}`);
  writeFileSync(file, source);
  return spawnSync(process.execPath, ["--import", "tsx", file], { cwd: root, encoding: "utf8" });
}

describe("docs/testing-kit.md examples", () => {
  it("has the JavaScript and TypeScript examples this test runs", () => {
    expect(blocks("js")).toHaveLength(2);
    expect(blocks("ts")).toHaveLength(1);
  });

  it("every ```js block runs", () => {
    for (const b of blocks("js")) {
      const r = runBlock(b, "mjs");
      expect({ stderr: r.stderr, status: r.status }).toEqual({ stderr: "", status: 0 });
    }
    expect(runBlock(blocks("js")[1]!, "mjs").stdout).toMatch(/check 'node-contention' fails .*node 0 receives 2/);
  });

  it("every ```ts block runs", () => {
    for (const b of blocks("ts")) {
      const r = runBlock(b, "mts");
      expect({ stderr: r.stderr, status: r.status }).toEqual({ stderr: "", status: 0 });
    }
  });

  it("a failing example fails this test (the runner sees a thrown assertion)", () => {
    expect(runBlock('import assert from "node:assert/strict";\nassert.equal(1, 2);\n', "mjs").status).not.toBe(0);
  });

  it("says what is drawn, how shrinking works, what determinism check runs, and every check-planner flag", async () => {
    for (const h of ["## What is drawn", "## How shrinking works", "## The determinism check"])
      expect(doc).toContain(`\n${h}\n`);
    const help = await run("check-planner", "--help");
    const flags = [...new Set(help.out.match(/--[a-z][a-z-]+/g))].filter((f) => f !== "--help");
    expect(flags).toContain("--max-steps");
    for (const f of flags)
      expect({ flag: f, documented: doc.includes(`\`${f}`) }).toEqual({ flag: f, documented: true });
  });
});
