/** The verifier's rows are gathered without spreading an input-sized array into push: 70,000 empty stages verify, as do their measured rows. */
import { describe, expect, it } from "vitest";
import { matrixFromRows } from "../../src/model/matrix.js";
import { parseScheduleJsonText } from "../../src/io/schedule-json-read.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { plan } from "../../src/planner/registry.js";
import { verifySchedule } from "../../src/verifier/index.js";

describe("a schedule of 70,000 stages", () => {
  it("verifies without exhausting the stack", () => {
    const m = matrixFromRows([
      [0, 1, 1],
      [1, 0, 1],
      [1, 1, 0],
    ]);
    const doc = JSON.parse(scheduleToJsonText(plan(m, "shift", {}))) as { stages: unknown[] };
    for (let k = 0; k < 70_000; k++) doc.stages.push({ name: "empty", rearrange: "none", steps: [] });
    const s = parseScheduleJsonText(JSON.stringify(doc));
    const report = verifySchedule(m, s);
    expect(report.checks.filter((c) => c.id.startsWith("stage-70001-")).length).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });
});
