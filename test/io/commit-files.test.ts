/**
 * The commit of several outputs (writeOutputs, commitRenames): a signal or a failed rename part-way through the renames
 * leaves the targets all old or all new, never a mix, and no temporary or kept-aside file.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";

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
const [lib, dir, n, at, how, text] = process.argv.slice(2);
let calls = 0;
const hook = (from) => {
  if (!String(from).endsWith(".tmp") || ++calls !== Number(at)) return;
  if (how === "fail") throw Object.assign(new Error("refused"), { code: "EACCES" });
  process.kill(process.pid, how);
};
const renameSync = fs.renameSync;
const rename = fsp.rename;
fs.renameSync = (a, b) => (hook(a), renameSync(a, b));
fsp.rename = async (a, b) => (hook(a), rename(a, b));
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

function runCommit(d: string, how: string): ReturnType<typeof spawnSync> {
  return spawnSync(process.execPath, [script, lib, d, String(N), String(N / 2), how, "new"], { encoding: "utf8" });
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
});
