import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COST_MODES, scheduleCost } from "../../src/machines/cost-model.js";
import { MACHINES } from "../../src/machines/presets.js";
import { REARRANGE_KINDS, ScheduleBuilder, type Rearrange, type Schedule } from "../../src/model/schedule.js";

/** One contention-free stage: every step a partial permutation (each node sends <= 1 and receives <= 1). */
interface StageSpec {
  readonly rearrange: Rearrange;
  /** steps[s][i] = [destination of node i, size]; size 0 means node i sends nothing. */
  readonly steps: readonly (readonly (readonly [number, number])[])[];
}

const stageArb = (p: number): fc.Arbitrary<StageSpec> => {
  const nodes = Array.from({ length: p }, (_, i) => i);
  const step = fc
    .tuple(
      fc.shuffledSubarray(nodes, { minLength: p, maxLength: p }),
      fc.array(fc.integer({ min: 0, max: 40 }), { minLength: p, maxLength: p }),
    )
    .map(([perm, sizes]) => perm.map((d, i) => [d, sizes[i]!] as const));
  return fc.record({ rearrange: fc.constantFrom(...REARRANGE_KINDS), steps: fc.array(step, { maxLength: 5 }) });
};

function build(p: number, elementBytes: number, stages: readonly StageSpec[]): Schedule {
  const b = new ScheduleBuilder(
    { p, algorithm: "random", params: {}, seed: null, elementBytes, matrixDigest: "" },
    false,
  );
  stages.forEach((st, k) => {
    b.stage(`stage-${k}`, st.rearrange);
    for (const step of st.steps) {
      b.step();
      step.forEach(([d, n], i) => {
        if (n > 0) b.transfer(i, d, n);
      });
    }
  });
  return b.build();
}

const machineArb = fc.constantFrom(...MACHINES);
const pArb = fc.integer({ min: 1, max: 7 });
const ebArb = fc.integer({ min: 1, max: 24 });

describe("cost model properties", () => {
  it("blocking cost >= nonblocking cost for contention-free one-stage schedules", () => {
    fc.assert(
      fc.property(
        pArb.chain((p) => fc.tuple(fc.constant(p), stageArb(p))),
        ebArb,
        machineArb,
        ([p, stage], eb, machine) => {
          const s = build(p, eb, [stage]);
          const blocking = scheduleCost(s, machine, "blocking").total;
          const nonblocking = scheduleCost(s, machine, "nonblocking").total;
          expect(blocking).toBeGreaterThanOrEqual(nonblocking - 1e-9 * Math.max(1, blocking));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("cost is additive over stages", () => {
    fc.assert(
      fc.property(
        pArb.chain((p) => fc.tuple(fc.constant(p), fc.array(stageArb(p), { minLength: 1, maxLength: 4 }))),
        ebArb,
        machineArb,
        fc.constantFrom(...COST_MODES),
        ([p, stages], eb, machine, mode) => {
          const whole = scheduleCost(build(p, eb, stages), machine, mode);
          const parts = stages.map((st) => scheduleCost(build(p, eb, [st]), machine, mode));
          const sum = parts.reduce((a, c) => a + c.total, 0);
          expect(whole.total).toBeCloseTo(sum, 6);
          expect(whole.stages.map((x) => x.time)).toEqual(parts.map((c) => c.stages[0]!.time));
          expect(whole.startups).toBe(parts.reduce((a, c) => a + c.startups, 0));
          // a barrier per stage, but at P = 1, where a single node waits for no one (docs/cost-model.md)
          const barrier = p > 1 ? machine.barrier : 0;
          expect(whole.total).toBeGreaterThanOrEqual(stages.length * barrier - 1e-9);
          for (const st of whole.stages) expect(st.barrier).toBe(barrier);
        },
      ),
      { numRuns: 60 },
    );
  });
});
