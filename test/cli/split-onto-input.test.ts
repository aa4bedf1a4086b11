/** export --split DIR refuses to write a rank file or the index onto an input (schedule, matrix), as -o does. */
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
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
});
