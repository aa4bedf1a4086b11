/**
 * --max-memory's help says what the budget counts, in the same words for every command that takes it: estimates made
 * before allocating, not a JSON schedule's own columns nor Node's own memory (docs/formats.md, "Memory budget").
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MEMORY_OPTION_HELP } from "../../src/cli/memory-option.js";
import { run } from "../helpers/cli.js";

/** Every command that takes --max-memory (program.ts's BUDGETED). */
const BUDGETED = [
  ["gen"],
  ["stats"],
  ["plan"],
  ["verify"],
  ["cost"],
  ["show"],
  ["simulate"],
  ["export"],
  ["verify-program"],
  ["platform"],
  ["compare"],
  ["store", "add"],
  ["store", "get"],
  ["store", "list"],
  ["store", "verify"],
  ["store", "gc"],
  ["precompute"],
  ["check-planner"],
];

/** The --max-memory entry of a --help text, its wrapped lines joined. */
function memoryHelp(help: string): string {
  const at = help.indexOf("--max-memory <size>");
  expect(at).toBeGreaterThanOrEqual(0);
  const rest = help.slice(at + "--max-memory <size>".length).split("\n");
  const lines = [rest[0]!];
  for (const line of rest.slice(1)) {
    if (!/^ {10,}\S/.test(line)) break; // the next option starts at column 2
    lines.push(line);
  }
  return lines.map((l) => l.trim()).join(" ");
}

describe("--max-memory's help", () => {
  it("says what the budget counts and what it does not, the same for every command that takes it", async () => {
    expect(MEMORY_OPTION_HELP).toMatch(/a JSON schedule's own columns .* and Node's own memory are not counted/);
    for (const argv of BUDGETED) {
      const r = await run(...argv, "--help");
      expect([argv.join(" "), r.code]).toEqual([argv.join(" "), 0]);
      const extra = { precompute: "; its worker threads share it", "check-planner": "; it also limits" }[
        argv.join(" ")
      ];
      const text = memoryHelp(r.out);
      expect(text.startsWith(MEMORY_OPTION_HELP), `${argv.join(" ")}: ${text}`).toBe(true);
      if (extra === undefined) expect(text).toBe(MEMORY_OPTION_HELP);
      else expect(text.slice(MEMORY_OPTION_HELP.length)).toMatch(new RegExp(`^${extra}`));
    }
  });

  it("docs/formats.md says the same: what is counted, and that the schedule's columns are not", () => {
    const doc = readFileSync(new URL("../../docs/formats.md", import.meta.url), "utf8").replace(/\s+/g, " ");
    expect(doc).toContain("**What the budget counts, exactly.** It is checked against the estimates");
    expect(doc).toContain("Not counted: a JSON schedule's own columns as it is read");
    expect(doc).toContain("(`MEMORY_OPTION_HELP`, `src/cli/memory-option.ts`)");
  });
});
