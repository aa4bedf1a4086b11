/** The plan store against hostile trees: links, FIFOs, directories and files swapped, huge sparse entries, bad ids. */
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { getPlanById, openPlanStore } from "../../src/store/index.js";
import { entryFile } from "../../src/store/store-dir.js";
import { tempDir } from "../helpers/temp-dir.js";

function dir(): string {
  return tempDir("store-hostile");
}

/** A store S holding one coloring entry, its id and file, and a victim directory outside it. */
async function storeWithEntry(): Promise<{ d: string; s: string; id: string; file: string; victim: string }> {
  const d = dir();
  expect((await run("gen", "h-relation", "--p", "8", "--h", "2", "-o", join(d, "m.json"))).code).toBe(0);
  const add = await run("store", "add", join(d, "S"), join(d, "m.json"), "-a", "coloring");
  expect(add.code, add.err).toBe(0);
  const id = add.out.trim();
  const victim = join(d, "victim");
  mkdirSync(victim);
  writeFileSync(join(victim, "x"), "precious\n");
  return { d, s: join(d, "S"), id, file: join(d, "S", "entries", id.slice(0, 2), `${id}.arrow`), victim };
}

/** Runs a store command and checks it neither crashed (exit 70) nor wrote more than one line per problem. */
async function store(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await run("store", ...argv);
  expect(r.code, `${argv.join(" ")}: ${r.err}`).not.toBe(70);
  expect(r.err, argv.join(" ")).not.toMatch(/EISDIR|ENOTDIR|out of range|internal error/);
  return r;
}

describe("plan store: nothing outside the store is read, written or removed", () => {
  it("gc does not follow a symbolic link at S/tmp: the files it points at stay, the link is replaced by a directory", async () => {
    const { s, victim } = await storeWithEntry();
    const dead = `${hostname()}.999999999.abcd.tmp`; // a temporary file of a dead writer on this host
    writeFileSync(join(victim, dead), "x");
    rmSync(join(s, "tmp"), { recursive: true });
    symlinkSync(victim, join(s, "tmp"));
    const v = await store("verify", s);
    expect(v.code).toBe(1);
    expect(v.err).toContain(
      `store verify: ${join(s, "tmp")}: a symbolic link where the store keeps its temporary files`,
    );
    // the damaged part is counted as a part, not as a damaged entry (--json has damaged: [] and one part)
    expect(v.out).toBe(
      "store verify: 1 entry, 0 damaged, 1 damaged part, 0 temporary files - run 'commplan store gc'\n",
    );
    const gc = await store("gc", s);
    expect(gc.code, gc.err).toBe(0);
    expect(readdirSync(victim).sort()).toEqual([dead, "x"]);
    expect(lstatSync(join(s, "tmp")).isDirectory()).toBe(true);
    expect((await store("verify", s)).code).toBe(0);
  });

  it("an id must be 64 lowercase hex digits, checked before any path is built", async () => {
    const { s, victim, id } = await storeWithEntry();
    for (const bad of ["../../victim/x", `../${id}`, id.toUpperCase(), id.slice(1), `${id}0`, ""]) {
      const r = await store("get", s, "--id", bad);
      expect(r.code, bad).toBe(2);
      expect(r.err, bad).toMatch(
        /^store get: --id must be 64 lowercase hex digits \(as 'store list' prints it\), got /,
      );
      expect(r.err.split("\n"), bad).toHaveLength(2);
      expect(r.out).toBe("");
    }
    expect(readFileSync(join(victim, "x"), "utf8")).toBe("precious\n");
  });

  it("the library refuses a bad id too, before building a path", async () => {
    const { s } = await storeWithEntry();
    const store = openPlanStore(s);
    for (const bad of ["../../victim/x", "ab", "A".repeat(64)]) {
      expect(() => getPlanById(store, bad), bad).toThrow(/^store: an entry id must be 64 lowercase hex digits/);
      expect(() => entryFile(store, bad), bad).toThrow(/^store: an entry id must be 64 lowercase hex digits/);
    }
  });

  it("get -o onto the entry's own file is refused, and the entry survives", async () => {
    const { s, id, file } = await storeWithEntry();
    const before = readFileSync(file);
    for (const f of ["json", "arrow"]) {
      const r = await store("get", s, "--id", id, "-f", f, "-o", file);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        /^store get: .*\.arrow: -o .*\.arrow is the input file.*: writing it would destroy the input/,
      );
    }
    expect(readFileSync(file).equals(before)).toBe(true);
    expect((await store("verify", s)).code).toBe(0);
  });

  it("a symbolic link in place of an entry is damage: never followed, its target never touched", async () => {
    const { s, id, file, victim } = await storeWithEntry();
    const copy = join(victim, "entry.arrow");
    writeFileSync(copy, readFileSync(file));
    rmSync(file);
    symlinkSync(copy, file);
    const get = await store("get", s, "--id", id);
    expect(get.code).toBe(2);
    expect(get.err).toMatch(
      new RegExp(`^store get: .*${id}\\.arrow: entry ${id} is damaged \\(a symbolic link, not a file\\)`),
    );
    expect((await store("list", s)).out).toContain("DAMAGED");
    expect((await store("verify", s)).err).toContain(`entry ${id} is damaged: a symbolic link, not a file`);
    expect((await store("gc", s)).out).toContain("1 damaged entry");
    expect(existsSync(file)).toBe(false);
    expect(existsSync(copy)).toBe(true);
  });

  it("a symbolic link at S/entries or at a prefix directory is damage: gc never removes what it points at", async () => {
    for (const where of ["entries", "prefix"] as const) {
      const { s, id, victim } = await storeWithEntry();
      const outside = join(victim, "entries");
      const link = where === "entries" ? join(s, "entries") : join(s, "entries", id.slice(0, 2));
      mkdirSync(join(outside, id.slice(0, 2)), { recursive: true });
      const outsideEntry =
        where === "entries" ? join(outside, id.slice(0, 2), `${id}.arrow`) : join(outside, `${id}.arrow`);
      writeFileSync(outsideEntry, "not an entry");
      rmSync(link, { recursive: true });
      symlinkSync(where === "entries" ? outside : outside, link);
      for (const cmd of ["list", "verify", "get", "gc"]) {
        const r = await store(...(cmd === "get" ? [cmd, s, "--id", id] : [cmd, s]));
        expect(r.err, `${where} ${cmd}`).toContain("a symbolic link where the store keeps");
      }
      expect(readFileSync(outsideEntry, "utf8"), where).toBe("not an entry");
      expect(lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() ?? false, where).toBe(false);
    }
  });

  it("a symbolic link at S/log is never appended to; add refuses up front, before adding", async () => {
    const { d, s, victim } = await storeWithEntry();
    rmSync(join(s, "log"));
    symlinkSync(join(victim, "x"), join(s, "log"));
    const r = await store("add", s, join(d, "m.json"), "-a", "shift");
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `store add: ${join(s, "log")}: a symbolic link where the store keeps its log (a file): refused before adding; 'commplan store gc' repairs it\n`,
    );
    expect(readFileSync(join(victim, "x"), "utf8")).toBe("precious\n");
    expect((await store("list", s)).out.split("\n").filter((l) => /shift/.test(l))).toEqual([]);
  });
});

describe("plan store: a FIFO, a directory or a file where the store expects another kind is damage", () => {
  it("a FIFO in place of an entry: reported, listed, refused by get and add, removed by gc (never opened)", async () => {
    const { d, s, id, file } = await storeWithEntry();
    rmSync(file);
    execFileSync("mkfifo", [file]);
    const v = await store("verify", s);
    expect(v.code).toBe(1);
    expect(v.err).toBe(`store verify: ${file}: entry ${id} is damaged: a FIFO, not a file\n`);
    expect((await store("list", s)).out).toMatch(/DAMAGED.*a FIFO, not a file/);
    for (const argv of [
      ["get", s, "--id", id],
      ["add", s, join(d, "m.json"), "-a", "coloring"],
    ]) {
      const r = await store(...argv);
      expect(r.code, argv[0]).toBe(2);
      expect(r.err, argv[0]).toMatch(
        new RegExp(`^store ${argv[0]}: .*: entry ${id} is damaged \\(a FIFO, not a file\\)`),
      );
    }
    expect((await store("gc", s)).out).toContain("1 damaged entry");
    expect(existsSync(file)).toBe(false);
  });

  it("a directory in place of an entry, a file in place of a prefix directory, of S/entries, of S/tmp: exit 1 or 2, never 70", async () => {
    // the algorithm added after the damage: one whose entry or path the damage is on
    const cases: [string, (x: { s: string; id: string; file: string }) => void, RegExp, string][] = [
      [
        "entry is a directory",
        ({ file }) => {
          rmSync(file);
          mkdirSync(file);
        },
        /a directory, not a file/,
        "coloring",
      ],
      [
        "prefix is a file",
        ({ s, id }) => {
          rmSync(join(s, "entries", id.slice(0, 2)), { recursive: true });
          writeFileSync(join(s, "entries", id.slice(0, 2)), "x");
        },
        /a file where the store keeps a directory of entries/,
        "coloring",
      ],
      [
        "entries is a file",
        ({ s }) => {
          rmSync(join(s, "entries"), { recursive: true });
          writeFileSync(join(s, "entries"), "x");
        },
        /a file where the store keeps its entries/,
        "shift",
      ],
      [
        "tmp is a file",
        ({ s }) => {
          rmSync(join(s, "tmp"), { recursive: true });
          writeFileSync(join(s, "tmp"), "x");
        },
        /a file where the store keeps its temporary files/,
        "shift",
      ],
    ];
    for (const [what, damage, message, algorithm] of cases) {
      const x = await storeWithEntry();
      damage(x);
      const list = await store("list", x.s);
      expect(list.code, what).toBe(0);
      expect(list.err + list.out, what).toMatch(message);
      const v = await store("verify", x.s);
      expect(v.code, what).toBe(1);
      expect(v.err, what).toMatch(message);
      const get = await store("get", x.s, "--id", x.id);
      expect(get.code, what).toBe(what === "tmp is a file" ? 0 : 2); // get needs no temporary files
      const add = await store("add", x.s, join(x.d, "m.json"), "-a", algorithm);
      expect(add.code, what).toBe(2);
      expect(add.err, what).toMatch(message);
      expect(add.err.split("\n"), what).toHaveLength(2);
      const gc = await store("gc", x.s);
      expect(gc.code, `${what}: ${gc.err}`).toBe(0);
      expect((await store("verify", x.s)).code, what).toBe(0);
      expect((await store("add", x.s, join(x.d, "m.json"), "-a", "shift")).code, what).toBe(0);
      expect((await store("add", x.s, join(x.d, "m.json"), "-a", "coloring")).code, what).toBe(0);
      expect((await store("verify", x.s)).out, what).toContain("2 entries, 0 damaged");
    }
  });
});

describe("plan store: huge entries, the log and the marker", () => {
  it("a sparse 20 GiB entry is damage (no entry can be that large), never read", async () => {
    const { d, s, id, file } = await storeWithEntry();
    truncateSync(file, 20 * 1024 ** 3);
    const v = await store("verify", s);
    expect(v.code).toBe(1);
    expect(v.err).toMatch(new RegExp(`entry ${id} is damaged: 20 GiB, larger than any entry can be`));
    expect((await store("list", s)).out).toContain("DAMAGED");
    for (const argv of [
      ["get", s, "--id", id],
      ["add", s, join(d, "m.json"), "-a", "coloring"],
    ]) {
      const r = await store(...argv);
      expect(r.code, argv[0]).toBe(2);
      expect(r.err, argv[0]).toContain(`entry ${id} is damaged (20 GiB, larger than any entry can be)`);
    }
    expect((await store("gc", s)).out).toContain("1 damaged entry");
    expect(existsSync(file)).toBe(false);
  });

  it("an entry zero-extended past its seal is refused from its ends, not read whole: list, get and load read little", async () => {
    const { s, id, file } = await storeWithEntry();
    truncateSync(file, 2 ** 30); // sparse: 1 GiB of zeros after the entry, whose end no longer holds a seal
    const root = join(import.meta.dirname, "..", "..");
    const lib = (f: string): string => pathToFileURL(join(root, "dist", "store", f)).href;
    // in a child process, so /proc/self/io counts its reads alone: rchar is the bytes its read calls returned
    const script = `const { readFileSync } = await import("node:fs");
const { openPlanStore, listPlans, getPlanById } = await import(${JSON.stringify(lib("index.js"))});
const { loadPlanById } = await import(${JSON.stringify(lib("entry-read.js"))});
const rchar = () => Number(/rchar: (\\d+)/.exec(readFileSync("/proc/self/io", "utf8"))[1]);
const s = openPlanStore(${JSON.stringify(s)});
const id = ${JSON.stringify(id)};
const out = {};
let at = rchar();
const step = async (name, f) => {
  try { out[name] = await f(); } catch (e) { out[name] = e.message; }
  const now = rchar();
  out[name + "Read"] = now - at;
  at = rchar();
};
await step("list", () => listPlans(s).map((e) => [e.problem, e.bytes]));
await step("get", () => getPlanById(s, id));
await step("load", () => loadPlanById(s, id));
process.stdout.write(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    const noSeal = "no checksum in the file (truncated or altered)";
    expect(out["list"]).toEqual([[noSeal, 2 ** 30]]);
    expect(out["get"]).toContain(`entry ${id} is damaged (${noSeal})`);
    expect(out["load"]).toContain(`entry ${id} is damaged (${noSeal})`);
    for (const k of ["listRead", "getRead", "loadRead"]) expect(out[k], k).toBeLessThan(1 << 20);
  });

  it("an entry past 2 GiB (more than one read takes) is read and judged: list marks it, verify names it, gc removes it", async () => {
    // Node's readSync refuses a length past 2^31 - 1; an entry may be up to 4 GiB, so it is read in several calls
    const { d, s, id, file } = await storeWithEntry();
    const end = readFileSync(file).subarray(-16);
    truncateSync(file, 2 ** 31 + 2 ** 20); // sparse: the sealed footer is gone, so the entry is damaged
    // its last bytes (the Arrow magic, a footer length) put back at the new end: its ends pass, so it is read whole
    const fd = openSync(file, "r+");
    writeSync(fd, end, 0, end.length, 2 ** 31 + 2 ** 20 - end.length);
    closeSync(fd);
    const list = await store("list", s);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toMatch(new RegExp(`${id} +DAMAGED`));
    const v = await store("verify", s);
    expect(v.code, v.err).toBe(1);
    expect(v.err).toContain(`entry ${id} is damaged`);
    const add = await store("add", s, join(d, "m.json"), "-a", "coloring");
    expect(add.code).toBe(2);
    expect(add.err).toContain(`entry ${id} is damaged`);
    const gc = await store("gc", s);
    expect(gc.code, gc.err).toBe(0);
    expect(gc.out).toContain("1 damaged entry");
    expect(existsSync(file)).toBe(false);
  });

  it("a directory at S/log: add refuses before adding, naming the log; gc removes it; the next add logs", async () => {
    const { d, s } = await storeWithEntry();
    rmSync(join(s, "log"));
    mkdirSync(join(s, "log"));
    const r = await store("add", s, join(d, "m.json"), "-a", "shift");
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `store add: ${join(s, "log")}: a directory where the store keeps its log (a file): refused before adding; 'commplan store gc' repairs it\n`,
    );
    expect((await store("list", s)).out).not.toMatch(/ shift /);
    expect((await store("verify", s)).err).toContain(
      `store verify: ${join(s, "log")}: a directory where the store keeps its log`,
    );
    expect((await store("gc", s)).code).toBe(0);
    expect((await store("add", s, join(d, "m.json"), "-a", "shift")).code).toBe(0);
    expect(readFileSync(join(s, "log"), "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("a FIFO as the store's marker is refused, never opened", async () => {
    const { s } = await storeWithEntry();
    rmSync(join(s, "commplan-store.json"));
    execFileSync("mkfifo", [join(s, "commplan-store.json")]);
    for (const cmd of ["list", "verify", "gc"]) {
      const r = await store(cmd, s);
      expect(r.code, cmd).toBe(2);
      expect(r.err, cmd).toMatch(/commplan-store\.json is not a commplan\.store\/v1 marker/);
    }
  });
});
