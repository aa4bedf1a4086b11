import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isCommplanError } from "../../src/model/errors.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { parseScheduleJsonText, readScheduleJson } from "../../src/io/index.js";
import { tempDir } from "../helpers/temp-dir.js";

// The streaming reader checks the header with ajv and the bulk (steps, transfers, chunks, stalls)
// by hand. This corpus pins that the two together accept exactly what ajv accepts on the whole
// document. Every schema-valid document here is also meaningful (indices < p, sizes add up), so
// the meaning checks do not interfere.

const head =
  '"format":"commplan.schedule/v1","p":4,"algorithm":"a","params":{},"seed":null,"elementBytes":8,"matrixDigest":"d"';
const stage = (steps: string, extra = ""): string => `{"name":"s","rearrange":"none",${extra}"steps":[${steps}]}`;
const step = (transfers: string, stalls = "[]"): string => `{"transfers":[${transfers}],"stalls":${stalls}}`;
const docOf = (stages: string, extra = ""): string => `{${head},${extra}"stages":[${stages}]}`;
const one = (transfer: string): string => docOf(stage(step(transfer)));

const CORPUS: [name: string, doc: string][] = [
  // valid
  ["message level", one('{"src":0,"dst":1,"size":5}')],
  ["payload", one('{"src":0,"dst":1,"size":5,"chunks":[[0,1,0,2],[2,1,4,3]]}')],
  ["no stages", docOf("")],
  ["stage without steps", docOf(stage(""))],
  ["empty step with stalls", docOf(stage(step("", "[0,3]")))],
  ["times", one('{"src":0,"dst":1,"size":5,"start":0.5,"end":1e3}')],
  [
    "any key order",
    `{"stages":[{"steps":[{"stalls":[],"transfers":[{"size":2,"dst":3,"src":1}]}],"rearrange":"collect","name":""}],${head}}`,
  ],
  [
    "escaped keys and strings",
    one('{"\\u0073rc":0,"d\\u0073t":1,"size":1}').replace('"name":"s"', '"name":"\\"q\\"\\n\\u00e9"'),
  ],
  ["integral numbers in other notations", one('{"src":0.0,"dst":1e0,"size":2E1}')],
  [
    "params with nested values, seed, whitespace",
    docOf(stage(step('{"src":3,"dst":3,"size":1}')))
      .replace('"params":{}', '"params":{"a":[1,{"b":null}],"c":"x"}')
      .replace('"seed":null', ' "seed" : 5 ')
      .replace(/,/g, " ,\n\t"),
  ],
  [
    "every limit at its maximum",
    docOf(
      stage(
        step(
          '{"src":16383,"dst":0,"size":9007199254740991,"chunks":[[16383,0,9007199254740990,9007199254740991]],"start":0,"end":9007199254740991}',
          "[16383]",
        ),
      ),
    )
      .replace('"p":4', '"p":16384')
      .replace('"seed":null', '"seed":4294967295')
      .replace('"elementBytes":8', '"elementBytes":1048576'),
  ],
  // invalid
  ["p past 1048576", docOf("").replace('"p":4', '"p":1048577')],
  ["p = 1e300", docOf("").replace('"p":4', '"p":1e300')],
  ["seed -1", docOf("").replace('"seed":null', '"seed":-1')],
  ["seed past 2^32 - 1", docOf("").replace('"seed":null', '"seed":4294967296')],
  ["elementBytes past 1048576", docOf("").replace('"elementBytes":8', '"elementBytes":1048577')],
  ["elementBytes 1e300", docOf("").replace('"elementBytes":8', '"elementBytes":1e300')],
  ["size 2^53", one('{"src":0,"dst":1,"size":9007199254740992}')],
  ["size 2^60", one('{"src":0,"dst":1,"size":1152921504606846976}')],
  ["chunk offset 2^53", one('{"src":0,"dst":1,"size":1,"chunks":[[0,1,9007199254740992,1]]}')],
  ["chunk count 2^53", one('{"src":0,"dst":1,"size":9007199254740991,"chunks":[[0,1,0,9007199254740992]]}')],
  ["end 2^53", one('{"src":0,"dst":1,"size":1,"start":0,"end":9007199254740992}')],
  ["start 1e300", one('{"src":0,"dst":1,"size":1,"start":1e300,"end":1e300}')],
  ["duplicate stalls", docOf(stage(step("", "[0,0]")))],
  ["duplicate stalls apart", docOf(stage(step("", "[1,2,3,1]")))],
  ["src as a string", one('{"src":"0","dst":1,"size":1}')],
  ["fractional src", one('{"src":0.5,"dst":1,"size":1}')],
  ["negative dst", one('{"src":0,"dst":-1,"size":1}')],
  ["size 0", one('{"src":0,"dst":1,"size":0}')],
  ["missing dst", one('{"src":0,"size":1}')],
  ["unknown transfer key", one('{"src":0,"dst":1,"size":1,"via":2}')],
  ["unknown step key", docOf(stage('{"transfers":[],"stalls":[],"x":1}'))],
  ["missing stalls", docOf(stage('{"transfers":[]}'))],
  ["chunk of 3", one('{"src":0,"dst":1,"size":1,"chunks":[[0,1,0]]}')],
  ["chunk of 5", one('{"src":0,"dst":1,"size":1,"chunks":[[0,1,0,1,0]]}')],
  ["chunk count 0", one('{"src":0,"dst":1,"size":1,"chunks":[[0,1,0,0]]}')],
  ["chunk element null", one('{"src":0,"dst":1,"size":1,"chunks":[[0,null,0,1]]}')],
  ["chunks not an array", one('{"src":0,"dst":1,"size":1,"chunks":{}}')],
  ["negative start", one('{"src":0,"dst":1,"size":1,"start":-1,"end":1}')],
  ["start as a string", one('{"src":0,"dst":1,"size":1,"start":"0","end":1}')],
  ["transfer is null", one("null")],
  ["transfers not an array", docOf(stage('{"transfers":{},"stalls":[]}'))],
  ["stall -1", docOf(stage(step("", "[-1]")))],
  ["stall 1.5", docOf(stage(step("", "[1.5]")))],
  ["step is an array", docOf(stage("[]"))],
  ["steps is an object", docOf('{"name":"s","rearrange":"none","steps":{}}')],
  ["unknown rearrange", docOf(stage("").replace('"none"', '"shuffle"'))],
  ["stage without name", docOf('{"rearrange":"none","steps":[]}')],
  ["stage with an extra key", docOf(stage("", '"x":1,'))],
  ["stage is a string", docOf('"s"')],
  ["extra top-level key", docOf("", '"x":1,')],
  ["seed as a string", docOf("").replace('"seed":null', '"seed":"1"')],
  ["params as an array", docOf("").replace('"params":{}', '"params":[]')],
  ["p = 0", docOf("").replace('"p":4', '"p":0')],
  ["missing matrixDigest", docOf("").replace(',"matrixDigest":"d"', "")],
  ["wrong format", docOf("").replace("schedule/v1", "schedule/v2")],
  ["top level array", "[]"],
];

function ajvAccepts(doc: string): boolean {
  try {
    validateWithSchema("schedule", JSON.parse(doc), "schedule");
    return true;
  } catch (e) {
    if (isCommplanError(e)) return false;
    throw e;
  }
}

function streamAccepts(doc: string): boolean {
  try {
    parseScheduleJsonText(doc, "c.json");
    return true;
  } catch (e) {
    if (isCommplanError(e)) return false;
    throw e;
  }
}

const dir = tempDir("corpus");

describe("the streaming schedule reader accepts exactly what ajv accepts", () => {
  it("has a corpus with both outcomes", () => {
    const accepted = CORPUS.filter(([, d]) => ajvAccepts(d)).length;
    expect(accepted).toBe(11);
    expect(CORPUS.length - accepted).toBeGreaterThanOrEqual(25);
  });

  it.each(CORPUS)("%s", async (_name, doc) => {
    JSON.parse(doc); // every document is valid JSON: only the schema can refuse it
    const expected = ajvAccepts(doc);
    expect(streamAccepts(doc)).toBe(expected);
    // and the same through a file read 3 bytes at a time
    const f = join(dir, "c.json");
    writeFileSync(f, doc);
    const viaFile = await readScheduleJson(f, { highWaterMark: 3 }).then(
      () => true,
      (e: unknown) => {
        if (isCommplanError(e)) return false;
        throw e;
      },
    );
    expect(viaFile).toBe(expected);
  });
});
