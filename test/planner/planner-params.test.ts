/** Every registered planner's parameter declaration: its defaults plan as no params do, its output keys can be given back, and its doc page lists it. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import type { Schedule } from "../../src/model/schedule.js";
import { generatePattern } from "../../src/patterns/index.js";
import { describeParamType, inputParams, resolveParams } from "../../src/planner/plan-params.js";
import { plan, PLANNERS } from "../../src/planner/registry.js";
import type { ParamValue, Planner } from "../../src/planner/types.js";

/** The declared defaults of a planner, as params a caller could give. */
function defaults(pl: Planner): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const d of inputParams(pl.params)) if (d.default !== undefined) out[d.name] = d.default;
  return out;
}

/** The schedule's JSON without its header params (those echo what the caller gave). */
const body = (s: Schedule): string => scheduleToJsonText({ ...s, params: {} });

// P = 9 and 16 are perfect squares (mesh-two-stage); both suit the total-exchange protocols
const MATRICES = [generatePattern("random", 9, {}, 3), generatePattern("h-relation", 16, { h: 5 }, 4)];

describe.each(PLANNERS.map((pl) => [pl.name, pl] as const))("%s: parameter declaration", (_name, pl) => {
  it("names are unique; every input has a default or says how it is derived; the defaults pass the declaration", () => {
    const names = pl.params.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const d of inputParams(pl.params)) expect(d.default !== undefined || (d.derived ?? "").length > 0).toBe(true);
    expect(resolveParams(pl.name, pl.specs, defaults(pl))).toEqual(resolveParams(pl.name, pl.specs, {}));
  });

  it("the declared defaults give the same plan as no params (message and payload level); the header adds exactly the given params", () => {
    const given = defaults(pl);
    for (const m of MATRICES) {
      for (const payload of [false, true]) {
        const a = plan(m, pl.name, { payload, seed: 7 });
        const b = plan(m, pl.name, { payload, seed: 7, params: given });
        expect(body(b)).toBe(body(a));
        expect(b.params).toEqual({ ...a.params, ...given });
      }
    }
  });

  it("a plan's header params given back are accepted (output keys ignored) and plan the same schedule", () => {
    for (const m of MATRICES) {
      const a = plan(m, pl.name, { seed: 7 });
      expect(body(plan(m, pl.name, { seed: 7, params: a.params }))).toBe(body(a));
    }
  });
});

describe("docs/algorithms: every page lists its planners' parameters as declared", () => {
  const root = join(import.meta.dirname, "..", "..");
  /** The "## Parameters" section of a planner's page (its "### name" part on the shared total-exchange page). */
  function section(pl: Planner): string {
    const page = pl.name.startsWith("te-") ? "total-exchange" : pl.name.startsWith("mpi-") ? "mpi" : pl.name;
    const text = readFileSync(join(root, "docs", "algorithms", `${page}.md`), "utf8");
    const start = text.indexOf("\n## Parameters\n");
    expect(start, `${page}.md has a "## Parameters" section`).toBeGreaterThanOrEqual(0);
    let sec = text.slice(start + 1);
    sec = sec.slice(0, sec.indexOf("\n## ", 1) >= 0 ? sec.indexOf("\n## ", 1) : undefined);
    if (page === pl.name) return sec;
    const sub = sec.indexOf(`\n### ${pl.name}\n`);
    expect(sub, `${page}.md has "### ${pl.name}" under Parameters`).toBeGreaterThanOrEqual(0);
    const rest = sec.slice(sub + 1);
    const end = rest.indexOf("\n### ", 1);
    return end >= 0 ? rest.slice(0, end) : rest;
  }
  /** Table rows of a section: first cell (a backticked name) to the other cells. */
  const rows = (sec: string): Map<string, string[]> =>
    new Map(
      [...sec.matchAll(/^\| `([^`]+)` \|(.*)\|$/gm)].map((r) => [r[1]!, r[2]!.split(" | ").map((c) => c.trim())]),
    );

  for (const pl of PLANNERS) {
    it(`${pl.name}: each input with its values and default, each header key, nothing undeclared`, () => {
      const sec = section(pl);
      const table = rows(sec);
      for (const d of pl.params) {
        const row = table.get(d.name);
        expect(row, `${pl.name}: \`${d.name}\` in the doc page's Parameters table`).toBeDefined();
        if (d.output === true) continue;
        expect(row![0]).toBe(describeParamType(d).replace(/"([^"]*)"/g, "`$1`"));
        if (d.default !== undefined) expect(row![1]).toBe(`\`${String(d.default)}\``);
        else expect(row![1]).toMatch(/^derived: /);
      }
      expect([...table.keys()].filter((k) => !pl.params.some((d) => d.name === k))).toEqual([]);
      if (inputParams(pl.params).length === 0) expect(sec).toMatch(/None: any `--param` is a BAD_OPTION CommplanError/);
    });
  }
});
