/**
 * The split program writer's files: each rank file is the one-document writer's text for that rank, whether DIR is
 * new or already holds files (a regular file replaced with its permission bits, a read-only one refused as writePieces
 * refuses it, a link followed and kept); no temporary file is left.
 */
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { lstatSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { programToJsonText, rankFileName, writeProgramSplit } from "../../src/io/program-json-write.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/registry.js";
import { tempDir } from "../helpers/temp-dir.js";

function dir(): string {
  return tempDir("split");
}

describe("split program files", () => {
  it("every rank file is the one-document text of that rank, over random matrices and planners", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom(["shift", false], ["coloring", false], ["four-stage", true], ["two-stage", true]),
        async (p, seed, [algorithm, payload]) => {
          const m = generatePattern("uniform", p, {}, seed);
          const prog = lowerSchedule(m, plan(m, algorithm as string, { payload: payload as boolean, seed })).program;
          const d = join(dir(), "split");
          await writeProgramSplit(prog, d);
          for (let r = 0; r < p; r++)
            expect(readFileSync(join(d, rankFileName(r)), "utf8")).toBe(programToJsonText(prog, [r]));
          expect(readdirSync(d).sort()).toEqual(
            ["index.json", ...Array.from({ length: p }, (_, r) => rankFileName(r))].sort(),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it("into a directory that holds files: replaces a file keeping its mode, follows a link, refuses a read-only file", async () => {
    const m = generatePattern("h-relation", 6, { h: 2 }, 3);
    const prog = lowerSchedule(m, plan(m, "shift")).program;
    const d = join(dir(), "split");
    mkdirSync(d);
    writeFileSync(join(d, rankFileName(1)), "old");
    chmodSync(join(d, rankFileName(1)), 0o640);
    const elsewhere = join(dir(), "rank-2-target.json");
    writeFileSync(elsewhere, "old");
    symlinkSync(elsewhere, join(d, rankFileName(2)));
    await writeProgramSplit(prog, d);
    expect(statSync(join(d, rankFileName(1))).mode & 0o777).toBe(0o640);
    expect(readFileSync(join(d, rankFileName(1)), "utf8")).toBe(programToJsonText(prog, [1]));
    expect(lstatSync(join(d, rankFileName(2))).isSymbolicLink()).toBe(true);
    expect(readFileSync(elsewhere, "utf8")).toBe(programToJsonText(prog, [2]));
    chmodSync(join(d, rankFileName(4)), 0o444);
    await expect(writeProgramSplit(prog, d)).rejects.toThrow(
      /^program: .*rank-4\.json: cannot write: the file is read-only \(mode 0444\)/,
    );
    expect(readdirSync(d).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});
