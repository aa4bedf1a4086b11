import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareMatrix } from "../../src/compare/compare.js";
import { findMachine } from "../../src/machines/presets.js";
import { generatePattern } from "../../src/patterns/index.js";
import { findPlanner } from "../../src/planner/registry.js";

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), "utf8");

// docs/compare.md: a --json reader meets keys the text table does not show (busiestNodeBytes, classBound) and one
// whose name says something else than its value (peakBufferElements is the peak relay, not the verifier's peak-buffer)
describe("compare's JSON rows are documented key by key", () => {
  const schema = JSON.parse(read("../../schemas/compare.v1.schema.json")) as {
    $defs: { row: { properties: Record<string, unknown> } };
  };
  const keys = Object.keys(schema.$defs.row.properties);
  const doc = read("../../docs/compare.md");
  const table = doc.slice(doc.indexOf("| JSON key | text column | meaning |"));

  it("every key of the schema's row is a row of docs/compare.md's JSON key table", () => {
    expect(keys.length).toBeGreaterThan(10);
    const rows = table.split("\n").filter((l) => l.trim().startsWith("| `"));
    for (const k of keys)
      expect(
        rows.some((r) => r.split("|")[1]!.includes(`\`${k}\``)),
        k,
      ).toBe(true);
  });

  it("the keys are those compare prints, and peakBufferElements is the peak relay (0 for a direct plan)", () => {
    const m = generatePattern("pattern1", 8, {}, 1);
    const { report } = compareMatrix(m, { machine: findMachine("t3d-004"), planners: [findPlanner("shift")] });
    expect(Object.keys(report.rows[0]!).sort()).toEqual([...keys].sort());
    expect(report.rows[0]!.peakBufferElements).toBe(0);
    expect(table).toMatch(/`peakBufferElements` \| `peak relay` \| the \*\*peak relay\*\*/);
  });
});
