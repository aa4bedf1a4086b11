/** The cost model and the simulated machine on sparse matrices: the same results as dense storage, and no P x P copy on the sparse path. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scheduleCost } from "../../src/machines/cost-model.js";
import { MACHINES, findMachine } from "../../src/machines/presets.js";
import { runProtocol, simulateSchedule } from "../../src/machines/sim/index.js";
import { toDense, toSparse } from "../../src/model/matrix.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/index.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";

describe("machines on sparse storage", () => {
  it("data-mode replays and both run-time protocols give the same results from dense and sparse storage", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 2, maxP: 16, kinds: ["dense", "sparse", "empty-rows", "permutation", "spike"] }),
        fc.constantFrom(...MACHINES),
        fc.constantFrom("shift", "coloring", "two-stage"),
        fc.constantFrom("async", "drs-n"),
        (r, machine, algorithm, protocol) => {
          const m = buildMatrix(r);
          const s = plan(toDense(m), algorithm, { payload: true });
          const replay = (x: typeof m): unknown => simulateSchedule(s, machine, { data: x });
          expect(replay(toSparse(m))).toEqual(replay(toDense(m)));
          const run = (x: typeof m): unknown => runProtocol(x, machine, { protocol: protocol as "async", seed: 5 });
          expect(run(toSparse(m))).toEqual(run(toDense(m)));
        },
      ),
      { seed: 16, numRuns: 80 },
    );
  });

  it("a P = 16384 halo: cost, replay and both protocols without a dense copy", () => {
    // a dense copy of the matrix (2 GiB) would be refused under its budget of 256 MiB
    const m = generatePattern("halo", 16384, { dims: 3, neighbours: 6 }, 1, { maxMemory: 256 * 2 ** 20 });
    const s = plan(m, "shift");
    const machine = findMachine("t3d-004");
    expect(scheduleCost(s, machine, "blocking").total).toBeGreaterThan(0);
    expect(simulateSchedule(s, machine).makespan).toBeGreaterThan(0);
    for (const protocol of ["async", "drs-n"] as const) {
      const r = runProtocol(m, machine, { protocol, seed: 1, timeline: false });
      expect(r.realised.transferCount).toBe(s.transferCount);
    }
  });
});
