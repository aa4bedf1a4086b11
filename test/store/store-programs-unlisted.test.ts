/**
 * A program directory store verify can enter but not list (mode 311 for another user; simulated here by a node:fs
 * whose readdirSync of that directory fails with EACCES, as the tests run as root): a damaged-program line naming the
 * directory, exit 1, never an internal error.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// libcommplan's key of this matrix at P = 4, 24 bytes per element (test/cli/precompute-capture.test.ts)
const KEY = "222575cb38809e299dcf39099f95e309";
const ROWS = [
  [26, 11, 10, 1],
  [29, 10, 4, 5],
  [26, 11, 5, 6],
  [26, 7, 11, 4],
];

/** The directory whose listing fails (EACCES), or null. */
const faults = vi.hoisted(() => ({ unlisted: null as string | null }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readdirSync = ((path: string, ...rest: unknown[]) => {
    if (faults.unlisted !== null && String(path) === faults.unlisted)
      throw Object.assign(new Error(`EACCES: permission denied, scandir '${String(path)}'`), { code: "EACCES" });
    return (fs.readdirSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readdirSync;
  return { ...fs, default: { ...fs, readdirSync }, readdirSync };
});

describe("store verify: a program directory it cannot list", () => {
  it("is a damaged program naming the directory, exit 1, in text and JSON", async () => {
    const d = tempDir("unlisted-program");
    const cap = join(d, "cap"),
      s = join(d, "s");
    mkdirSync(cap);
    const name = `${KEY}-0-0`;
    const matrix = { format: "commplan.matrix/v1", p: 4, elementBytes: 24, rows: ROWS };
    writeFileSync(join(cap, `${name}.matrix.json`), JSON.stringify(matrix));
    const rec = { format: "commplan.capture/v1", key: KEY, p: 4, elementBytes: 24, call: "MPI_Alltoallv" };
    const capture = { ...rec, site: "x", calls: 3, matrix: `${name}.matrix.json` };
    writeFileSync(join(cap, `${name}.capture.json`), JSON.stringify(capture));
    const pre = await run(
      "precompute",
      "--from-capture",
      cap,
      "--store",
      s,
      "--machine",
      "t3d-004",
      "--runtime",
      "none",
    );
    expect(pre.code, pre.err).toBe(0);
    const dir = join(s, "programs", KEY);
    faults.unlisted = dir;
    try {
      const text = await run("store", "verify", s);
      expect(text.code).toBe(1);
      expect(text.err).toBe(`store: ${dir}: program ${KEY} is damaged: cannot list its files: permission denied\n`);
      expect(text.out).toContain("1 program (1 damaged)");
      const json = await run("store", "verify", s, "--json");
      expect(json.code).toBe(1);
      expect((JSON.parse(json.out) as Record<string, unknown>)["damagedPrograms"]).toEqual([
        { key: KEY, file: dir, problem: "cannot list its files: permission denied" },
      ]);
    } finally {
      faults.unlisted = null;
    }
  });
});
