/**
 * The commit of several outputs (writeOutputs, commitRenames): a signal or a failed rename part-way through the renames
 * leaves the targets all old or all new, never a mix, and no temporary or kept-aside file.
 */
import { spawnSync } from "node:child_process";
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";
import { commitRenames, type CommitFs, type CommitHooks, type StagedRename } from "../../src/io/commit-files.js";
import { fsError } from "../../src/io/file-output.js";
import { CommplanError } from "../../src/model/errors.js";

const dir = tempDir("commit-files");
const lib = pathToFileURL(join(import.meta.dirname, "..", "..", "dist", "io", "file-output.js")).href;
const script = join(dir, "commit.mjs");
// writeOutputs of N files; the renames of temporary files are counted (node:fs and node:fs/promises, whichever the
// writer uses), and the AT-th raises the signal HOW on the process (or fails, for HOW = fail) before it renames
writeFileSync(
  script,
  `import fs from "node:fs";
import fsp from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
const [lib, dir, n, at, how, text, linkMode] = process.argv.slice(2);
let calls = 0;
// HOW = readonly: the directory becomes read-only at the AT-th rename (it and every link, rename, removal after fail)
let readOnly = false;
const denied = (p) => Object.assign(new Error("EACCES: permission denied, unlink '" + p + "'"), { code: "EACCES" });
const hook = (from) => {
  if (readOnly) throw denied(from);
  if (!String(from).endsWith(".tmp") || ++calls !== Number(at)) return;
  if (how === "fail") throw Object.assign(new Error("refused"), { code: "EACCES" });
  if (how === "readonly") {
    readOnly = true;
    throw denied(from);
  }
  process.kill(process.pid, how);
};
const { linkSync, rmSync } = fs;
fs.linkSync = (a, b) => (readOnly ? hook(b) : linkSync(a, b));
fs.rmSync = (p, o) => (readOnly ? hook(p) : rmSync(p, o));
const renameSync = fs.renameSync;
const rename = fsp.rename;
fs.renameSync = (a, b) => (hook(a), renameSync(a, b));
fsp.rename = async (a, b) => (hook(a), rename(a, b));
// "nolink": a file system that takes no hard link (a target is then kept aside by a rename)
if (linkMode === "nolink") fs.linkSync = () => { throw Object.assign(new Error("no link"), { code: "EPERM" }); };
syncBuiltinESMExports();
const { writeOutputs } = await import(lib);
const docs = Array.from({ length: Number(n) }, (_, k) => ({ target: dir + "/f" + k + ".txt", pieces: [text] }));
try {
  await writeOutputs("t", docs);
  process.stdout.write("done\\n");
} catch (e) {
  process.stdout.write(e.message + "\\n");
  process.exit(4);
}
`,
);

const N = 200;

/** The files of `d` and what each holds ("old" or "new"); hidden files (temporary, kept aside) by name. */
function contents(d: string): { texts: Set<string>; count: number; hidden: string[] } {
  const names = readdirSync(d);
  const visible = names.filter((x) => !x.startsWith("."));
  return {
    texts: new Set(visible.map((x) => readFileSync(join(d, x), "utf8"))),
    count: visible.length,
    hidden: names.filter((x) => x.startsWith(".")),
  };
}

function runCommit(d: string, how: string, linkMode = "link"): ReturnType<typeof spawnSync> {
  const args = [script, lib, d, String(N), String(N / 2), how, "new", linkMode];
  return spawnSync(process.execPath, args, { encoding: "utf8" });
}

describe("writeOutputs: the renames are all or none", () => {
  for (const how of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    it(`${how} half-way through the renames over an earlier output: every file new, then the process ends as ${how} would`, () => {
      const d = join(dir, `over-${how}`);
      mkdirSync(d);
      for (let k = 0; k < N; k++) writeFileSync(join(d, `f${k}.txt`), "old");
      const r = runCommit(d, how);
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe(""); // the signal ends the process once the renames are done, before it goes on
      expect(r.signal).toBe(how);
      expect(contents(d)).toEqual({ texts: new Set(["new"]), count: N, hidden: [] });
    });
  }

  it("SIGINT half-way through the renames into an empty directory: every file there (none missing)", () => {
    const d = join(dir, "fresh");
    mkdirSync(d);
    const r = runCommit(d, "SIGINT");
    expect(r.signal).toBe("SIGINT");
    expect(contents(d)).toEqual({ texts: new Set(["new"]), count: N, hidden: [] });
  });

  it("a rename that fails half-way undoes the ones before: every old file back, no new one, nothing hidden left", () => {
    const d = join(dir, "failed");
    mkdirSync(d);
    for (let k = 0; k < N / 4; k++) writeFileSync(join(d, `f${k}.txt`), "old"); // the later targets are new names
    const r = runCommit(d, "fail");
    expect([r.status, r.stdout]).toEqual([4, `t: ${join(d, `f${N / 2 - 1}.txt`)}: cannot write: permission denied\n`]);
    expect(contents(d)).toEqual({ texts: new Set(["old"]), count: N / 4, hidden: [] });
  });

  for (const linkMode of ["link", "nolink"]) {
    it(`a rename that fails onto a target that exists (${linkMode}): every old file back, nothing hidden left`, () => {
      // the failing target was kept aside as a hard link of itself: renaming the link back does nothing (POSIX)
      const d = join(dir, `failed-over-${linkMode}`);
      mkdirSync(d);
      for (let k = 0; k < N; k++) writeFileSync(join(d, `f${k}.txt`), "old");
      const r = runCommit(d, "fail", linkMode);
      expect([r.status, r.stdout]).toEqual([
        4,
        `t: ${join(d, `f${N / 2 - 1}.txt`)}: cannot write: permission denied\n`,
      ]);
      expect(contents(d)).toEqual({ texts: new Set(["old"]), count: N, hidden: [] });
    });
  }

  it("a directory made read-only half-way through the renames: the rename's one-line error, naming what is left", () => {
    const d = join(dir, "read-only");
    mkdirSync(d);
    for (let k = 0; k < N; k++) writeFileSync(join(d, `f${k}.txt`), "old");
    const r = runCommit(d, "readonly");
    const asides = contents(d)
      .hidden.filter((x) => /^\.f[012]\.txt\.\d+\.[0-9a-f]+\.old$/.test(x))
      .sort();
    expect(r.status).toBe(4);
    // the renames before stay (the directory takes no undo), their old files and the temporary files left hidden
    expect(r.stdout).toBe(
      `t: ${join(d, `f${N / 2 - 1}.txt`)}: cannot write: permission denied; the renames before it could not all be ` +
        `undone: f0.txt, f1.txt, f2.txt and ${N / 2 - 4} more not restored; ${N + 1} hidden files left beside them: ` +
        `${asides.join(", ")} and ${N - 2} more\n`,
    );
    // (the old files kept aside stay; the writer's own clean-up, node:fs/promises' rm, left unpatched here, then
    // removes the temporary files)
    const c = contents(d);
    expect([c.count, c.hidden.filter((x) => x.endsWith(".old")).length]).toEqual([N, N / 2]);
    for (let k = 0; k < N; k++) expect(readFileSync(join(d, `f${k}.txt`), "utf8")).toBe(k < N / 2 - 1 ? "new" : "old");
  });
});

/** A read-only error as the file system gives it (an unlink's, with its path). */
function readOnlyError(path: string): Error {
  return Object.assign(new Error(`EACCES: permission denied, unlink '${path}'`), { code: "EACCES", path });
}

/**
 * Node's file system calls for commitRenames, but the directory becomes read-only as the AT-th temporary file is
 * renamed: that rename and every change after it fail (looking a file up still works).
 */
function readOnlyFrom(at: number): CommitFs {
  let renames = 0;
  let readOnly = false;
  const guard = (path: string): void => {
    if (readOnly) throw readOnlyError(path);
  };
  return {
    linkSync: (a, b) => (guard(b), linkSync(a, b)),
    lstatSync: (p, o) => lstatSync(p, o),
    renameSync: (a, b) => {
      if (a.endsWith(".tmp") && ++renames === at) readOnly = true;
      guard(a);
      renameSync(a, b);
    },
    rmSync: (p, o) => (guard(p), rmSync(p, o)),
  };
}

/** `n` targets f0.txt... in `d` ("old" in those below `old`), each with a temporary file holding "new". */
function stage(d: string, n: number, old: number): StagedRename[] {
  return Array.from({ length: n }, (_, k) => {
    const file = join(d, `f${k}.txt`);
    const tmp = join(d, `.f${k}.txt.1.ab.tmp`);
    if (k < old) writeFileSync(file, "old");
    writeFileSync(tmp, "new");
    return { tmp, file };
  });
}

describe("commitRenames: the undo of a failed commit is best effort", () => {
  const hooks = (fs: CommitFs): CommitHooks => ({
    onError: (e, s) => fsError(e, "t", s.file, true),
    settle: () => undefined,
    fs,
  });

  it("a directory made read-only mid-commit: the failed rename's one-line error, naming what the undo left", async () => {
    const d = join(dir, "read-only-injected");
    mkdirSync(d);
    const staged = stage(d, 6, 6);
    const err = await commitRenames(staged, hooks(readOnlyFrom(3))).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CommplanError);
    // the first two renames stay (the directory takes no undo), their old files kept aside; the third target is as
    // it was, its link aside and the temporary files not renamed left
    expect((err as Error).message).toMatch(
      new RegExp(
        `^t: ${join(d, "f2.txt")}: cannot write: permission denied; the renames before it could not all be undone: ` +
          `f0\\.txt, f1\\.txt not restored; 7 hidden files left beside them: \\.f0\\.txt\\.\\d+\\.[0-9a-f]+\\.old, ` +
          `\\.f1\\.txt\\.\\d+\\.[0-9a-f]+\\.old, \\.f2\\.txt\\.\\d+\\.[0-9a-f]+\\.old and 4 more$`,
      ),
    );
    const c = contents(d);
    expect([c.count, c.hidden.length]).toEqual([6, 7]);
  });

  it("a rename that fails onto an existing target, the rest writable: all old, no hidden file", async () => {
    const d = join(dir, "fail-over");
    mkdirSync(d);
    const staged = stage(d, 6, 6);
    let renames = 0;
    const fs: CommitFs = {
      linkSync,
      lstatSync,
      rmSync,
      renameSync: (a, b) => {
        if (a.endsWith(".tmp") && ++renames === 4) throw Object.assign(new Error("refused"), { code: "EACCES" });
        renameSync(a, b);
      },
    };
    await expect(commitRenames(staged, hooks(fs))).rejects.toThrow(
      `t: ${join(d, "f3.txt")}: cannot write: permission denied`,
    );
    expect(contents(d)).toEqual({ texts: new Set(["old"]), count: 6, hidden: [] });
  });
});
