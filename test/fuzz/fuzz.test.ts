/** A test-sized run of the fuzz harness (bench/fuzz): a few hundred cases with a fixed seed, none of them a crash, a hang, past the memory budget or a wrong answer, over every fuzzed command. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runFuzz } from "../../bench/fuzz/harness.js";
import { COMMANDS, mutate } from "../../bench/fuzz/inputs.js";

const dir = mkdtempSync(join(tmpdir(), "commplan-fuzz-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("fuzz harness, test-sized (issue 11)", () => {
  it("mutations change documents as described", () => {
    const b = Buffer.from('{"p":4,"x":[1,2]}');
    expect(mutate(b, { kind: "truncate", at: 5 }).toString()).toBe('{"p":');
    expect(mutate(b, { kind: "number", nth: 1, value: "1e300" }).toString()).toBe('{"p":4,"x":[1e300,2]}');
    expect(mutate(b, { kind: "nest", at: 0, depth: 2, open: "[" }).toString()).toBe('[[1]]{"p":4,"x":[1,2]}');
    expect(mutate(b, { kind: "encoding", to: "utf16le" }).length).toBe(2 * b.length);
  });

  it("400 cases, seed 11: every case exits 0, 1 or 2 with one line; no crash, memory failure or damaged store entry served (hangs: the full run, no time limit in a test)", async () => {
    const s = await runFuzz({
      cases: 400,
      seed: 11,
      budgetMs: Number.POSITIVE_INFINITY,
      maxMemory: "256M",
      workDir: dir,
      failuresDir: null,
    });
    expect(s.cases).toBe(400);
    expect(s.failures).toEqual([]);
    expect(s.outcomes.crash + s.outcomes.hang + s.outcomes.memory + s.outcomes.wrong).toBe(0);
    expect(s.outcomes.ok).toBeGreaterThan(0); // the corpus reaches the commands' work, not only their refusals
    expect(s.outcomes.refused).toBeGreaterThan(0);
    // every command of the harness ran, the newer surfaces among them
    expect(Object.keys(s.byCommand).sort()).toEqual([...COMMANDS].sort());
    for (const kind of ["matrix", "schedule", "program", "topology", "entry"])
      expect(s.corpus[kind]).toBeGreaterThan(0);
    // a damaged store entry reached the store commands and was named, not served
    expect(s.byCommand["store-verify"]!["check-failed"]).toBeGreaterThan(0);
  });
});
