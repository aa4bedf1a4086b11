/** A split program's index names rank files inside its directory: no `..`, no absolute path, no link leading out. */
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readProgramJson } from "../../src/io/program-json-read.js";
import { writeProgramSplit } from "../../src/io/program-json-write.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/registry.js";
import { tempDir } from "../helpers/temp-dir.js";

const m = generatePattern("uniform", 4, {}, 1);

/** A split program in d/split, a copy of its rank 0 outside it (d/outside/x.json), and a rewriter of its files. */
async function splitProgram(): Promise<{ d: string; index: string; files: (f: string[]) => void }> {
  const d = tempDir("split-paths");
  await writeProgramSplit(lowerSchedule(m, plan(m, "shift")).program, join(d, "split"));
  mkdirSync(join(d, "outside"));
  copyFileSync(join(d, "split", "rank-0.json"), join(d, "outside", "x.json"));
  const index = join(d, "split", "index.json");
  const doc = JSON.parse(readFileSync(index, "utf8")) as { files: string[] };
  return { d, index, files: (f) => writeFileSync(index, JSON.stringify({ ...doc, files: f })) };
}

describe("split program index: rank files inside the index's directory", () => {
  it("reads the rank files the writer names", async () => {
    const { index } = await splitProgram();
    expect(readProgramJson(index).ranks).toEqual([0, 1, 2, 3]);
  });

  it("refuses a '..' component, naming the index and the entry", async () => {
    const { index, files } = await splitProgram();
    for (const f of ["../outside/x.json", "./../outside/x.json", "sub/../../outside/x.json"]) {
      files([f, "rank-1.json", "rank-2.json", "rank-3.json"]);
      expect(() => readProgramJson(index), f).toThrow(
        /^program: .*index\.json: \/files\/0 ".*" is not inside the index's directory \(give a path relative to it, without '\.\.'\)$/,
      );
    }
  });

  it("refuses an absolute path", async () => {
    const { d, index, files } = await splitProgram();
    for (const f of [join(d, "outside", "x.json"), "/rank-0.json"]) {
      files(["rank-0.json", f, "rank-2.json", "rank-3.json"]);
      expect(() => readProgramJson(index), f).toThrow(
        /^program: .*index\.json: \/files\/1 .* is not inside the index's directory/,
      );
    }
  });

  it("refuses a symbolic link leading out of the directory, keeps one that stays inside", async () => {
    const { d, index, files } = await splitProgram();
    symlinkSync(join(d, "outside", "x.json"), join(d, "split", "out.json"));
    files(["out.json", "rank-1.json", "rank-2.json", "rank-3.json"]);
    expect(() => readProgramJson(index)).toThrow(
      /^program: .*index\.json: \/files\/0 "out\.json" leads out of the index's directory \(a symbolic link\)$/,
    );
    symlinkSync("rank-0.json", join(d, "split", "in.json"));
    files(["in.json", "rank-1.json", "rank-2.json", "rank-3.json"]);
    expect(readProgramJson(index).ranks).toEqual([0, 1, 2, 3]);
  });
});
