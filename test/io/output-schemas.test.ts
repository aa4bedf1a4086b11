/** Every JSON document commplan writes validates against its schema in schemas/ (real CLI output, ajv). */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { describe, expect, it } from "vitest";
import {
  FORMAT_NAMES,
  loadSchema,
  SCHEMA_FILES,
  validateWithSchema,
  type SchemaName,
} from "../../src/io/json-schema.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("schemas");
const f = (name: string): string => join(dir, name);
const fileJson = (name: string): unknown => JSON.parse(readFileSync(f(name), "utf8"));

/** Runs a command that must exit 0 and returns its stdout parsed as JSON. */
async function jsonOut(...argv: string[]): Promise<unknown> {
  const r = await run(...argv);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as unknown;
}

const valid = (schema: SchemaName, doc: unknown): void =>
  expect(() => validateWithSchema(schema, doc, "test")).not.toThrow();

describe("schemas/ and their registration", () => {
  it("every file of schemas/ is registered, carries its $id and compiles in strict mode", () => {
    const files = readdirSync(new URL("../../schemas/", import.meta.url))
      .filter((n) => n.endsWith(".schema.json"))
      .sort();
    expect([...Object.values(SCHEMA_FILES)].sort()).toEqual(files);
    for (const [name, file] of Object.entries(SCHEMA_FILES) as [keyof typeof SCHEMA_FILES, string][]) {
      const s = loadSchema(name);
      expect(s["$id"]).toBe(`https://commplan.dev/schemas/${file}`);
      expect(s["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema");
      // compiling happens on first use: an empty object is checked against every schema
      expect(() => validateWithSchema(name, {}, "test")).toThrow();
    }
  });

  it("a schema with a format pins it with const", () => {
    for (const [name, format] of Object.entries(FORMAT_NAMES) as [keyof typeof FORMAT_NAMES, string][]) {
      expect(JSON.stringify(loadSchema(name))).toContain(`"format":{"const":"${format}"}`);
    }
  });
});

describe("real CLI output validates against its schema", () => {
  it("gen -o, plan -o, verify --json, stats --json, cost --json", async () => {
    expect((await run("gen", "pattern1", "--p", "12", "--seed", "1", "-o", f("m.json"))).code).toBe(0);
    valid("matrix", fileJson("m.json"));
    expect((await run("plan", f("m.json"), "-a", "four-stage", "--payload", "-o", f("s.json"))).code).toBe(0);
    valid("schedule", fileJson("s.json"));
    const report = await run("verify", f("s.json"), "--matrix", f("m.json"), "--json");
    expect(report.code).toBe(0);
    valid("report", JSON.parse(report.out));
    valid("stats", await jsonOut("stats", f("m.json"), "--json"));
    valid("stats", await jsonOut("stats", f("m.json"), "--json", "--per-node"));
    valid("cost", await jsonOut("cost", f("s.json"), "--machine", "t3d-004", "--json"));
    valid("cost", await jsonOut("cost", f("s.json"), "--machine", "t3d-004", "--json", "--steps"));
    valid("cost", await jsonOut("cost", f("s.json"), "--machine", "sp2-004", "--mode", "nonblocking", "--json"));
  });

  it("simulate --json and --trace: replays (blocking, nonblocking, data mode, ocpc) and protocol runs with --realised", async () => {
    await run("gen", "pattern1", "--p", "9", "--seed", "2", "-o", f("m9.json"));
    await run("plan", f("m9.json"), "-a", "shift", "--payload", "-o", f("s9.json"));
    const replays = [
      ["--json", "--trace", f("t1.json")],
      ["--json", "--mode", "nonblocking", "--buffers", "1", "--trace", f("t2.json")],
      ["--json", "--data", "--matrix", f("m9.json")],
      ["--json", "--lockstep", "--topology", "ocpc", "--trace", f("t3.json")],
    ];
    for (const flags of replays) {
      const doc = await jsonOut("simulate", f("s9.json"), "--machine", "t3d-004", ...flags);
      valid("simulation", doc);
      expect(doc).toMatchObject({ format: "commplan.simulation/v1", algorithm: "shift", p: 9 });
    }
    for (const t of ["t1.json", "t2.json", "t3.json"]) valid("chrome-trace", fileJson(t));
    for (const protocol of ["async", "drs-n"]) {
      const doc = await jsonOut(
        "simulate",
        "--protocol",
        protocol,
        f("m9.json"),
        "--machine",
        "cm5-004",
        "--json",
        "--realised",
        f(`r-${protocol}.json`),
        "--trace",
        f(`tp-${protocol}.json`),
      );
      valid("simulation", doc);
      expect(doc).toMatchObject({ protocol, p: 9 });
      valid("schedule", fileJson(`r-${protocol}.json`));
      valid("chrome-trace", fileJson(`tp-${protocol}.json`));
    }
  });

  it("simulate --json on a network (replay and protocol) and of a dataflow program", async () => {
    await run("gen", "pattern1", "--ranks", "16", "--seed", "2", "-o", f("m16.json"));
    await run("plan", f("m16.json"), "-a", "shift", "-o", f("s16.json"));
    const net = ["--machine", "ib-hdr-200", "--network", "fat-tree:k=4", "--json"];
    const replay = (await jsonOut("simulate", f("s16.json"), ...net)) as { network: { links: number } };
    valid("simulation", replay);
    expect(replay.network).toMatchObject({ name: "fat-tree:k=4", portSharing: "serial", links: 96 });
    const protocol = (await jsonOut("simulate", f("m16.json"), "--protocol", "async", ...net)) as { network: unknown };
    valid("simulation", protocol);
    expect(protocol.network).toMatchObject({ name: "fat-tree:k=4", links: 96 });
    expect(() => validateWithSchema("simulation", { ...replay, network: { links: 96 } }, "test")).toThrow();
    const lower = ["export", f("s16.json"), "-m", f("m16.json"), "-f", "program", "--variant", "dataflow"];
    expect((await run(...lower, "-o", f("df.json"))).code).toBe(0);
    const program = await jsonOut("simulate", "--program", f("df.json"), "--machine", "t3d-004", "--json");
    valid("simulation", program);
    expect(program).toMatchObject({ kind: "program", variant: "dataflow", p: 16 });
  });

  it("te-table --json, with and without the paper's cells", async () => {
    valid("te-table", await jsonOut("te-table", "--n", "8", "--h", "2N", "--seeds", "2", "--json"));
    const doc = await jsonOut("te-table", "--n", "64", "--h", "4N", "--seeds", "1", "--json");
    valid("te-table", doc);
    expect((doc as { cells: { paper: unknown }[] }).cells[0]!.paper).not.toBeNull();
  });

  it("the schemas are strict: an unknown key or a wrong type in real output is refused", async () => {
    const doc = (await jsonOut("simulate", f("s9.json"), "--machine", "t3d-004", "--json")) as Record<string, unknown>;
    expect(() => validateWithSchema("simulation", { ...doc, extra: 1 }, "test")).toThrow();
    expect(() => validateWithSchema("simulation", { ...doc, makespan: "fast" }, "test")).toThrow();
    expect(() => validateWithSchema("simulation", { ...doc, format: "commplan.simulation/v2" }, "test")).toThrow(
      /format/,
    );
    const trace = fileJson("t1.json") as { traceEvents: Record<string, unknown>[] };
    trace.traceEvents.push({
      name: "send",
      ph: "X",
      pid: 0,
      tid: 0,
      ts: 0,
      dur: -1,
      cat: "send",
      args: { peer: 1, size: 1, transfer: 0 },
    });
    expect(() => validateWithSchema("chrome-trace", trace, "test")).toThrow(/\/traceEvents\/\d+ /);
    const stats = (await jsonOut("stats", f("m9.json"), "--json")) as Record<string, unknown>;
    expect(() => validateWithSchema("stats", { ...stats, classification: "dense" }, "test")).toThrow(/classification/);
  });
});

describe("real CLI output: numbering and optional rows, as the schemas and docs say", () => {
  it("verify --json of a message-level relay plan: unproven rows with the keys docs/formats.md names", async () => {
    expect((await run("gen", "random", "--p", "6", "--seed", "3", "-o", f("mu.json"))).code).toBe(0);
    expect((await run("plan", f("mu.json"), "-a", "two-stage", "-o", f("su.json"))).code).toBe(0);
    const r = await run("verify", f("su.json"), "--matrix", f("mu.json"), "--json");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { ok: boolean; unproven?: Record<string, unknown>[] };
    valid("report", report);
    expect(report.ok).toBe(true);
    expect(report.unproven?.map((u) => Object.keys(u).sort())).toEqual([
      ["detail", "howToProve", "id", "reason", "title"],
    ]);
    expect(report.unproven?.[0]).toMatchObject({ id: "delivery", reason: "at message level" });
  });

  it("cost --json numbers stages from 1 and steps from 0, as its schema says: joined to the Arrow file's columns", async () => {
    expect((await run("gen", "pattern1", "--p", "9", "--seed", "3", "-o", f("mc.json"))).code).toBe(0);
    expect((await run("plan", f("mc.json"), "-a", "four-stage", "-o", f("sc.json"))).code).toBe(0);
    expect((await run("export", f("sc.json"), "-f", "arrow", "-o", f("sc.arrow"))).code).toBe(0);
    type Cost = { stages: { stage: number }[]; steps: { step: number; stage: number }[] };
    const cost = (await jsonOut("cost", f("sc.json"), "--machine", "t3d-004", "--json", "--steps")) as Cost;
    valid("cost", cost);
    expect(cost.stages.map((s) => s.stage)).toEqual([1, 2, 3, 4]);
    const t = tableFromIPC(readFileSync(f("sc.arrow")));
    const stageCol = t.getChild("stage")!.toArray() as Uint8Array;
    const stepCol = t.getChild("step")!.toArray() as Uint8Array;
    expect(stepCol.length).toBeGreaterThan(0);
    for (let row = 0; row < stepCol.length; row++) expect(cost.steps[stepCol[row]!]!.stage).toBe(stageCol[row]! + 1);
    // the schema holds the numbering: a stage 0 is not a cost document
    const zero = { ...cost, stages: cost.stages.map((s, i) => (i === 0 ? { ...s, stage: 0 } : s)) };
    expect(() => validateWithSchema("cost", zero, "test")).toThrow(/stages\/0\/stage must be >= 1/);
    const zeroStep = { ...cost, steps: cost.steps.map((s, i) => (i === 0 ? { ...s, stage: 0 } : s)) };
    expect(() => validateWithSchema("cost", zeroStep, "test")).toThrow(/steps\/0\/stage must be >= 1/);
  });
});
