/**
 * What `store add` writes under entries/: only its entry, at its own prefix (entries/<id[0:2]>/<id>.arrow), by one
 * link from tmp/ (and the prefix directory made when missing). So a writer never makes an entry file under another
 * prefix, even for a moment, and gc needs no grace for a misplaced entry (docs/arrow.md, "Misplaced entries"), as it
 * does for a young stray. Every call of node:fs that could create or change a name under entries/ is recorded by a
 * preload in the CLI's own process (vitest runs with isolate:false: no patching of fs in the test's).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "commplan.js");

/** The preload: each call that may create or change a path under entries/ appends a line to $S20_FS_LOG. */
const PRELOAD = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const log = process.env.S20_FS_LOG;
const append = fs.appendFileSync;
const under = (p) => /[/]entries([/]|$)/.test(String(p));
const note = (call, ...paths) => {
  if (paths.some(under)) append(log, JSON.stringify([call, ...paths.map(String)]) + "\\n");
};
const writes = (flags) =>
  typeof flags === "string" ? !/^rs?$/.test(flags) : typeof flags === "number" && (flags & 3) !== 0;
for (const name of ["linkSync", "renameSync", "copyFileSync", "symlinkSync"]) {
  const real = fs[name];
  fs[name] = (a, b, ...rest) => (note(name, a, b), real(a, b, ...rest));
}
for (const name of ["writeFileSync", "appendFileSync", "mkdirSync", "truncateSync", "rmSync", "unlinkSync"]) {
  const real = fs[name];
  fs[name] = (p, ...rest) => (note(name, p), real(p, ...rest));
}
const realOpen = fs.openSync;
fs.openSync = (p, flags, ...rest) => {
  if (writes(flags)) note("openSync(write)", p);
  return realOpen(p, flags, ...rest);
};
syncBuiltinESMExports();
`;

describe("store add writes under entries/ only its entry, at its own prefix, by one link", () => {
  it("a new store and an entry: the prefix directory made, then one link from tmp/ to entries/<ab>/<id>.arrow", () => {
    const d = tempDir("add-writes");
    const m = join(d, "m.json"),
      s = join(d, "s"),
      preload = join(d, "fslog.mjs"),
      log = join(d, "fs.log");
    writeFileSync(preload, PRELOAD);
    writeFileSync(log, "");
    const run = (argv: string[]) =>
      spawnSync(process.execPath, ["--import", pathToFileURL(preload).href, BIN, ...argv], {
        encoding: "utf8",
        env: { ...process.env, S20_FS_LOG: log },
      });
    expect(run(["gen", "uniform", "--p", "4", "-o", m]).status).toBe(0);
    const add = run(["store", "add", s, m, "-a", "shift"]);
    expect(add.status, add.stderr).toBe(0);
    const id = add.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const calls = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as string[]);
    const entries = join(s, "entries"),
      prefix = join(entries, id.slice(0, 2));
    // the store's own directories (made when the store is new) and the entry's prefix; nothing else is written there
    const made = calls.filter((c) => c[0] === "mkdirSync").map((c) => c[1]);
    expect(made.every((p) => p === entries || p === prefix || p === s)).toBe(true);
    const others = calls.filter((c) => c[0] !== "mkdirSync");
    expect(others).toHaveLength(1);
    expect(others[0]![0]).toBe("linkSync");
    expect(others[0]![1]!.startsWith(join(s, "tmp") + "/")).toBe(true);
    expect(others[0]![2]).toBe(join(prefix, `${id}.arrow`));
  });
});
