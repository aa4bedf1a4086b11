// Every planner's lowered program passes the verifier's independent program checks (src/verifier/program), every variant.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerSchedule } from "../../src/lower/index.js";
import { isCommplanError } from "../../src/model/errors.js";
import type { CommMatrix } from "../../src/model/matrix.js";
import { PLANNERS, plan } from "../../src/planner/registry.js";
import { verifyProgram } from "../../src/verifier/program/index.js";
import { matrixArb } from "../helpers/arbitraries.js";

const elementsOf = (m: CommMatrix): number => m.data.reduce((a, b) => a + b, 0);

describe("lowered programs pass the program checks", () => {
  for (const planner of PLANNERS) {
    it(`${planner.name}: payload plans, nonblocking, blocking and dataflow`, () => {
      let lowered = 0;
      fc.assert(
        fc.property(
          matrixArb({ minP: 1, maxP: 9, kinds: ["dense", "sparse", "empty-rows", "permutation", "spike"] }).filter(
            (m) => elementsOf(m) <= 3000,
          ),
          (m) => {
            let s;
            try {
              s = plan(m, planner.name, { payload: true });
            } catch (e) {
              if (isCommplanError(e) && (e.code === "UNSUPPORTED" || e.code === "BAD_OPTION")) return;
              throw e;
            }
            for (const variant of ["nonblocking", "blocking", "dataflow"] as const) {
              const report = verifyProgram(m, lowerSchedule(m, s, { variant }).program);
              expect(
                report.checks.filter((c) => c.holds === false).map((c) => `${c.id}: ${c.witness}`),
                variant,
              ).toEqual([]);
              expect(report.ok).toBe(true);
            }
            lowered++;
          },
        ),
        { numRuns: 15, seed: 7 },
      );
      expect(lowered).toBeGreaterThan(0);
    });
  }
});
