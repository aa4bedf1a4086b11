/**
 * bin/commplan.js: `store get` runs from dist/bundle/store-get.js while that bundle is at least as new as
 * dist/cli/main.js (a later tsc-only build leaves it stale, and then unused); everything else, and a store get the
 * bundle does not read (it answers null), runs main. Checked on a copy of the launcher beside stub modules.
 */
import { copyFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";

const ROOT = resolve(import.meta.dirname, "../..");

/** A launcher copy with stub main (exit 7) and bundle (exit 5, or null for "--null") modules under `d`. */
function stubTree(d: string): void {
  mkdirSync(join(d, "bin"));
  mkdirSync(join(d, "dist", "cli"), { recursive: true });
  mkdirSync(join(d, "dist", "bundle"));
  copyFileSync(join(ROOT, "bin", "commplan.js"), join(d, "bin", "commplan.js"));
  writeFileSync(
    join(d, "dist", "cli", "main.js"),
    'export async function main() { process.stderr.write("main\\n"); return 7; }\n',
  );
  writeFileSync(
    join(d, "dist", "bundle", "store-get.js"),
    'export async function storeGetMain(argv) { process.stderr.write("bundle\\n"); return argv.includes("--null") ? null : 5; }\n',
  );
}

/** Runs the launcher copy; its exit code and the stubs it ran, in order. */
function launch(d: string, ...argv: string[]): { code: number | null; ran: string[] } {
  const r = spawnSync(process.execPath, [join(d, "bin", "commplan.js"), ...argv], { encoding: "utf8" });
  return { code: r.status, ran: r.stderr.split("\n").filter(Boolean) };
}

describe("the launcher", () => {
  it("runs store get from a fresh bundle, and everything else (or what the bundle declines) from main", () => {
    const d = tempDir("launcher");
    stubTree(d);
    const t = Date.now() / 1000;
    utimesSync(join(d, "dist", "cli", "main.js"), t - 10, t - 10);
    utimesSync(join(d, "dist", "bundle", "store-get.js"), t, t);
    expect(launch(d, "store", "get", "s", "--id", "x")).toEqual({ code: 5, ran: ["bundle"] });
    expect(launch(d, "store", "get", "s", "--null")).toEqual({ code: 7, ran: ["bundle", "main"] });
    expect(launch(d, "store", "list", "s")).toEqual({ code: 7, ran: ["main"] });
    expect(launch(d, "plan", "m.json")).toEqual({ code: 7, ran: ["main"] });
    // a tsc-only build after the bundle: main.js newer, the bundle is not run
    utimesSync(join(d, "dist", "cli", "main.js"), t + 10, t + 10);
    expect(launch(d, "store", "get", "s", "--id", "x")).toEqual({ code: 7, ran: ["main"] });
    // no bundle at all
    rmSync(join(d, "dist", "bundle"), { recursive: true });
    expect(launch(d, "store", "get", "s", "--id", "x")).toEqual({ code: 7, ran: ["main"] });
  });
});
