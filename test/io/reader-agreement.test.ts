/**
 * Every reader takes the start of a document the same way: a UTF-8 byte-order mark is skipped, UTF-16 and NUL bytes
 * are refused in one line, a key given twice is refused with its line, and a syntax error names the file's own byte.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matrixFromRows } from "../../src/model/matrix.js";
import { readMatrixFile } from "../../src/io/matrix-read.js";
import { matrixToJsonText } from "../../src/io/matrix-write.js";
import { readScheduleFile } from "../../src/io/schedule-read.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { readProgramJson } from "../../src/io/program-json-read.js";
import { programToJsonText } from "../../src/io/program-json-write.js";
import { readTopologyJson, parseTopologyJsonText } from "../../src/io/topology-json-read.js";
import { encodingProblem } from "../../src/io/json-text.js";
import { plan } from "../../src/planner/registry.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("readers");
const m = matrixFromRows([
  [0, 2, 1],
  [1, 0, 3],
  [2, 2, 0],
]);
const s = plan(m, "shift");
const topology = JSON.stringify({
  format: "commplan.topology/v1",
  hosts: ["a", "b", "c"],
  switches: ["s"],
  links: ["a", "b", "c"].map((h) => ({ a: h, b: "s", bandwidth: 10, latency: 1 })),
});

/** The four readers, each given a file of its format's text. */
const readers: { name: string; text: string; read: (file: string) => Promise<unknown> }[] = [
  { name: "matrix", text: matrixToJsonText(m, { sparse: false }), read: async (f) => readMatrixFile(f) },
  { name: "schedule", text: scheduleToJsonText(s), read: (f) => readScheduleFile(f) },
  { name: "program", text: programToJsonText(lowerSchedule(m, s).program), read: async (f) => readProgramJson(f) },
  { name: "topology", text: topology, read: async (f) => readTopologyJson(f) },
];

let n = 0;
const file = (bytes: Buffer): string => {
  const f = join(dir, `doc-${n++}.json`);
  writeFileSync(f, bytes);
  return f;
};

describe("the readers agree on the start of a document", () => {
  for (const r of readers) {
    it(`${r.name}: a UTF-8 byte-order mark is skipped`, async () => {
      await expect(
        r.read(file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(r.text)]))),
      ).resolves.toBeDefined();
    });

    it(`${r.name}: UTF-16 (with or without its mark) is refused in one line saying so`, async () => {
      const u16 = Buffer.from(`\ufeff${r.text}`, "utf16le");
      await expect(r.read(file(u16))).rejects.toThrow(
        new RegExp(
          `^${r.name}: .*: is UTF-16 text \\(it begins with the byte-order mark 0xff 0xfe\\); commplan reads UTF-8`,
        ),
      );
      await expect(r.read(file(Buffer.from(r.text, "utf16le")))).rejects.toThrow(/has a NUL byte at byte 2/);
    });

    it(`${r.name}: a syntax error names the file's own first byte`, async () => {
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      await expect(r.read(file(png))).rejects.toThrow(/line 1: .*unexpected byte 0x89/);
    });

    it(`${r.name}: a key given twice is refused with its line`, async () => {
      const key = r.name === "topology" ? "hosts" : "p";
      const value = r.name === "topology" ? '["a", "b", "c"]' : "3";
      const text = r.text.replace(`"${key}":`, `"${key}": ${value},\n"${key}":`);
      const line = text.slice(0, text.indexOf(`"${key}":`, text.indexOf(`"${key}":`) + 1)).split("\n").length;
      await expect(r.read(file(Buffer.from(text)))).rejects.toThrow(
        new RegExp(`^${r.name}: .*:line ${line}: / has the key '${key}' twice$`),
      );
    });
  }

  it("encodingProblem: UTF-32 marks, UTF-16 marks and NUL bytes; plain UTF-8 passes", () => {
    expect(encodingProblem(Buffer.from([0xff, 0xfe, 0, 0]))).toMatch(/^is UTF-32 text/);
    expect(encodingProblem(Buffer.from([0xfe, 0xff, 0, 0x7b]))).toMatch(/^is UTF-16 text .*0xfe 0xff/);
    expect(encodingProblem(Buffer.from([0x7b, 0, 0x7d, 0]))).toMatch(/^has a NUL byte at byte 2/);
    expect(encodingProblem(Buffer.from("{}"))).toBeNull();
    expect(encodingProblem(Buffer.from([0xef, 0xbb, 0xbf, 0x7b]))).toBeNull();
  });

  it("a text given to parseTopologyJsonText with a leading U+FEFF reads as without it", () => {
    expect(parseTopologyJsonText(`\ufeff${topology}`, "t.json")).toEqual(parseTopologyJsonText(topology, "t.json"));
  });
});
