/** auto's rule-out bounds: composedDirectBound never exceeds the blocking replay of a direct planner's plan, equals it where nothing waits, and ruleOut's notes. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { scheduleClass } from "../../src/bounds/index.js";
import { AUTO_VARIANTS, DIRECT_VARIANTS, variantLabel, type AutoVariant } from "../../src/auto/index.js";
import type { Schedule } from "../../src/model/schedule.js";
import { RELAYED_STAGES, composedDirectBound, relayedBound, ruleOutBounds } from "../../src/auto/index.js";
import { matrixFromCoordinates } from "../../src/model/matrix.js";
import { findMachine } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/index.js";
import { isCommplanError } from "../../src/model/errors.js";
import type { MachineModel } from "../../src/model/machine.js";
import { matrixFromRows, type CommMatrix } from "../../src/model/matrix.js";
import { plan } from "../../src/planner/index.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";
import { nodePortMachineArb, fabricOf } from "../helpers/machines.js";

const DIRECT = AUTO_VARIANTS.filter((v) => DIRECT_VARIANTS.has(v.algorithm));

/**
 * Runs `check` on every plan of `variants` (a planner that refuses the matrix is skipped) for random
 * matrices (P <= 24), node-port machines and both receive orders, with the plan's blocking makespan.
 */
function forEveryPlan(
  variants: readonly AutoVariant[],
  numRuns: number,
  check: (m: CommMatrix, machine: MachineModel, v: AutoVariant, s: Schedule, makespan: number) => void,
): void {
  fc.assert(
    fc.property(
      matrixRecipe({ maxP: 24 }),
      nodePortMachineArb,
      fc.constantFrom("arrival", "step"),
      (r, machine, recvOrder) => {
        const m = buildMatrix(r);
        for (const v of variants) {
          let s;
          try {
            s = plan(m, v.algorithm, { params: v.params, machine });
          } catch (e) {
            if (isCommplanError(e)) continue;
            throw e;
          }
          check(m, machine, v, s, simulateSchedule(s, machine, { timeline: false, recvOrder }).makespan);
        }
      },
    ),
    { numRuns },
  );
}

describe("composedDirectBound", () => {
  it("is never above the blocking replay of a direct planner's plan, which is direct, of one composing stage (random matrices, machines, both receive orders)", () => {
    let tight = 0;
    forEveryPlan(DIRECT, 60, (m, machine, v, s, t) => {
      const bound = composedDirectBound(m, machine, fabricOf(machine));
      // the direct bounds apply (DIRECT_VARIANTS), and what this one assumes: one stage that composes, no local copies
      expect(scheduleClass(m, s, machine.ports).direct, variantLabel(v)).toBe(true);
      expect(s.stages.length, variantLabel(v)).toBeLessThanOrEqual(1);
      for (const st of s.stages) expect(st.rearrange).toBe("compose");
      for (let x = 0; x < s.transferCount; x++) expect(s.src[x]).not.toBe(s.dst[x]);
      expect(bound, `${variantLabel(v)} P=${m.p} ${machine.name}`).toBeLessThanOrEqual(t * (1 + 1e-12) + 1e-9);
      if (Math.abs(bound - t) <= 1e-9 * t) tight++;
    });
    // the bound is reached now and then, so the check above is not slack everywhere
    expect(tight).toBeGreaterThan(10);
  });

  it("is the makespan of shift on an all-to-all of equal messages: B + t_m R + (P - 1) (T_s + (m + envelope)(t_c + t_d))", () => {
    const machine: MachineModel = { ...findMachine("t3d-004"), envelope: 16 };
    const p = 6;
    const m = matrixFromRows(
      Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => (i === j ? 0 : 10))),
    );
    const bytes = 10 * m.elementBytes;
    const expected =
      machine.barrier +
      (p - 1) * bytes * machine.tm +
      (p - 1) * (machine.ts + (bytes + 16) * (machine.tc + machine.td));
    expect(composedDirectBound(m, machine, "flat")).toBeCloseTo(expected, 9);
    const t = simulateSchedule(plan(m, "shift", { machine }), machine, { timeline: false }).makespan;
    expect(t).toBeCloseTo(expected, 9);
    // and it is the rule-out's direct bound in blocking mode, not in nonblocking mode (where it does not apply)
    expect(ruleOutBounds(m, machine, "blocking").direct).toEqual({
      name: "composed-busiest-node",
      value: composedDirectBound(m, machine, "flat"),
    });
    expect(ruleOutBounds(m, machine, "nonblocking").direct?.name).not.toBe("composed-busiest-node");
  });

  it("is 0 without traffic", () => {
    const m = matrixFromRows([
      [3, 0],
      [0, 4],
    ]);
    expect(composedDirectBound(m, findMachine("t3d-004"), "flat")).toBe(0);
  });
});

describe("relayedBound", () => {
  const RELAYED = AUTO_VARIANTS.filter((v) => RELAYED_STAGES.has(v.algorithm));
  it("is never above the blocking replay of a two-stage or four-stage plan, which has that many stages, all rearranging (random matrices, machines, both receive orders)", () => {
    let withTraffic = 0;
    forEveryPlan(RELAYED, 80, (m, machine, v, s, t) => {
      const stages = RELAYED_STAGES.get(v.algorithm)!;
      const bound = relayedBound(m, machine, fabricOf(machine), stages);
      if (bound > 0) {
        withTraffic++;
        expect(s.stages.length, variantLabel(v)).toBe(stages);
        for (const st of s.stages) expect(st.rearrange, variantLabel(v)).not.toBe("none");
      }
      expect(bound, `${variantLabel(v)} P=${m.p} ${machine.name}`).toBeLessThanOrEqual(t * (1 + 1e-12) + 1e-9);
    });
    expect(withTraffic).toBeGreaterThan(20);
  });

  it("counts a barrier per stage, the busiest sender's bytes composed and sent once (hand-computed), as ruleOutBounds does", () => {
    const machine: MachineModel = { ...findMachine("t3d-004"), envelope: 0, ports: 1 };
    const m = matrixFromRows([
      [0, 10, 0],
      [0, 0, 0],
      [4, 0, 0],
    ]);
    const bytes = 10 * m.elementBytes;
    const expected = 4 * machine.barrier + bytes * machine.tm + machine.ts + bytes * (machine.tc + machine.td);
    expect(relayedBound(m, machine, "flat", 4)).toBeCloseTo(expected, 9);
    const rb = ruleOutBounds(m, machine, "blocking");
    for (const [name, stages] of RELAYED_STAGES) {
      const b = rb.relayed.get(name);
      // listed when above the bound valid for every schedule, with relayedBound's value
      if (b !== undefined) expect(b.value).toBe(relayedBound(m, machine, "flat", stages));
      else expect(rb.any!.value).toBeGreaterThanOrEqual(relayedBound(m, machine, "flat", stages));
    }
  });
});

describe("ruleOutBounds", () => {
  it("keeps every bound on the CM-5 fat tree at large P (its node loads take the cheapest partner in closed form)", () => {
    const p = 4097;
    const rows = Uint32Array.from({ length: p }, (_, i) => i);
    const cols = Uint32Array.from({ length: p }, (_, i) => (i + 1) % p);
    const m = matrixFromCoordinates(p, rows, cols, new Float64Array(p).fill(10), p);
    const cm5 = findMachine("cm5-fat-tree");
    const b = ruleOutBounds(m, cm5, "blocking");
    expect(b.any).not.toBeNull();
    expect(b.direct).toEqual({ name: "composed-busiest-node", value: composedDirectBound(m, cm5, "cm5-fat-tree") });
    expect(ruleOutBounds(m, cm5, "nonblocking").any).not.toBeNull();
  });
});
