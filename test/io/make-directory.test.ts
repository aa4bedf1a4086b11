/** makeDirectories: mkdir -p one component at a time, and an error at once where Node's recursive mkdir loops. */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeDirectories as makeDirectory } from "../../src/io/file-output.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("make-directory");

describe("makeDirectories", () => {
  it("makes the missing parents and returns the first it made; undefined when the directory exists", () => {
    const deep = join(dir, "a", "b", "c");
    expect(makeDirectory(deep)).toBe(join(dir, "a"));
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(makeDirectory(deep)).toBeUndefined();
    expect(makeDirectory(join(dir, "a", "b", "d"))).toBe(join(dir, "a", "b", "d"));
  });

  it("refuses a file in the way", () => {
    writeFileSync(join(dir, "file"), "x");
    expect(() => makeDirectory(join(dir, "file"))).toThrow(expect.objectContaining({ code: "ENOTDIR" }));
    expect(() => makeDirectory(join(dir, "file", "sub"))).toThrow(expect.objectContaining({ code: "ENOTDIR" }));
  });

  // Node 20's mkdir("/proc/x", { recursive: true }) never returns: /proc answers ENOENT though it exists
  it("fails at once under /proc, and the commands that make directories say so", async () => {
    expect(() => makeDirectory("/proc/commplan-test/x")).toThrow(expect.objectContaining({ code: "NO_CREATE" }));
    const m = join(dir, "m.json"),
      s = join(dir, "s.json");
    expect((await run("gen", "uniform", "--p", "4", "-o", m)).code).toBe(0);
    expect((await run("plan", m, "-a", "shift", "-o", s)).code).toBe(0);
    for (const argv of [
      ["export", s, "-m", m, "-f", "program", "--split", "/proc/commplan-test"],
      ["export", s, "-m", m, "-f", "simgrid", "--machine", "t3d-004", "--out", "/proc/commplan-test"],
      ["store", "add", "/proc/commplan-test", m, "-a", "shift"],
    ]) {
      const r = await run(...argv);
      expect([argv.join(" "), r.code, r.err.trim().split("\n").length]).toEqual([argv.join(" "), 2, 1]);
      expect(r.err).toContain("/proc/commplan-test");
    }
  });
});
