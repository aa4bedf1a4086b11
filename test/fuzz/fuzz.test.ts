/** A test-sized run of the fuzz harness (bench/fuzz): a few hundred cases with a fixed seed, none of them a crash, a hang or past the memory budget. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runFuzz } from "../../bench/fuzz/harness.js";
import { mutate } from "../../bench/fuzz/inputs.js";

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

  it("300 cases, seed 11: every case exits 0, 1 or 2 with one line; no crash or memory failure (hangs: the full run, no time limit in a test)", async () => {
    const s = await runFuzz({
      cases: 300,
      seed: 11,
      budgetMs: Number.POSITIVE_INFINITY,
      maxMemory: "256M",
      workDir: dir,
      failuresDir: null,
    });
    expect(s.cases).toBe(300);
    expect(s.failures).toEqual([]);
    expect(s.outcomes.crash + s.outcomes.hang + s.outcomes.memory).toBe(0);
    expect(s.outcomes.ok).toBeGreaterThan(0); // the corpus reaches the commands' work, not only their refusals
    expect(s.outcomes.refused).toBeGreaterThan(0);
    expect(Object.keys(s.byCommand).length).toBeGreaterThanOrEqual(8);
  });
});
