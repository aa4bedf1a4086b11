/** The progress contract of the simulated machine (docs/architecture.md, "Progress of long runs"): simulateSchedule in both modes and runProtocol. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isCommplanError } from "../../../src/model/errors.js";
import { findMachine, MACHINES } from "../../../src/machines/presets.js";
import { runProtocol, simulateSchedule } from "../../../src/machines/sim/index.js";
import { plan } from "../../../src/planner/index.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";
import { expectProgress, recorder } from "../../helpers/progress.js";

describe("simulateSchedule progress", () => {
  it("one total, done never decreasing, the last call at the total: both modes, uniform P = 2, 24, 64, 256", () => {
    const machine = findMachine("sp2-004");
    for (const p of [2, 24, 64, 256]) {
      const s = plan(generatePattern("uniform", p, { size: 4 }, 1), "shift");
      for (const mode of ["blocking", "nonblocking"] as const) {
        const r = recorder();
        const plain = simulateSchedule(s, machine, { mode, timeline: false });
        const run = simulateSchedule(s, machine, { mode, timeline: false, progress: r.progress });
        expectProgress(r.calls);
        expect(r.calls[0]![1], `P = ${p} ${mode}`).toBe(s.transferCount);
        expect(r.calls.length).toBeLessThanOrEqual(1002);
        expect(run.makespan).toBe(plain.makespan);
      }
    }
  });

  it("holds for random matrices, planners, machines, modes, the OCPC and runs without stage barriers", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 24, kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"] }),
        fc.constantFrom("shift", "coloring", "linear-permutation"),
        fc.constantFrom(...MACHINES),
        fc.constantFrom("blocking", "nonblocking"),
        fc.constantFrom("flat", "ocpc"),
        fc.boolean(),
        (recipe, algorithm, machine, mode, fabric, stageBarriers) => {
          const s = plan(buildMatrix(recipe), algorithm);
          const r = recorder();
          // the OCPC: a lock-step blocking replay (its steps run outside the event loop)
          const ocpc = fabric === "ocpc" && mode === "blocking" ? { topology: fabric, lockstep: true } : {};
          try {
            simulateSchedule(s, machine, { mode, timeline: false, progress: r.progress, stageBarriers, ...ocpc });
          } catch (e) {
            // a combination the simulator refuses (nonblocking without barriers on a composing plan, ...)
            if (isCommplanError(e) && e.code === "BAD_OPTION") return;
            throw e;
          }
          expectProgress(r.calls);
          expect(r.calls[0]![1]).toBe(s.transferCount);
        },
      ),
      { numRuns: 40, seed: 7 },
    );
  });
});

describe("runProtocol progress", () => {
  it("one total (the messages), done never decreasing, the last call at the total: async and drs-n, P = 2, 24, 64", () => {
    const machine = findMachine("sp2-004");
    for (const p of [2, 24, 64])
      for (const protocol of ["async", "drs-n"] as const)
        for (const generateRecv of [false, true]) {
          const m = generatePattern("uniform", p, { size: 4 }, 1);
          const r = recorder();
          const run = runProtocol(m, machine, { protocol, generateRecv, timeline: false, progress: r.progress });
          const plain = runProtocol(m, machine, { protocol, generateRecv, timeline: false });
          expectProgress(r.calls);
          expect(r.calls[0]![1], `P = ${p} ${protocol}`).toBe(p * (p - 1));
          expect(run.makespan).toBe(plain.makespan);
        }
  });
});
