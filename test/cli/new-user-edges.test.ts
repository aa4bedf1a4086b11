/**
 * Rough edges a new user meets: a store that is not one yet says what makes one, demo at P = 1 says nothing is sent,
 * counted nouns agree with their count, and an option given twice with different values is refused.
 */
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openPlanStore } from "../../src/index.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("new-user-edges");
const f = (n: string): string => join(dir, n);

describe("a directory that is not a plan store yet", () => {
  it("the library's refusal names what makes one, in one line", () => {
    mkdirSync(f("new"), { recursive: true });
    expect(() => openPlanStore(f("new"))).toThrow(
      `store: ${f("new")}: not a plan store (no commplan-store.json; openPlanStore(dir, true) makes one)`,
    );
  });
  it("the command line names store add and precompute --store, never the library call", async () => {
    const r = await run("store", "list", f("new"));
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `store list: ${f("new")}: not a plan store (no commplan-store.json; 'commplan store add' or ` +
        "'commplan precompute --store' makes one)\n",
    );
  });
});

describe("what is said matches what happens", () => {
  it("demo -p 1 says nothing is sent, not that every node sends to a random one", async () => {
    const r = await run("demo", "-p", "1");
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/every node sends/);
    expect(r.out.split("\n")[0]).toMatch(/P = 1, seed \d+: one node, with no other to send to: nothing is sent\.$/);
    expect((await run("demo", "-p", "4")).out).toMatch(/every node sends 1024 elements to one random node/);
  });
  it("gen spmv's note counts one stored entry, one message and one x entry in the singular", async () => {
    writeFileSync(f("one.mtx"), "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
    const r = await run("gen", "spmv", "-p", "2", "--file", f("one.mtx"), "-o", f("one.json"));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain("gen: spmv: 2 x 2 matrix, 1 stored entry; 1 message carries 1 x entry\n");
  });
});

describe("an option given twice with different values is refused, on every command", () => {
  it("setup: a matrix", async () => {
    expect((await run("gen", "uniform", "-p", "8", "-o", f("m.json"))).code).toBe(0);
  });
  it("gen -p 8 -p 16, under the legacy spelling --p, and --ranks twice", async () => {
    for (const [first, second] of [
      ["-p", "-p"],
      ["-p", "--p"],
      ["--p", "-p"],
      ["--ranks", "--ranks"],
    ]) {
      const r = await run("gen", "uniform", first!, "8", second!, "16", "-o", f("g.json"));
      expect([r.code, r.out], second).toEqual([2, ""]);
      expect(r.err, second).toBe("gen: -p, --ranks given twice (8 and 16) (add --help for usage)\n");
    }
    expect(existsSync(f("g.json"))).toBe(false);
  });
  it("plan -o a.json -o b.json writes neither", async () => {
    const r = await run("plan", f("m.json"), "-a", "shift", "-o", f("a.json"), "-o", f("b.json"));
    expect(r).toMatchObject({ code: 2, out: "" });
    expect(r.err).toBe(`plan: -o, --output given twice (${f("a.json")} and ${f("b.json")}) (add --help for usage)\n`);
    expect([existsSync(f("a.json")), existsSync(f("b.json"))]).toEqual([false, false]);
  });
  it("demo, simulate, store add, store get: each names its option and both values", async () => {
    const cases: [string[], string][] = [
      [["demo", "-p", "4", "-p", "8"], "demo: -p, --ranks given twice (4 and 8)"],
      [
        ["simulate", f("m.json"), "--protocol", "async", "--mode", "blocking", "--mode", "nonblocking"],
        "simulate: --mode given twice (blocking and nonblocking)",
      ],
      [
        ["store", "add", f("s"), f("m.json"), "-a", "shift", "--algorithm", "coloring"],
        "store add: -a, --algorithm given twice (shift and coloring)",
      ],
      // store get --id has a fast path of its own, which leaves an unusual command line to commander
      [
        ["store", "get", f("s"), "--id", "a".repeat(64), "--id", "b".repeat(64)],
        `store get: --id given twice (${"a".repeat(64)} and ${"b".repeat(64)})`,
      ],
    ];
    for (const [argv, line] of cases) {
      const r = await run(...argv);
      expect([r.code, r.err], argv.join(" ")).toEqual([2, `${line} (add --help for usage)\n`]);
    }
    expect(existsSync(f("s"))).toBe(false);
  });
  it("the same value twice runs as once; an option meant to repeat (--param) still repeats", async () => {
    const twice = await run("gen", "uniform", "-p", "8", "--p", "8", "--seed", "3", "--seed", "3");
    const once = await run("gen", "uniform", "-p", "8", "--seed", "3");
    expect(twice).toEqual(once);
    expect(once.code).toBe(0);
    const params = ["--param", "factor=2", "--param", "cutoff=mean"];
    const r = await run("plan", f("m.json"), "-a", "rs-nh", ...params, "-o", f("rs.json"));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^plan: rs-nh: /);
  });
});
