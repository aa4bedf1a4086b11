/**
 * A split program whose writing fails while its files are staged: the temporary files are removed best effort, and
 * when one cannot be (a directory made read-only, a busy file: simulated here by a node:fs whose rmSync fails), the
 * original error is still the one reported, in one line naming the files left and their directory, never the removal's
 * own error.
 */
import { existsSync, readdirSync, rmSync as realRmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { isCommplanError } from "../../src/model/errors.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/registry.js";
import { tempDir } from "../helpers/temp-dir.js";

/** Which calls fail: openSync of a path matching `open` (no space left), rmSync of one matching `rm` (permission). */
const faults = vi.hoisted(() => ({ open: null as RegExp | null, rm: null as RegExp | null }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const errno = (code: string): Error => Object.assign(new Error(code), { code });
  const openSync = ((path: string, ...rest: unknown[]) => {
    if (faults.open?.test(String(path))) throw errno("ENOSPC");
    return (fs.openSync as (...a: unknown[]) => number)(path, ...rest);
  }) as typeof fs.openSync;
  const rmSync = ((path: string, opts?: object) => {
    if (faults.rm?.test(String(path))) throw errno("EACCES");
    fs.rmSync(path, opts);
  }) as typeof fs.rmSync;
  return { ...fs, default: { ...fs, openSync, rmSync }, openSync, rmSync };
});

// The suite's workers share one module graph across files (isolate: false): the writer and the CLI are loaded afresh
// here, so that they read the mocked node:fs, not a copy an earlier file loaded with the real one.
vi.resetModules();
const { writeProgramSplit } = await import("../../src/io/program-json-write.js");
const { run } = await import("../helpers/cli.js");

/** Runs `body` with the faults set, cleared after. */
async function withFaults<T>(open: RegExp, rm: RegExp | null, body: () => Promise<T>): Promise<T> {
  Object.assign(faults, { open, rm });
  try {
    return await body();
  } finally {
    Object.assign(faults, { open: null, rm: null });
  }
}

const prog = (() => {
  const m = generatePattern("h-relation", 6, { h: 2 }, 3);
  return lowerSchedule(m, plan(m, "shift")).program;
})();

describe("writeProgramSplit: cleanup of the staged files after a failure", () => {
  it("a staged file that cannot be removed is named in the original error's one line", async () => {
    const d = join(tempDir("split-cleanup"), "split");
    const err = await withFaults(/\.rank-4\.json\./, /\.rank-[01]\.json\./, () =>
      writeProgramSplit(prog, d).then(
        () => null,
        (e: unknown) => e,
      ),
    );
    expect(isCommplanError(err)).toBe(true);
    const msg = (err as Error).message;
    expect(msg.split("\n")).toHaveLength(1);
    expect(msg).toMatch(
      new RegExp(
        `^program: .*split/rank-4\\.json: cannot write: no space left on the device; 2 temporary files could not be ` +
          `removed from ${d.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: \\.rank-0\\.json\\..*\\.tmp, \\.rank-1\\.json\\..*\\.tmp$`,
      ),
    );
    // the ones it could remove are gone; the two named are there (removed here by the test)
    const left = readdirSync(d).sort();
    expect(left).toHaveLength(2);
    expect(left[0]).toMatch(/^\.rank-0\.json\..*\.tmp$/);
    expect(left[1]).toMatch(/^\.rank-1\.json\..*\.tmp$/);
    for (const f of left) realRmSync(join(d, f));
  });

  it("with every removal done, the error is the original one alone and nothing is left", async () => {
    const d = join(tempDir("split-cleanup"), "split");
    const err = await withFaults(/\.index\.json\./, null, () =>
      writeProgramSplit(prog, d).then(
        () => null,
        (e: unknown) => e,
      ),
    );
    expect((err as Error).message).toMatch(
      /^program: .*split\/index\.json: cannot write: no space left on the device$/,
    );
    expect(readdirSync(d)).toEqual([]);
  });

  it("export --split: the same one line and exit 2, no stack trace", async () => {
    const t = tempDir("split-cleanup");
    const m = join(t, "m.json"),
      s = join(t, "s.json"),
      d = join(t, "split");
    expect((await run("gen", "uniform", "--p", "4", "-o", m)).code).toBe(0);
    expect((await run("plan", m, "-a", "shift", "-o", s)).code).toBe(0);
    writeFileSync(join(t, "keep"), "");
    const r = await withFaults(/\.rank-2\.json\./, /\.rank-0\.json\./, () =>
      run("export", s, "-m", m, "-f", "program", "--split", d),
    );
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(
      /rank-2\.json: cannot write: no space left on the device; 1 temporary file could not be removed/,
    );
    expect(r.err).not.toMatch(/EACCES|\n\s+at /);
    expect(existsSync(join(d, "index.json"))).toBe(false);
    for (const f of readdirSync(d)) realRmSync(join(d, f));
  });
});
