/** Multi-port rounds (issue 6 item 1): with k ports a round of N - 1 shifts takes ceil((N - 1) / k) steps. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generatePattern } from "../../../src/patterns/index.js";
import { TOTAL_EXCHANGE_PLANNERS } from "../../../src/planner/total-exchange/index.js";
import { plan } from "../../../src/planner/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";

describe("te-* with ports = k", () => {
  it("same rounds as single-port, ceil((N - 1) / k) steps a round, contention-free with k ports only", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 24 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 0, max: 999 }),
        (n, h, k, seed) => {
          const m = generatePattern("h-relation", n, { h }, seed);
          for (const pl of TOTAL_EXCHANGE_PLANNERS) {
            const ports = Math.min(k, n - 1);
            const one = plan(m, pl.name, { payload: true, seed });
            const multi = plan(m, pl.name, { payload: true, seed, params: { ports } });
            expect(multi.stages.length).toBe(one.stages.length);
            for (const st of multi.stages) expect(st.stepCount).toBeLessThanOrEqual(Math.ceil((n - 1) / ports));
            const r = verifySchedule(m, multi, { ports });
            expect(r.checks.filter((c) => !c.holds).map((c) => `${pl.name}: ${c.id}: ${c.witness}`)).toEqual([]);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it("a full round with two shifts per step needs two ports", () => {
    const n = 8;
    const m = generatePattern("uniform", n, { size: 1 }, 1);
    const s = plan(m, "te-direct", { params: { ports: 2 } });
    expect(s.stages.length).toBe(1);
    expect(s.stepCount).toBe(4); // the butterfly count N / 2 for the 7 shifts of N = 8
    const single = verifySchedule(m, s);
    expect(single.checks.find((c) => c.id === "node-contention")!.holds).toBe(false);
    expect(verifySchedule(m, s, { ports: 2 }).ok).toBe(true);
  });

  it("rejects a bad port count", () => {
    const m = generatePattern("h-relation", 8, { h: 2 }, 1);
    expect(() => plan(m, "te-valiant", { params: { ports: 0 } })).toThrow(
      /te-valiant: ports must be a positive integer \(shifts per step\), got 0/,
    );
    expect(() => plan(m, "te-valiant", { params: { ports: 8 } })).toThrow(
      /te-valiant: ports must be an integer in 1..7 \(shifts per step\), got 8/,
    );
  });
});
