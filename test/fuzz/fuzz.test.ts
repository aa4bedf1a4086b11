/**
 * The fuzzer on the product's build (dist/): a test-sized campaign over every surface finds no crash, hang, memory
 * failure or wrong outcome; and its grammar checks and judgements refuse what they must.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCorpus } from "../../bench/fuzz/corpus.js";
import { checkGoal, checkPlatform, checkTrace, checkXml } from "../../bench/fuzz/grammar.js";
import { caseAt, runFuzz, SURFACE_WEIGHTS } from "../../bench/fuzz/harness.js";
import { Rng } from "../../bench/fuzz/rng.js";

const dist = join(import.meta.dirname, "..", "..", "dist");
const work = mkdtempSync(join(tmpdir(), "commplan-fuzz-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("fuzz grammar checks", () => {
  it("GOAL: a rank block injected through a comment, a rounded size and a missing rank are refused", () => {
    const ok =
      "// c\nnum_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\nl2: calc 0\nl2 requires l1\n}\n";
    expect(checkGoal(ok)).toBeNull();
    expect(checkGoal(ok.replace("// c\n", "// c\nnum_ranks 1\n"))).toMatch(/not a GOAL statement|expected|outside/);
    expect(checkGoal(ok.replace("send 8b", "send 72057594037927930b"))).toMatch(/not an exact integer/);
    expect(checkGoal(ok.replace("num_ranks 2", "num_ranks 3"))).toMatch(/2 rank blocks/);
  });

  it("XML: unescaped markup, bare ampersands, unclosed elements and JavaScript junk are refused", () => {
    expect(checkXml('<?xml version="1.0"?>\n<a x="1"><b/></a>\n')).toBeNull();
    expect(checkXml('<a x="1<"><b/></a>')).not.toBeNull();
    expect(checkXml("<a>x & y</a>")).toMatch(/bare '&'/);
    expect(checkXml("<a><b></a>")).not.toBeNull();
    expect(checkXml('<a name="[object Object]"/>')).toMatch(/object Object/);
    expect(checkPlatform('<platform><link id="l" bandwidth="InfinityBps" latency="0s"/></platform>')).toMatch(
      /Infinity/,
    );
  });

  it("SimGrid traces: actions of the rank, exact sizes", () => {
    expect(checkTrace("0 init\n0 isend 1 0 8\n0 waitall\n0 finalize\n", 0)).toBeNull();
    expect(checkTrace("0 init\n1 isend 1 0 8\n", 0)).toMatch(/rank 1/);
    expect(checkTrace("0 init\n0 isend 1 0 9007199254740993\n", 0)).toMatch(/exact/);
  });

  it("the random stream follows its seed", () => {
    const a = new Rng(7),
      b = new Rng(7);
    const xs = Array.from({ length: 20 }, () => a.int(1000));
    expect(Array.from({ length: 20 }, () => b.int(1000))).toEqual(xs);
    expect(new Set(xs).size).toBeGreaterThan(10);
  });
});

describe("fuzz campaign on dist/", () => {
  it("200 cases, seed 11: every surface runs in child processes, none fails, outputs are re-read", async () => {
    const corpus = await buildCorpus(join(work, "corpus"), dist);
    const s = await runFuzz({
      cases: 200,
      seed: 11,
      workDir: join(work, "cases"),
      corpus,
      dist,
      budgetMs: 120_000, // a hang of the fuzzer's own measure, generous: the test itself has no time limit
      children: 2,
      weights: { ...SURFACE_WEIGHTS, planner: 1, big: 0 },
    });
    expect(s.failures).toEqual([]);
    expect(s.cases).toBe(200);
    expect(s.outcomes.ok).toBeGreaterThan(0);
    expect(s.outcomes["check-failed"]).toBeGreaterThan(0); // programs sending a message twice, damaged stores
    expect(s.outcomes.refused).toBeGreaterThan(0);
    expect(s.rereads).toBeGreaterThan(0);
    expect(s.outputsChecked).toBeGreaterThan(0);
    expect(s.twins).toBeGreaterThan(0);
    for (const surface of [
      "matrix",
      "schedule-header",
      "export-text",
      "split-index",
      "store-gc",
      "store-get-id",
      "onto-input",
      "topology",
    ])
      expect(Object.keys(s.bySurface)).toContain(surface);
  });
});

describe("cases the fuzzer found, replayed", () => {
  it("seed 20261129, case 8353: a te-direct payload plan of 389,570 rounds verifies (no stack overflow)", async () => {
    const corpus = await buildCorpus(join(work, "corpus-replay"), dist);
    const fc = caseAt(20261129, 8353, corpus, SURFACE_WEIGHTS);
    expect(fc.argv.slice(0, 5)).toEqual(["plan", "m.json", "-a", "te-direct", "-o"]);
    expect(fc.then).toEqual([["verify", "s.json", "-m", "m.json"]]);
    const s = await runFuzz({
      cases: 8354,
      firstIndex: 8353,
      seed: 20261129,
      workDir: join(work, "replay"),
      corpus,
      dist,
      budgetMs: 600_000,
      children: 1,
    });
    expect(s.cases).toBe(1);
    expect(s.failures).toEqual([]);
    expect(s.rereads).toBe(1);
  });
});
