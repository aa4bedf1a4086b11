import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareMatrix } from "../../src/compare/compare.js";
import { findMachine } from "../../src/machines/presets.js";
import { generatePattern } from "../../src/patterns/index.js";
import { findPlanner } from "../../src/planner/registry.js";

// docs/bounds.md, "on a uniform all-to-all": what the bounds leave out there is the plan's compose, and compare's
// `x bound` divides by the weaker bound for every schedule. The figures are those of
// `commplan gen uniform --p 16 --size 100` and `commplan compare m.json --machine t3d-004 --algorithms shift`.
describe("the bounds on a uniform all-to-all (docs/bounds.md)", () => {
  const t3d = findMachine("t3d-004");
  const m = generatePattern("uniform", 16, { size: 100 }, 1);
  const { report } = compareMatrix(m, { machine: t3d, planners: [findPlanner("shift")] });
  const row = report.rows[0]!;
  const bytesPerNode = 15 * 100 * m.elementBytes;
  const compose = bytesPerNode * t3d.tm;

  it("shift's makespan is the direct bound (port-busiest-node) plus its compose: 1,162 + 476 = 1,638 us", () => {
    expect(row.classBound?.name).toBe("port-busiest-node");
    expect(row.classBound!.value).toBeCloseTo(t3d.barrier + 15 * t3d.ts + bytesPerNode * (t3d.tc + t3d.td), 9);
    expect(Math.round(row.classBound!.value)).toBe(1162);
    expect(Math.round(compose)).toBe(476);
    expect(row.simulatedUs).toBeCloseTo(row.classBound!.value + compose, 6);
    expect(Math.round(row.simulatedUs)).toBe(1638);
    // so the direct bound alone is well below 0.99999 of the makespan on this machine
    expect(row.classBound!.value / row.simulatedUs).toBeCloseTo(0.709, 3);
  });

  it("compare divides by the bound for every schedule (port-traffic, 630 us): shift shows x bound 2.60", () => {
    expect(report.bound?.name).toBe("port-traffic");
    expect(report.bound!.value).toBeCloseTo(t3d.barrier + t3d.ts + bytesPerNode * (t3d.tc + t3d.td), 9);
    expect(Math.round(report.bound!.value)).toBe(630);
    expect(row.ratio!.toFixed(2)).toBe("2.60");
  });

  it("docs/bounds.md states these figures (it used to claim a ratio of 0.99999 with no machine)", () => {
    const doc = readFileSync(new URL("../../docs/bounds.md", import.meta.url), "utf8").replace(/\s+/g, " ");
    const us = (x: number): string => Math.round(x).toLocaleString("en-US");
    expect(doc).toContain(`shift on t3d-004 takes ${us(row.simulatedUs)} us`);
    expect(doc).toContain(
      `\`port-busiest-node\` (${us(row.classBound!.value)} us) plus shift's compose (${us(compose)} us`,
    );
    expect(doc).toContain(`alone is ${(row.classBound!.value / row.simulatedUs).toFixed(3)} of the makespan`);
    expect(doc).toContain(`\`port-traffic\` (${us(report.bound!.value)} us`);
    expect(doc).toContain(`column shows ${row.ratio!.toFixed(2)} for the best direct plan`);
    expect(doc).not.toContain("0.99999");
  });
});
