/** commplan store, precompute and export --format arrow, run in process. */
import { existsSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { parseScheduleJsonText } from "../../src/io/schedule-json-read.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { parseShard, shardJobs } from "../../src/cli/commands/precompute.js";
import { readPrecomputeSpec } from "../../src/cli/precompute-jobs.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

function dir(): string {
  return tempDir("store-cli");
}

const SPEC = {
  patterns: ["uniform", { name: "h-relation", options: { h: 2 } }],
  p: [9, 10],
  seeds: [1, 2],
  algorithms: ["shift", { name: "four-stage", payload: true }, { name: "mesh-two-stage", params: { rows: 3 } }],
};

describe("commplan store", () => {
  it("add, get (json and arrow), list, verify, gc", async () => {
    const d = dir();
    expect((await run("gen", "h-relation", "--p", "12", "--h", "3", "-o", join(d, "m.json"))).code).toBe(0);
    const add = await run("store", "add", join(d, "s"), join(d, "m.json"), "-a", "coloring");
    expect(add.code).toBe(0);
    const id = add.out.trim();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect((await run("store", "add", join(d, "s"), join(d, "m.json"), "-a", "coloring")).err).toContain("present");
    const got = await run("store", "get", join(d, "s"), "--id", id, "-o", join(d, "g.json"));
    expect(got.code).toBe(0);
    await run("plan", join(d, "m.json"), "-a", "coloring", "-o", join(d, "p.json"));
    expect(readFileSync(join(d, "g.json"), "utf8")).toBe(readFileSync(join(d, "p.json"), "utf8"));
    await run(
      "store",
      "get",
      join(d, "s"),
      join(d, "m.json"),
      "-a",
      "coloring",
      "-f",
      "arrow",
      "-o",
      join(d, "g.arrow"),
    );
    const fromArrow = decodeScheduleArrow(new Uint8Array(readFileSync(join(d, "g.arrow"))));
    expect(scheduleToJsonText(fromArrow)).toBe(readFileSync(join(d, "p.json"), "utf8"));
    // a summary line on stderr for a file written, as plan's; none when the plan goes to stdout
    const n = fromArrow.transferCount;
    expect(got.err).toBe(`store get: ${id}: coloring, P = 12, ${n} transfers, json -> ${join(d, "g.json")}\n`);
    const missing = await run("store", "get", join(d, "s"), join(d, "m.json"), "-a", "shift");
    expect(missing.code).toBe(1);
    const listed = (await run("store", "list", join(d, "s"))).out;
    expect(listed).toMatch(/coloring +12 +1 +no/);
    const listedId = /^([0-9a-f]+) +coloring/m.exec(listed)![1]!;
    const toStdout = await run("store", "get", join(d, "s"), "--id", listedId); // the id as list prints it
    expect([toStdout.code, toStdout.err]).toEqual([0, ""]);
    expect((await run("store", "verify", join(d, "s"))).out).toContain("1 entry, 0 damaged");
    const file = readdirSync(join(d, "s", "entries", id.slice(0, 2)))[0]!;
    const path = join(d, "s", "entries", id.slice(0, 2), file);
    const b = readFileSync(path);
    b[b.length >> 1]! ^= 4;
    writeFileSync(path, b);
    const bad = await run("store", "get", join(d, "s"), "--id", id);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`entry ${id} is damaged`);
    expect(bad.out).toBe("");
    const v = await run("store", "verify", join(d, "s"));
    expect(v.code).toBe(1);
    expect(v.err).toContain(id);
    expect((await run("store", "gc", join(d, "s"))).out).toContain("1 damaged");
    expect((await run("store", "verify", join(d, "s"))).code).toBe(0);
  });

  it("export --format arrow writes the schedule without --matrix; other formats still need it", async () => {
    const d = dir();
    await run("gen", "uniform", "--p", "8", "-o", join(d, "m.json"));
    await run("plan", join(d, "m.json"), "-a", "four-stage", "--payload", "-o", join(d, "s.json"));
    const r = await run("export", join(d, "s.json"), "--format", "arrow", "-o", join(d, "s.arrow"));
    expect(r.code).toBe(0);
    const s = decodeScheduleArrow(new Uint8Array(readFileSync(join(d, "s.arrow"))));
    const counts = `${s.stepCount} steps, ${s.transferCount} transfers`;
    expect(r.err).toBe(`export: four-stage, P = 8, arrow: ${counts} -> ${join(d, "s.arrow")}\n`);
    expect(scheduleToJsonText(s)).toBe(
      scheduleToJsonText(parseScheduleJsonText(readFileSync(join(d, "s.json"), "utf8"))),
    );
    expect((await run("export", join(d, "s.json"), "--format", "arrow")).err).toMatch(/^export: .*give -o FILE/);
    const prog = await run("export", join(d, "s.json"), "--format", "program");
    expect(prog.code).toBe(2);
    expect(prog.err).toBe("export: required option '-m, --matrix <file>' not specified (add --help for usage)\n");
  });

  it("precompute plans the family once, resumes, and shards deterministically", async () => {
    const d = dir();
    writeFileSync(join(d, "spec.json"), JSON.stringify(SPEC));
    const jobs = readPrecomputeSpec(join(d, "spec.json"));
    expect(jobs).toHaveLength(2 * 2 * 2 * 3);
    const first = await run(
      "precompute",
      join(d, "spec.json"),
      "--store",
      join(d, "s"),
      "--jobs",
      "1",
      "--shard",
      "0/2",
    );
    expect(first.code).toBe(0);
    expect(first.err).toMatch(/12 jobs \(shard 0\/2\): \d+ added/);
    const all = await run("precompute", join(d, "spec.json"), "--store", join(d, "s"), "--jobs", "1");
    // mesh-two-stage with rows = 3 refuses P = 10 (3 does not divide it): 4 unplannable; shard 0 planned its share already
    const added1 = Number(/(\d+) added/.exec(first.err)![1]);
    expect(all.err).toContain(`24 jobs: ${20 - added1} added, ${added1} present, 4 unplannable, 0 damaged`);
    expect(
      readFileSync(join(d, "s", "log"), "utf8")
        .trim()
        .split("\n"),
    ).toHaveLength(20);
    expect(shardJobs([0, 1, 2, 3, 4, 5, 6], parseShard("1/3"))).toEqual([1, 4]);
    expect(() => parseShard("3/3")).toThrow(/--shard must be i\/n/);
  });

  it("refuses a bad spec in one line naming the field", async () => {
    const d = dir();
    writeFileSync(join(d, "spec.json"), JSON.stringify({ ...SPEC, p: [0] }));
    const r = await run("precompute", join(d, "spec.json"), "--store", join(d, "s"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^precompute: .*spec\.json.*\/p\/0/);
    writeFileSync(join(d, "spec.json"), JSON.stringify({ ...SPEC, algorithms: ["nope"] }));
    expect((await run("precompute", join(d, "spec.json"), "--store", join(d, "s"))).err).toMatch(
      /unknown algorithm 'nope'/,
    );
  });
});

describe("precompute: the spec checked up front", () => {
  it("refuses a bad pattern option or planner parameter before any job runs, naming the file and the field", async () => {
    const d = dir();
    const spec = join(d, "spec.json");
    const refused = async (patch: object, message: RegExp): Promise<void> => {
      writeFileSync(spec, JSON.stringify({ ...SPEC, ...patch }));
      const r = await run("precompute", spec, "--store", join(d, "s"), "--jobs", "1");
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(readdirSync(d)).toEqual(["spec.json"]); // no store made: nothing ran
    };
    const pattern1 = (options: object): object => ({ patterns: ["uniform", { name: "pattern1", options }] });
    await refused(
      pattern1({ mmaxx: 5 }),
      /^precompute: .*spec\.json: \/patterns\/1\/options\/mmaxx: unknown option 'mmaxx' for pattern 'pattern1' \(did you mean mmax\?\)/,
    );
    await refused(
      pattern1({ mmax: -1 }),
      /^precompute: .*spec\.json: \/patterns\/1\/options\/mmax: option 'mmax' of pattern 'pattern1' must be an integer in 0\.\.\d+, got -1/,
    );
    await refused(
      { patterns: ["uniform", "pattern1x"] },
      /^precompute: .*spec\.json: \/patterns\/1: unknown pattern 'pattern1x' \(did you mean pattern1\?\)/,
    );
    await refused(
      { patterns: ["uniform", "spmv"] },
      /^precompute: .*spec\.json: \/patterns\/1: pattern spmv reads a file \(a Matrix Market .*\), which a precompute spec cannot give$/m,
    );
    await refused(
      { algorithms: ["shift", { name: "mesh-two-stage", params: { rowz: 3 } }] },
      /^precompute: .*spec\.json: \/algorithms\/1\/params\/rowz: mesh-two-stage: unknown parameter 'rowz'/,
    );
  });
});

describe("the Arrow schedule file as input", () => {
  it("a schedule written into a named pipe is read as JSON (the sniffing opens regular files only); Arrow piped to stdin is refused with a hint", async () => {
    const d = dir();
    const m = join(d, "m.json"),
      fifo = join(d, "pipe");
    await run("gen", "uniform", "--p", "6", "-o", m);
    execFileSync("mkfifo", [fifo]);
    const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
    const writer = spawn(process.execPath, [bin, "plan", m, "-a", "shift", "-o", fifo], { stdio: "ignore" });
    const done = new Promise<number | null>((resolve) => writer.on("close", resolve));
    const r = await run("verify", fifo, "-m", m);
    expect(r.out, r.err).toMatch(/^shift, P = 6: all checks hold/);
    expect(await done).toBe(0);
    await run("plan", m, "-a", "shift", "-o", join(d, "s.json"));
    await run("export", join(d, "s.json"), "-f", "arrow", "-o", join(d, "s.arrow"));
    const piped = spawnSync(process.execPath, [bin, "verify", "-", "-m", m], {
      input: readFileSync(join(d, "s.arrow")),
    });
    expect(piped.status).toBe(2);
    expect(piped.stderr.toString()).toMatch(/standard input is read as JSON: give the Arrow file's path\)\n$/);
  });

  it("every command that reads a schedule reads the Arrow file back (told by its magic bytes), and refuses a damaged one in one line", async () => {
    const d = dir();
    const m = join(d, "m.json"),
      json = join(d, "s.json"),
      arrow = join(d, "s.arrow");
    await run("gen", "uniform", "--p", "8", "-o", m);
    await run("plan", m, "-a", "four-stage", "--payload", "-o", json);
    expect((await run("export", json, "--format", "arrow", "-o", arrow)).code).toBe(0);
    for (const argv of [
      ["verify", "FILE", "-m", m],
      ["cost", "FILE", "--machine", "t3d-004"],
      ["simulate", "FILE", "--machine", "t3d-004"],
      ["show", "FILE"],
      ["export", "FILE", "-m", m, "-f", "goal"],
    ]) {
      const fromJson = await run(...argv.map((a) => (a === "FILE" ? json : a)));
      const fromArrow = await run(...argv.map((a) => (a === "FILE" ? arrow : a)));
      expect(fromArrow.code, argv[0]).toBe(0);
      expect(fromArrow.out.replaceAll(arrow, json), argv[0]).toBe(fromJson.out);
    }
    writeFileSync(join(d, "cut.arrow"), readFileSync(arrow).subarray(0, 200));
    const cut = await run("verify", join(d, "cut.arrow"), "-m", m);
    expect(cut.code).toBe(2);
    expect(cut.err).toMatch(/^verify: .*cut\.arrow: an Arrow file that is not a readable commplan schedule: .*\n$/);
    expect(cut.err.split("\n")).toHaveLength(2);
  });
});

describe("precompute: auto", () => {
  it("plans auto's pick per named machine, and refuses a spec that pairs auto with no machine", async () => {
    const d = dir();
    writeFileSync(join(d, "spec.json"), JSON.stringify({ ...SPEC, algorithms: ["auto"], machines: [null, "t3d-004"] }));
    expect((await run("precompute", join(d, "spec.json"), "--store", join(d, "s"))).err).toMatch(
      /^precompute: .*spec\.json: algorithm auto needs a machine: list machines, none of them null/,
    );
    writeFileSync(
      join(d, "spec.json"),
      JSON.stringify({ patterns: ["uniform"], p: [8], seeds: [1], algorithms: ["auto"], machines: ["t3d-004"] }),
    );
    const auto = await run("precompute", join(d, "spec.json"), "--store", join(d, "s"), "--jobs", "1");
    expect(auto.err).toContain("1 job: 1 added");
    const got = await run("store", "list", join(d, "s"));
    // auto's pick beside auto, as the stored schedule names it (text and --json alike)
    const json = JSON.parse((await run("store", "list", join(d, "s"), "--json")).out) as {
      entries: { id: string; planned: string }[];
    };
    const { id, planned } = json.entries[0]!;
    const plan = await run("store", "get", join(d, "s"), "--id", id, "-o", join(d, "got.json"));
    expect(plan.code, plan.err).toBe(0);
    expect(planned).toBe((JSON.parse(readFileSync(join(d, "got.json"), "utf8")) as { algorithm: string }).algorithm);
    expect(planned).not.toBe("auto");
    expect(got.out).toMatch(new RegExp(` auto \\(${planned}\\) +8 +1 +no +t3d-004 `));
  });
  it("store add and get -a auto without --machine, or with --param, name the flags, as plan does", async () => {
    const d = dir();
    writeFileSync(
      join(d, "m.json"),
      JSON.stringify({
        format: "commplan.matrix/v1",
        p: 2,
        rows: [
          [0, 1],
          [1, 0],
        ],
      }),
    );
    // the store exists (a refused add makes none, so get would find no store)
    expect((await run("store", "add", join(d, "s"), join(d, "m.json"), "-a", "shift")).code).toBe(0);
    for (const sub of ["add", "get"]) {
      const r = await run("store", sub, join(d, "s"), join(d, "m.json"), "-a", "auto");
      expect([r.code, r.err]).toEqual([
        2,
        `store ${sub}: --algorithm auto needs --machine (the machine it chooses for)\n`,
      ]);
      // and --help says so: it said "the others accept and ignore it" of every planner but rs-nh and split-coloring
      const help = (await run("store", sub, "--help")).out.replace(/\s+/g, " ");
      expect(help).toContain("the others accept and ignore it ('commplan machines' lists the models); auto needs it");
      // --param with auto: the flag named, as plan names it
      const param = await run(
        "store",
        sub,
        join(d, "s"),
        join(d, "m.json"),
        "-a",
        "auto",
        "--machine",
        "t3d-004",
        "--param",
        "x=1",
      );
      expect([param.code, param.err]).toEqual([
        2,
        `store ${sub}: --algorithm auto chooses the parameters itself; drop --param\n`,
      ]);
    }
  });
});

describe("commplan store get: memory", () => {
  it("store get, verify and gc refuse, before reading it, an entry past --max-memory (get: twice its file); list does not", async () => {
    const d = dir();
    expect((await run("gen", "uniform", "--p", "512", "-o", join(d, "m.json"))).code).toBe(0);
    const id = (await run("store", "add", join(d, "s"), join(d, "m.json"), "-a", "shift")).out.trim();
    const file = join(d, "s", "entries", id.slice(0, 2), `${id}.arrow`);
    const size = readFileSync(file).length;
    expect(size).toBeGreaterThan(2 ** 20);
    const r = await run("store", "get", join(d, "s"), "--id", id, "--max-memory", "1M", "-o", join(d, "g.json"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^store get: .*${id}\\.arrow: loading the ${size}-byte entry ${id} needs about `));
    expect(r.err).toMatch(/past the memory budget of 1 MiB \(raise it with --max-memory/);
    expect((await run("store", "get", join(d, "s"), "--id", id, "-o", join(d, "g.json"))).code).toBe(0);
    // list reads each entry in pieces, never whole: the budget does not stop it
    const list = await run("store", "list", join(d, "s"), "--max-memory", "1M");
    expect(list.code, list.err).toBe(0);
    expect(list.out).toMatch(new RegExp(`${id} +shift `));
    // verify and gc hold each entry's bytes and its decoded columns: each refuses the largest before reading any
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!; // a writer that is gone: its temporary file abandoned
    const tmp = join(d, "s", "tmp", `${hostname()}.${gone}.abcd.tmp`);
    writeFileSync(tmp, "x");
    for (const sub of ["verify", "gc"]) {
      const refused = await run("store", sub, join(d, "s"), "--max-memory", "1M");
      expect(refused).toMatchObject({ code: 2, out: "" });
      expect(refused.err).toMatch(
        new RegExp(`^store ${sub}: .*${id}\\.arrow: reading the ${size}-byte entry needs about `),
      );
      expect(existsSync(tmp), sub).toBe(true); // a refused gc removed nothing
      expect((await run("store", sub, join(d, "s"))).code).toBe(0);
    }
    expect(existsSync(tmp)).toBe(false);
    expect(existsSync(file)).toBe(true);
  });
});

describe("store get --id", () => {
  it("refuses the request options, which --id would ignore, in one line", async () => {
    const d = dir();
    expect((await run("gen", "uniform", "--p", "4", "-o", join(d, "m.json"))).code).toBe(0);
    const id = (await run("store", "add", join(d, "s"), join(d, "m.json"), "-a", "coloring")).out.trim();
    expect((await run("store", "get", join(d, "s"), "--id", id)).code).toBe(0);
    for (const [flag, ...rest] of [
      ["-a", "shift"],
      ["--algorithm", "coloring"],
      ["--machine", "t3d-004"],
      ["--payload"],
      ["--seed", "1"],
      ["--param", "x=1"],
      ["--element-bytes", "4"],
    ]) {
      const r = await run("store", "get", join(d, "s"), "--id", id, flag!, ...rest);
      expect(r.code).toBe(2);
      const shown = flag === "--algorithm" ? "-a" : flag;
      expect(r.err).toBe(
        `store get: ${shown} goes with a matrix file (the request that finds the entry), not with --id (the entry itself)\n`,
      );
      expect(r.out).toBe("");
    }
  });
});

describe("commplan store list, hostile origin", () => {
  it("list keeps a stored origin on one line: a file name's newline and terminal escape are printed escaped", async () => {
    const d = dir();
    const name = join(d, "a\nb\u001b[2Jc.json");
    expect((await run("gen", "uniform", "--p", "4", "-o", name)).code).toBe(0);
    expect((await run("store", "add", join(d, "s"), name, "-a", "shift")).code).toBe(0);
    const listed = await run("store", "list", join(d, "s"));
    expect(listed.code).toBe(0);
    expect(listed.out).not.toContain("\u001b");
    expect(listed.out.trimEnd().split("\n")).toHaveLength(2); // the header and the one entry
    expect(listed.out).toContain("file:a\\nb\\u001b[2Jc.json "); // then the params (none) and the element bytes
    expect(listed.out.endsWith(" 8\n")).toBe(true);
  });
});

describe("store gc --dry-run", () => {
  it("removes nothing and names what gc then removes: a damaged part, an abandoned temporary file, a damaged entry", async () => {
    const d = dir();
    const s = join(d, "s");
    const ids: string[] = [];
    for (const p of ["6", "7"]) {
      expect((await run("gen", "uniform", "--p", p, "-o", join(d, `m${p}.json`))).code).toBe(0);
      ids.push((await run("store", "add", s, join(d, `m${p}.json`), "-a", "shift")).out.trim());
    }
    const [sound, broken] = ids as [string, string];
    const entry = (id: string): string => join(s, "entries", id.slice(0, 2), `${id}.arrow`);
    const b = readFileSync(entry(broken));
    b[b.length >> 1]! ^= 4;
    writeFileSync(entry(broken), b);
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    writeFileSync(join(s, "tmp", `${hostname()}.${gone}.abcd.tmp`), "x"); // its writer is gone
    writeFileSync(join(s, "tmp", `${hostname()}.${process.pid}.abcd.tmp`), "x"); // its writer runs: kept
    const prefix = ["0f", "1f", "2f"].find((x) => !ids.some((id) => id.startsWith(x)))!;
    writeFileSync(join(s, "entries", prefix), "not a directory"); // a damaged part
    const before = (): string[] => readdirSync(s, { recursive: true, encoding: "utf8" }).sort();
    const tree = before();
    const dry = await run("store", "gc", s, "--dry-run");
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toBe("store gc: would remove 1 damaged part, 1 temporary file and 1 damaged entry\n");
    expect(dry.err).toContain(`store gc: would remove damaged entry ${broken}\n`);
    expect(before()).toEqual(tree);
    expect(readFileSync(entry(broken)).equals(b)).toBe(true);
    const dryJson = JSON.parse((await run("store", "gc", s, "--dry-run", "--json")).out) as Record<string, unknown>;
    expect(() => validateWithSchema("store-gc", dryJson, "test")).not.toThrow();
    expect(dryJson).toMatchObject({ dryRun: true, temps: 1, damaged: [broken] });
    const real = JSON.parse((await run("store", "gc", s, "--json")).out) as Record<string, unknown>;
    expect(() => validateWithSchema("store-gc", real, "test")).not.toThrow();
    const { dryRun, ...would } = dryJson;
    expect(dryRun).toBe(true);
    expect(real).toEqual(would); // what the dry run named is what gc removed
    expect(readdirSync(join(s, "tmp"))).toEqual([`${hostname()}.${process.pid}.abcd.tmp`]);
    expect((await run("store", "get", s, "--id", sound, "-o", join(d, "g.json"))).code).toBe(0);
    expect((await run("store", "verify", s)).code).toBe(0);
  });
});

describe("store list: the entries of one matrix and algorithm told apart", () => {
  it("by the planner's parameters (defaults filled) and the element bytes, columns of their own", async () => {
    const d = dir();
    const s = join(d, "s"),
      m = join(d, "m.json");
    expect((await run("gen", "uniform", "--ranks", "8", "--seed", "1", "-o", m)).code).toBe(0);
    const ids: Record<string, string> = {};
    for (const [name, extra] of [
      ["default", []],
      ["noImprove", ["--param", "improve=false"]],
      ["four", ["--element-bytes", "4"]],
    ] as const) {
      const add = await run("store", "add", s, m, "-a", "coloring", ...extra);
      expect(add.code, add.err).toBe(0);
      ids[name] = add.out.trim();
    }
    expect(new Set(Object.values(ids)).size).toBe(3);
    const list = await run("store", "list", s);
    expect(list.code).toBe(0);
    const lines = list.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/ origin +params +element bytes$/);
    const row = (id: string): string => lines.find((l) => l.startsWith(id))!;
    expect(row(ids["default"]!)).toMatch(/ file:m\.json +improve=true +8$/);
    expect(row(ids["noImprove"]!)).toMatch(/ file:m\.json +improve=false +8$/);
    expect(row(ids["four"]!)).toMatch(/ file:m\.json +improve=true +4$/);
  });
});

describe("store list: filters", () => {
  it("keeps the entries matching every filter given (text and --json alike), and every damaged one", async () => {
    const d = dir();
    const s = join(d, "s");
    writeFileSync(
      join(d, "spec.json"),
      JSON.stringify({
        patterns: ["uniform", "pattern1"],
        p: [6, 8],
        seeds: [1, 2],
        machines: ["t3d-004"],
        algorithms: ["shift", "rs-nh"],
      }),
    );
    expect((await run("precompute", join(d, "spec.json"), "--store", s, "--jobs", "1")).code).toBe(0);
    const rows = async (...filters: string[]): Promise<string[]> => {
      const r = await run("store", "list", s, ...filters);
      expect(r.code, r.err).toBe(0);
      const json = await run("store", "list", s, "--json", ...filters);
      const ids = (JSON.parse(json.out) as { entries: { id: string }[] }).entries.map((e) => e.id);
      const lines = r.out.trimEnd().split("\n").slice(1);
      expect(lines.map((l) => l.split(" ")[0])).toEqual(ids); // --json carries the rows the text shows
      return lines;
    };
    expect(await rows()).toHaveLength(16);
    const picked = await rows("-a", "rs-nh", "--ranks", "8", "--seed", "2", "--pattern", "pattern1");
    expect(picked).toHaveLength(1);
    expect(picked[0]).toMatch(/ rs-nh +8 +2 +no +t3d-004 .* pattern1\(seed=2\) /);
    expect(await rows("--machine", "t3d-004")).toHaveLength(8); // shift ignores a machine: its key has none
    expect(await rows("--machine", "sp2-004")).toHaveLength(0);
    expect(await rows("--pattern", "uniform", "-a", "shift")).toHaveLength(4);
    // a damaged entry has no key to match: a filter never hides it
    const id = picked[0]!.split(" ")[0]!;
    const file = join(s, "entries", id.slice(0, 2), `${id}.arrow`);
    const b = readFileSync(file);
    b[b.length >> 1]! ^= 4;
    writeFileSync(file, b);
    const withDamage = await rows("-a", "shift", "--ranks", "6");
    expect(withDamage).toHaveLength(5);
    expect(withDamage.filter((l) => l.startsWith(`${id} `) && l.includes("DAMAGED"))).toHaveLength(1);
    for (const [flag, value, message] of [
      ["--machine", "t3d", /unknown machine 't3d' \(did you mean t3d-004/],
      ["-a", "colouring", /unknown algorithm 'colouring' \(did you mean coloring/],
      ["--ranks", "0", /--ranks \(--p\) must be an integer >= 1, got '0'/],
    ] as const) {
      const r = await run("store", "list", s, flag, value);
      expect(r).toMatchObject({ code: 2, out: "" });
      expect(r.err).toMatch(message);
      expect(r.err.trimEnd().split("\n")).toHaveLength(1);
    }
  });

  it("filters matching no entry: one line on stderr naming them (and the store's origins for --pattern), exit 0", async () => {
    const d = dir();
    const s = join(d, "s");
    for (const name of ["uniform", "pattern1"]) {
      expect((await run("gen", name, "--ranks", "6", "--seed", "1", "-o", join(d, `${name}.json`))).code).toBe(0);
      expect((await run("store", "add", s, join(d, `${name}.json`), "-a", "shift")).code).toBe(0);
    }
    const typo = await run("store", "list", s, "--pattern", "unifrm.json");
    expect(typo).toMatchObject({
      code: 0,
      out: "id  algorithm  P  seed  payload  machine  bytes  created  origin  params  element bytes\n",
    });
    expect(typo.err).toBe(
      "store list: no entry matches --pattern unifrm.json (origins in this store: pattern1.json, uniform.json; " +
        "did you mean uniform.json?)\n",
    );
    // --json is as before (no entry) and says so on stderr alike
    const json = await run("store", "list", s, "--json", "--pattern", "unifrm.json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual({ format: "commplan.store-list/v1", entries: [], damage: [] });
    expect(json.err).toBe(typo.err);
    // a pattern the store has, with a filter that rules its entries out: the filters named, no origins
    const none = await run("store", "list", s, "--pattern", "uniform.json", "--ranks", "7");
    expect(none).toMatchObject({ code: 0, err: "store list: no entry matches --ranks 7 --pattern uniform.json\n" });
    // a filter that matches, or none given: nothing on stderr
    for (const filters of [["--pattern", "uniform.json"], []]) {
      const r = await run("store", "list", s, ...filters);
      expect(r).toMatchObject({ code: 0, err: "" });
      expect(r.out.trimEnd().split("\n").length).toBe(filters.length === 0 ? 3 : 2);
    }
  });
});

describe("store add and precompute: the budget counts the plan", () => {
  it("a plan that plan refuses under --max-memory is refused by store add and is unplannable in precompute: nothing added; a present entry past it is unchecked", async () => {
    const d = dir();
    const m = join(d, "m.json");
    expect((await run("gen", "uniform", "--p", "512", "-o", m)).code).toBe(0);
    const plan = await run("plan", m, "-a", "shift", "--max-memory", "8M", "-o", join(d, "p.json"));
    expect(plan.code).toBe(2);
    expect(plan.err).toMatch(/^plan: .*planning shift for P = 512 needs about .* past the memory budget of 8 MiB/);
    const add = await run("store", "add", join(d, "s"), m, "-a", "shift", "--max-memory", "8M");
    expect(add).toMatchObject({ code: 2, out: "" });
    expect(add.err).toMatch(
      /^store add: .*m\.json: planning shift for P = 512 into a store entry needs about 15 MiB, past the memory budget of 8 MiB \(raise it with --max-memory/,
    );
    expect(add.err.trimEnd().split("\n")).toHaveLength(1);
    writeFileSync(
      join(d, "spec.json"),
      JSON.stringify({ patterns: ["uniform"], p: [512], seeds: [1], algorithms: ["shift"] }),
    );
    for (const jobs of ["1", "2"]) {
      const pre = await run(
        "precompute",
        join(d, "spec.json"),
        "--store",
        join(d, "s"),
        "--jobs",
        jobs,
        "--max-memory",
        "8M",
      );
      expect(pre.err, jobs).toMatch(
        /unplannable: uniform P=512 seed=1 shift: .*into a store entry needs about .*--max-memory/,
      );
      expect(pre.err, jobs).toContain("1 job: 0 added, 0 present, 1 unplannable");
    }
    expect(readdirSync(join(d, "s", "entries"))).toEqual([]);
    expect((await run("store", "add", join(d, "s"), m, "-a", "shift", "--max-memory", "16M")).code).toBe(0);
    // a rerun loads a present entry to judge it: within the budget too, as store get does (twice its file)
    const spec = join(d, "spec.json");
    const pre = (mm: string): Promise<{ code: number; err: string }> =>
      run("precompute", spec, "--store", join(d, "s"), "--jobs", "1", "--max-memory", mm);
    expect((await pre("16M")).err).toContain("1 job: 0 added, 1 present"); // store add's entry: the same key
    // past it, the entry is present but not checked: neither judged sound, nor unplannable, nor planned again
    const id = readdirSync(join(d, "s", "entries", readdirSync(join(d, "s", "entries"))[0]!))[0]!.slice(0, 64);
    const size = readFileSync(join(d, "s", "entries", id.slice(0, 2), `${id}.arrow`)).length;
    const refused = await pre("8M");
    expect(refused.code).toBe(0);
    expect(refused.err).toBe(
      `precompute: unchecked: uniform P=512 seed=1 shift: entry ${id} is present (its seal and key sound) but its columns were not decoded: loading its ${size}-byte file needs about 9.49 MiB, past the memory budget of 8 MiB (raise it with --max-memory, e.g. --max-memory 10M)\n` +
        "precompute: 1 job: 0 added, 0 present, 1 present but not checked, 0 unplannable, 0 damaged\n",
    );
    const json = await run("precompute", spec, "--store", join(d, "s"), "--jobs", "2", "--max-memory", "8M", "--json");
    const doc = JSON.parse(json.out) as { jobs: { status: string; id: string }[]; totals: object };
    expect(() => validateWithSchema("precompute", doc, "test")).not.toThrow();
    expect(doc.jobs.map((j) => [j.status, j.id])).toEqual([["unchecked", id]]);
    expect(doc.totals).toEqual({ jobs: 1, added: 0, present: 0, unchecked: 1, unplannable: 0, damaged: 0 });
    expect((await pre("10M")).err).toContain("1 job: 0 added, 1 present");
    // past the budget an entry is still judged in bounded memory: a damaged one (a byte changed, a link) is damaged
    const file = join(d, "s", "entries", id.slice(0, 2), `${id}.arrow`);
    const bytes = readFileSync(file);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(size / 2)]! ^= 1;
    writeFileSync(file, flipped);
    const corrupt = await pre("8M");
    expect(corrupt.code).toBe(1);
    expect(corrupt.err).toContain(
      `precompute: damaged: uniform P=512 seed=1 shift: store: ${file}: entry ${id} is damaged (checksum mismatch (`,
    );
    writeFileSync(join(d, "real.arrow"), bytes);
    rmSync(file);
    symlinkSync(join(d, "real.arrow"), file);
    for (const mm of ["8M", "16M"]) {
      const linked = await pre(mm);
      expect(linked.code, mm).toBe(1);
      expect(linked.err, mm).toContain(
        `precompute: damaged: uniform P=512 seed=1 shift: store: ${file}: entry ${id} is damaged (a symbolic link, not a file): refused;`,
      );
    }
  });
});
