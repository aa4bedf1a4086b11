/**
 * export --split DIR refuses to write a rank file or the index onto an input (schedule, matrix), as -o does; a link or
 * FIFO at one of the names of --split or --out is refused before any file is written.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("export --split: outputs onto inputs", () => {
  it("refuses the schedule as DIR/index.json, the matrix as DIR/rank-0.json, and a rank file linked to an input; the inputs survive", async () => {
    const d = tempDir("split-onto");
    const out = join(d, "out");
    mkdirSync(out);
    expect((await run("gen", "uniform", "--p", "4", "-o", join(out, "rank-0.json"))).code).toBe(0);
    expect((await run("plan", join(out, "rank-0.json"), "-a", "shift", "-o", join(out, "index.json"))).code).toBe(0);
    const matrix = readFileSync(join(out, "rank-0.json"));
    const schedule = readFileSync(join(out, "index.json"));
    const r = await run(
      "export",
      join(out, "index.json"),
      "-m",
      join(out, "rank-0.json"),
      "-f",
      "program",
      "--split",
      out,
    );
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^export: .*out\/(index|rank-0)\.json: --split .* is the input file.*: writing it would destroy the input; write to another file\n$/,
    );
    expect(readFileSync(join(out, "rank-0.json")).equals(matrix)).toBe(true);
    expect(readFileSync(join(out, "index.json")).equals(schedule)).toBe(true);

    const linked = join(d, "linked");
    mkdirSync(linked);
    symlinkSync(join(out, "rank-0.json"), join(linked, "rank-3.json"));
    const l = await run(
      "export",
      join(out, "index.json"),
      "-m",
      join(out, "rank-0.json"),
      "-f",
      "program",
      "--split",
      linked,
    );
    expect(l.code).toBe(2);
    expect(l.err).toMatch(
      /^export: .*linked\/rank-3\.json: --split .*rank-3\.json is the input file \(.*rank-0\.json\)/,
    );
    expect(readFileSync(join(out, "rank-0.json")).equals(matrix)).toBe(true);

    const ok = await run(
      "export",
      join(out, "index.json"),
      "-m",
      join(out, "rank-0.json"),
      "-f",
      "program",
      "--split",
      join(d, "fresh"),
    );
    expect(ok.code, ok.err).toBe(0);
  });

  it("refuses a link or a FIFO at an output name of --split or --out before any file is written", async () => {
    const d = tempDir("split-irregular");
    const m = join(d, "m4.json");
    const s = join(d, "s4.json");
    expect((await run("gen", "h-relation", "--ranks", "4", "-o", m)).code).toBe(0);
    expect((await run("plan", m, "-a", "shift", "-o", s)).code).toBe(0);
    const victim = join(d, "victim.txt");
    writeFileSync(victim, "precious\n");
    const sp = join(d, "sp");
    mkdirSync(sp);
    symlinkSync("../victim.txt", join(sp, "rank-1.json"));
    symlinkSync("../victim.txt", join(sp, "index.json"));
    const l = await run("export", s, "-m", m, "-f", "program", "--split", sp);
    expect(l.code).toBe(2);
    expect(l.err).toMatch(/^export: .*sp\/index\.json: is a symbolic link, not a regular file: [^\n]*\n$/);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(readdirSync(sp).sort()).toEqual(["index.json", "rank-1.json"]);

    const sp2 = join(d, "sp2");
    mkdirSync(sp2);
    execFileSync("mkfifo", [join(sp2, "rank-2.json")]);
    const f = await run("export", s, "-m", m, "-f", "program", "--split", sp2);
    expect(f.code).toBe(2);
    expect(f.err).toMatch(/^export: .*sp2\/rank-2\.json: is a FIFO, not a regular file: [^\n]*\n$/);
    expect(readdirSync(sp2)).toEqual(["rank-2.json"]);

    const sg = join(d, "sg");
    mkdirSync(sg);
    symlinkSync("../victim.txt", join(sg, "hosts"));
    const g = await run("export", s, "-m", m, "-f", "simgrid", "--machine", "t3d-004", "--out", sg);
    expect(g.code).toBe(2);
    expect(g.err).toMatch(/^export: .*sg\/hosts: is a symbolic link, not a regular file: [^\n]*\n$/);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(readdirSync(sg)).toEqual(["hosts"]);
  });
});
