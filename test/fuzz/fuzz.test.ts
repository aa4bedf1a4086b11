/**
 * The fuzzer on the product's build (dist/): a test-sized campaign over every surface finds no crash, hang, memory
 * failure or wrong outcome; and its grammar checks and judgements refuse what they must.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildCorpus } from "../../bench/fuzz/corpus.js";
import { checkGoal, checkPlatform, checkTrace, checkXml } from "../../bench/fuzz/grammar.js";
import { caseAt, runFuzz, SURFACE_WEIGHTS } from "../../bench/fuzz/harness.js";
import { Rng } from "../../bench/fuzz/rng.js";
import { tempDir } from "../helpers/temp-dir.js";

const dist = join(import.meta.dirname, "..", "..", "dist");
const work = tempDir("fuzz-test");

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

  it("seed 20261129, cases 19610 and 20359: te-direct on an entry of millions is refused up front, naming it", async () => {
    const corpus = await buildCorpus(join(work, "corpus-replay-te"), dist);
    for (const [index, entry] of [
      [19610, "M[4][10] = 3075924"],
      [20359, "M[1][3] = 5754107"],
    ] as const) {
      const fc = caseAt(20261129, index, corpus, SURFACE_WEIGHTS);
      expect(fc.argv.slice(0, 4)).toEqual(["plan", "m.json", "-a", "te-direct"]);
      const s = await runFuzz({
        cases: index + 1,
        firstIndex: index,
        seed: 20261129,
        workDir: join(work, `replay-${index}`),
        corpus,
        dist,
        budgetMs: 600_000,
        children: 1,
      });
      expect(s.cases).toBe(1);
      expect(s.failures).toEqual([]);
      expect(s.outcomes.refused).toBe(1);
      // the same case run by the CLI: one line naming the entry and the limit
      const dir = join(work, `cli-${index}`);
      mkdirSync(dir);
      for (const st of fc.setup) if (st.kind === "file") writeFileSync(join(dir, st.path), st.bytes);
      const r = spawnSync(process.execPath, [join(dist, "..", "bin", "commplan.js"), ...fc.argv], {
        cwd: dir,
        encoding: "utf8",
      });
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(`te-direct: the entry ${entry} makes at least`);
      expect(r.stderr).toContain("at most 524288");
    }
  });

  it("seed 20261129, cases 18072, 18804 and 24082: dense P = 2048 and 4096 under 64-128 MiB stay within 1.5x", async () => {
    const corpus = await buildCorpus(join(work, "corpus-replay-big"), dist);
    for (const index of [18072, 18804, 24082]) {
      const fc = caseAt(20261129, index, corpus, SURFACE_WEIGHTS);
      expect(fc.surface).toBe("big");
      expect(fc.budget).toBeGreaterThan(0);
      const s = await runFuzz({
        cases: index + 1,
        firstIndex: index,
        seed: 20261129,
        workDir: join(work, `replay-${index}`),
        corpus,
        dist,
        budgetMs: 600_000,
        children: 1,
      });
      expect(s.cases).toBe(1);
      expect(s.failures).toEqual([]);
      expect(s.maxPeakGrowthBytes).toBeLessThanOrEqual(1.5 * fc.budget!);
    }
  });
});
