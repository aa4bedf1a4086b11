/** Program checks accept valid programs: every direct planner's schedule, lowered naively, passes in both variants. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixFromRows } from "../../../src/model/matrix.js";
import { plan } from "../../../src/planner/registry.js";
import { verifyProgram } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";
import { lowerDirect } from "./program-fixture.js";

const DIRECT = ["linear-permutation", "shift", "rs-n", "coloring"] as const;
const failures = (r: ReturnType<typeof verifyProgram>): string[] =>
  r.checks.filter((c) => !c.holds).map((c) => `${c.id}: ${c.witness}`);

describe("verifyProgram on valid programs", () => {
  it("reports the program checks (races only for nonblocking programs)", () => {
    const m = matrixFromRows([
      [1, 2, 0],
      [3, 0, 4],
      [0, 5, 6],
    ]);
    const s = plan(m, "shift");
    expect(verifyProgram(m, lowerDirect(m, s, "nonblocking")).checks.map((c) => c.id)).toEqual([
      "program-well-formed",
      "program-matching",
      "program-delivery",
      "program-reads",
      "program-once",
      "program-scratch",
      "program-races",
      "program-deadlock",
    ]);
    const blocking = verifyProgram(m, lowerDirect(m, s, "blocking"));
    expect(blocking.checks.map((c) => c.id)).toEqual([
      "program-well-formed",
      "program-matching",
      "program-delivery",
      "program-reads",
      "program-once",
      "program-scratch",
      "program-deadlock",
    ]);
    expect(blocking.ok).toBe(true);
    expect(blocking.checks.find((c) => c.id === "program-delivery")!.measured).toBe(0);
  });

  it("work follows the rounds the operations use, not the declared count (2^32 - 1 rounds, three used)", () => {
    const m = matrixFromRows([
      [0, 2, 1],
      [3, 0, 4],
      [5, 6, 0],
    ]);
    for (const variant of ["nonblocking", "blocking"] as const) {
      const prog = lowerDirect(m, plan(m, "shift"), variant);
      const spread = {
        ...prog,
        rounds: 2 ** 32 - 1,
        ops: { ...prog.ops, round: prog.ops.round.map((r) => r * 1_000_000_000 + 7) },
      };
      expect(failures(verifyProgram(m, spread)), variant).toEqual([]);
    }
  });

  for (const algorithm of DIRECT) {
    it(`${algorithm}: lowered programs pass every check, nonblocking and blocking, for random matrices`, () => {
      fc.assert(
        fc.property(
          matrixRecipe({ minP: 1, maxP: 24, kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"] }),
          (recipe) => {
            const m = buildMatrix(recipe);
            const s = plan(m, algorithm);
            for (const variant of ["nonblocking", "blocking"] as const) {
              const report = verifyProgram(m, lowerDirect(m, s, variant));
              expect(failures(report), `${variant} ${JSON.stringify(recipe)}`).toEqual([]);
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  }
});
