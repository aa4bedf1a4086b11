/**
 * A split program whose writing fails while its files are staged: the temporary files are removed best effort, and
 * when one cannot be (a directory made read-only, a busy file: simulated here by a preload whose node:fs rmSync fails
 * in a process of its own), the original error is still the one reported, in one line naming the files left and their
 * directory, never the removal's own error.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "commplan.js");
const lib = (f: string): string => JSON.stringify(pathToFileURL(join(ROOT, "dist", f)).href);

/**
 * The preload: openSync of a path matching COMMPLAN_TEST_OPEN_FAULT fails with ENOSPC (no space left), rmSync of one
 * matching COMMPLAN_TEST_RM_FAULT with EACCES (the builtin's ESM exports synced, so `import { openSync } from
 * "node:fs"` sees them too). A process of its own: no test runner's module graph (isolate: false shares one across the
 * suite's files) between the fault and the code under test, which a vi.mock of node:fs once missed.
 */
const PRELOAD = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const fault = (name) => (process.env[name] ? new RegExp(process.env[name]) : null);
const open = fault("COMMPLAN_TEST_OPEN_FAULT"), rm = fault("COMMPLAN_TEST_RM_FAULT");
const errno = (code) => Object.assign(new Error(code), { code });
const realOpen = fs.openSync, realRm = fs.rmSync;
fs.openSync = (path, ...rest) => {
  if (open?.test(String(path))) throw errno("ENOSPC");
  return realOpen(path, ...rest);
};
fs.rmSync = (path, ...rest) => {
  if (rm?.test(String(path))) throw errno("EACCES");
  return realRm(path, ...rest);
};
syncBuiltinESMExports();
`;

/** The preload written into `dir`, as an --import argument. */
function preloadIn(dir: string): string[] {
  const file = join(dir, "faults.mjs");
  writeFileSync(file, PRELOAD);
  return ["--import", pathToFileURL(file).href];
}

/** The faults as the preload reads them: openSync of paths matching `open` fails, rmSync of those matching `rm`. */
function faultEnv(open: RegExp, rm: RegExp | null): NodeJS.ProcessEnv {
  return { ...process.env, COMMPLAN_TEST_OPEN_FAULT: open.source, COMMPLAN_TEST_RM_FAULT: rm?.source ?? "" };
}

/**
 * writeProgramSplit of a lowered P = 6 shift plan into `out`, in a process with the faults: the error it rejects with
 * (its message and whether it is a CommplanError), or null when it wrote the program.
 */
function splitWithFaults(
  t: string,
  out: string,
  open: RegExp,
  rm: RegExp | null,
): { message: string; commplan: boolean } | null {
  const script = `
const { writeProgramSplit } = await import(${lib("io/program-json-write.js")});
const { isCommplanError } = await import(${lib("model/errors.js")});
const { lowerSchedule } = await import(${lib("lower/index.js")});
const { generatePattern } = await import(${lib("patterns/index.js")});
const { plan } = await import(${lib("planner/registry.js")});
const m = generatePattern("h-relation", 6, { h: 2 }, 3);
const prog = lowerSchedule(m, plan(m, "shift")).program;
const err = await writeProgramSplit(prog, ${JSON.stringify(out)}).then(() => null, (e) => e);
process.stdout.write(JSON.stringify(err === null ? null : { message: err.message, commplan: isCommplanError(err) }));`;
  const r = spawnSync(process.execPath, [...preloadIn(t), "--input-type=module", "-e", script], {
    encoding: "utf8",
    env: faultEnv(open, rm),
  });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as { message: string; commplan: boolean } | null;
}

describe("writeProgramSplit: cleanup of the staged files after a failure", () => {
  it("a staged file that cannot be removed is named in the original error's one line", () => {
    const t = tempDir("split-cleanup");
    const d = join(t, "split");
    const err = splitWithFaults(t, d, /\.rank-4\.json\./, /\.rank-[01]\.json\./);
    expect(err?.commplan).toBe(true);
    const msg = err!.message;
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
    for (const f of left) rmSync(join(d, f));
  });

  it("with every removal done, the error is the original one alone and nothing is left", () => {
    const t = tempDir("split-cleanup");
    const d = join(t, "split");
    const err = splitWithFaults(t, d, /\.index\.json\./, null);
    expect(err?.message).toMatch(/^program: .*split\/index\.json: cannot write: no space left on the device$/);
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
    const r = spawnSync(process.execPath, [...preloadIn(t), BIN, "export", s, "-m", m, "-f", "program", "--split", d], {
      encoding: "utf8",
      env: faultEnv(/\.rank-2\.json\./, /\.rank-0\.json\./),
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(
      /rank-2\.json: cannot write: no space left on the device; 1 temporary file could not be removed/,
    );
    expect(r.stderr).not.toMatch(/EACCES|\n\s+at /);
    expect(existsSync(join(d, "index.json"))).toBe(false);
    for (const f of readdirSync(d)) rmSync(join(d, f));
  });
});
