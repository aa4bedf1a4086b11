/**
 * store verify checks the lowered programs precompute --from-capture keeps in STORE/programs/<key>/ as it checks the
 * entries: a damaged rank file, index.json or plan.json is named, counted apart in the JSON (damagedPrograms,
 * valid against store-verify.v1), exit 1; a sound program counts in `programs`.
 * An entry file under another prefix than its id's is reported by list and verify, and removed by gc (a stray older
 * than an hour; see test/store/store-gc-strays.test.ts for a young one).
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { openPlanStore, verifyStore } from "../../src/store/index.js";
import { run } from "../helpers/cli.js";
import { MOE_CAPTURE, writeCapture } from "../helpers/capture.js";
import { tempDir } from "../helpers/temp-dir.js";
import { captureKey } from "../../src/cli/capture-key.js";

const KEY = captureKey(MOE_CAPTURE);

/** A store at d/s holding one entry and the program precompute --from-capture lowers from one capture. */
async function storeWithProgram(d: string): Promise<string> {
  const cap = join(d, "cap");
  writeCapture(cap, MOE_CAPTURE);
  const s = join(d, "s");
  expect(await precomputeAgain(d)).toContain("1 added");
  return s;
}

/** precompute --from-capture of d/cap into d/s again: its summary line (stderr). */
async function precomputeAgain(d: string): Promise<string> {
  const cap = join(d, "cap"),
    s = join(d, "s");
  const r = await run("precompute", "--from-capture", cap, "--store", s, "--machine", "t3d-004", "--runtime", "none");
  expect(r.code, r.err).toBe(0);
  return r.err;
}

/** store verify --json of `s`, checked against its schema. */
async function verifyJson(s: string, code: number): Promise<Record<string, unknown>> {
  return verifyJsonWith(s, [], code);
}

/** store verify --json of `s` with more arguments, checked against its schema. */
async function verifyJsonWith(s: string, more: string[], code = 1): Promise<Record<string, unknown>> {
  const r = await run("store", "verify", s, "--json", ...more);
  expect(r.code, r.err).toBe(code);
  const doc = JSON.parse(r.out) as Record<string, unknown>;
  expect(() => validateWithSchema("store-verify", doc, "test")).not.toThrow();
  return doc;
}

describe("store verify: the programs of precompute --from-capture", () => {
  it("a sound program is counted; a cut rank file is named, counted apart, exit 1", async () => {
    const s = await storeWithProgram(tempDir("verify-programs"));
    expect(await verifyJson(s, 0)).toMatchObject({ consistent: true, entries: 1, programs: 1, damagedPrograms: [] });
    const text = await run("store", "verify", s);
    expect(text.out).toBe("store verify: 1 entry, 0 damaged, 1 program (0 damaged), 0 temporary files - consistent\n");
    const rank = join(s, "programs", KEY, "rank-2.json");
    writeFileSync(rank, readFileSync(rank, "utf8").slice(0, 200));
    const doc = await verifyJson(s, 1);
    expect(doc).toMatchObject({ consistent: false, entries: 1, damaged: [], parts: [], programs: 1 });
    expect(doc["damagedPrograms"]).toEqual([
      { key: KEY, file: rank, problem: expect.stringMatching(/^line \d+: not valid JSON: /) as unknown },
    ]);
    const bad = await run("store", "verify", s);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(
      new RegExp(`^store verify: ${rank}: program ${KEY} is damaged: line \\d+: not valid JSON: [^\\n]*\\n$`),
    );
    expect(bad.out).toMatch(/1 program \(1 damaged\).*precompute --from-capture' again/);
  });

  it("a missing rank file, a plan.json for another key or P, and a stray entry are each named", async () => {
    const s = await storeWithProgram(tempDir("verify-programs"));
    const dir = join(s, "programs", KEY);
    rmSync(join(dir, "rank-3.json"));
    expect((await verifyJson(s, 1))["damagedPrograms"]).toEqual([
      { key: KEY, file: join(dir, "rank-3.json"), problem: "no such file" },
    ]);
    const plan = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(dir, "plan.json"), JSON.stringify({ ...plan, key: "0".repeat(32) }));
    mkdirSync(join(s, "programs", "notes"));
    mkdirSync(join(s, "programs", `.${KEY}.host.1.tmp`)); // a running precompute's: left alone
    expect((await verifyJson(s, 1))["damagedPrograms"]).toEqual([
      { key: KEY, file: join(dir, "plan.json"), problem: `/key is not its directory's name, ${KEY}` },
      {
        key: "notes",
        file: join(s, "programs", "notes"),
        problem: "not a program of the store: its name is not a capture key (32 hex digits)",
      },
    ]);
  });
});

describe("store list and verify: an entry under the wrong prefix", () => {
  it("is reported by list (stderr, JSON damage) and verify (a damaged part, exit 1), and removed by gc", async () => {
    const d = tempDir("misplaced");
    const m = join(d, "m.json"),
      s = join(d, "s");
    expect((await run("gen", "uniform", "--p", "4", "-o", m)).code).toBe(0);
    const id = (await run("store", "add", s, m, "-a", "shift")).out.trim();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const wrong = id.startsWith("00") ? "01" : "00";
    mkdirSync(join(s, "entries", wrong));
    const file = join(s, "entries", wrong, `${id}.arrow`);
    copyFileSync(join(s, "entries", id.slice(0, 2), `${id}.arrow`), file);
    const problem =
      `an entry under the wrong prefix: the store looks entry ${id} up in entries/${id.slice(0, 2)}/ and never ` +
      "serves it from here";
    const list = await run("store", "list", s);
    expect(list.code).toBe(0);
    expect(list.err).toBe(`store list: ${file}: ${problem}\n`);
    expect(list.out.trim().split("\n")).toHaveLength(2); // the header and the one entry it serves
    const listJson = JSON.parse((await run("store", "list", s, "--json")).out) as { damage: unknown[] };
    expect(listJson.damage).toEqual([{ file, problem }]);
    const verify = await verifyJson(s, 1);
    expect(verify).toMatchObject({ consistent: false, entries: 1, damaged: [], parts: [{ file, problem }] });
    const text = await run("store", "verify", s);
    expect(text.out).toBe(
      "store verify: 1 entry, 0 damaged, 1 damaged part, 0 temporary files - run 'commplan store gc'\n",
    );
    expect((await run("store", "gc", s)).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(await verifyJson(s, 0)).toMatchObject({ consistent: true, entries: 1, parts: [] });
  });
});

describe("store list and verify: names the store does not keep under entries/", () => {
  it("a non-hex directory, a file in entries/, a stray in a prefix: reported by list and verify, removed by gc", async () => {
    const d = tempDir("stray");
    const m = join(d, "m.json"),
      s = join(d, "s");
    expect((await run("gen", "uniform", "--p", "4", "-o", m)).code).toBe(0);
    const id = (await run("store", "add", s, m, "-a", "shift")).out.trim();
    const entries = join(s, "entries");
    const top = "(entries/ holds only prefix directories of two hex digits): never read";
    const inPrefix = "(a prefix directory holds only entries, <64 hex digits>.arrow): never read";
    mkdirSync(join(entries, "backup"));
    mkdirSync(join(entries, "AB")); // upper case: not a prefix the store makes
    writeFileSync(join(entries, "notes.txt"), "x\n");
    writeFileSync(join(entries, id.slice(0, 2), `${id}.arrow~`), "x\n");
    // older than an hour: a stray younger is left alone by gc (test/store/store-gc-strays.test.ts)
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const n of ["backup", "AB", "notes.txt", join(id.slice(0, 2), `${id}.arrow~`)])
      utimesSync(join(entries, n), old, old);
    const damage = [
      { file: join(entries, "AB"), problem: `a directory the store does not keep ${top}` },
      { file: join(entries, "backup"), problem: `a directory the store does not keep ${top}` },
      { file: join(entries, id.slice(0, 2), `${id}.arrow~`), problem: `a file the store does not keep ${inPrefix}` },
      { file: join(entries, "notes.txt"), problem: `a file the store does not keep ${top}` },
    ].sort((a, b) => (a.file < b.file ? -1 : 1)); // the order the store lists its names in
    const list = await run("store", "list", s);
    expect(list.code).toBe(0);
    expect(list.err).toBe(damage.map((x) => `store list: ${x.file}: ${x.problem}\n`).join(""));
    expect(list.out.trim().split("\n")).toHaveLength(2); // the header and the one entry
    const listJson = JSON.parse((await run("store", "list", s, "--json")).out) as { damage: unknown[] };
    expect(listJson.damage).toEqual(damage);
    expect(await verifyJson(s, 1)).toMatchObject({ consistent: false, entries: 1, damaged: [], parts: damage });
    expect((await run("store", "verify", s)).out).toBe(
      "store verify: 1 entry, 0 damaged, 4 damaged parts, 0 temporary files - run 'commplan store gc'\n",
    );
    expect((await run("store", "gc", s)).code).toBe(0);
    for (const x of damage) expect(existsSync(x.file), x.file).toBe(false);
    expect(await verifyJson(s, 0)).toMatchObject({ consistent: true, entries: 1, parts: [] });
  });
});

describe("store verify and precompute --from-capture share one check of a program", () => {
  const edits: [string, Record<string, unknown>, string][] = [
    ["an older format", { format: "commplan.libplan/v0" }, "/format is not 'commplan.libplan/v1'"],
    ["another P", { p: 8 }, "its program is for p 4 and elementBytes 24, its plan.json says p 8 and elementBytes 24"],
    ["another key", { key: "0".repeat(32) }, `/key is not its directory's name, ${KEY}`],
    ["no entry", { entry: undefined }, "/entry is not a non-empty string"],
    ["a numeric algorithm", { algorithm: 7 }, "/algorithm is not a non-empty string"],
  ];
  it.each(edits)(
    "a plan.json with %s: verify flags it, precompute replaces it, verify then passes",
    async (_, edit, problem) => {
      const d = tempDir("verify-programs");
      const s = await storeWithProgram(d);
      const planFile = join(s, "programs", KEY, "plan.json");
      const plan = JSON.parse(readFileSync(planFile, "utf8")) as Record<string, unknown>;
      writeFileSync(planFile, JSON.stringify({ ...plan, ...edit }));
      expect((await verifyJson(s, 1))["damagedPrograms"]).toEqual([{ key: KEY, file: planFile, problem }]);
      expect(await precomputeAgain(d)).toContain("0 added, 0 present, 1 replaced");
      expect(await verifyJson(s, 0)).toMatchObject({ consistent: true, programs: 1, damagedPrograms: [] });
      expect(JSON.parse(readFileSync(planFile, "utf8"))).toMatchObject({
        format: "commplan.libplan/v1",
        key: KEY,
        p: 4,
      });
      expect(await precomputeAgain(d)).toContain("0 added, 1 present, 0 replaced");
    },
  );
});

describe("store verify and gc: programs/ as a part of the store", () => {
  it("a file where programs/ should be is a damaged part (gc's to repair), not a damaged program", async () => {
    const d = tempDir("verify-programs");
    const s = await storeWithProgram(d);
    const programs = join(s, "programs");
    rmSync(programs, { recursive: true });
    writeFileSync(programs, "x\n");
    const problem = "a file where the store keeps its programs (a directory)";
    const doc = await verifyJson(s, 1);
    expect(doc).toMatchObject({ parts: [{ file: programs, problem }], programs: 0, damagedPrograms: [] });
    const text = await run("store", "verify", s);
    expect(text.err).toBe(`store verify: ${programs}: ${problem}\n`);
    expect(text.out).toBe(
      "store verify: 1 entry, 0 damaged, 1 damaged part, 0 temporary files - run 'commplan store gc'\n",
    );
    // precompute refuses the store until gc repaired it (it crashed writing into the file)
    const refusal = `precompute: ${programs}: ${problem}: run 'commplan store gc'\n`;
    const cap = join(d, "cap");
    const argv = ["precompute", "--from-capture", cap, "--store", s, "--machine", "t3d-004", "--runtime", "none"];
    expect(await run(...argv)).toMatchObject({ code: 2, out: "", err: refusal });
    // a link there, even to a directory: refused, nothing written through it outside the store
    const outside = join(d, "outside");
    mkdirSync(outside);
    rmSync(programs);
    symlinkSync(outside, programs);
    const linkProblem = "a symbolic link where the store keeps its programs (a directory)";
    expect(await run(...argv)).toMatchObject({
      code: 2,
      err: `precompute: ${programs}: ${linkProblem}: run 'commplan store gc'\n`,
    });
    expect(readdirSync(outside)).toEqual([]);
    expect((await run("store", "gc", s)).code).toBe(0);
    expect(existsSync(programs)).toBe(false);
    expect(await verifyJson(s, 0)).toMatchObject({ consistent: true, parts: [], programs: 0 });
    expect(await precomputeAgain(d)).toContain("1 added");
    expect(await verifyJson(s, 0)).toMatchObject({ consistent: true, programs: 1 });
  });

  it("store add with a file where programs/ should be: says so, as list does, and adds (it writes no program)", async () => {
    const d = tempDir("verify-programs");
    const s = join(d, "s");
    const m = join(d, "m.json");
    expect((await run("gen", "uniform", "--p", "4", "-o", m)).code).toBe(0);
    expect((await run("store", "add", s, m, "-a", "shift")).code).toBe(0);
    const programs = join(s, "programs");
    writeFileSync(programs, "x\n");
    const problem = "a file where the store keeps its programs (a directory)";
    const warning = `store add: ${programs}: ${problem}: add goes on (it writes entries, never a program); 'commplan store gc' repairs it\n`;
    const add = await run("store", "add", s, m, "-a", "coloring");
    expect(add.code, add.err).toBe(0);
    expect(add.err).toBe(`${warning}store add: ${add.out.trim()} added\n`);
    // present already: the same line, then present
    const again = await run("store", "add", s, m, "-a", "coloring");
    expect(again).toMatchObject({ code: 0, err: `${warning}store add: ${add.out.trim()} present\n` });
    expect((await run("store", "list", s)).err).toBe(`store list: ${programs}: ${problem}\n`);
    expect(readFileSync(programs, "utf8")).toBe("x\n"); // add neither removed nor wrote through it
  });

  it("an interrupted precompute's .tmp and .old directories are temporary files; gc removes those whose writer is gone", async () => {
    const s = await storeWithProgram(tempDir("verify-programs"));
    const left = (pid: number, end: string): string => join(s, "programs", `.${KEY}.${hostname()}.${pid}.${end}`);
    const gone = [left(999999999, "tmp"), left(999999998, "old")];
    const running = left(process.pid, "tmp");
    for (const dir of [...gone, running]) mkdirSync(dir);
    writeFileSync(join(gone[1]!, "plan.json"), "{}");
    expect(await verifyJson(s, 0)).toMatchObject({ consistent: true, temps: 3, programs: 1, damagedPrograms: [] });
    const gc = JSON.parse((await run("store", "gc", s, "--json")).out) as Record<string, unknown>;
    expect(gc["temps"]).toBe(2);
    expect(gone.filter((g) => existsSync(g))).toEqual([]);
    expect(existsSync(running)).toBe(true);
    expect(await verifyJson(s, 0)).toMatchObject({ temps: 1, programs: 1 });
    rmSync(running, { recursive: true });
  });

  it("a program moved aside whose key has none (interrupted between the renames) is the only copy: gc keeps it", async () => {
    const d = tempDir("verify-programs");
    const s = await storeWithProgram(d);
    const old = join(s, "programs", `.${KEY}.${hostname()}.999999998.old`);
    const tmp = join(s, "programs", `.${KEY}.${hostname()}.999999998.tmp`);
    renameSync(join(s, "programs", KEY), old);
    mkdirSync(tmp);
    expect((JSON.parse((await run("store", "gc", s, "--json")).out) as Record<string, unknown>)["temps"]).toBe(1);
    expect([existsSync(old), existsSync(tmp)]).toEqual([true, false]);
    // precompute writes the key anew; then the copy moved aside is removed as any leftover
    expect(await precomputeAgain(d)).toContain("1 added");
    expect((JSON.parse((await run("store", "gc", s, "--json")).out) as Record<string, unknown>)["temps"]).toBe(1);
    expect(existsSync(old)).toBe(false);
  });
});

describe("store verify: a program past the memory budget", () => {
  it("is listed as not checked (library and CLI, text and JSON), never thrown; exit 1", async () => {
    const s = await storeWithProgram(tempDir("verify-programs"));
    const dir = join(s, "programs", KEY);
    const rank = join(dir, "rank-0.json");
    writeFileSync(rank, readFileSync(rank, "utf8") + " ".repeat(3 << 20)); // trailing white space: still valid JSON
    const rep = verifyStore(openPlanStore(s), { maxMemory: 1 << 20 });
    expect(rep).toMatchObject({ programs: 1, damagedPrograms: [] });
    expect(rep.uncheckedPrograms).toEqual([
      { key: KEY, file: dir, problem: expect.stringMatching(/^not checked: reading the program in .* needs /) },
    ]);
    const doc = await verifyJsonWith(s, ["--max-memory", "1M"]);
    expect(doc).toMatchObject({ consistent: false, programs: 1, damagedPrograms: [] });
    // the CLI names its flag where the library names its option
    expect(rep.uncheckedPrograms[0]!.problem).toMatch(/the option maxMemory/);
    expect(doc["uncheckedPrograms"]).toEqual([
      {
        ...rep.uncheckedPrograms[0],
        problem: expect.stringMatching(/raise it with --max-memory, e\.g\. --max-memory /),
      },
    ]);
    const text = await run("store", "verify", s, "--max-memory", "1M");
    expect(text.code).toBe(1);
    expect(text.err).toMatch(
      new RegExp(
        `^store verify: ${dir}: program ${KEY} was not checked: reading the program in [^\\n]*--max-memory [^\\n]*\\n$`,
      ),
    );
    expect(text.out).toBe(
      "store verify: 1 entry, 0 damaged, 1 program (0 damaged, 1 not checked), 0 temporary files - give a larger " +
        "--max-memory to check the programs not checked\n",
    );
    expect(await verifyJson(s, 0)).toMatchObject({ consistent: true, uncheckedPrograms: [] });
  });
});
