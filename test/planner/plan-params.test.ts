/** resolveParams and definePlanner: the one check of planner params against a declaration (unknown keys, types, ranges, enums, unions, defaults, output keys), typed. */
import { describe, expect, it } from "vitest";
import { CommplanError, isCommplanError } from "../../src/model/errors.js";
import type { JsonValue } from "../../src/model/schedule.js";
import { boolean, choice, integer, namedSpecs, number, output, type Specs } from "../../src/model/param-spec.js";
import { definePlanner, describeParamType, inputParams, resolveParams } from "../../src/planner/plan-params.js";
import { resolvePlanOptions } from "../../src/planner/registry.js";
import { matrixFromData } from "../../src/model/matrix.js";
import { ScheduleBuilder } from "../../src/model/schedule.js";

const DECL = {
  count: integer({ description: "an integer in a range", min: 0, max: 10, default: 2 }),
  ratio: number({ description: "a number >= 1", min: 1, default: 1.5 }),
  flag: boolean({ description: "a boolean", default: false }),
  mode: choice(["fast", "slow"], { description: "an enum", default: "fast" }),
  cut: integer({ description: "a union", values: ["auto", "none"], min: 1, unit: "elements", default: "auto" }),
  size: integer({ description: "no default", min: 1, derived: "from the matrix" }),
  reported: output("written by the planner"),
};

/** The CommplanError resolveParams throws for `given`. */
function errorOf(given: { readonly [k: string]: JsonValue }, decl: Specs = DECL): CommplanError {
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
    expect(resolveParams("algo", DECL, { reported: { any: ["json"] }, size: 7 })).toEqual({
      count: 2,
      ratio: 1.5,
      flag: false,
      mode: "fast",
      cut: "auto",
      size: 7,
    });
    expect(resolveParams("algo", {}, {})).toEqual({});
  });

  it("keeps given values that the declaration takes, at both ends of a range", () => {
    const got = resolveParams("algo", DECL, { count: 0, ratio: 1, flag: true, mode: "slow", cut: 1 });
    expect(got).toMatchObject({ count: 0, ratio: 1, flag: true, mode: "slow", cut: 1 });
    expect(resolveParams("algo", DECL, { count: 10, cut: "none", ratio: 1e9 })).toMatchObject({
      count: 10,
      cut: "none",
      ratio: 1e9,
    });
  });

  it("an unknown key: BAD_OPTION naming the key and the known inputs (not the output keys)", () => {
    const e = errorOf({ count: 1, bogus: 1 });
    expect(e.code).toBe("BAD_OPTION");
    expect(e.place.field).toBe("params.bogus");
    expect(e.message).toBe("planner: algo: unknown parameter 'bogus'; known: count, ratio, flag, mode, cut, size");
    expect(errorOf({ x: 1 }, {}).message).toBe("planner: algo: unknown parameter 'x'; known: (none)");
  });

  it("a wrong type or a value out of range: `<algorithm>: <name> must be ..., got ...` with field params.<name>", () => {
    const cases: [{ [k: string]: JsonValue }, string, string][] = [
      [{ count: 11 }, "count", "algo: count must be an integer in 0..10, got 11"],
      [{ count: -1 }, "count", "algo: count must be an integer in 0..10, got -1"],
      [{ count: 2.5 }, "count", "algo: count must be an integer in 0..10, got 2.5"],
      [{ count: "3" }, "count", 'algo: count must be an integer in 0..10, got "3"'],
      [{ ratio: 0.5 }, "ratio", "algo: ratio must be a number >= 1, got 0.5"],
      [{ ratio: true }, "ratio", "algo: ratio must be a number >= 1, got true"],
      [{ ratio: null }, "ratio", "algo: ratio must be a number >= 1, got null"],
      [{ flag: 1 }, "flag", "algo: flag must be true or false, got 1"],
      [{ flag: "true" }, "flag", 'algo: flag must be true or false, got "true"'],
      [{ mode: "medium" }, "mode", 'algo: mode must be "fast" or "slow", got "medium"'],
      [{ mode: 1 }, "mode", 'algo: mode must be "fast" or "slow", got 1'],
      [{ cut: 0 }, "cut", 'algo: cut must be "auto", "none" or a positive integer (elements), got 0'],
      [{ cut: "big" }, "cut", 'algo: cut must be "auto", "none" or a positive integer (elements), got "big"'],
      [{ cut: 1.5 }, "cut", 'algo: cut must be "auto", "none" or a positive integer (elements), got 1.5'],
      [{ cut: false }, "cut", 'algo: cut must be "auto", "none" or a positive integer (elements), got false'],
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
    const byName = (n: string) => inputParams(namedSpecs(DECL)).find((d) => d.name === n)!;
    expect(inputParams(namedSpecs(DECL)).map((d) => d.name)).toEqual(["count", "ratio", "flag", "mode", "cut", "size"]);
    expect(describeParamType(byName("count"))).toBe("an integer in 0..10");
    expect(describeParamType(byName("flag"))).toBe("true or false");
    expect(describeParamType({ name: "x", description: "", type: "number" })).toBe("a finite number");
    expect(describeParamType({ name: "x", description: "", type: "integer", max: 3 })).toBe("an integer <= 3");
    expect(describeParamType({ name: "x", description: "", type: "enum", values: ["a", "b", "c"] })).toBe(
      '"a", "b" or "c"',
    );
  });
});

const TOY_TRAITS = { relayed: false, randomised: false, stages: 1, growth: "linear", claims: "none" } as const;
const NO_AUTO = { none: "a test planner" };

describe("definePlanner: params arrive typed", () => {
  const seen: unknown[] = [];
  const planner = definePlanner(
    { name: "algo", title: "t", source: "s", params: DECL, traits: TOY_TRAITS, auto: NO_AUTO },
    (m, opts) => {
      // typed reads: a number, a boolean, a literal union, a number-or-literal union, an optional number
      const count: number = opts.params.count,
        flag: boolean = opts.params.flag;
      const mode: "fast" | "slow" = opts.params.mode,
        cut: number | "auto" | "none" = opts.params.cut;
      const size: number | undefined = opts.params.size;
      seen.push({ count, flag, mode, cut, size });
      return new ScheduleBuilder(
        { p: m.p, algorithm: "algo", params: opts.givenParams, seed: null, elementBytes: 8, matrixDigest: "" },
        false,
        0,
      ).build();
    },
  );
  const m = matrixFromData(2, new Float64Array(4));

  it("lists the declaration with names, and plans with the resolved values", () => {
    expect(planner.params.map((d) => d.name)).toEqual(["count", "ratio", "flag", "mode", "cut", "size", "reported"]);
    planner.plan(m, resolvePlanOptions(planner, { params: { cut: 4, mode: "slow" } }));
    expect(seen.at(-1)).toEqual({ count: 2, flag: false, mode: "slow", cut: 4, size: undefined });
  });

  it("refuses params that were not resolved for it (a programming error)", () => {
    const opts = { payload: false, seed: 1, machine: null, params: { count: 2 }, givenParams: {} };
    expect(() => planner.plan(m, opts)).toThrow(
      /^planner: algo: params .* were not resolved for this planner; plan options must come from resolvePlanOptions$/,
    );
  });
});
