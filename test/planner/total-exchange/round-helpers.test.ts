/** Round helpers: scatterRounds routes a random subset where a (holder, next hop) pair has more packets than rounds (001 sec 3.2). */
import { describe, expect, it } from "vitest";
import { matrixFromRows } from "../../../src/model/matrix.js";
import { createRng } from "../../../src/model/rng.js";
import { RoundEngine } from "../../../src/planner/total-exchange/index.js";
import { collectHeld, scatterRounds } from "../../../src/planner/total-exchange/round-helpers.js";

describe("scatterRounds", () => {
  it("with fewer rounds than packets on a pair, the packets that go are a uniform random subset, not the lowest destinations", () => {
    // node 0 holds one packet for each of 1..5, all with next hop 6; one round moves one of them
    const n = 7;
    const rows = Array.from({ length: n }, () => Array.from({ length: n }, () => 0));
    for (let w = 1; w <= 5; w++) rows[0]![w] = 1;
    const m = matrixFromRows(rows);
    const seen = new Int32Array(n);
    for (let seed = 1; seed <= 200; seed++) {
      const eng = new RoundEngine(m, null, false);
      const held = collectHeld(eng);
      const hop = new Int32Array(held.dest.length).fill(6);
      expect(scatterRounds(eng, held, hop, 1, createRng(seed))).toBe(1);
      const moved = [1, 2, 3, 4, 5].filter((w) => eng.count[6 * n + w] === 1);
      expect(moved).toHaveLength(1);
      seen[moved[0]!]!++;
    }
    // each destination about 40 times in 200 (binomial sd ~ 5.7)
    for (let w = 1; w <= 5; w++) expect(seen[w]).toBeGreaterThan(20);
  });

  it("with enough rounds every packet goes, and the rounds are the largest bucket", () => {
    const m = matrixFromRows([
      [0, 2, 1, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    const eng = new RoundEngine(m, null, false);
    const held = collectHeld(eng);
    expect(scatterRounds(eng, held, new Int32Array([3, 3, 3]), Infinity, createRng(1))).toBe(3);
    expect(eng.count[3 * 4 + 1]).toBe(2);
    expect(eng.count[3 * 4 + 2]).toBe(1);
  });
});
