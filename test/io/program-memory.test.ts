/**
 * The program reader refuses, before it reads, a document or a split program its budget cannot hold; the matrix reader
 * refuses a sparse document before its entry columns grow past the budget.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matrixFromRows } from "../../src/model/matrix.js";
import { plan } from "../../src/planner/registry.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { programToJsonText } from "../../src/io/program-json-write.js";
import { PROGRAM_BYTES_PER_BYTE, readProgramJson } from "../../src/io/program-json-read.js";
import { readMatrixFile } from "../../src/io/matrix-read.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("program-memory");
const MIB = 2 ** 20;

describe("program reader memory", () => {
  it("a split index declaring p = 2^20 is refused from its p alone, before any rank file is looked for", () => {
    const split = join(dir, "huge");
    mkdirSync(split);
    const p = 2 ** 20;
    const files = Array.from({ length: p }, (_, r) => `rank-${r}.json`); // none of them exists
    const index = {
      format: "commplan.program/v1",
      p,
      algorithm: "shift",
      params: {},
      seed: null,
      elementBytes: 8,
      matrixDigest: "mm3x64:0000000000000000",
      variant: "nonblocking",
      rounds: 1,
      files,
    };
    writeFileSync(join(split, "index.json"), JSON.stringify(index));
    expect(() => readProgramJson(join(split, "index.json"), { maxMemory: 64 * MIB })).toThrow(
      /^program: .*index\.json: a split program of p = 1048576 ranks needs about 4 GiB, past the memory budget of 64 MiB/,
    );
  });

  it("a padded document is refused from its size before it is read; the same document under a budget that holds it reads", () => {
    const m = matrixFromRows([
      [0, 1],
      [1, 0],
    ]);
    const text = programToJsonText(lowerSchedule(m, plan(m, "shift")).program);
    const file = join(dir, "padded.json");
    const size = 8 * MIB;
    writeFileSync(file, text.replace(/\n$/, "") + " ".repeat(size - text.length + 1) + "\n");
    expect(() => readProgramJson(file, { maxMemory: 16 * MIB })).toThrow(
      new RegExp(
        `^program: .*padded\\.json: reading the ${size + 1}-byte program needs about ${PROGRAM_BYTES_PER_BYTE * 8} MiB`,
      ),
    );
    expect(readProgramJson(file, { maxMemory: (PROGRAM_BYTES_PER_BYTE * 8 + 1) * MIB }).program.p).toBe(2);
  });

  it("a sparse matrix document is refused when its entries would grow the columns past the budget", () => {
    const p = 20000;
    const entries = Array.from({ length: p }, (_, i) => [i, (i + 1) % p, 1]);
    const file = join(dir, "sparse.json");
    writeFileSync(file, JSON.stringify({ format: "commplan.matrix/v1", p, entries }));
    expect(() => readMatrixFile(file, { maxMemory: MIB })).toThrow(
      /^matrix: .*sparse\.json:line 1: a matrix of more than 16384 entries needs about 1\.56 MiB, past the memory budget of 1 MiB/,
    );
    expect(readMatrixFile(file, { maxMemory: 4 * MIB }).p).toBe(p);
  });
});
