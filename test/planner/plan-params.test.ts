/** resolveParams: the one check of planner params against a declaration (unknown keys, types, ranges, enums, unions, defaults, output keys). */
import { describe, expect, it } from "vitest";
import { CommplanError, isCommplanError } from "../../src/model/errors.js";
import type { JsonValue } from "../../src/model/schedule.js";
import { booleanParam, describeParamType, enumParam, inputParams, numberParam, resolveParams } from "../../src/planner/plan-params.js";
import type { PlannerParam } from "../../src/planner/types.js";

const DECL: readonly PlannerParam[] = [
  { name: "count", description: "an integer in a range", type: "integer", min: 0, max: 10, default: 2 },
  { name: "ratio", description: "a number >= 1", type: "number", min: 1, default: 1.5 },
  { name: "flag", description: "a boolean", type: "boolean", default: false },
  { name: "mode", description: "an enum", type: "enum", values: ["fast", "slow"], default: "fast" },
  { name: "cut", description: "a union", type: "integer", values: ["auto", "none"], min: 1, unit: "elements", default: "auto" },
  { name: "size", description: "no default", type: "integer", min: 1, derived: "from the matrix" },
  { name: "reported", description: "written by the planner", output: true },
];

/** The CommplanError resolveParams throws for `given`. */
function errorOf(given: { readonly [k: string]: JsonValue }, decl: readonly PlannerParam[] = DECL): CommplanError {
  try {
    resolveParams("algo", decl, given);
  } catch (e) {
    expect(isCommplanError(e)).toBe(true);
    return e as CommplanError;
  }
  throw new Error(`no error for ${JSON.stringify(given)}`);
}

describe("resolveParams", () => {
  it("fills every default, leaves an input without default absent, drops output keys", () => {
    expect(resolveParams("algo", DECL, {})).toEqual({ count: 2, ratio: 1.5, flag: false, mode: "fast", cut: "auto" });
    expect(resolveParams("algo", DECL, { reported: { any: ["json"] }, size: 7 })).toEqual({ count: 2, ratio: 1.5, flag: false, mode: "fast", cut: "auto", size: 7 });
    expect(resolveParams("algo", [], {})).toEqual({});
  });

  it("keeps given values that the declaration takes, at both ends of a range", () => {
    const got = resolveParams("algo", DECL, { count: 0, ratio: 1, flag: true, mode: "slow", cut: 1 });
    expect(got).toMatchObject({ count: 0, ratio: 1, flag: true, mode: "slow", cut: 1 });
    expect(resolveParams("algo", DECL, { count: 10, cut: "none", ratio: 1e9 })).toMatchObject({ count: 10, cut: "none", ratio: 1e9 });
  });

  it("an unknown key: BAD_OPTION naming the key and the known inputs (not the output keys)", () => {
    const e = errorOf({ count: 1, bogus: 1 });
    expect(e.code).toBe("BAD_OPTION");
    expect(e.place.field).toBe("params.bogus");
    expect(e.message).toBe("planner: algo: unknown parameter 'bogus'; known: count, ratio, flag, mode, cut, size");
    expect(errorOf({ x: 1 }, []).message).toBe("planner: algo: unknown parameter 'x'; known: (none)");
  });

  it("a wrong type or a value out of range: `<algorithm>: <name> must be ..., got ...` with field params.<name>", () => {
    const cases: [{ [k: string]: JsonValue }, string, string][] = [
      [{ count: 11 }, "count", "algo: count must be an integer in 0..10, got 11"],
      [{ count: -1 }, "count", "algo: count must be an integer in 0..10, got -1"],
      [{ count: 2.5 }, "count", "algo: count must be an integer in 0..10, got 2.5"],
      [{ count: "3" }, "count", "algo: count must be an integer in 0..10, got \"3\""],
      [{ ratio: 0.5 }, "ratio", "algo: ratio must be a number >= 1, got 0.5"],
      [{ ratio: true }, "ratio", "algo: ratio must be a number >= 1, got true"],
      [{ ratio: null }, "ratio", "algo: ratio must be a number >= 1, got null"],
      [{ flag: 1 }, "flag", "algo: flag must be true or false, got 1"],
      [{ flag: "true" }, "flag", "algo: flag must be true or false, got \"true\""],
      [{ mode: "medium" }, "mode", "algo: mode must be \"fast\" or \"slow\", got \"medium\""],
      [{ mode: 1 }, "mode", "algo: mode must be \"fast\" or \"slow\", got 1"],
      [{ cut: 0 }, "cut", "algo: cut must be \"auto\", \"none\" or a positive integer (elements), got 0"],
      [{ cut: "big" }, "cut", "algo: cut must be \"auto\", \"none\" or a positive integer (elements), got \"big\""],
      [{ cut: 1.5 }, "cut", "algo: cut must be \"auto\", \"none\" or a positive integer (elements), got 1.5"],
      [{ cut: false }, "cut", "algo: cut must be \"auto\", \"none\" or a positive integer (elements), got false"],
      [{ size: 0 }, "size", "algo: size must be a positive integer, got 0"],
      [{ size: 2 ** 53 }, "size", `algo: size must be a positive integer, got ${2 ** 53}`],
    ];
    for (const [given, name, message] of cases) {
      const e = errorOf(given);
      expect(e.code).toBe("BAD_OPTION");
      expect(e.place.field).toBe(`params.${name}`);
      expect(e.message).toBe(`planner: ${message}`);
    }
  });

  it("params that are not an object: BAD_OPTION on field params", () => {
    for (const bad of [null, [1], 3] as unknown as { [k: string]: JsonValue }[]) {
      const e = errorOf(bad);
      expect(e.place.field).toBe("params");
      expect(e.message).toMatch(/^planner: algo: params must be an object/);
    }
  });
});

describe("describeParamType and inputParams", () => {
  it("phrase every kind of type as the messages say it", () => {
    const byName = (n: string) => inputParams(DECL).find((d) => d.name === n)!;
    expect(inputParams(DECL).map((d) => d.name)).toEqual(["count", "ratio", "flag", "mode", "cut", "size"]);
    expect(describeParamType(byName("count"))).toBe("an integer in 0..10");
    expect(describeParamType(byName("flag"))).toBe("true or false");
    expect(describeParamType({ name: "x", description: "", type: "number" })).toBe("a finite number");
    expect(describeParamType({ name: "x", description: "", type: "integer", max: 3 })).toBe("an integer <= 3");
    expect(describeParamType({ name: "x", description: "", type: "enum", values: ["a", "b", "c"] })).toBe("\"a\", \"b\" or \"c\"");
  });
});

describe("typed access to resolved params", () => {
  const resolved = resolveParams("algo", DECL, { size: 4 });
  it("returns the resolved values with their types", () => {
    expect(numberParam(resolved, "count")).toBe(2);
    expect(numberParam(resolved, "size")).toBe(4);
    expect(booleanParam(resolved, "flag")).toBe(false);
    expect(enumParam(resolved, "mode", ["fast", "slow"] as const)).toBe("fast");
  });
  it("throws a CommplanError when the params were not resolved (a missing or mistyped value)", () => {
    expect(() => numberParam({}, "count")).toThrow(/params\.count is undefined, expected a number; plan options must come from resolvePlanOptions/);
    expect(() => booleanParam({ flag: "yes" }, "flag")).toThrow(/params\.flag is "yes", expected true or false/);
    expect(() => enumParam(resolved, "cut", ["none"] as const)).toThrow(/params\.cut is "auto", expected none/);
  });
});
