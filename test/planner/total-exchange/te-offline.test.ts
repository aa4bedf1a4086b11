/** te-offline: deterministic (no dependence on the seed), at the relay lower bound on random h-relations, bound checked by the verifier. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixDigest, matrixFromData, matrixFromRows, type CommMatrix } from "../../../src/model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../../src/model/schedule.js";
import { findMachine } from "../../../src/machines/presets.js";
import { simulateSchedule } from "../../../src/machines/sim/simulate.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { plan } from "../../../src/planner/index.js";
import {
  causalLowerBound,
  EJECT_CHAIN,
  planOffline,
  relationLoad,
  relayLowerBound,
  REPAIR_WORK_PER_NODE,
  roundLowerBound,
  TE_PROTOCOLS,
  teRounds,
} from "../../../src/planner/total-exchange/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

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
    ...[4, 8, 10, 16, 32, 50, 64].flatMap((k): [number, number, number[]][] => [
      [64, k, [1, 2]],
      [128, k, [1, 2]],
    ]),
    [256, 4, [1]],
    [256, 16, [1]],
    [256, 64, [1]],
  ];
  it.each(cells)(
    "N = %i, h = %iN: relay bound <= rounds <= relay bound + 1 and <= lower bound + 2, below te-direct",
    (n, k, seeds) => {
      for (const seed of seeds) {
        const m = generatePattern("h-relation", n, { h: k * n }, seed);
        const r = teRounds("te-offline", m, seed),
          relay = relayLowerBound(m);
        expect(r.rounds).toBeGreaterThanOrEqual(relay);
        expect(r.rounds).toBeLessThanOrEqual(relay + 1);
        expect(r.rounds).toBeLessThanOrEqual(r.lowerBound + 2);
        expect(r.rounds).toBeLessThan(r.maxPairLoad);
      }
    },
  );
});

describe("relay lower bound", () => {
  it("a 3-cycle of 6 packets per pair: node bound 3, relay bound 4; te-offline reaches 4 and verifies", () => {
    const m = matrixFromRows([
      [0, 6, 0],
      [0, 0, 6],
      [6, 0, 0],
    ]);
    expect(relayLowerBound(m)).toBe(4);
    const s = plan(m, "te-offline", { payload: true });
    expect(s.params["lowerBound"]).toBe(3);
    expect(s.stages.length).toBe(4);
    expect(verifySchedule(m, s).checks.filter((c) => !c.holds)).toEqual([]);
  });

  it("the verifier rejects a schedule with fewer rounds than the relay bound (te-rounds-relay-bound)", () => {
    const m = matrixFromRows([
      [0, 6, 0],
      [0, 0, 6],
      [6, 0, 0],
    ]);
    const b = new ScheduleBuilder(
      {
        p: 3,
        algorithm: "te-valiant",
        params: {},
        seed: 1,
        elementBytes: m.elementBytes,
        matrixDigest: matrixDigest(m),
      },
      false,
    );
    for (let r = 0; r < 3; r++) {
      b.stage(`round ${r + 1}`)
        .step()
        .transfer(0, 1, 2);
      b.transfer(1, 2, 2);
      b.transfer(2, 0, 2);
    }
    const c = verifySchedule(m, b.build()).checks.find((x) => x.id === "te-rounds-relay-bound");
    expect(c).toMatchObject({ holds: false, measured: 3, bound: 4 });
    expect(verifySchedule(m, b.build()).checks.find((x) => x.id === "te-rounds-lower-bound")?.holds).toBe(true);
  });
});

/** n x n matrix with one entry `load` on the pair 0 -> 1. */
function spike(n: number, load: number, base?: CommMatrix): CommMatrix {
  const d = base ? Float64Array.from(base.data) : new Float64Array(n * n);
  d[1] = d[1]! + load;
  return matrixFromData(n, d);
}

describe("causal lower bound (round 1 only origins send, in the last round only direct deliveries)", () => {
  it("one heavy pair: node bound and relay bound ceil(L / (N - 1)), causal bound one more; te-offline reaches it and verifies", () => {
    const m = spike(9, 40);
    expect([roundLowerBound(9, 40), relayLowerBound(m), causalLowerBound(m)]).toEqual([5, 5, 6]);
    const s = plan(m, "te-offline", { payload: true });
    expect(s.stages.length).toBe(6);
    expect(s.params["causalBound"]).toBe(6);
    expect(verifySchedule(m, s).checks.filter((c) => !c.holds)).toEqual([]);
  });

  it("the 3-cycle of 6 per pair: causal bound 1 + ceil((6 - 1) / 2) = 4 (= the relay bound)", () => {
    expect(
      causalLowerBound(
        matrixFromRows([
          [0, 6, 0],
          [0, 0, 6],
          [6, 0, 0],
        ]),
      ),
    ).toBe(4);
    expect(
      causalLowerBound(
        matrixFromRows([
          [5, 0],
          [0, 5],
        ]),
      ),
    ).toBe(0);
    expect(
      causalLowerBound(
        matrixFromRows([
          [0, 3],
          [1, 0],
        ]),
      ),
    ).toBe(3);
  });

  it("sound and in range on random small matrices: every protocol needs at least the causal bound; node bound <= causal bound <= max pair load", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 12, kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"] }),
        (r) => {
          const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 12) });
          const c = causalLowerBound(m);
          const { t, maxPair } = relationLoad(m);
          expect(c).toBeGreaterThanOrEqual(roundLowerBound(m.p, t));
          expect(c).toBeLessThanOrEqual(maxPair);
          for (const p of TE_PROTOCOLS) expect(teRounds(p.name, m, r.seed).rounds).toBeGreaterThanOrEqual(c);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("N = 64, 1890 packets 0 -> 1: te-offline starts at the causal bound 31 (relay bound 30 cannot be reached), no pass wasted below it", () => {
    const p = planOffline(spike(64, 1890));
    expect([p.lowerBound, p.relayBound, p.causalBound, p.rounds]).toEqual([30, 30, 31, 31]);
    // only the strict rule at 31 may fail; the relay bound 30 used to take 8 failed passes first
    expect(p.failedTries).toBeLessThanOrEqual(1);
  });
});

describe("te-offline's work is capped per failing packet", () => {
  it("a 16N relation at N = 24 plus 250 packets 0 -> 1 (the bounds cannot be reached): every failed pass stops its repair and its ejection chain at the caps", () => {
    const n = 24;
    const m = spike(n, 250, generatePattern("h-relation", n, { h: 16 * n }, 1));
    const p = planOffline(m);
    expect(p.failedTries).toBeGreaterThan(0);
    expect(p.rounds).toBeGreaterThan(Math.max(p.relayBound, p.causalBound));
    // a repair stops at the first relay move past the cap (a move looks at most 2 N intermediates);
    // uncapped, one repair here took 10946 score evaluations and one chain 1025 steps
    expect(p.work.maxRepair).toBeLessThanOrEqual((REPAIR_WORK_PER_NODE + 2) * n);
    expect(p.work.maxChain).toBeLessThanOrEqual(EJECT_CHAIN);
    const s = plan(m, "te-offline", { payload: true });
    expect(s.stages.length).toBe(p.rounds);
    expect(verifySchedule(m, s).checks.filter((c) => !c.holds)).toEqual([]);
  });
});

describe("te-offline past its first values of R", () => {
  it("004 Pattern1 at P = 16 (seed 1): relay bound 206 out of the greedy's reach for 8 values; 221 rounds, not the max pair load 1024", () => {
    const m = generatePattern("pattern1", 16, {}, 1);
    const p = planOffline(m);
    expect([p.lowerBound, p.relayBound, p.causalBound, relationLoad(m).maxPair]).toEqual([206, 206, 206, 1024]);
    // the 8 values 206..213 fail; te-offline used to settle for the max pair load (te-direct's 1024 rounds)
    expect(p.failedTries).toBeGreaterThanOrEqual(8 * 4 * 2);
    expect(p.rounds).toBe(221);
    expect(p.orderTries).toBeGreaterThan(0);
    const s = plan(m, "te-offline", { payload: true });
    expect(s.stages.length).toBe(221);
    expect(s.params["plannedRounds"]).toBe(221);
    expect(verifySchedule(m, s).checks.filter((c) => !c.holds)).toEqual([]);
    // docs/algorithms/total-exchange.md: simulated on t3d-004 (blocking), te-offline against te-direct
    const t3d = findMachine("t3d-004");
    const us = (x: Schedule): number => Math.round(simulateSchedule(x, t3d, { timeline: false }).makespan);
    expect([us(s), us(plan(m, "te-direct", { payload: true }))]).toEqual([155015, 197933]);
  });
});

describe("te-offline searches a matrix once", () => {
  it("the same storage and params give the same plan object; a copy of the matrix or other params search again, alike", () => {
    const m = generatePattern("h-relation", 12, { h: 48 }, 3);
    const first = planOffline(m);
    expect(planOffline(m)).toBe(first);
    const copy = matrixFromData(12, Float64Array.from(m.data));
    const again = planOffline(copy);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    const other = planOffline(m, 2, 3);
    expect(other).not.toBe(first);
    expect(other).toEqual(planOffline(matrixFromData(12, Float64Array.from(m.data)), 2, 3));
    // the message plan, then the payload plan auto's lowering asks for: one search, the same rounds as a fresh matrix's
    const fresh = plan(matrixFromData(12, Float64Array.from(m.data)), "te-offline", { payload: true });
    const s = plan(m, "te-offline", { payload: true });
    expect(s.params).toEqual(fresh.params);
    expect(Array.from(s.src)).toEqual(Array.from(fresh.src));
    expect(Array.from(s.dst)).toEqual(Array.from(fresh.dst));
    expect(Array.from(s.chunks!.origin)).toEqual(Array.from(fresh.chunks!.origin));
  });
});
