/** One-line messages that say what is wrong with this input: a bare `store`, a program's oneOf, data mode on no transfers. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("messages");
const f = (name: string): string => join(dir, name);

describe("messages", () => {
  it("commplan store alone says the sub-commands in one line (exit 2), and so does an unknown one", async () => {
    const bare = await run("store");
    expect(bare).toMatchObject({ code: 2, out: "" });
    expect(bare.err).toBe("store: missing sub-command: add, get, list, verify or gc (try commplan store --help)\n");
    const typo = await run("store", "lst", "x");
    expect(typo).toMatchObject({ code: 2 });
    expect(typo.err).toBe(
      "store: unknown sub-command 'lst' (did you mean list?): add, get, list, verify or gc (try commplan store --help)\n",
    );
  });

  it("a program with both 'ranks' and 'files' is told the program's keys, not the matrix's", async () => {
    expect((await run("gen", "uniform", "--p", "3", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "shift", "-o", f("s.json"))).code).toBe(0);
    expect((await run("export", f("s.json"), "-f", "program", "--matrix", f("m.json"), "-o", f("p.json"))).code).toBe(
      0,
    );
    const doc = JSON.parse(readFileSync(f("p.json"), "utf8")) as object;
    writeFileSync(f("both.json"), JSON.stringify({ ...doc, files: ["rank-0.json"] }));
    const r = await run("verify-program", f("both.json"), "--matrix", f("m.json"));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^verify-program: .*both\.json: \/ must match exactly one schema in oneOf \(give exactly one of 'ranks' and 'files'\)\n$/,
    );
  });

  it("simulate --data on a plan made with --payload that has no transfers runs (no advice to plan with --payload)", async () => {
    writeFileSync(
      f("zero.json"),
      JSON.stringify({
        format: "commplan.matrix/v1",
        p: 3,
        rows: [
          [0, 0, 0],
          [0, 0, 0],
          [0, 0, 0],
        ],
      }),
    );
    expect((await run("plan", f("zero.json"), "-a", "shift", "--payload", "-o", f("zp.json"))).code).toBe(0);
    const r = await run("simulate", f("zp.json"), "--machine", "t3d-004", "--data", "--matrix", f("zero.json"));
    expect(r.err).not.toMatch(/--payload/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^shift on t3d-004, P = 3/);
  });
});
