/**
 * Every error line a command prints starts with the command's name as typed (`plan: `, `store get: `), the library
 * module's name replaced (issue 36): the module `fail` records on the CommplanError, not a guess from the text. The
 * library keeps its module-prefixed message.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CommplanError, fail } from "../../src/model/errors.js";
import { inputErrorLine } from "../../src/cli/exit-code.js";
import { findMachine } from "../../src/machines/presets.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("error-names");
const f = (name: string): string => join(dir, name);

describe("fail records its module; the command line names the command instead", () => {
  it("the library's message keeps the module; inputErrorLine writes the command's name in its place", () => {
    const e = fail("machines", "BAD_OPTION", "unknown machine 'x'", { field: "machine" });
    expect([e.module, e.message]).toEqual(["machines", "machines: unknown machine 'x'"]);
    expect(inputErrorLine(e)).toBe("machines: unknown machine 'x'");
    expect(inputErrorLine(e, "plan")).toBe("plan: unknown machine 'x'");
    expect(inputErrorLine(e, "store add")).toBe("store add: unknown machine 'x'");
    // with a file and line, as fail writes them
    const at = fail("matrix", "BAD_INPUT", "row 1 has 1 entry", { file: "m.json", line: 3 });
    expect(inputErrorLine(at, "stats")).toBe("stats: m.json:line 3: row 1 has 1 entry");
    // the module is the one fail was given, not any word before a colon: another word stays
    const other = new CommplanError("BAD_INPUT", "shift: no plan", {}, "planner");
    expect(other.module).toBeUndefined();
    expect(inputErrorLine(other, "plan")).toBe("shift: no plan");
    expect(inputErrorLine(new CommplanError("BAD_INPUT", "matrix: x"), "plan")).toBe("matrix: x");
  });

  it("a library function's error names its module for a library user", () => {
    let thrown: unknown;
    try {
      findMachine("bogus");
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CommplanError);
    expect((thrown as CommplanError).message).toMatch(/^machines: unknown machine 'bogus'/);
    expect((thrown as CommplanError).module).toBe("machines");
  });
});

describe("each kind of library error under the command that met it", () => {
  it("a planner's error (an unknown parameter): plan's and store add's", async () => {
    expect((await run("gen", "uniform", "-p", "4", "-o", f("m.json"))).code).toBe(0);
    const plan = await run("plan", f("m.json"), "-a", "shift", "--param", "cutoff=3");
    expect(plan).toMatchObject({ code: 2, out: "" });
    expect(plan.err).toBe("plan: shift: unknown parameter 'cutoff'; known: (none)\n");
    const add = await run("store", "add", f("s"), f("m.json"), "-a", "shift", "--param", "cutoff=3");
    expect(add.err).toBe("store add: shift: unknown parameter 'cutoff'; known: (none)\n");
  });

  it("a machine's error (an unknown preset): plan's and cost's", async () => {
    expect((await run("gen", "uniform", "-p", "4", "-o", f("m.json"))).code).toBe(0);
    const plan = await run("plan", f("m.json"), "-a", "shift", "--machine", "bogus");
    expect(plan.code).toBe(2);
    expect(plan.err).toMatch(/^plan: unknown machine 'bogus'; known: cm5-004, [^\n]*\n$/);
    const cost = await run("cost", f("m.json"), "--machine", "bogus");
    expect(cost.err).toMatch(/^cost: unknown machine 'bogus'; known: /);
  });

  it("a store's error (a directory that is no store): store get's, on its fast path and through commander", async () => {
    mkdirSync(f("not-a-store"), { recursive: true });
    const line = `store get: ${f("not-a-store")}: not a plan store (no commplan-store.json; 'commplan store add' or 'commplan precompute --store' makes one)\n`;
    const byId = await run("store", "get", f("not-a-store"), "--id", "a".repeat(64));
    expect(byId).toMatchObject({ code: 2, err: line });
    expect((await run("store", "get", f("not-a-store"), f("m.json"), "-a", "shift")).err).toBe(line);
    expect((await run("store", "list", f("not-a-store"))).err).toBe(
      `store list: ${f("not-a-store")}: not a plan store (no commplan-store.json; 'commplan store add' or 'commplan precompute --store' makes one)\n`,
    );
  });

  it("a matrix file's error: under stats and under plan, the same text after the command's name", async () => {
    writeFileSync(f("bad.json"), '{"format":"commplan.matrix/v1","p":2,"rows":[[0,1],[1]]}');
    const text = `${f("bad.json")}:line 1: row 1 has 1 entry, expected 2 (the matrix must be square)\n`;
    expect(await run("stats", f("bad.json"))).toEqual({ code: 2, out: "", err: `stats: ${text}` });
    expect(await run("plan", f("bad.json"), "-a", "shift")).toEqual({ code: 2, out: "", err: `plan: ${text}` });
  });

  it("an error raised as the arguments are read (gen's pattern name) names the command too", async () => {
    const r = await run("gen", "bogus", "-p", "4");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^gen: unknown pattern 'bogus'; known: /);
  });
});

describe("help of a sub-command that does not exist", () => {
  it("help store bogus exits 2 naming it (store's help was printed, exit 0); a near name is suggested", async () => {
    const bogus = await run("help", "store", "bogus");
    expect(bogus).toEqual({
      code: 2,
      out: "",
      err: "store: unknown sub-command 'bogus': add, get, list, verify or gc (try commplan store --help)\n",
    });
    const near = await run("help", "store", "gett");
    expect(near.code).toBe(2);
    expect(near.err).toBe(
      "store: unknown sub-command 'gett' (did you mean get?): add, get, list, verify or gc (try commplan store --help)\n",
    );
    expect(await run("store", "gett", "--help")).toEqual(near);
    // commander's own spelling, store help NAME, refuses the same way
    expect(await run("store", "help", "gett")).toEqual(near);
    expect((await run("store", "help", "get")).code).toBe(0);
    // the help of one that exists, and of store itself, still prints (exit 0)
    const get = await run("help", "store", "get");
    expect([get.code, get.out.split("\n")[0]]).toEqual([0, "Usage: commplan store get [options] <dir> [matrix]"]);
    expect((await run("help", "store")).code).toBe(0);
  });
});
