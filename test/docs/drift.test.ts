/** Docs that restate code are pinned to it: report ids, the document table, examples, --version, the README's bench numbers. */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchHeadlines } from "../../bench/headlines.js";
import { main, VERSION } from "../../src/cli/main.js";
import type { CliIo } from "../../src/cli/io.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { findMachine, runProtocol } from "../../src/machines/index.js";
import { generatePattern } from "../../src/patterns/index.js";
import { inputParams } from "../../src/planner/plan-params.js";
import { plan, PLANNERS } from "../../src/planner/index.js";
import { verifySchedule } from "../../src/verifier/index.js";

const root = new URL("../../", import.meta.url).pathname;
const text = (f: string): string => readFileSync(join(root, f), "utf8");
const formats = text("docs/formats.md");
const version = (JSON.parse(text("package.json")) as { version: string }).version;

/** The ```json blocks of a markdown text. */
const jsonBlocks = (md: string): string[] => [...md.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

/** Every check id the verifier reports on a payload four-stage plan, a two-stage plan and a realised (timed) trace. */
function verifierIds(): Set<string> {
  const m = generatePattern("pattern1", 12, {}, 1);
  const ids = new Set<string>();
  for (const algorithm of ["four-stage", "two-stage", "coloring"])
    for (const c of verifySchedule(m, plan(m, algorithm, { payload: true })).checks) ids.add(c.id);
  const realised = runProtocol(m, findMachine("cm5-004"), { protocol: "drs-n", seed: 1, timeline: false }).realised;
  for (const c of verifySchedule(m, realised).checks) ids.add(c.id);
  return ids;
}

describe("docs against code", () => {
  it("the report example of docs/formats.md uses real check ids and validates against report.v1", () => {
    const ids = verifierIds();
    const reports = jsonBlocks(formats)
      .map((b) => JSON.parse(b) as { format?: string })
      .filter((d) => d.format === "commplan.report/v1");
    expect(reports).toHaveLength(1);
    validateWithSchema("report", reports[0], "test");
    for (const c of (reports[0] as unknown as { checks: { id: string }[] }).checks) expect(ids).toContain(c.id);
  });

  it("the ids in docs/verifier.md's table of checks are ids the verifier reports", () => {
    const ids = verifierIds();
    const table = text("docs/verifier.md")
      .split("\n")
      .filter((l) => l.startsWith("| `"));
    const named = table.flatMap((l) => [...l.split("|")[1]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThanOrEqual(8);
    // `stage-k-messages` stands for stage-1-messages, stage-2-messages, ...
    for (const id of named) {
      const re = new RegExp(`^${id.replace("-k-", "-\\d+-")}$`);
      expect(
        [...ids].filter((x) => re.test(x)),
        id,
      ).not.toEqual([]);
    }
  });

  it("the schedule example of docs/formats.md validates and its params are the algorithm's parameters", () => {
    const schedules = jsonBlocks(formats)
      .map((b) => JSON.parse(b) as { format?: string })
      .filter((d) => d.format === "commplan.schedule/v1");
    expect(schedules).toHaveLength(1);
    const s = schedules[0] as { algorithm: string; params: Record<string, unknown> };
    validateWithSchema("schedule", s, "test");
    const planner = PLANNERS.find((p) => p.name === s.algorithm);
    expect(planner).toBeDefined();
    const names = inputParams(planner!.params).map((d) => d.name);
    for (const k of Object.keys(s.params)) expect(names).toContain(k);
  });

  it("docs/formats.md's table of documents names every schema file, and no other", () => {
    const files = readdirSync(join(root, "schemas"))
      .filter((n) => n.endsWith(".schema.json"))
      .sort();
    const rows = formats.split("\n").filter((l) => /^\| [a-z-]+ +\|/.test(l));
    const named = rows.flatMap((l) => [...l.matchAll(/`([a-z-]+\.v1\.schema\.json)`/g)].map((m) => m[1]!)).sort();
    expect(named).toEqual(files);
  });

  it("the README's library section says what this Node does with require() of an ES module", () => {
    const dir = mkdtempSync(join(tmpdir(), "commplan-require-esm-"));
    try {
      writeFileSync(join(dir, "m.mjs"), "export const x = 42;\n");
      const r = spawnSync(process.execPath, ["-e", 'console.log(require("./m.mjs").x)'], {
        cwd: dir,
        encoding: "utf8",
      });
      const canRequireEsm = r.status === 0 && r.stdout.trim() === "42";
      const readme = text("README.md").replace(/\s+/g, " ");
      // Node 20.19 and later load an ES module with require(): the README must not say Node 20 cannot
      if (canRequireEsm) expect(readme).not.toMatch(/Node 20 cannot `require` an ES module/);
      expect(readme).toContain('`require("commplan")` fails (`ERR_PACKAGE_PATH_NOT_EXPORTED`) on every Node version');
      // and it does: the package required by its own name from its folder (a package resolves itself)
      const req = spawnSync(process.execPath, ["-e", 'require("commplan")'], { cwd: root, encoding: "utf8" });
      expect(req.status).not.toBe(0);
      expect(req.stderr).toContain("ERR_PACKAGE_PATH_NOT_EXPORTED");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--version prints package.json's version (in process, and from bin/ when dist/ is built)", async () => {
    expect(VERSION).toBe(version);
    let out = "";
    const io: CliIo = { out: (t) => void (out += t), err: () => undefined, interactive: false };
    expect(await main(["--version"], io)).toBe(0);
    expect(out.trim()).toBe(version);
    if (existsSync(join(root, "dist/cli/main.js")))
      expect(
        execFileSync(process.execPath, [join(root, "bin/commplan.js"), "--version"], { encoding: "utf8" }).trim(),
      ).toBe(version);
  });

  it("the README's bench headlines are the ones bench/results/*.json give, and SUMMARY.md holds every recorded table", () => {
    const readme = text("README.md");
    const block = readme.slice(
      readme.indexOf("<!-- bench:start -->") + "<!-- bench:start -->\n".length,
      readme.indexOf("<!-- bench:end -->"),
    );
    expect(block).toBe(benchHeadlines(join(root, "bench/results")));
    expect(block.split("\n").filter((l) => l.startsWith("- ")).length).toBeGreaterThanOrEqual(3);
    const summary = text("bench/results/SUMMARY.md");
    for (const f of readdirSync(join(root, "bench/results")).filter((n) => n.endsWith(".md") && n !== "SUMMARY.md"))
      expect(summary).toContain(text(`bench/results/${f}`).trimEnd());
  });
});
