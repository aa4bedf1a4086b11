/**
 * What a command loads (dist/, as installed): --version no ajv and no Arrow, a JSON schedule no Arrow, a validation
 * the built standalone validator and not ajv's compiler; the error a run reports is the one a run from source reports.
 * Evidence is the modules each run loaded (a resolve hook and require's cache), not its time.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeStandaloneValidators } from "../../src/io/schema-build.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "bin/commplan.js");
const HOOK = join(ROOT, "test/helpers/module-log.mjs");

/** Runs the built CLI with the module log; returns its exit code, output and the modules it loaded. */
function traced(cwd: string, ...argv: string[]): { code: number; out: string; err: string; modules: string[] } {
  const log = join(tempDir("modules"), "log");
  writeFileSync(log, "");
  const r = spawnSync(process.execPath, ["--import", HOOK, BIN, ...argv], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, COMMPLAN_MODULE_LOG: log },
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr, modules: readFileSync(log, "utf8").split("\n") };
}

const loads = (modules: readonly string[], part: string): boolean => modules.some((f) => f.includes(part));
const ARROW = "/node_modules/apache-arrow/";
const AJV = "/node_modules/ajv/";
const AJV_COMPILER = "/node_modules/ajv/dist/compile/";

describe("what a command loads", () => {
  beforeAll(() => {
    // the build step's second half (npm run build), for a dist/ made by tsc alone
    if (!existsSync(join(ROOT, "dist/io/validators/matrix.cjs")))
      writeStandaloneValidators(join(ROOT, "dist/io/validators"));
  });

  it("--version loads neither ajv nor apache-arrow (and the hook sees a command that does)", () => {
    const v = traced(ROOT, "--version");
    expect(v.code).toBe(0);
    expect(v.out.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(loads(v.modules, "/dist/cli/main.js")).toBe(true);
    expect(loads(v.modules, AJV)).toBe(false);
    expect(loads(v.modules, ARROW)).toBe(false);
    const d = tempDir("modules");
    expect(traced(d, "gen", "uniform", "--p", "6", "-o", "m.json").code).toBe(0);
    expect(traced(d, "plan", "m.json", "-a", "shift", "-o", "s.json").code).toBe(0);
    const arrow = traced(d, "export", "s.json", "--format", "arrow", "-o", "s.arrow");
    expect(arrow.code).toBe(0);
    expect(loads(arrow.modules, ARROW)).toBe(true);
    const json = traced(d, "cost", "s.json", "--machine", "ib-hdr-200");
    expect(json.code).toBe(0);
    expect(loads(json.modules, ARROW)).toBe(false);
    expect(loads(traced(d, "cost", "s.arrow", "--machine", "ib-hdr-200").modules, ARROW)).toBe(true);
  });

  it("a schema validation uses the built validator, not ajv's compiler, and says what a run from source says", async () => {
    const d = tempDir("modules");
    const bad = {
      format: "commplan.matrix/v1",
      p: 2,
      elementBytes: 8,
      rows: [
        [0, 1],
        [1, 0],
      ],
      extra: 1,
    };
    writeFileSync(join(d, "bad.json"), JSON.stringify(bad));
    const built = traced(d, "stats", "bad.json");
    const source = await run("stats", join(d, "bad.json"));
    expect(built.code).toBe(2);
    expect(source.code).toBe(2);
    expect(built.err).toContain("must NOT have additional properties ('extra')");
    expect(built.err).toBe(source.err.replace(join(d, "bad.json"), "bad.json"));
    expect(loads(built.modules, "/dist/io/validators/matrix-header.cjs")).toBe(true);
    expect(loads(built.modules, AJV_COMPILER)).toBe(false);
  });
});
