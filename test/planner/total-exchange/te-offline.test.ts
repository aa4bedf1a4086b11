/** te-offline: deterministic (no dependence on the seed), at the relay lower bound on random h-relations, bound checked by the verifier. */
import { describe, expect, it } from "vitest";
import { matrixDigest, matrixFromRows } from "../../../src/model/matrix.js";
import { ScheduleBuilder } from "../../../src/model/schedule.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { plan } from "../../../src/planner/index.js";
import { relayLowerBound, teRounds } from "../../../src/planner/total-exchange/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";

describe("te-offline is deterministic", () => {
  it("N = 64, h = 10N (relation seed 3): the same schedule for plan seeds 1..7, at the lower bound 11", () => {
    const m = generatePattern("h-relation", 64, { h: 640 }, 3);
    const first = plan(m, "te-offline", { seed: 1 });
    expect(first.stages.length).toBe(11);
    expect(first.params["lowerBound"]).toBe(11);
    for (const seed of [2, 3, 4, 5, 6, 7]) {
      const s = plan(m, "te-offline", { seed });
      expect(s.stages.length).toBe(11);
      expect(Array.from(s.src)).toEqual(Array.from(first.src));
      expect(Array.from(s.dst)).toEqual(Array.from(first.dst));
      expect(teRounds("te-offline", m, seed).rounds).toBe(11);
    }
  });
});

describe("te-offline on random h-relations (round-counting mode)", () => {
  it("N = 64, h = 10N: the relay lower bound on seeds 1..10", () => {
    for (let seed = 1; seed <= 10; seed++) {
      const m = generatePattern("h-relation", 64, { h: 640 }, seed);
      const r = teRounds("te-offline", m, seed);
      expect(r.info["relayBound"]).toBe(relayLowerBound(m));
      expect(r.rounds).toBe(relayLowerBound(m));
    }
  });

  const cells: [number, number, number[]][] = [
    ...[4, 8, 10, 16, 32, 50, 64].flatMap((k): [number, number, number[]][] => [[64, k, [1, 2]], [128, k, [1, 2]]]),
    [256, 4, [1]], [256, 16, [1]], [256, 64, [1]],
  ];
  it.each(cells)("N = %i, h = %iN: relay bound <= rounds <= relay bound + 1 and <= lower bound + 2, below te-direct", (n, k, seeds) => {
    for (const seed of seeds) {
      const m = generatePattern("h-relation", n, { h: k * n }, seed);
      const r = teRounds("te-offline", m, seed), relay = relayLowerBound(m);
      expect(r.rounds).toBeGreaterThanOrEqual(relay);
      expect(r.rounds).toBeLessThanOrEqual(relay + 1);
      expect(r.rounds).toBeLessThanOrEqual(r.lowerBound + 2);
      expect(r.rounds).toBeLessThan(r.maxPairLoad);
    }
  });
});

describe("relay lower bound", () => {
  it("a 3-cycle of 6 packets per pair: node bound 3, relay bound 4; te-offline reaches 4 and verifies", () => {
    const m = matrixFromRows([[0, 6, 0], [0, 0, 6], [6, 0, 0]]);
    expect(relayLowerBound(m)).toBe(4);
    const s = plan(m, "te-offline", { payload: true });
    expect(s.params["lowerBound"]).toBe(3);
    expect(s.stages.length).toBe(4);
    expect(verifySchedule(m, s).checks.filter((c) => !c.holds)).toEqual([]);
  });

  it("the verifier rejects a schedule with fewer rounds than the relay bound (te-rounds-relay-bound)", () => {
    const m = matrixFromRows([[0, 6, 0], [0, 0, 6], [6, 0, 0]]);
    const b = new ScheduleBuilder({ p: 3, algorithm: "te-valiant", params: {}, seed: 1, elementBytes: m.elementBytes, matrixDigest: matrixDigest(m) }, false);
    for (let r = 0; r < 3; r++) {
      b.stage(`round ${r + 1}`).step().transfer(0, 1, 2);
      b.transfer(1, 2, 2);
      b.transfer(2, 0, 2);
    }
    const c = verifySchedule(m, b.build()).checks.find((x) => x.id === "te-rounds-relay-bound");
    expect(c).toMatchObject({ holds: false, measured: 3, bound: 4 });
    expect(verifySchedule(m, b.build()).checks.find((x) => x.id === "te-rounds-lower-bound")?.holds).toBe(true);
  });
});
