/**
 * The program reader and the program checks under mutated documents (both layout forms): every
 * mutant is either read and checked, or refused with one CommplanError; never another exception.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readProgramJson } from "../../src/io/program-json-read.js";
import { programToJsonText } from "../../src/io/program-json-write.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { isCommplanError } from "../../src/model/errors.js";
import { matrixFromRows, toSparse } from "../../src/model/matrix.js";
import { plan } from "../../src/planner/registry.js";
import { verifyProgram } from "../../src/verifier/program/index.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("program-mutations");

const dense = matrixFromRows([
  [2, 1, 0, 3],
  [0, 4, 5, 1],
  [6, 0, 0, 2],
  [1, 1, 3, 0],
]);
const sparse = toSparse(dense);

/** Values a field may be replaced with: wrong types, negative, fractional, huge, empty. */
const junk = fc.oneof(
  fc.constantFrom(-1, 0, 1, 2, 3, 4, 5, 1.5, 2 ** 31, 2 ** 53, -0, 1e300, "1", null, true, [], {}, [0], [-1], [4, 2]),
  fc.integer({ min: -5, max: 40 }),
);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Replaces (or deletes) the value at a random path of the document, chosen by `picks`. */
function mutate(doc: Json, picks: readonly number[], value: Json, del: boolean): void {
  let node = doc;
  for (let d = 0; d < picks.length; d++) {
    if (node === null || typeof node !== "object") return;
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) return;
    const key = keys[picks[d]! % keys.length]!;
    const child = (node as Record<string | number, Json>)[key]!;
    const last = d === picks.length - 1 || child === null || typeof child !== "object";
    if (last) {
      if (del && !Array.isArray(node)) delete (node as Record<string, Json>)[key as string];
      else if (del) (node as Json[]).splice(key as number, 1);
      else (node as Record<string | number, Json>)[key] = value;
      return;
    }
    node = child;
  }
}

describe("mutated program documents", () => {
  for (const [form, m, algorithm, payload] of [
    ["full", dense, "two-stage", true],
    ["peers", sparse, "two-stage", true],
    ["peers", sparse, "coloring", false],
  ] as const) {
    it(`${form} form (${algorithm}): read and checked, or refused with one CommplanError`, () => {
      const text = programToJsonText(
        lowerSchedule(m, plan(m, algorithm, { payload }), { variant: "blocking" }).program,
      );
      const file = join(dir, `${form}-${algorithm}.json`);
      let read = 0,
        refused = 0;
      fc.assert(
        fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), junk, fc.boolean(), (picks, value, del) => {
          const doc = JSON.parse(text) as Json;
          mutate(doc, picks, value, del);
          writeFileSync(file, JSON.stringify(doc));
          try {
            const { program } = readProgramJson(file);
            read++;
            verifyProgram(m, program);
          } catch (e) {
            if (!isCommplanError(e)) throw e;
            expect(e.message.split("\n")).toHaveLength(1);
            refused++;
          }
        }),
        { numRuns: 400, seed: 26 },
      );
      expect(read).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    });
  }
});
