import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { matrixDigest, matrixFromRows } from "../../src/model/matrix.js";
import { ScheduleBuilder } from "../../src/model/schedule.js";
import { plan } from "../../src/planner/index.js";
import { checkFlow } from "../../src/verifier/flow.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { cliReport, reportJson } from "../../src/cli/commands/verify.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";

describe("flow: peak buffer per node", () => {
  it("follows each node's holding step by step", () => {
    const m = matrixFromRows([
      [0, 4, 0],
      [0, 0, 2],
      [0, 0, 0],
    ]);
    const b = new ScheduleBuilder(
      { p: 3, algorithm: "test", params: {}, seed: null, elementBytes: 8, matrixDigest: matrixDigest(m) },
      false,
    );
    b.step().transfer(0, 1, 4);
    b.step().transfer(1, 2, 2);
    const f = checkFlow(m, b.build());
    expect(f.conservation.holds).toBe(true);
    // node 1 starts with its row (2), receives 4, then sends 2 on
    expect(Array.from(f.peakPerNode)).toEqual([4, 6, 2]);
    expect([f.peakBuffer, f.peakNode]).toEqual([6, 1]);
  });

  it("the report carries every node's peak; their maximum is the peak-buffer check; the JSON validates", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 12 }),
        fc.constantFrom("shift", "linear-permutation", "four-stage"),
        (r, algorithm) => {
          const m = buildMatrix(r);
          const report = verifySchedule(m, plan(m, algorithm, { payload: false }));
          expect(report.peakBufferPerNode).toHaveLength(m.p);
          const row = report.checks.find((c) => c.id === "peak-buffer")!;
          expect(Math.max(...report.peakBufferPerNode!)).toBe(row.measured);
          const doc = JSON.parse(reportJson(report));
          expect(doc).toEqual(JSON.parse(JSON.stringify(cliReport(report))));
          validateWithSchema("report", doc, "verify");
        },
      ),
      { numRuns: 40 },
    );
  });
});
