/** Planners on sparse matrices: the same plan as on dense storage, and no P x P copy where the planner works in O(P + E). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import {
  MAX_DENSE_P,
  matrixFromCoordinates,
  matrixFromEntries,
  toDense,
  toSparse,
  type CommMatrix,
} from "../../src/model/matrix.js";
import { isCommplanError } from "../../src/model/errors.js";
import { generatePattern } from "../../src/patterns/index.js";
import { PLANNERS, plan } from "../../src/planner/index.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";

/** The planners whose work is O(P + E) on sparse input (docs/sparse.md). */
const SPARSE = ["shift", "linear-permutation", "coloring", "split-coloring", "rs-n", "rs-nh"];

/** A memory budget of 256 MiB: a dense P = 16384 copy needs 2 GiB, refused. */
const BUDGET = 256 * 2 ** 20;

describe("planners on sparse storage", () => {
  it("every planner makes the same plan, byte for byte, from dense and sparse storage of a matrix", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 1, maxP: 16, kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"] }),
        fc.constantFrom(...PLANNERS.map((x) => x.name)),
        fc.boolean(),
        (r, algorithm, payload) => {
          const m = buildMatrix(r);
          const dense = toDense(m),
            sparse = toSparse(m);
          const one = (x: CommMatrix): string => {
            try {
              return scheduleToJsonText(plan(x, algorithm, { payload, seed: 7 }));
            } catch (e) {
              if (isCommplanError(e)) return `refused: ${e.message}`;
              throw e;
            }
          };
          expect(one(sparse)).toBe(one(dense));
        },
      ),
      { seed: 16, numRuns: 150 },
    );
  });

  it("the O(P + E) planners plan a P = 16384 halo (26 neighbours) and a ten-entry matrix without a dense copy", () => {
    const halo = generatePattern("halo", 16384, { dims: 3, neighbours: 26 }, 1, { maxMemory: BUDGET });
    const ten = matrixFromCoordinates(
      16384,
      Uint32Array.from({ length: 10 }, (_, k) => k * 1000),
      Uint32Array.from({ length: 10 }, (_, k) => 16383 - k * 7),
      Float64Array.from({ length: 10 }, (_, k) => k + 1),
      10,
      { maxMemory: BUDGET },
    );
    for (const m of [halo, ten])
      for (const algorithm of SPARSE) {
        if (algorithm === "rs-nh" && m === halo) continue; // its seven cutoff rules take seconds here
        const s = plan(m, algorithm, { seed: 1, maxMemory: BUDGET });
        let sent = 0;
        for (let x = 0; x < s.transferCount; x++) sent += s.size[x]!;
        const total = m === ten ? 55 : Array.from(m.sparse!.val).reduce((a, b) => a + b, 0);
        expect(sent, algorithm).toBe(total);
      }
  });

  it("their plans of sparse matrices pass the verifier", () => {
    fc.assert(
      fc.property(matrixRecipe({ minP: 2, maxP: 40, kinds: ["sparse", "permutation", "spike"] }), (r) => {
        const m = toSparse(buildMatrix(r));
        for (const algorithm of SPARSE)
          expect(verifySchedule(m, plan(m, algorithm, { seed: 3 })).ok, algorithm).toBe(true);
      }),
      { seed: 16, numRuns: 60 },
    );
  });

  it("the super-linear planners refuse a sparse P = 16384 matrix up front with one line naming the estimate, whatever the budget", () => {
    const halo = generatePattern("halo", 16384, { dims: 3, neighbours: 6 }, 1);
    for (const algorithm of ["two-stage", "four-stage", "mesh-two-stage", "hierarchical"]) {
      let message = "";
      try {
        plan(halo, algorithm, {}); // the default budget (half the machine) would admit two-stage's 7 GiB
      } catch (e) {
        expect(isCommplanError(e)).toBe(true);
        message = (e as Error).message;
      }
      expect(message, algorithm).toMatch(
        /this plan of a sparse matrix \(P = 16384, \d+ entries, [\d.]+ [KM]iB\) would need about [\d.]+ GiB .*give the matrix in a dense form/,
      );
      expect(message).not.toContain("\n");
    }
  });

  it("past P = MAX_DENSE_P the refusal does not send the user to a dense form, which no reader would take", () => {
    const m = matrixFromEntries(MAX_DENSE_P + 1, [[0, 1, 3]]);
    let message = "";
    try {
      plan(m, "four-stage", {});
    } catch (e) {
      expect(isCommplanError(e)).toBe(true);
      message = (e as Error).message;
    }
    expect(message).toMatch(/P = 16385, 1 entry, .*plan an O\(E\) algorithm/);
    expect(message).not.toContain("give the matrix in a dense form");
    expect(message).toContain(`the dense form that would plan it holds at most P = ${MAX_DENSE_P}`);
  });
});
