/**
 * A program directory store verify can enter but not list (mode 311 for another user; simulated here, as the tests run
 * as root, by a preload that makes node:fs's readdirSync of that directory fail with EACCES in the CLI's own process):
 * a damaged-program line naming the directory, exit 1, never an internal error.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { MOE_CAPTURE, writeCapture } from "../helpers/capture.js";
import { tempDir } from "../helpers/temp-dir.js";
import { captureKey } from "../../src/cli/capture-key.js";

const KEY = captureKey(MOE_CAPTURE);

const BIN = join(import.meta.dirname, "..", "..", "bin", "commplan.js");

/**
 * The preload: readdirSync of the directory in COMMPLAN_TEST_UNLISTED fails with EACCES (the builtin's ESM exports
 * synced, so `import { readdirSync } from "node:fs"` sees it too). A process of its own: no test runner's module graph
 * between the fault and the code under test.
 */
const PRELOAD = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const real = fs.readdirSync;
fs.readdirSync = (path, ...rest) => {
  if (String(path) === process.env.COMMPLAN_TEST_UNLISTED)
    throw Object.assign(new Error("EACCES: permission denied, scandir '" + String(path) + "'"), { code: "EACCES" });
  return real(path, ...rest);
};
syncBuiltinESMExports();
`;

function cli(argv: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...argv], { encoding: "utf8", env: { ...process.env, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("store verify: a program directory it cannot list", () => {
  it("is a damaged program naming the directory, exit 1, in text and JSON", () => {
    const d = tempDir("unlisted-program");
    const cap = join(d, "cap"),
      s = join(d, "s");
    writeCapture(cap, MOE_CAPTURE);
    const pre = cli(["precompute", "--from-capture", cap, "--store", s, "--machine", "t3d-004", "--runtime", "none"]);
    expect(pre.code, pre.err).toBe(0);
    const dir = join(s, "programs", KEY);
    const preload = join(d, "unlisted.mjs");
    writeFileSync(preload, PRELOAD);
    const faulty = (argv: string[]) =>
      spawnSync(process.execPath, ["--import", pathToFileURL(preload).href, BIN, ...argv], {
        encoding: "utf8",
        env: { ...process.env, COMMPLAN_TEST_UNLISTED: dir },
      });
    // without the fault the store is consistent: the fault is what the test sees
    expect(cli(["store", "verify", s]).code).toBe(0);
    const text = faulty(["store", "verify", s]);
    expect(text.status, text.stderr).toBe(1);
    expect(text.stderr).toBe(
      `store verify: ${dir}: program ${KEY} is damaged: cannot list its files: permission denied\n`,
    );
    expect(text.stdout).toContain("1 program (1 damaged)");
    const json = faulty(["store", "verify", s, "--json"]);
    expect(json.status).toBe(1);
    expect((JSON.parse(json.stdout) as Record<string, unknown>)["damagedPrograms"]).toEqual([
      { key: KEY, file: dir, problem: "cannot list its files: permission denied" },
    ]);
  });
});
