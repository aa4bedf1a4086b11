/**
 * The --json documents of plan, gen, export, platform, store, check-planner, precompute (a spec's and --from-capture),
 * demo, show, verify-program and the listings (algorithms, machines, patterns, topologies) validate against their
 * schemas (real CLI output, ajv); every command takes --json; --json with -o - is refused in one line; exit codes are those of the text output (a damaged store entry: a document
 * and exit 2).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateWithSchema, type SchemaName } from "../../src/io/json-schema.js";
import { MACHINES } from "../../src/machines/presets.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import { PATTERNS } from "../../src/patterns/index.js";
import { DEFAULT_SPLIT_MACHINE } from "../../src/planner/permutation/index.js";
import { PLANNERS } from "../../src/planner/registry.js";
import { TOPOLOGY_GENERATORS } from "../../src/topology/index.js";
import { writeCapture } from "../helpers/capture.js";
import { buildProgram } from "../../src/cli/program.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("summaries");
const f = (name: string): string => join(dir, name);
const planners = new URL("../fixtures/planners/", import.meta.url).pathname;

/** Runs a command with --json that must exit `code`; checks its stdout against `schema` and returns it parsed. */
async function summary(schema: SchemaName, code: number, ...argv: string[]): Promise<Record<string, unknown>> {
  const r = await run(...argv, "--json");
  expect(r.code, r.err).toBe(code);
  const doc = JSON.parse(r.out) as Record<string, unknown>;
  expect(() => validateWithSchema(schema, doc, "test")).not.toThrow();
  return doc;
}

describe("--json summaries validate against their schemas", () => {
  it("gen, plan (a planner and auto), export (program, split, arrow)", async () => {
    const gen = await summary("gen", 0, "gen", "pattern1", "--p", "8", "--seed", "3", "-o", f("m.json"));
    expect(gen).toMatchObject({ format: "commplan.gen/v1", p: 8, seed: 3, matrixFormat: "json" });
    expect(gen["bytes"]).toBe(statSync(f("m.json")).size);
    await summary("gen", 0, "gen", "halo", "--p", "8", "-o", f("h.mtx"));
    const plan = await summary("plan", 0, "plan", f("m.json"), "-a", "four-stage", "--payload", "-o", f("s.json"));
    expect(plan).toMatchObject({ algorithm: "four-stage", p: 8, payload: true, auto: null, output: f("s.json") });
    const s = JSON.parse(readFileSync(f("s.json"), "utf8")) as { stages: { steps: { transfers: unknown[] }[] }[] };
    expect(plan["transfers"]).toBe(s.stages.flatMap((x) => x.steps).flatMap((x) => x.transfers).length);
    const auto = await summary("plan", 0, "plan", f("m.json"), "-a", "auto", "--machine", "t3d-004", "-o", f("a.json"));
    expect((auto["auto"] as { algorithm: string }).algorithm).toBe(auto["algorithm"]);
    const program = ["export", f("s.json"), "-m", f("m.json"), "-f", "program"];
    const ex = await summary("export", 0, ...program, "-o", f("p.json"));
    expect(ex).toMatchObject({ exportFormat: "program", output: { kind: "file", path: f("p.json") } });
    expect((ex["program"] as { variant: string }).variant).toBe("nonblocking");
    // every variant, dataflow too (its summary failed the schema), and the GOAL export of a dataflow program
    for (const variant of ["blocking", "dataflow"]) {
      const v = await summary("export", 0, ...program, "--variant", variant, "-o", f(`p-${variant}.json`));
      expect((v["program"] as { variant: string }).variant).toBe(variant);
    }
    const goal = ["export", f("s.json"), "-m", f("m.json"), "-f", "goal", "--variant", "dataflow", "-o", f("d.goal")];
    expect((await summary("export", 0, ...goal))["program"]).toMatchObject({ variant: "dataflow" });
    const split = await summary("export", 0, ...program, "--split", f("split"));
    expect(split["output"]).toEqual({ kind: "split", path: f("split"), bytes: null });
    // --out DIR (simgrid) is a directory too: bytes null, as the schema's description says
    const sg = ["export", f("s.json"), "-m", f("m.json"), "-f", "simgrid", "--machine", "t3d-004", "--out", f("sg")];
    expect((await summary("export", 0, ...sg))["output"]).toEqual({ kind: "dir", path: f("sg"), bytes: null });
    const arrow = await summary("export", 0, "export", f("s.json"), "-f", "arrow", "-o", f("s.arrow"));
    expect(arrow).toMatchObject({ program: null, output: { bytes: statSync(f("s.arrow")).size } });
  });

  it("platform, with and without a hostfile", async () => {
    const a = await summary("platform", 0, "platform", "--topology", "fat-tree:k=4", "-P", "16", "-o", f("p.xml"));
    expect(a).toMatchObject({ ranks: 16, simgridCluster: "FAT_TREE", hostfile: null });
    const b = await summary(
      "platform",
      0,
      ...["platform", "--topology", "fat-tree:k=4", "-P", "4", "--explicit", "-o", f("e.xml"), "--hostfile", f("h")],
    );
    expect(b).toMatchObject({ ranks: 4, simgridCluster: null, hostfile: { path: f("h") } });
  });

  it("store add, get, list (one document), verify and gc, on a sound and on a damaged store", async () => {
    const st = f("store");
    const add = await summary("store-add", 0, "store", "add", st, f("m.json"), "-a", "shift");
    expect(add).toMatchObject({ status: "added", byAnotherWriter: false });
    const again = await summary("store-add", 0, "store", "add", st, f("m.json"), "-a", "shift");
    expect(again).toMatchObject({ id: add["id"], status: "present" });
    const get = await summary("store-get", 0, "store", "get", st, "--id", String(add["id"]), "-o", f("g.json"));
    expect(get).toMatchObject({ found: true, algorithm: "shift", p: 8, fileFormat: "json" });
    const absent = "0".repeat(64);
    expect(await summary("store-get", 1, "store", "get", st, "--id", absent, "-o", f("x.json"))).toEqual({
      format: "commplan.store-get/v1",
      id: absent,
      found: false,
    });
    const list = await summary("store-list", 0, "store", "list", st);
    expect((list["entries"] as { id: string }[]).map((e) => e.id)).toEqual([add["id"]]);
    expect(await summary("store-verify", 0, "store", "verify", st)).toMatchObject({ consistent: true, entries: 1 });
    const id = String(add["id"]);
    const entry = join(st, "entries", id.slice(0, 2), readdirSync(join(st, "entries", id.slice(0, 2)))[0]!);
    const b = readFileSync(entry);
    b[b.length >> 1]! ^= 4;
    writeFileSync(entry, b);
    const damaged = await summary("store-list", 0, "store", "list", st);
    expect((damaged["entries"] as { key: unknown; problem: string | null }[])[0]).toMatchObject({ key: null });
    const verify = await summary("store-verify", 1, "store", "verify", st);
    expect(verify).toMatchObject({ consistent: false, damaged: [{ id }] });
    const bad = await run("store", "get", st, "--id", id, "-o", f("d.json"), "--json");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(new RegExp(`^store get: [^\\n]*entry ${id} is damaged [^\\n]*\\n$`));
    const badDoc = JSON.parse(bad.out) as unknown;
    expect(() => validateWithSchema("store-get", badDoc, "test")).not.toThrow();
    expect(badDoc).toEqual({ format: "commplan.store-get/v1", id, found: true, damaged: bad.err.trimEnd() });
    expect(await summary("store-gc", 0, "store", "gc", st)).toMatchObject({ damaged: [id], parts: [] });
  });

  it("check-planner: a pass, and a failure with its counterexample as commplan.matrix/v1 (exit 1)", async () => {
    const pass = await summary("check-planner", 0, "check-planner", join(planners, "two-hop.mjs"), "--runs", "20");
    expect(pass).toMatchObject({ verdict: "pass", runs: 20, seed: 1, counterexample: null, failure: null });
    const cx = f("cx.json");
    const fail = await summary(
      "check-planner",
      1,
      ...["check-planner", join(planners, "forward-early.mjs"), "--runs", "100", "-o", cx],
    );
    expect(fail).toMatchObject({ verdict: "fail", failure: { check: "causality" }, output: cx });
    expect(fail["counterexample"]).toEqual(JSON.parse(readFileSync(cx, "utf8")));
    expect(() => validateWithSchema("matrix", fail["counterexample"], "test")).not.toThrow();
  });

  it("precompute: every job with its outcome, and the totals", async () => {
    const spec = {
      patterns: ["uniform"],
      p: [6, 7],
      seeds: [1],
      algorithms: ["shift", { name: "mesh-two-stage", params: { rows: 2 } }],
    };
    writeFileSync(f("spec.json"), JSON.stringify(spec));
    const doc = await summary("precompute", 0, "precompute", f("spec.json"), "--store", f("pre"), "--jobs", "1");
    expect(doc["totals"]).toEqual({ jobs: 4, added: 3, present: 0, unchecked: 0, unplannable: 1, damaged: 0 });
    const jobs = doc["jobs"] as { p: number; algorithm: string; status: string; message: string | null }[];
    expect(jobs.map((j) => j.status)).toEqual(["added", "added", "added", "unplannable"]);
    expect(jobs[3]!.message).not.toBeNull();
    const rerun = await summary("precompute", 0, "precompute", f("spec.json"), "--store", f("pre"), "--jobs", "2");
    expect(rerun["totals"]).toMatchObject({ present: 3, added: 0 });
  });
});

describe("precompute --from-capture --json, and --json on every command", () => {
  it("precompute --from-capture: every captured pattern with its verdict and program (another format)", async () => {
    const m = matrixFromRows(
      [
        [0, 5, 1],
        [2, 0, 7],
        [4, 4, 0],
      ],
      { elementBytes: 8 },
    );
    const key = writeCapture(f("cap"), m);
    const argv = ["precompute", "--from-capture", f("cap"), "--store", f("pre-cap"), "--machine", "t3d-004"];
    const doc = await summary("precompute-capture", 0, ...argv);
    expect(doc).toMatchObject({ format: "commplan.precompute-capture/v1", totals: { patterns: 1, added: 1 } });
    expect(doc["patterns"]).toMatchObject([{ key, p: 3, status: "added", program: `programs/${key}` }]);
    // not a commplan.precompute/v1 document: a reader telling the two runs apart by format cannot mistake one
    expect(() => validateWithSchema("precompute", doc, "test")).toThrow(/format/);
    const again = await summary("precompute-capture", 0, ...argv, "--runtime", "none");
    expect(again["patterns"]).toMatchObject([{ status: "replaced", replaced: { because: "another target" } }]);
  });

  it("every command and sub-command takes --json", async () => {
    const io = { out: (): void => undefined, err: (): void => undefined, interactive: false };
    const program = await buildProgram({ io, stdout: process.stdout, maxMemory: 1 << 30, exitCode: 0 });
    const commands = program.commands.flatMap((c) => (c.commands.length > 0 ? c.commands : [c]));
    expect(commands.map((c) => c.name())).toContain("precompute");
    const without = commands.filter((c) => !c.options.some((o) => o.long === "--json")).map((c) => c.name());
    expect(without).toEqual([]);
    // precompute's --json names both documents, a spec's run and a --from-capture run
    const help = program.commands.find((c) => c.name() === "precompute")!.options.find((o) => o.long === "--json");
    expect(help?.description).toMatch(/commplan\.precompute\/v1.*--from-capture.*commplan\.precompute-capture\/v1/);
  });
});

/** Runs a listing command with --json (exit 0); checks its stdout, one JSON array, against `schema` and returns it. */
async function listing(schema: SchemaName, command: string): Promise<Record<string, unknown>[]> {
  const r = await run(command, "--json");
  expect(r.code, r.err).toBe(0);
  const doc = JSON.parse(r.out) as Record<string, unknown>[];
  expect(Array.isArray(doc)).toBe(true);
  expect(() => validateWithSchema(schema, doc, "test")).not.toThrow();
  // strict: a key the schema does not know is refused
  expect(() => validateWithSchema(schema, [{ ...doc[0], extra: 1 }], "test")).toThrow(/must NOT have additional/);
  return doc;
}

describe("--json of demo, show, verify-program and the listings validate against their schemas", () => {
  it("demo: every matrix planner's verdict, ports, size and times", async () => {
    const demo = await summary("demo", 0, "demo", "--p", "12", "--seed", "5", "--machine", "sp2-004");
    expect(demo).toMatchObject({ format: "commplan.demo/v1", pattern: "pattern1", p: 12, seed: 5, machine: "sp2-004" });
    // pattern1: every node sends 1024 elements to one node and 1 to each of the 10 others
    expect(demo["stats"]).toMatchObject({ h: 11, mMax: 1024 });
    const results = demo["results"] as { algorithm: string; verified: boolean; verifiedPorts: 1 | null }[];
    expect(results.map((r) => r.algorithm)).toEqual(
      PLANNERS.filter((p) => p.traits.family?.name !== "total-exchange").map((p) => p.name),
    );
    expect(results.every((r) => r.verified)).toBe(true);
    const ports = Object.fromEntries(results.map((r) => [r.algorithm, r.verifiedPorts]));
    expect([ports["shift"], ports["four-stage"], ports["mpi-linear"]]).toEqual([1, 1, null]);
    // the entry of a planner that refuses the example, as the command writes it, is one the schema takes
    const skipped = { ...demo, results: [{ algorithm: "mesh-two-stage", skipped: "P = 12 cannot be planned" }] };
    expect(() => validateWithSchema("demo", skipped, "test")).not.toThrow();
    const unlimited = { ...demo, results: [{ ...results[0], verifiedPorts: 2 }] };
    expect(() => validateWithSchema("demo", unlimited, "test")).toThrow();
  });

  it("show: the grid of a stage, its cells the stage's transfers and stalls", async () => {
    await run("gen", "pattern1", "--p", "8", "--seed", "2", "-o", f("m8.json"));
    await run("plan", f("m8.json"), "-a", "four-stage", "--payload", "-o", f("s8.json"));
    const s = JSON.parse(readFileSync(f("s8.json"), "utf8")) as {
      stages: { name: string; steps: { transfers: { src: number; dst: number }[]; stalls: number[] }[] }[];
    };
    for (const k of [1, 2]) {
      const g = await summary("show", 0, "show", f("s8.json"), "--stage", String(k));
      const stage = s.stages[k - 1]!;
      expect(g).toMatchObject({ format: "commplan.show/v1", stage: k, name: stage.name });
      const senders = g["senders"] as number[];
      const cells = (g["steps"] as (number | "X" | null)[][]).map((row) =>
        row.flatMap((c, x) => (c === null ? [] : [c === "X" ? `${senders[x]}X` : `${senders[x]}>${c}`])).sort(),
      );
      expect(cells).toEqual(
        stage.steps.map((st) =>
          [...st.transfers.map((t) => `${t.src}>${t.dst}`), ...st.stalls.map((v) => `${v}X`)].sort(),
        ),
      );
    }
    const some = await summary("show", 0, "show", f("s8.json"), "--nodes", "2-4", "--svg", f("g.svg"));
    expect(some["senders"]).toEqual([2, 3, 4]);
  });

  it("verify-program: the report of a sound program, and of one delivering an element off (exit 1)", async () => {
    const m = f("m8.json");
    await run("gen", "pattern1", "--p", "8", "--seed", "2", "-o", m);
    await run("plan", m, "-a", "four-stage", "--payload", "-o", f("s8.json"));
    expect((await run("export", f("s8.json"), "-m", m, "-f", "program", "-o", f("p8.json"))).code).toBe(0);
    const ok = await summary("report", 0, "verify-program", f("p8.json"), "-m", m);
    expect(ok).toMatchObject({ format: "commplan.report/v1", ok: true, algorithm: "four-stage", p: 8 });
    const checks = ok["checks"] as { id: string; holds: boolean; witness: string | null }[];
    expect(checks.map((c) => c.id)).toContain("program-delivery");
    expect(checks.every((c) => c.id.startsWith("program-") && c.holds)).toBe(true);
    const doc = JSON.parse(readFileSync(f("p8.json"), "utf8")) as {
      ranks: { ops: [number, string, ...unknown[]][] }[];
    };
    const recv = doc.ranks.flatMap((r) => r.ops).find((o) => o[1] === "recv")!;
    const pieces = recv[5] as [string, number, number][];
    pieces[pieces.length - 1]![1] += 1; // one element further into its buffer
    writeFileSync(f("bad8.json"), JSON.stringify(doc));
    const bad = await summary("report", 1, "verify-program", f("bad8.json"), "-m", m);
    expect(bad["ok"]).toBe(false);
    const failed = (bad["checks"] as { holds: boolean; witness: string | null }[]).filter((c) => !c.holds);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => typeof c.witness === "string")).toBe(true);
  });

  it("algorithms, machines, patterns, topologies: one JSON array each, mirroring the registries", async () => {
    const algorithms = await listing("algorithms", "algorithms");
    expect(algorithms.map((a) => a["name"])).toEqual(PLANNERS.map((p) => p.name));
    const withMachine = algorithms.filter((a) => "defaultMachine" in a);
    expect(withMachine.length).toBeGreaterThan(0);
    expect(withMachine.every((a) => a["defaultMachine"] === DEFAULT_SPLIT_MACHINE.name)).toBe(true);
    const mpiDefault = algorithms.filter((a) => (a["traits"] as { mpi?: { isDefault: boolean } }).mpi?.isDefault);
    expect(mpiDefault.map((a) => a["name"])).toEqual(["mpi-linear"]);
    const param = { name: "x", description: "d", type: "integer" };
    const planner = { ...algorithms[0], params: [{ ...param, default: 1, derived: "from P" }] };
    expect(() => validateWithSchema("algorithms", [planner], "test")).toThrow(); // a default or a derivation, not both
    expect(() => validateWithSchema("algorithms", [{ ...planner, params: [param] }], "test")).toThrow();

    const machines = await listing("machines", "machines");
    expect(machines.map((m) => m["name"])).toEqual(MACHINES.map((m) => m.name));
    for (const m of machines) {
      expect(m["tsSend"] as number).toBeLessThanOrEqual(m["ts"] as number);
      expect((m["runtimes"] as { name: string }[]).map((r) => r.name)).toContain("smpi");
    }
    expect(machines.find((m) => m["name"] === "cm5-fat-tree")).toMatchObject({ topology: "cm5-fat-tree" });

    const patterns = await listing("patterns", "patterns");
    expect(patterns.map((p) => p["name"])).toEqual(PATTERNS.map((p) => p.name));
    expect(patterns.find((p) => p["name"] === "wang-table1")).toMatchObject({ fixedP: 8 });
    expect(patterns.filter((p) => "file" in p).map((p) => p["name"])).toEqual(["spmv"]);

    const topologies = await listing("topologies", "topologies");
    expect(topologies.map((t) => t["name"])).toEqual(TOPOLOGY_GENERATORS.map((g) => g.name));
    const fatTree = topologies.find((t) => t["name"] === "fat-tree")!;
    expect((fatTree["params"] as { name: string }[]).map((p) => p.name)).toContain("k");
  });
});

describe("--json with the output on stdout", () => {
  it("is refused in one line: two documents cannot share stdout", async () => {
    for (const argv of [
      ["gen", "pattern1", "--p", "4"],
      ["plan", f("m.json"), "-a", "shift"],
      ["export", f("s.json"), "-f", "arrow"],
      ["store", "get", f("store"), "--id", "0".repeat(64)],
      ["platform", "--topology", "fat-tree:k=4", "-P", "4"],
      ["check-planner", join(planners, "two-hop.mjs"), "--runs", "1", "-o", "-"],
    ]) {
      const r = await run(...argv, "--json");
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.out).toBe("");
      // the line names the command as typed (store get's sub-command too)
      const name = argv[0] === "store" ? `store ${argv[1]}` : argv[0];
      expect(r.err).toBe(`${name}: --json prints its summary on stdout, where -o - writes the output: give -o FILE\n`);
    }
  });

  it("is refused for an -o path that is this process's stdout (/dev/stdout, /dev/fd/1), not for /dev/null", async () => {
    for (const out of ["/dev/stdout", "/dev/fd/1"])
      for (const argv of [
        ["gen", "pattern1", "--p", "4", "-o", out],
        ["plan", f("m.json"), "-a", "shift", "-o", out],
        ["export", f("s.json"), "-f", "arrow", "-o", out],
        ["platform", "--topology", "fat-tree:k=4", "-P", "4", "-o", out],
      ]) {
        const r = await run(...argv, "--json");
        expect(r.code, argv.join(" ")).toBe(2);
        expect(r.out).toBe("");
        expect(r.err).toBe(
          `${argv[0]}: --json prints its summary on stdout, and -o '${out}' is that stdout too (two documents cannot ` +
            "share it): give -o FILE, or -o - without --json\n",
        );
      }
    // /dev/null takes both; a file that is not stdout is the summary's output as before
    const sink = await summary("gen", 0, "gen", "pattern1", "--p", "4", "-o", "/dev/null");
    expect(sink).toMatchObject({ output: "/dev/null", bytes: null });
  });

  it("an --svg, --trace, --realised, --html or --hostfile path that is stdout is refused as '-' is", async () => {
    const gen = await run("gen", "pattern1", "--p", "4", "-o", f("m4.json"));
    expect(gen.code).toBe(0);
    expect((await run("plan", f("m4.json"), "-a", "shift", "-o", f("s4.json"))).code).toBe(0);
    const stdoutNote = "'/dev/stdout' (this process's stdout)";
    for (const [argv, message] of [
      [["simulate", f("s4.json"), "--machine", "t3d-004", "--trace", "/dev/stdout"], `--trace ${stdoutNote}: stdout`],
      [["simulate", f("s4.json"), "--machine", "t3d-004", "--svg", "/dev/stdout"], `--svg ${stdoutNote}: stdout`],
      [
        ["simulate", "--protocol", "drs-n", f("m4.json"), "--machine", "t3d-004", "--realised", "/dev/stdout"],
        `--realised ${stdoutNote}: stdout`,
      ],
      [["compare", f("m4.json"), "--machine", "t3d-004", "--html", "/dev/stdout"], `--html ${stdoutNote}: stdout`],
      [["show", f("s4.json"), "--svg", "/dev/stdout", "--json"], `--svg ${stdoutNote}: stdout carries the SVG`],
      [
        ["platform", "--topology", "fat-tree:k=4", "-P", "2", "-o", "/dev/stdout", "--hostfile", "-"],
        "--hostfile -: stdout already carries the platform XML (-o '/dev/stdout')",
      ],
      [
        ["platform", "--topology", "fat-tree:k=4", "-P", "2", "--hostfile", "/dev/stdout"],
        `--hostfile ${stdoutNote}: stdout already carries the platform XML (-o -)`,
      ],
    ] as const) {
      const r = await run(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toContain(message);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
  });
});
