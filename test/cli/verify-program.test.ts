// commplan verify-program: a lowered program passes; a program edited to deliver one element off fails (exit 1, named check); a lone rank file is refused (exit 2).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("verify-program");
const f = (name: string): string => join(dir, name);

describe("commplan verify-program", () => {
  it("reads the program from standard input with -", async () => {
    expect((await run("gen", "pattern1", "--p", "6", "--seed", "4", "-o", f("m6.json"))).code).toBe(0);
    expect((await run("plan", f("m6.json"), "-a", "shift", "-o", f("s6.json"))).code).toBe(0);
    expect(
      (await run("export", f("s6.json"), "--matrix", f("m6.json"), "--format", "program", "-o", f("p6.json"))).code,
    ).toBe(0);
    const bin = join(import.meta.dirname, "..", "..", "bin", "commplan.js");
    const r = spawnSync(process.execPath, [bin, "verify-program", "-", "-m", f("m6.json")], {
      input: readFileSync(f("p6.json")),
      encoding: "utf8",
    });
    expect([r.status, r.stdout.split("\n")[0]]).toEqual([0, "shift, P = 6: all checks hold"]);
  });

  it("passes a lowered four-stage program, whole and split, and fails one with a receive moved one element", async () => {
    expect((await run("gen", "pattern1", "--p", "9", "--seed", "2", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "four-stage", "--payload", "-o", f("s.json"))).code).toBe(0);
    expect(
      (await run("export", f("s.json"), "--matrix", f("m.json"), "--format", "program", "-o", f("p.json"))).code,
    ).toBe(0);
    const ok = await run("verify-program", f("p.json"), "-m", f("m.json"));
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^four-stage, P = 9: all checks hold\n/);
    expect(
      (
        await run(
          "export",
          f("s.json"),
          "--matrix",
          f("m.json"),
          "--format",
          "program",
          "--variant",
          "blocking",
          "--split",
          f("sp"),
        )
      ).code,
    ).toBe(0);
    expect((await run("verify-program", join(f("sp"), "index.json"), "-m", f("m.json"), "--json")).code).toBe(0);
    // the split's directory stands for its index.json (as simulate --program takes it)
    const dir = await run("verify-program", f("sp"), "-m", f("m.json"));
    expect([dir.code, dir.out.split("\n")[0]]).toEqual([0, "four-stage, P = 9: all checks hold"]);
    mkdirSync(f("empty-dir"));
    const empty = await run("verify-program", f("empty-dir"), "-m", f("m.json"));
    expect([empty.code, empty.err]).toEqual([
      2,
      `verify-program: ${f("empty-dir")}: a directory without index.json (the directory of a program split by rank has one)\n`,
    ]);

    const doc = JSON.parse(readFileSync(f("p.json"), "utf8")) as { ranks: { ops: [number, string, ...unknown[]][] }[] };
    const recv = doc.ranks.flatMap((r) => r.ops).find((o) => o[1] === "recv")!;
    const pieces = recv[5] as [string, number, number][];
    const last = pieces[pieces.length - 1]!;
    last[1] += 1; // one element further into its buffer
    writeFileSync(f("bad.json"), JSON.stringify(doc));
    const bad = await run("verify-program", f("bad.json"), "-m", f("m.json"));
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/\d+ checks? FAIL/);
    expect(bad.out).toMatch(/FAIL +program-(delivery|well-formed|races|scratch)/);
  });

  it("refuses one rank file of a split program with one line (exit 2)", async () => {
    const r = await run("verify-program", join(f("sp"), "rank-1.json"), "-m", f("m.json"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^verify-program: .*rank-1\.json: holds 1 of 9 ranks/);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });
});
