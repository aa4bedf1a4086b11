/**
 * The split program writer's files: each rank file is the one-document writer's text for that rank, whether DIR is
 * new or already holds files (a regular file replaced with its permission bits, a read-only one refused as writePieces
 * refuses it; a link, FIFO or directory at one of its names refused before anything is written); no temporary file is
 * left.
 */
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
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

  it("into a directory that holds files: replaces a file keeping its mode, refuses a link, refuses a read-only file", async () => {
    const m = generatePattern("h-relation", 6, { h: 2 }, 3);
    const prog = lowerSchedule(m, plan(m, "shift")).program;
    const d = join(dir(), "split");
    mkdirSync(d);
    writeFileSync(join(d, rankFileName(1)), "old");
    chmodSync(join(d, rankFileName(1)), 0o640);
    const elsewhere = join(dir(), "rank-2-target.json");
    writeFileSync(elsewhere, "old");
    symlinkSync(elsewhere, join(d, rankFileName(2)));
    // a link at one of the split's names is refused before anything is written (it once was followed)
    await expect(writeProgramSplit(prog, d)).rejects.toThrow(
      /^program: .*split\/rank-2\.json: is a symbolic link, not a regular file: .*remove it or choose another directory$/,
    );
    expect(readFileSync(elsewhere, "utf8")).toBe("old");
    expect(readFileSync(join(d, rankFileName(1)), "utf8")).toBe("old");
    expect(readdirSync(d).sort()).toEqual([rankFileName(1), rankFileName(2)]);
    expect(lstatSync(join(d, rankFileName(2))).isSymbolicLink()).toBe(true);
    rmSync(join(d, rankFileName(2)));
    await writeProgramSplit(prog, d);
    expect(statSync(join(d, rankFileName(1))).mode & 0o777).toBe(0o640);
    expect(readFileSync(join(d, rankFileName(1)), "utf8")).toBe(programToJsonText(prog, [1]));
    expect(readFileSync(join(d, rankFileName(2)), "utf8")).toBe(programToJsonText(prog, [2]));
    chmodSync(join(d, rankFileName(4)), 0o444);
    await expect(writeProgramSplit(prog, d)).rejects.toThrow(
      /^program: .*rank-4\.json: cannot write: the file is read-only \(mode 0444\)/,
    );
    expect(readdirSync(d).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("a link made at the index's name after the check (here from the progress callback) is replaced, not followed", async () => {
    const m = generatePattern("h-relation", 4, { h: 2 }, 3);
    const prog = lowerSchedule(m, plan(m, "shift")).program;
    const victim = join(dir(), "victim.txt");
    writeFileSync(victim, "precious");
    const d = join(dir(), "split");
    const progress = (done: number): void => {
      if (done === 1) symlinkSync(victim, join(d, "index.json"));
    };
    await writeProgramSplit(prog, d, { progress });
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(lstatSync(join(d, "index.json")).isFile()).toBe(true);
    expect(readFileSync(join(d, "index.json"), "utf8")).toMatch(/"files":\["rank-0\.json"/);
  });

  it("refuses a FIFO, a directory or two links to one file at its names, before writing anything", async () => {
    const m = generatePattern("h-relation", 4, { h: 2 }, 3);
    const prog = lowerSchedule(m, plan(m, "shift")).program;
    const victim = join(dir(), "victim.txt");
    writeFileSync(victim, "precious");
    const cases: [string, (d: string) => void][] = [
      ["a FIFO", (d) => execFileSync("mkfifo", [join(d, rankFileName(2))])],
      ["a directory", (d) => mkdirSync(join(d, "index.json"))],
      [
        "a symbolic link",
        (d) => {
          symlinkSync(victim, join(d, rankFileName(1)));
          symlinkSync(victim, join(d, "index.json"));
        },
      ],
    ];
    for (const [kind, make] of cases) {
      const d = join(dir(), "split");
      mkdirSync(d);
      make(d);
      const before = readdirSync(d).sort();
      await expect(writeProgramSplit(prog, d)).rejects.toThrow(new RegExp(`: is ${kind}, not a regular file: `));
      expect(readdirSync(d).sort()).toEqual(before);
      expect(readFileSync(victim, "utf8")).toBe("precious");
    }
  });
});
