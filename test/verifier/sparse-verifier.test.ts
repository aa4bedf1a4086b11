/** The verifier on sparse matrices: the same report as on dense storage (passing and failing plans), and no P x P copy on the sparse path. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerBounds } from "../../src/bounds/index.js";
import { findMachine } from "../../src/machines/presets.js";
import { toDense, toSparse } from "../../src/model/matrix.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/index.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";
import { pack, unpack } from "../helpers/schedule-edit.js";

const ALGORITHMS = ["shift", "linear-permutation", "coloring", "split-coloring", "rs-n", "two-stage", "four-stage"];

describe("the verifier on sparse storage", () => {
  it("gives the same report for dense and sparse storage, for plans and for broken plans", () => {
    let failing = 0;
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 2, maxP: 20, kinds: ["dense", "sparse", "empty-rows", "permutation", "spike"] }),
        fc.constantFrom(...ALGORITHMS),
        fc.boolean(),
        fc.nat(),
        fc.constantFrom("none", "drop", "grow", "stranger"),
        (r, algorithm, payload, pick, mutation) => {
          const m = buildMatrix(r);
          let s = plan(toDense(m), algorithm, { payload });
          if (mutation !== "none" && s.transferCount > 0) {
            const stages = unpack(s);
            const steps = stages.flatMap((st) => st.steps).filter((st) => st.transfers.length > 0);
            const step = steps[pick % steps.length]!;
            const t = step.transfers[pick % step.transfers.length]!;
            if (mutation === "drop") step.transfers.splice(step.transfers.indexOf(t), 1);
            else if (mutation === "grow") t.size += 1;
            else step.transfers.push({ src: t.dst, dst: t.src, size: 1, chunks: t.chunks && [[t.dst, t.src, 0, 1]] });
            s = pack(s, stages);
          }
          const dense = verifySchedule(toDense(m), s);
          if (!dense.ok) failing++;
          expect(verifySchedule(toSparse(m), s)).toEqual(dense);
        },
      ),
      { seed: 16, numRuns: 200 },
    );
    expect(failing).toBeGreaterThan(50);
  });

  it("verifies plans of a P = 16384 halo (26 neighbours) and computes its lower bounds without a dense copy", () => {
    // a dense copy of the matrix (2 GiB) would be refused under its budget of 256 MiB
    const m = generatePattern("halo", 16384, { dims: 3, neighbours: 26 }, 1, { maxMemory: 256 * 2 ** 20 });
    const plans = ["shift", "coloring", "rs-n"].flatMap((a) => [plan(m, a), plan(m, a, { payload: true })]);
    for (const s of plans) expect(verifySchedule(m, s).ok, s.algorithm).toBe(true);
    const bounds = lowerBounds(m, "cost-blocking", { machine: findMachine("t3d-004") });
    expect(bounds.length).toBeGreaterThan(0);
  });
});
