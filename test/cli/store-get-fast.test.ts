/**
 * store get --id without commander: the arguments it reads (any other shape is commander's), the same output, errors
 * and exit codes as the commander run, the modules it loads (no planner, no apache-arrow, no commander), and Arrow written as the
 * entry's bytes.
 */
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/process-io.js";
import { storeGetArgv } from "../../src/cli/store-get-argv.js";
import { decodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const ID = "ab".repeat(32);
const ROOT = resolve(import.meta.dirname, "../..");

/** storeGetMain of a bundle this file builds for itself from dist/ (scripts/build-bundle.mjs), as the build makes it. */
type BundledMain = (argv: readonly string[], io: CliIo) => Promise<number | null>;
let bundled: BundledMain;
let bundleText = "";
beforeAll(async () => {
  // beside a link to dist/io, so its paths reach dist/io as the built bundle's do (nothing written into dist/)
  const d = tempDir("bundle");
  symlinkSync(join(ROOT, "dist", "io"), join(d, "io"));
  const bundle = join(d, "bundle", "store-get.js");
  execFileSync(process.execPath, [join(ROOT, "scripts/build-bundle.mjs"), bundle]);
  bundleText = readFileSync(bundle, "utf8");
  bundled = ((await import(pathToFileURL(bundle).href)) as { storeGetMain: BundledMain }).storeGetMain;
});

/** Runs `commplan ...argv` through the bundle in process, as run() does through main. */
async function runBundled(...argv: string[]): Promise<{ code: number | null; out: string; err: string }> {
  let out = "",
    err = "";
  const code = await bundled(argv, { out: (t) => void (out += t), err: (t) => void (err += t), interactive: false });
  return { code, out, err };
}

describe("storeGetArgv", () => {
  it("reads store get DIR --id ID with -o, -f, --json and --max-memory, in any order and spelling", () => {
    expect(storeGetArgv(["store", "get", "s", "--id", ID])).toEqual({
      dir: "s",
      id: ID,
      output: "-",
      format: undefined,
      json: false,
      maxMemory: undefined,
    });
    expect(
      storeGetArgv([
        "store",
        "get",
        "--format=arrow",
        "--id",
        ID,
        "-o",
        "x.arrow",
        "s",
        "--json",
        "--max-memory",
        "1G",
      ]),
    ).toEqual({ dir: "s", id: ID, output: "x.arrow", format: "arrow", json: true, maxMemory: "1G" });
    expect(storeGetArgv(["store", "get", "s", `--id=${ID}`, "--output=-", "-f", "json"])).toMatchObject({
      output: "-",
    });
  });

  it("leaves every other shape to commander", () => {
    for (const argv of [
      ["store", "get", "s"],
      ["store", "get", "s", "m.json", "--id", ID],
      ["store", "get", "--id", ID],
      ["store", "get", "s", "--id", ID, "--help"],
      ["store", "get", "s", "--id", ID, "-a", "shift"],
      ["store", "get", "s", "--id", ID, "--id", ID],
      ["store", "get", "s", "--id"],
      ["store", "get", "s", "--id", "-o"],
      ["store", "get", "s", "--id="],
      ["store", "get", "s", "--id", ID, "--json=yes"],
      ["store", "get", "s", "--id", ID, "-ox.json"],
      ["store", "get", "s", "--id", ID, "--"],
      ["store", "get", "-", "--id", ID],
      ["store", "list", "s", "--id", ID],
      ["get", "s", "--id", ID],
    ])
      expect(storeGetArgv(argv), argv.join(" ")).toBeNull();
  });
});

describe("store get -o FILE.arrow", () => {
  it("takes the format from -o's extension as gen does, and refuses -f against it, in every path", async () => {
    const d = tempDir("get-ext");
    expect((await run("gen", "pattern1", "--p", "6", "-o", join(d, "m.json"))).code).toBe(0);
    const id = (await run("store", "add", join(d, "s"), join(d, "m.json"), "-a", "shift")).out.trim();
    const get = (...args: string[]): string[] => ["store", "get", join(d, "s"), "--id", id, ...args];
    // the fast path, commander's (a trailing "--") and the bundle
    expect((await run(...get("-f", "arrow", "-o", join(d, "f.arrow")))).code).toBe(0);
    expect((await run(...get("-o", join(d, "a.arrow")))).code).toBe(0);
    expect((await run(...get("-o", join(d, "b.arrow"), "--"))).code).toBe(0);
    expect((await runBundled(...get("-o", join(d, "c.arrow")))).code).toBe(0);
    for (const x of ["a", "b", "c"])
      expect(readFileSync(join(d, `${x}.arrow`))).toEqual(readFileSync(join(d, "f.arrow")));
    const refused = `store get: --format json but the output file ${join(d, "x.arrow")} has the extension of arrow\n`;
    for (const r of [
      await run(...get("-f", "json", "-o", join(d, "x.arrow"))),
      await run(...get("-f", "json", "-o", join(d, "x.arrow"), "--")),
      await runBundled(...get("-f", "json", "-o", join(d, "x.arrow"))),
    ])
      expect(r).toMatchObject({ code: 2, err: refused, out: "" });
    expect(existsSync(join(d, "x.arrow"))).toBe(false);
  });
});

describe("store get --id without commander", () => {
  it("is bundled as one flat module scope: no module is imported dynamically but the Arrow reader, kept outside", () => {
    // esbuild wraps a module it reaches through a dynamic import in a lazy initialiser (__esm), whose hot loops run
    // slower (docs/architecture.md, "Why some hot code looks as it does")
    expect(bundleText).not.toMatch(/__esm\(/);
    expect([...bundleText.matchAll(/\bimport\(\s*"([^"]+)"/g)].map((m) => m[1])).toEqual(["../io/schedule-arrow.js"]);
  });

  it("writes, refuses and exits as the commander run does", async () => {
    const d = tempDir("get-fast");
    expect((await run("gen", "h-relation", "--p", "10", "--h", "2", "-o", join(d, "m.json"))).code).toBe(0);
    const id = (await run("store", "add", join(d, "s"), join(d, "m.json"), "-a", "four-stage", "--payload")).out.trim();
    writeFileSync(join(d, "file"), "x");
    // a trailing "--" (no operand after it) is a shape storeGetArgv leaves to commander: the same run, parsed by
    // commander (a request option such as --seed, once ignored with --id, is now refused)
    const viaCommander = (argv: string[]): string[] => [...argv, "--"];
    const cases: [string, string[]][] = [
      ["json", ["--id", id, "-o", join(d, "OUT.json")]],
      ["arrow", ["--id", id, "-f", "arrow", "-o", join(d, "OUT.arrow")]],
      ["summary", ["--id", id, "-o", join(d, "OUT.json"), "--json"]],
      ["stdout", ["--id", id]],
      ["absent", ["--id", "0".repeat(64), "-o", join(d, "OUT.json"), "--json"]],
      ["bad id", ["--id", "abc", "-o", join(d, "OUT.json")]],
      ["bad format", ["--id", id, "-f", "csv", "-o", join(d, "OUT.json")]],
      ["json on stdout", ["--id", id, "--json"]],
      ["memory", ["--id", id, "--max-memory", "1K", "-o", join(d, "OUT.json")]],
      ["bad memory", ["--id", id, "--max-memory", "lots", "-o", join(d, "OUT.json")]],
    ];
    for (const [name, args] of cases) {
      const fast = await run("store", "get", join(d, "s"), ...args.map((a) => a.replace("OUT", "fast")));
      const slow = await run("store", "get", join(d, "s"), ...viaCommander(args.map((a) => a.replace("OUT", "slow"))));
      // the bundle bin/commplan.js runs for store get: the same again
      const bundle = await runBundled("store", "get", join(d, "s"), ...args.map((a) => a.replace("OUT", "bundle")));
      const same = (t: string): string => t.replaceAll("slow", "fast");
      const sameB = (t: string): string => t.replaceAll("bundle", "fast");
      expect(fast.code, name).toBe(slow.code);
      expect(fast.err, name).toBe(same(slow.err));
      expect(fast.out, name).toBe(same(slow.out));
      expect(bundle.code, name).toBe(fast.code);
      expect(sameB(bundle.err), name).toBe(fast.err);
      expect(sameB(bundle.out), name).toBe(fast.out);
    }
    expect(readFileSync(join(d, "fast.json"))).toEqual(readFileSync(join(d, "slow.json")));
    expect(readFileSync(join(d, "fast.arrow"))).toEqual(readFileSync(join(d, "slow.arrow")));
    expect(readFileSync(join(d, "bundle.json"))).toEqual(readFileSync(join(d, "slow.json")));
    expect(readFileSync(join(d, "bundle.arrow"))).toEqual(readFileSync(join(d, "slow.arrow")));
    // any other shape is main's, and a damaged entry is refused by name through the bundle too
    expect((await runBundled("store", "get", join(d, "s"), "--id", id, "--help")).code).toBeNull();
    expect((await runBundled("store", "list", join(d, "s"))).code).toBeNull();
    const entry = readdirSync(join(d, "s", "entries"), { recursive: true, withFileTypes: true }).find((e) =>
      e.name.endsWith(".arrow"),
    )!;
    const file = join(entry.parentPath, entry.name);
    const bytes = readFileSync(file);
    const at = bytes.length >> 1;
    bytes[at] = bytes[at]! ^ 0xff;
    writeFileSync(file, bytes);
    const damagedFast = await run("store", "get", join(d, "s"), "--id", id, "-o", join(d, "d.json"));
    const damagedBundle = await runBundled("store", "get", join(d, "s"), "--id", id, "-o", join(d, "d.json"));
    expect(damagedFast.code).toBe(2);
    expect(damagedFast.err).toMatch(/is damaged/);
    expect(damagedBundle).toEqual(damagedFast);
    const notStore = await run("store", "get", join(d, "file"), "--id", id, "-o", join(d, "x.json"));
    expect(notStore.code).toBe(2);
    expect(notStore.err).toMatch(/^store get: .*file/);
  });

  it("loads no planner, no apache-arrow and no commander, for JSON or Arrow (the built CLI, by the modules it loads)", async () => {
    const root = resolve(import.meta.dirname, "../..");
    const d = tempDir("get-fast");
    expect((await run("gen", "uniform", "--p", "6", "-o", join(d, "m.json"))).code).toBe(0);
    const id = (await run("store", "add", join(d, "s"), join(d, "m.json"), "-a", "shift")).out.trim();
    const modules = (...argv: string[]): string[] => {
      const log = join(d, "log");
      writeFileSync(log, "");
      const r = spawnSync(
        process.execPath,
        ["--import", join(root, "test/helpers/module-log.mjs"), join(root, "bin/commplan.js"), ...argv],
        { encoding: "utf8", env: { ...process.env, COMMPLAN_MODULE_LOG: log } },
      );
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(log, "utf8").split("\n");
    };
    const json = modules("store", "get", join(d, "s"), "--id", id, "-o", join(d, "g.json"));
    // bin/commplan.js runs the bundle while it is as new as dist/ (npm run build), else main's modules (tsc alone)
    const mtime = (f: string): number => statSync(join(root, "dist", f), { throwIfNoEntry: false })?.mtimeMs ?? -1;
    if (mtime("bundle/store-get.js") >= mtime("cli/main.js")) {
      expect(json.some((f) => f.includes("/dist/bundle/store-get.js"))).toBe(true);
      // nothing else of dist/ but the schema validator the header check loads (ajv's standalone code)
      expect(
        json.filter((f) => f.includes("/dist/") && !/bundle\/store-get\.js$|validators\/[\w-]+\.cjs$/.test(f)),
      ).toEqual([]);
    } else expect(json.some((f) => f.includes("/dist/store/entry-arrow.js"))).toBe(true);
    expect(json.some((f) => f.includes("/node_modules/apache-arrow/"))).toBe(false);
    expect(json.some((f) => f.includes("/dist/planner/"))).toBe(false);
    expect(json.some((f) => f.includes("/node_modules/commander/"))).toBe(false);
    // the hook sees commander where a command needs it
    expect(modules("store", "list", join(d, "s")).some((f) => f.includes("/node_modules/commander/"))).toBe(true);
    const arrow = modules("store", "get", join(d, "s"), "--id", id, "-f", "arrow", "-o", join(d, "g.arrow"));
    expect(arrow.some((f) => f.includes("/node_modules/apache-arrow/"))).toBe(false);
    expect(arrow.some((f) => f.includes("/dist/planner/"))).toBe(false);
    expect(arrow.some((f) => f.includes("/node_modules/commander/"))).toBe(false);
  });

  it("writes Arrow as the entry's own bytes, a plan every reader takes as the JSON's", async () => {
    const d = tempDir("get-fast");
    expect((await run("gen", "random", "--p", "7", "--seed", "3", "-o", join(d, "m.json"))).code).toBe(0);
    const id = (await run("store", "add", join(d, "s"), join(d, "m.json"), "-a", "two-stage", "--payload")).out.trim();
    expect((await run("store", "get", join(d, "s"), "--id", id, "-f", "arrow", "-o", join(d, "g.arrow"))).code).toBe(0);
    expect((await run("store", "get", join(d, "s"), "--id", id, "-o", join(d, "g.json"))).code).toBe(0);
    const entry = readdirSync(join(d, "s"), { recursive: true, encoding: "utf8" }).find((f) => f.includes(id));
    expect(entry).toBeDefined();
    expect(readFileSync(join(d, "g.arrow")).equals(readFileSync(join(d, "s", entry!)))).toBe(true);
    const fromArrow = decodeScheduleArrow(new Uint8Array(readFileSync(join(d, "g.arrow"))));
    expect(scheduleToJsonText(fromArrow)).toBe(readFileSync(join(d, "g.json"), "utf8"));
    expect((await run("verify", join(d, "g.arrow"), "--matrix", join(d, "m.json"))).code).toBe(0);
  });
});
