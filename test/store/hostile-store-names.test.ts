/**
 * The plan store against hostile trees, beyond hostile-store.test.ts: an entry whose name does not match its content
 * (another entry's bytes copied under its name), a store path that is a file, a link at the log or the marker (never
 * read through: list shows no creation record from a file outside the store), and links and directories in tmp/ (gc
 * removes the link, never what it points at). Each is one line or a named damage, never exit 70, never a write or a
 * removal outside the store.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/registry.js";
import { encodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { openPlanStore, resolveStoreRequest } from "../../src/store/index.js";
import { SEAL_KEY, SEAL_PLACEHOLDER, sealBytes } from "../../src/store/entry-seal.js";
import type { JsonValue } from "../../src/model/schedule.js";

/** Runs a store command and checks it neither crashed (exit 70) nor printed a bare system error. */
async function store(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await run("store", ...argv);
  expect(r.code, `${argv.join(" ")}: ${r.err}`).not.toBe(70);
  expect(r.err, argv.join(" ")).not.toMatch(/EISDIR|ENOTDIR|ELOOP|internal error| {4}at /);
  return r;
}

/** A store S with two entries of one matrix (shift and coloring) and a victim directory outside it. */
async function storeOfTwo(): Promise<{ d: string; s: string; ids: string[]; files: string[]; victim: string }> {
  const d = tempDir("store-hostile-names");
  expect((await run("gen", "uniform", "--p", "8", "-o", join(d, "m.json"))).code).toBe(0);
  const s = join(d, "S");
  const ids: string[] = [];
  for (const a of ["shift", "coloring"]) {
    const add = await store("add", s, join(d, "m.json"), "-a", a);
    expect(add.code, add.err).toBe(0);
    ids.push(add.out.trim());
  }
  const victim = join(d, "victim");
  mkdirSync(victim);
  writeFileSync(join(victim, "x"), "precious\n");
  return { d, s, ids, files: ids.map((id) => join(s, "entries", id.slice(0, 2), `${id}.arrow`)), victim };
}

describe("plan store: an entry whose name does not match its content", () => {
  it("another entry's sealed bytes under its name: never served, named by list and verify, refused by add, removed by gc", async () => {
    const { d, s, ids, files } = await storeOfTwo();
    copyFileSync(files[0]!, files[1]!); // the shift plan, sealed and sound, filed as the coloring entry
    const why = "its key does not match its name";
    const get = await store("get", s, "--id", ids[1]!);
    expect(get.code).toBe(2);
    expect(get.out).toBe("");
    expect(get.err).toBe(
      `store get: ${files[1]}: entry ${ids[1]} is damaged (${why}): refused; ` +
        "'commplan store gc' removes it and the next add rewrites it\n",
    );
    const byRequest = await store("get", s, join(d, "m.json"), "-a", "coloring");
    expect(byRequest.code).toBe(2);
    expect(byRequest.err).toContain(why);
    const list = await store("list", s);
    expect(list.out.split("\n").find((l) => l.startsWith(ids[1]!))).toContain(why);
    const verify = await store("verify", s);
    expect(verify.code).toBe(1);
    expect(verify.err).toBe(`store verify: ${files[1]}: entry ${ids[1]} is damaged: ${why}\n`);
    const add = await store("add", s, join(d, "m.json"), "-a", "coloring");
    expect(add.code).toBe(2);
    expect(add.err.split("\n")).toHaveLength(2);
    expect(add.err).toContain(why);
    expect((await store("gc", s)).out).toBe("store gc: removed 0 temporary files and 1 damaged entry\n");
    expect(existsSync(files[0]!)).toBe(true); // the entry whose bytes were copied stays
    expect((await store("add", s, join(d, "m.json"), "-a", "coloring")).out.trim()).toBe(ids[1]);
    expect((await store("verify", s)).code).toBe(0);
  });
});

describe("plan store: a store path that is a file", () => {
  it("every command refuses it in one line naming it, exit 2, and leaves it as it was", async () => {
    const d = tempDir("store-path-file");
    const m = join(d, "m.json");
    expect((await run("gen", "uniform", "--p", "4", "-o", m)).code).toBe(0);
    const file = join(d, "notes.txt");
    writeFileSync(file, "not a store\n");
    for (const argv of [
      ["add", file, m, "-a", "shift"],
      ["get", file, m, "-a", "shift"],
      ["get", file, "--id", "a".repeat(64)],
      ["list", file],
      ["verify", file],
      ["gc", file],
      ["gc", file, "--dry-run"],
    ]) {
      const r = await store(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err, argv.join(" ")).toBe(
        `store ${argv[0]}: ${file}: is a file, not a plan store directory (give a directory, new or a store)\n`,
      );
    }
    const spec = join(d, "spec.json");
    writeFileSync(spec, JSON.stringify({ patterns: ["uniform"], p: [4], seeds: [1], algorithms: ["shift"] }));
    const pre = await run("precompute", spec, "--store", file);
    expect(pre).toMatchObject({ code: 2, out: "" });
    expect(pre.err).toBe(
      `precompute: ${file}: is a file, not a plan store directory (give a directory, new or a store)\n`,
    );
    expect(readFileSync(file, "utf8")).toBe("not a store\n");
  });
});

describe("plan store: a directory that is not a store yet, with a link where a part of the store goes", () => {
  for (const part of ["tmp", "entries", "log"])
    it(`a dangling link at ${part}: add names it in one line, makes nothing through it`, async () => {
      const d = tempDir("store-new-link");
      expect((await run("gen", "uniform", "--p", "4", "-o", join(d, "m.json"))).code).toBe(0);
      const s = join(d, "S");
      mkdirSync(s);
      mkdirSync(join(d, "victim"));
      symlinkSync(join(d, "victim", "new"), join(s, part));
      const add = await store("add", s, join(d, "m.json"), "-a", "shift");
      expect(add.code).toBe(2);
      const what = { tmp: "its temporary files", entries: "its entries", log: "its log (a file)" }[part];
      expect(add.err).toBe(
        `store add: ${join(s, part)}: a symbolic link where the store keeps ${what}, in a directory that is not a plan ` +
          "store yet (no commplan-store.json): refused; remove it or give another directory\n",
      );
      expect(readdirSync(join(d, "victim"))).toEqual([]);
      expect(existsSync(join(s, "commplan-store.json"))).toBe(false);
    });
});

describe("plan store: links at the log and the marker, links and directories in tmp/", () => {
  it("a link at S/log to a file outside: list shows no creation record read through it, verify names it, gc unlinks it", async () => {
    const { s, ids, victim } = await storeOfTwo();
    const outside = join(victim, "log");
    const forged = { add: ids[0], host: "forged", pid: 1, time: "2000-01-01T00:00:00.000Z" };
    writeFileSync(outside, JSON.stringify(forged) + "\n");
    rmSync(join(s, "log"));
    symlinkSync(outside, join(s, "log"));
    const list = await store("list", s, "--json");
    expect(list.code).toBe(0);
    const doc = JSON.parse(list.out) as { entries: { created: unknown }[]; damage: { file: string }[] };
    expect(doc.entries.map((e) => e.created)).toEqual([null, null]);
    expect(doc.damage.map((x) => x.file)).toEqual([join(s, "log")]);
    expect((await store("verify", s)).err).toBe(
      `store verify: ${join(s, "log")}: a symbolic link where the store keeps its log (a file)\n`,
    );
    expect((await store("gc", s)).code).toBe(0);
    expect(existsSync(join(s, "log"))).toBe(false);
    expect(readFileSync(outside, "utf8")).toBe(JSON.stringify(forged) + "\n");
    execFileSync("mkfifo", [join(s, "log")]); // list reads the log: a FIFO there is never opened (no hang)
    expect((JSON.parse((await store("list", s, "--json")).out) as { damage: unknown[] }).damage).toHaveLength(1);
    rmSync(join(s, "log"));
    expect((await store("verify", s)).code).toBe(0);
  });

  it("a link at the marker to a sound marker outside is refused, never read through; nothing is written", async () => {
    const { d, s, victim } = await storeOfTwo();
    const marker = join(s, "commplan-store.json");
    copyFileSync(marker, join(victim, "marker.json"));
    rmSync(marker);
    symlinkSync(join(victim, "marker.json"), marker);
    for (const argv of [
      ["list", s],
      ["verify", s],
      ["gc", s],
      ["add", s, join(d, "m.json"), "-a", "linear-permutation"],
    ]) {
      const r = await store(...argv);
      expect(r.code, argv[0]).toBe(2);
      expect(r.err, argv[0]).toBe(
        `store ${argv[0]}: ${marker}: commplan-store.json is not a commplan.store/v1 marker\n`,
      );
    }
    expect((await store("list", s)).out).toBe("");
    expect(readFileSync(join(s, "log"), "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("a link and a directory holding a link in S/tmp: gc removes them, never what they point at", async () => {
    const { s, victim } = await storeOfTwo();
    symlinkSync(victim, join(s, "tmp", "vm.1.abc.tmp"));
    mkdirSync(join(s, "tmp", "dir"));
    symlinkSync(victim, join(s, "tmp", "dir", "inner"));
    symlinkSync(join(victim, "x"), join(s, "tmp", "dir", "file"));
    const verify = await store("verify", s, "--json");
    expect((JSON.parse(verify.out) as { temps: number }).temps).toBe(2);
    const gc = await store("gc", s);
    expect(gc.code).toBe(0);
    expect(gc.out).toBe("store gc: removed 2 temporary files and 0 damaged entries\n");
    expect(readFileSync(join(victim, "x"), "utf8")).toBe("precious\n");
    expect(existsSync(join(s, "tmp", "dir"))).toBe(false);
    expect((await store("verify", s)).code).toBe(0);
  });
});

describe("plan store: an old entry's header `created` that is not a creation record", () => {
  const m = generatePattern("uniform", 8, {}, 1);
  const forged: [string, JsonValue][] = [
    ["an object of the wrong types", { host: "h", pid: 1, time: 5 }],
    ["a string", "yesterday"],
    ["an array", ["h", 1, "t"]],
  ];
  for (const [what, created] of forged)
    it(`${what}: list shows no creation record (null in --json, valid against the schema), never exit 70`, async () => {
      const s = openPlanStore(join(tempDir("old-created"), "s"), true);
      const r = resolveStoreRequest(m, "shift");
      const extra = { store: { id: r.id, key: r.key as unknown as JsonValue }, created };
      const bytes = encodeScheduleArrow(plan(m, "shift"), extra, { [SEAL_KEY]: SEAL_PLACEHOLDER });
      sealBytes(bytes);
      mkdirSync(join(s.dir, "entries", r.id.slice(0, 2)));
      writeFileSync(join(s.dir, "entries", r.id.slice(0, 2), `${r.id}.arrow`), bytes);
      const list = await store("list", s.dir);
      expect(list.code).toBe(0);
      expect(list.out).toContain(r.id);
      const json = await store("list", s.dir, "--json");
      expect(json.code).toBe(0);
      const doc = JSON.parse(json.out) as { entries: { id: string; created: unknown; problem: unknown }[] };
      expect(() => validateWithSchema("store-list", doc, "test")).not.toThrow();
      expect(doc.entries.map((e) => [e.id, e.created, e.problem])).toEqual([[r.id, null, null]]);
      expect((await store("verify", s.dir)).code).toBe(0);
    });
});
