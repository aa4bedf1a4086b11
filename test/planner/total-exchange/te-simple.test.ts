/** te-simple (001 sec 3.1): balanced blocks keep Condition B at the table sizes; sub-relations for large h. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generatePattern } from "../../../src/patterns/index.js";
import { plan } from "../../../src/planner/index.js";
import { teRounds } from "../../../src/planner/total-exchange/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";

describe("te-simple blocks (step 2a)", () => {
  it("N = 128, h = 64N: Condition B holds with the default parameters (no fallback to direct rounds)", () => {
    // blocks of round(log2 128) = 7 nodes: 19 blocks of 6 or 7 nodes, not 18 of 7 and a leftover of 2
    for (const seed of [1, 2, 3]) {
      const m = generatePattern("h-relation", 128, { h: 64 * 128 }, seed);
      const r = teRounds("te-simple", m, seed);
      expect(r.info["conditionB"]).toBe(true);
      expect(r.info["fallbackRounds"]).toBe(0);
      expect(r.info["blocks"]).toBe(19);
      expect(r.rounds).toBeLessThan(r.maxPairLoad);
    }
  });

  it("N = 128, h = 32N: Condition B holds on seeds 1..4", () => {
    for (const seed of [1, 2, 3, 4]) {
      const m = generatePattern("h-relation", 128, { h: 32 * 128 }, seed);
      expect(teRounds("te-simple", m, seed).info["conditionB"]).toBe(true);
    }
  });
});

describe("te-simple sub-relations (001 sec 3.1: 'running the protocol repeatedly on small subsets')", () => {
  it("subsetH = 1 splits h = 8N at N = 16 into ceil(8N / (N log2 N)) = 2 sub-relations; the payload plan verifies", () => {
    const m = generatePattern("h-relation", 16, { h: 128 }, 4);
    const s = plan(m, "te-simple", { payload: true, seed: 4, params: { subsetH: 1 } });
    expect(s.params["subsets"]).toBe(2);
    expect(verifySchedule(m, s).checks.filter((c) => !c.holds)).toEqual([]);
    const r = teRounds("te-simple", m, 4, { subsetH: 1 });
    expect(r.rounds).toBe(s.stages.length + (s.params["idleRounds"] as number));
    expect(r.info["subsets"]).toBe(2);
  });

  it("the parts are balanced: at N = 32, h = 16N, subsetH = 0.25 gives 4 parts whose step-1 rounds each fit h_i <= 1.25 h / 4", () => {
    const n = 32,
      h = 512;
    const m = generatePattern("h-relation", n, { h }, 7);
    const whole = plan(m, "te-simple", { seed: 7 });
    const split = plan(m, "te-simple", { payload: true, seed: 7, params: { subsetH: 0.25 } });
    const parts = Math.ceil(h / (0.25 * n * 5));
    expect(whole.params["subsets"]).toBe(1);
    expect(split.params["subsets"]).toBe(parts);
    expect(verifySchedule(m, split).checks.filter((c) => !c.holds)).toEqual([]);
    // step 1 of a part with load h_i: ceil(h_i/N + sqrt((h_i/N) loglog N) + loglog N) rounds (epsilon = alpha = 1)
    const lglg = Math.log2(Math.log2(n));
    const step1 = (hi: number): number => Math.ceil(hi / n + Math.sqrt((hi / n) * lglg) + lglg);
    expect(split.params["step1Rounds"]).toBeGreaterThan(whole.params["step1Rounds"] as number);
    expect(split.params["step1Rounds"]).toBeLessThanOrEqual(parts * step1((1.25 * h) / parts));
  });
});

describe("docs/algorithms/total-exchange.md: the subsetH table", () => {
  it("equals the recomputed means over seeds 1..4 (te-direct; te-simple rounds and iterations for subsetH = 0, 1, 2)", () => {
    const rows = (
      [
        [128, 32],
        [128, 64],
        [256, 64],
      ] as const
    ).map(([n, k]) => {
      const ms = [1, 2, 3, 4].map((seed) => generatePattern("h-relation", n, { h: k * n }, seed));
      const mean = (f: (m: (typeof ms)[number], seed: number) => number): string =>
        (ms.reduce((a, m, i) => a + f(m, i + 1), 0) / ms.length).toFixed(1);
      const simple = [0, 1, 2].map((subsetH) => ms.map((m, i) => teRounds("te-simple", m, i + 1, { subsetH })));
      const avg = (xs: number[]): string => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1);
      return `| ${n} | ${k}N | ${mean((m, seed) => teRounds("te-direct", m, seed).rounds)} | ${simple.map((r) => avg(r.map((x) => x.rounds))).join(" | ")} | ${simple.map((r) => avg(r.map((x) => x.info["iterations"] as number))).join(" / ")} |`;
    });
    const doc = readFileSync(
      join(import.meta.dirname, "..", "..", "..", "docs", "algorithms", "total-exchange.md"),
      "utf8",
    );
    const a = doc.indexOf("<!-- te-simple-subsets:start -->\n"),
      b = doc.indexOf("<!-- te-simple-subsets:end -->");
    expect(a).toBeGreaterThan(0);
    const table =
      [
        "| N | h | te-direct | subsetH = 0 | subsetH = 1 | subsetH = 2 | iterations (0 / 1 / 2) |",
        "|---|---|---|---|---|---|---|",
        ...rows,
      ].join("\n") + "\n";
    expect(doc.slice(a + "<!-- te-simple-subsets:start -->\n".length, b)).toBe(table);
  });
});
