/**
 * store gc and the strays under entries/: one younger than an hour (a file still being copied into a prefix directory,
 * an NFS .nfsXXXX file) is reported by list and verify as young and left alone by gc, as a young foreign temporary
 * file in tmp/ is; one gc cannot remove (EACCES, simulated by a preload in the CLI's own process, as the tests run as
 * root) is a one-line error naming it, after every other removal is done, never an internal error; gc then names what
 * it removed and what it did not (--json: `failed`), so the store's state is known. The library's gcStore gives the same
 * answer (its `failed`, each with its `kind`: "remove" or "remake"), never throwing for a path it cannot remove: the
 * CLI prints the library's result and names what failed by the kind.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";
import { validateWithSchema } from "../../src/io/json-schema.js";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "commplan.js");

function cli(argv: string[], preload?: string) {
  const pre = preload === undefined ? [] : ["--import", pathToFileURL(preload).href];
  const r = spawnSync(process.execPath, [...pre, BIN, ...argv], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A store of one entry in `d`: its directory, the entry's id and its prefix directory. */
function storeOfOne(d: string): { s: string; id: string; prefix: string } {
  const m = join(d, "m.json"),
    s = join(d, "s");
  expect(cli(["gen", "uniform", "--p", "4", "-o", m]).code).toBe(0);
  const id = cli(["store", "add", s, m, "-a", "shift"]).out.trim();
  expect(id).toMatch(/^[0-9a-f]{64}$/);
  return { s, id, prefix: join(s, "entries", id.slice(0, 2)) };
}

const YOUNG = "; young: left alone by gc until an hour old";

describe("store gc: a young stray under entries/ is left alone", () => {
  it("a file being copied into a prefix directory and an .nfs file: listed as young, kept by gc until old", () => {
    const d = tempDir("gc-young-stray");
    const { s, id, prefix } = storeOfOne(d);
    const copying = join(prefix, `.${id}.arrow.Xy12Ab`); // rsync's temporary name
    const nfs = join(prefix, ".nfs000000000012345600000001");
    writeFileSync(copying, readFileSync(join(prefix, `${id}.arrow`)).subarray(0, 1000));
    writeFileSync(nfs, "x");
    mkdirSync(join(s, "entries", "incoming")); // a directory being copied in
    const list = cli(["store", "list", s]);
    expect(list.code).toBe(0);
    for (const f of [copying, nfs, join(s, "entries", "incoming")])
      expect(list.err).toMatch(new RegExp(`^store list: ${f.replace(/[.]/g, "\\.")}: .*never read${YOUNG}$`, "m"));
    const verify = cli(["store", "verify", s]);
    expect(verify.code).toBe(1);
    expect(verify.err).toContain(`${copying}: a file the store does not keep`);
    expect(verify.err).toContain(YOUNG);
    const dry = cli(["store", "gc", s, "--dry-run"]);
    expect(dry.out).toBe("store gc: would remove 0 temporary files and 0 damaged entries\n");
    const gc = cli(["store", "gc", s]);
    expect(gc.code, gc.err).toBe(0);
    expect(gc.out).toBe("store gc: removed 0 temporary files and 0 damaged entries\n");
    for (const f of [copying, nfs, join(s, "entries", "incoming")]) expect(existsSync(f), f).toBe(true);
    // an hour later, the same strays are removed
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const f of [copying, nfs, join(s, "entries", "incoming")]) utimesSync(f, old, old);
    expect(cli(["store", "list", s]).err).not.toContain(YOUNG);
    const later = cli(["store", "gc", s]);
    expect(later.out).toBe("store gc: removed 3 damaged parts, 0 temporary files and 0 damaged entries\n");
    for (const f of [copying, nfs, join(s, "entries", "incoming")]) expect(existsSync(f), f).toBe(false);
    expect(cli(["store", "verify", s]).code).toBe(0);
  });
});

/** The preload: rmSync of a path containing "backup" fails with EACCES (the builtin's ESM exports synced). */
const PRELOAD = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const real = fs.rmSync;
fs.rmSync = (path, ...rest) => {
  if (/backup/.test(String(path)))
    throw Object.assign(new Error("EACCES: permission denied, rmdir '" + String(path) + "'"), { code: "EACCES" });
  return real(path, ...rest);
};
syncBuiltinESMExports();
`;

describe("store gc: a stray it cannot remove", () => {
  it("is one line naming it, after the lines of what was removed, and a summary of both; exit 2", () => {
    const d = tempDir("gc-unremovable");
    const { s, prefix } = storeOfOne(d);
    const backup = join(s, "entries", "backup"),
      notes = join(prefix, "notes.txt");
    mkdirSync(join(backup, "sub"), { recursive: true });
    writeFileSync(join(backup, "sub", "f"), "x");
    writeFileSync(notes, "x");
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const f of [backup, notes]) utimesSync(f, old, old);
    const preload = join(d, "rmfault.mjs");
    writeFileSync(preload, PRELOAD);
    const gc = cli(["store", "gc", s], preload);
    const never = "the store does not keep (a prefix directory holds only entries, <64 hex digits>.arrow): never read";
    expect(gc.err).toBe(
      `store gc: removed ${notes} (a file ${never})\n` +
        `store gc: ${backup}: cannot remove: permission denied\n` +
        "store gc: removed 1 damaged part, 0 temporary files and 0 damaged entries, but could not remove 1 path " +
        "(named above)\n",
    );
    expect(gc.out).toBe("");
    expect(gc.code).toBe(2);
    expect(existsSync(notes)).toBe(false); // removed, though the stray before it in the scan could not be
    expect(existsSync(join(backup, "sub", "f"))).toBe(true);
    expect(cli(["store", "gc", s]).code).toBe(0); // without the fault it is removed
    expect(existsSync(backup)).toBe(false);
  });

  it("--json: what was removed and what was not (failed), valid against the schema; a damaged entry removed", () => {
    const d = tempDir("gc-unremovable-json");
    const { s, id, prefix } = storeOfOne(d);
    const entry = join(prefix, `${id}.arrow`);
    writeFileSync(entry, readFileSync(entry).subarray(0, 100)); // truncated: a damaged entry
    const backup = join(s, "entries", "backup"),
      backup2 = join(s, "entries", "backup2");
    for (const b of [backup, backup2]) {
      mkdirSync(b);
      const old = new Date(Date.now() - 2 * 3600_000);
      utimesSync(b, old, old);
    }
    const preload = join(d, "rmfault.mjs");
    writeFileSync(preload, PRELOAD);
    const gc = cli(["store", "gc", s, "--json"], preload);
    expect(gc.code).toBe(2);
    const doc = JSON.parse(gc.out) as Record<string, unknown>;
    expect(() => validateWithSchema("store-gc", doc, "test")).not.toThrow();
    expect(doc).toEqual({
      format: "commplan.store-gc/v1",
      temps: 0,
      damaged: [id],
      parts: [],
      failed: [
        { file: backup, problem: "cannot remove: permission denied", kind: "remove" },
        { file: backup2, problem: "cannot remove: permission denied", kind: "remove" },
      ],
    });
    expect(gc.err.split("\n")).toEqual([
      `store gc: removed damaged entry ${id}`,
      `store gc: ${backup}: cannot remove: permission denied`,
      `store gc: ${backup2}: cannot remove: permission denied`,
      "store gc: removed 0 temporary files and 1 damaged entry, but could not remove 2 paths (named above)",
      "",
    ]);
    expect(existsSync(entry)).toBe(false);
  });
});

/** Runs gcStore of the public entry (commplan/store, from src under tsx) on store `s` with the preload: its result. */
function libraryGc(s: string, preload: string, dryRun: boolean) {
  const script = join(preload, "..", "gc.mts");
  writeFileSync(
    script,
    `import { gcStore, openPlanStore } from ${JSON.stringify(join(ROOT, "src", "entries", "store.ts"))};\n` +
      `console.log(JSON.stringify(gcStore(openPlanStore(process.argv[2]), ${dryRun})));\n`,
  );
  const argv = ["--import", pathToFileURL(preload).href, "--import", "tsx", script, s];
  const r = spawnSync(process.execPath, argv, { cwd: ROOT, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A store of one entry, truncated (a damaged entry), and two old strays under entries/ whose removal the preload fails. */
function storeForFaults(d: string): { s: string; id: string; entry: string } {
  mkdirSync(d);
  const { s, id, prefix } = storeOfOne(d);
  const entry = join(prefix, `${id}.arrow`);
  writeFileSync(entry, readFileSync(entry).subarray(0, 100));
  const old = new Date(Date.now() - 2 * 3600_000);
  for (const b of ["backup", "backup2", "stray"]) {
    mkdirSync(join(s, "entries", b));
    utimesSync(join(s, "entries", b), old, old);
  }
  return { s, id, entry };
}

describe("gcStore: a path it cannot remove is in its result, as the CLI says it", () => {
  it("returns what it removed and what it could not (failed, with why), after every other removal; never throws", () => {
    const d = tempDir("gc-library-fault");
    const preload = join(d, "rmfault.mjs");
    writeFileSync(preload, PRELOAD);
    const lib = storeForFaults(join(d, "lib"));
    const gc = libraryGc(lib.s, preload, false);
    expect(gc.err).toBe("");
    expect(gc.code).toBe(0);
    const never = "the store does not keep (entries/ holds only prefix directories of two hex digits): never read";
    expect(JSON.parse(gc.out)).toEqual({
      temps: 0,
      damaged: [lib.id],
      parts: [{ file: join(lib.s, "entries", "stray"), problem: `a directory ${never}` }],
      failed: [
        { file: join(lib.s, "entries", "backup"), problem: "cannot remove: permission denied", kind: "remove" },
        { file: join(lib.s, "entries", "backup2"), problem: "cannot remove: permission denied", kind: "remove" },
      ],
    });
    expect(existsSync(lib.entry)).toBe(false);
    expect(existsSync(join(lib.s, "entries", "stray"))).toBe(false);
    expect(existsSync(join(lib.s, "entries", "backup"))).toBe(true);
    // the CLI's --json, on a store damaged alike, is the library's answer (paths under its own store)
    const cliStore = storeForFaults(join(d, "cli"));
    const viaCli = cli(["store", "gc", cliStore.s, "--json"], preload);
    expect(viaCli.code).toBe(2);
    const { format, ...doc } = JSON.parse(viaCli.out.replaceAll(cliStore.s, lib.s)) as Record<string, unknown>;
    expect(format).toBe("commplan.store-gc/v1");
    expect(doc).toEqual(JSON.parse(gc.out));
    // a dry run removes nothing, so nothing fails: failed is empty
    writeFileSync(join(d, "none.mjs"), "");
    expect(JSON.parse(libraryGc(lib.s, join(d, "none.mjs"), true).out)).toMatchObject({ failed: [] });
  });
});

/** The preload: mkdirSync of a store's tmp directory fails with EACCES (the builtin's ESM exports synced). */
const MKDIR_PRELOAD = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const real = fs.mkdirSync;
fs.mkdirSync = (path, ...rest) => {
  if (/[/]s[/]tmp$/.test(String(path)))
    throw Object.assign(new Error("EACCES: permission denied, mkdir '" + String(path) + "'"), { code: "EACCES" });
  return real(path, ...rest);
};
syncBuiltinESMExports();
`;

describe("store gc: a directory it cannot make anew", () => {
  it("is named by what failed (could not make 1 directory anew), not as a path it could not remove; exit 2", () => {
    const d = tempDir("gc-unmade");
    const { s } = storeOfOne(d);
    const tmp = join(s, "tmp");
    rmSync(tmp, { recursive: true });
    mkdirSync(join(d, "elsewhere"));
    symlinkSync(join(d, "elsewhere"), tmp); // a damaged part gc removes, then makes anew
    const preload = join(d, "mkdirfault.mjs");
    writeFileSync(preload, MKDIR_PRELOAD);
    const gc = cli(["store", "gc", s], preload);
    expect(gc.code).toBe(2);
    const lines = gc.err.split("\n");
    expect(lines).toContain(`store gc: ${tmp}: cannot make it anew: permission denied`);
    expect(lines).toContain(
      "store gc: removed 1 damaged part, 0 temporary files and 0 damaged entries, but could not make 1 directory " +
        "anew (named above)",
    );
    expect(gc.err).not.toContain("could not remove");
    expect(existsSync(join(d, "elsewhere"))).toBe(true); // the link's target is never touched
    // the library's result and --json say which by `kind`, not by the wording of `problem` (tmp is gone: made anew)
    rmSync(tmp, { recursive: true, force: true });
    symlinkSync(join(d, "elsewhere"), tmp);
    const lib = JSON.parse(libraryGc(s, preload, false).out) as { failed: unknown[] };
    expect(lib.failed).toEqual([{ file: tmp, problem: "cannot make it anew: permission denied", kind: "remake" }]);
    rmSync(tmp, { recursive: true, force: true });
    symlinkSync(join(d, "elsewhere"), tmp);
    const json = cli(["store", "gc", s, "--json"], preload);
    expect(json.code).toBe(2);
    const doc = JSON.parse(json.out) as Record<string, unknown>;
    expect(() => validateWithSchema("store-gc", doc, "test")).not.toThrow();
    expect(doc["failed"]).toEqual(lib.failed);
    expect(cli(["store", "gc", s]).code).toBe(0); // without the fault tmp is made anew
    expect(existsSync(tmp)).toBe(true);
  });
});
