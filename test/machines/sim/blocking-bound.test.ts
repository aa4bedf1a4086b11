/** blockingMakespanBound: never above the blocking replay's makespan, equal to it where no message waits, and hand-computed on a small case. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { BoundScratch, blockingBoundExact, blockingMakespanBound } from "../../../src/machines/sim/blocking-bound.js";
import { simulateSchedule } from "../../../src/machines/sim/index.js";
import { findMachine } from "../../../src/machines/presets.js";
import type { MachineModel } from "../../../src/model/machine.js";
import { matrixFromData, matrixRows } from "../../../src/model/matrix.js";
import { isCommplanError } from "../../../src/model/errors.js";
import { PLANNERS, plan } from "../../../src/planner/registry.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";
import { nodePortMachineArb, fabricOf } from "../../helpers/machines.js";

describe("blockingMakespanBound", () => {
  it("is never above the blocking replay's makespan: every planner, random matrices, machines, both receive orders", () => {
    // one scratch for every run (plans large and small, one after the other): the same bound as fresh arrays
    const shared = new BoundScratch();
    let exact = 0,
      inexact = 0;
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 36 }),
        fc.constantFrom(...PLANNERS.map((p) => p.name)),
        nodePortMachineArb,
        fc.constantFrom("arrival", "step"),
        (r, name, machine, recvOrder) => {
          const m = buildMatrix(r);
          // the total-exchange planners send one transfer per element: keep their replays small
          if (name.startsWith("te-") && matrixRows(m).val.reduce((a, b) => a + b, 0) > 20_000) return;
          let s;
          try {
            s = plan(m, name, { machine });
          } catch (e) {
            if (isCommplanError(e)) return; // the planner refuses this matrix
            throw e;
          }
          const bound = blockingMakespanBound(s, machine, fabricOf(machine));
          expect(blockingMakespanBound(s, machine, fabricOf(machine), shared)).toBe(bound);
          const sim = simulateSchedule(s, machine, { timeline: false, recvOrder });
          expect(bound).toBeGreaterThanOrEqual(0);
          expect(bound).toBeLessThanOrEqual(sim.makespan * (1 + 1e-12) + 1e-9);
          // where no message waited for a receive port, the bound is the makespan
          if (sim.totalWait === 0)
            expect(Math.abs(bound - sim.makespan)).toBeLessThanOrEqual(1e-9 * sim.makespan + 1e-6);
          // where the bound says it is exact, it is the makespan, and no message waited
          const e = blockingBoundExact(s, machine, fabricOf(machine), recvOrder, shared);
          expect(e.bound).toBe(bound);
          if (e.exact) {
            exact++;
            expect(sim.totalWait, `${name} P=${m.p} ${recvOrder}`).toBe(0);
            expect(Math.abs(bound - sim.makespan)).toBeLessThanOrEqual(1e-9 * sim.makespan + 1e-6);
          } else inexact++;
        },
      ),
      { numRuns: 150 },
    );
    // both answers occur, so the check above can fail
    expect(exact).toBeGreaterThan(10);
    expect(inexact).toBeGreaterThan(10);
  });

  it("equals the makespan when no message waits (uniform matrices: shift, linear permutation, mesh-two-stage, two-stage)", () => {
    const machine = findMachine("t3d-004");
    let exact = 0;
    for (const p of [4, 9, 16]) {
      const m = generatePattern("uniform", p, { size: 100 }, 1);
      for (const name of ["shift", "linear-permutation", "mesh-two-stage", "two-stage"]) {
        const s = plan(m, name, { machine });
        const sim = simulateSchedule(s, machine, { timeline: false });
        const bound = blockingMakespanBound(s, machine, "flat");
        if (sim.totalWait > 0) expect(bound, `${name} P=${p}`).toBeLessThanOrEqual(sim.makespan * (1 + 1e-12));
        else {
          expect(Math.abs(bound - sim.makespan), `${name} P=${p}`).toBeLessThanOrEqual(1e-9 * sim.makespan + 1e-6);
          exact++;
        }
      }
    }
    expect(exact).toBeGreaterThanOrEqual(9);
  });

  it("counts a receive port's queue: two senders to one node (hand-computed)", () => {
    // 0 -> 2 (10 elements) and 1 -> 2 (30 elements) in one step: node 2 takes them one after the other
    const m = matrixFromData(3, new Float64Array([0, 0, 10, 0, 0, 30, 0, 0, 0]));
    const machine: MachineModel = { ...findMachine("t3d-004"), ts: 5, tsSend: 2, tc: 0.5, td: 0.5, tm: 0, barrier: 0 };
    const s = plan(m, "linear-permutation", { machine });
    const eb = s.elementBytes;
    const expected = 5 + 10 * eb + 5 + 30 * eb; // two start-ups and both messages' bytes at 1 us per byte
    expect(simulateSchedule(s, machine, { timeline: false }).makespan).toBeCloseTo(expected, 9);
    expect(blockingMakespanBound(s, machine, "flat")).toBeCloseTo(expected, 9);
  });
});
