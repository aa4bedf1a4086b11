/**
 * The standalone validators the build writes (ajv's standaloneCode) accept and refuse exactly what ajv's compiled ones
 * do, with the same first error, so a run from dist/ reports what a run from source reports.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ValidateFunction } from "ajv/dist/2020.js";
import {
  compileValidator,
  SCHEMA_NAMES,
  standaloneValidatorModules,
  type SchemaName,
} from "../../src/io/schema-compile.js";
import { writeStandaloneValidators } from "../../src/io/schema-build.js";
import { FORMAT_NAMES } from "../../src/io/json-schema.js";
import { matrixToJsonText } from "../../src/io/matrix-write.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/registry.js";
import { tempDir } from "../helpers/temp-dir.js";

/** Evaluates a standalone CommonJS module's code as Node would (its requires resolved from this repository). */
function evalModule(code: string): ValidateFunction {
  const module = { exports: {} as unknown };
  const require = createRequire(import.meta.url);
  new Function("module", "exports", "require", code)(module, module.exports, require);
  return module.exports as ValidateFunction;
}

const modules = standaloneValidatorModules();

/** The outcome of one validation: accepted, or the errors ajv reports. */
function outcome(v: ValidateFunction, x: unknown): unknown {
  return v(x) ? "valid" : v.errors;
}

/** `doc` with its `at`-th value (counted depth first, modulo their number) replaced by `value`. */
function replacedAt(doc: unknown, at: number, value: unknown): unknown {
  const places: [Record<string | number, unknown>, string | number][] = [];
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== "object") return;
    const holder = x as Record<string | number, unknown>;
    for (const k of Array.isArray(x) ? x.keys() : Object.keys(x)) {
      places.push([holder, k]);
      walk(holder[k]);
    }
  };
  walk(doc);
  const [holder, key] = places[at % places.length]!;
  holder[key] = value;
  return doc;
}

/** A document near the schema's own: its format (when it has one) and P set, the rest random. */
function nearDocument(name: SchemaName): fc.Arbitrary<unknown> {
  const base = name === "schedule-header" ? "schedule" : name === "matrix-header" ? "matrix" : name;
  const format = base in FORMAT_NAMES ? FORMAT_NAMES[base as keyof typeof FORMAT_NAMES] : undefined;
  return fc
    .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
    .map((d) => ({ ...d, ...(format === undefined ? {} : { format }), p: 4 }));
}

describe("standalone validators", () => {
  it("one module for every schema, requiring nothing but ajv's runtime helpers", () => {
    expect([...modules.keys()].sort()).toEqual([...SCHEMA_NAMES].sort());
    for (const code of modules.values())
      for (const [, dep] of code.matchAll(/require\("([^"]+)"\)/g)) expect(dep).toMatch(/^ajv\/dist\/runtime\//);
  });

  for (const name of SCHEMA_NAMES)
    it(`${name}: the same verdict and first error as ajv's compiled validator, over random documents`, () => {
      const standalone = evalModule(modules.get(name)!);
      const compiled = compileValidator(name);
      fc.assert(
        fc.property(fc.oneof(fc.jsonValue({ maxDepth: 3 }), nearDocument(name)), (x) => {
          expect(outcome(standalone, x)).toEqual(outcome(compiled, x));
        }),
        { numRuns: 150 },
      );
    });

  it("matrices and schedules as commplan writes them, each changed at one random place: the same outcome", () => {
    const m = generatePattern("h-relation", 6, { h: 2 }, 3);
    const docs: [SchemaName[], unknown][] = [
      [["matrix", "matrix-header"], JSON.parse(matrixToJsonText(m))],
      [["matrix", "matrix-header"], JSON.parse(matrixToJsonText(m, { sparse: true }))],
      [["schedule", "schedule-header"], JSON.parse(scheduleToJsonText(plan(m, "four-stage", { payload: true })))],
    ];
    for (const [names, doc] of docs)
      for (const name of names) {
        const standalone = evalModule(modules.get(name)!);
        const compiled = compileValidator(name);
        expect(outcome(standalone, doc)).toBe("valid");
        fc.assert(
          fc.property(fc.nat(), fc.jsonValue({ maxDepth: 2 }), (at, value) => {
            const changed = replacedAt(structuredClone(doc), at, value);
            expect(outcome(standalone, changed)).toEqual(outcome(compiled, changed));
          }),
          { numRuns: 150 },
        );
      }
  });

  it("the build step writes each module as a file that loads to the same validator", () => {
    const d = tempDir("validators");
    expect([...writeStandaloneValidators(d)].sort()).toEqual([...SCHEMA_NAMES].sort());
    for (const name of SCHEMA_NAMES)
      expect(readFileSync(join(d, `${name}.cjs`), "utf8")).toBe(`${modules.get(name)!}\n`);
  });
});
