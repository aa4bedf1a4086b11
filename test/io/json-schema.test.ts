import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadSchema, validateWithSchema } from "../../src/io/json-schema.js";
import { errorOf } from "../helpers/errors.js";

const report = {
  format: "commplan.report/v1",
  ok: false,
  algorithm: "four-stage",
  p: 8,
  checks: [
    {
      id: "delivery.exactly-once",
      title: "every element arrives once",
      source: "004 section 3",
      holds: true,
      measured: null,
      bound: null,
      witness: null,
    },
    {
      id: "contention.port",
      title: "one message per port per step",
      source: "004 section 2",
      holds: false,
      measured: 2,
      bound: 1,
      witness: "step 3: node 5 sends twice",
    },
  ],
};

describe("the v1 schemas", () => {
  it("load from schemas/ with their $id and compile in ajv strict mode", () => {
    for (const name of ["matrix", "schedule", "report"] as const) {
      const s = loadSchema(name);
      expect(s["$id"]).toBe(`https://commplan.dev/schemas/${name}.v1.schema.json`);
      expect(s["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(s["additionalProperties"]).toBe(false);
      const onDisk = JSON.parse(
        readFileSync(new URL(`../../schemas/${name}.v1.schema.json`, import.meta.url), "utf8"),
      ) as unknown;
      expect(s).toEqual(onDisk);
    }
    expect(() => validateWithSchema("report", report, "verify")).not.toThrow();
  });

  it("names the JSON path of the first problem", () => {
    const bad = structuredClone(report);
    (bad.checks[1] as { measured: unknown }).measured = "2";
    const e = errorOf(() => validateWithSchema("report", bad, "verify", "r.json"));
    expect(e.message).toBe("verify: r.json: /checks/1/measured must be number,null");
    expect(e.code).toBe("BAD_INPUT");
    expect(e.place.field).toBe("/checks/1/measured");
    const { witness: _w, ...noWitness } = report.checks[0]!;
    expect(errorOf(() => validateWithSchema("report", { ...report, checks: [noWitness] }, "verify")).message).toBe(
      "verify: /checks/0 must have required property 'witness'",
    );
    expect(errorOf(() => validateWithSchema("report", { ...report, extra: 1 }, "verify")).message).toBe(
      "verify: / must NOT have additional properties ('extra')",
    );
  });

  it("reports a wrong or missing format, or a non-object, as BAD_FORMAT", () => {
    const e = errorOf(() => validateWithSchema("report", { ...report, format: "commplan.report/v2" }, "verify"));
    expect(e.code).toBe("BAD_FORMAT");
    expect(e.message).toBe('verify: /format is "commplan.report/v2", expected "commplan.report/v1"');
    // a format of the input is quoted cut, as every input value in a message (the whole of it could be megabytes)
    const long = errorOf(() => validateWithSchema("report", { ...report, format: "x".repeat(5000) }, "verify"));
    expect(long.message).toBe(
      `verify: /format is "${"x".repeat(36)}... (5000 characters), expected "commplan.report/v1"`,
    );
    expect(errorOf(() => validateWithSchema("matrix", { p: 2 }, "matrix")).code).toBe("BAD_FORMAT");
    expect(errorOf(() => validateWithSchema("matrix", [1], "matrix")).code).toBe("BAD_FORMAT");
  });

  it("checks the schedule header without looking into the steps", () => {
    const doc = {
      format: "commplan.schedule/v1",
      p: 2,
      algorithm: "a",
      params: {},
      seed: 1,
      elementBytes: 8,
      matrixDigest: "d",
      stages: [{ name: "s", rearrange: "none", steps: [{ transfers: [{ src: 0.5 }] }] }],
    };
    expect(() => validateWithSchema("schedule-header", doc, "schedule")).not.toThrow();
    expect(errorOf(() => validateWithSchema("schedule", doc, "schedule")).message).toMatch(
      /^schedule: \/stages\/0\/steps\/0 must have required property/,
    );
    expect(
      errorOf(() =>
        validateWithSchema(
          "schedule-header",
          { ...doc, stages: [{ name: "s", rearrange: "none", steps: {} }] },
          "schedule",
        ),
      ).message,
    ).toBe("schedule: /stages/0/steps must be array");
  });
});
