/** `--ports`: one rule for every command that takes it (src/cli/ports-option.ts). */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("ports-option");
const f = (name: string): string => join(dir, name);

describe("--ports", () => {
  it("verify and check-planner take unlimited; simulate and compare refuse it in one line saying why", async () => {
    expect((await run("gen", "pattern1", "--p", "8", "--seed", "1", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "mpi-linear", "-o", f("s.json"))).code).toBe(0);
    const verify = await run("verify", f("s.json"), "-m", f("m.json"), "--ports", "unlimited");
    expect(verify.code).toBe(0);
    const why =
      "--ports unlimited is not supported: the simulator replays a finite number of ports per node, and its JSON " +
      "reports the count: give one up to 1024 (as many as the messages a node posts at once)\n";
    const sim = await run("simulate", f("s.json"), "--machine", "t3d-004", "--ports", "unlimited");
    expect(sim).toMatchObject({ code: 2, out: "", err: `simulate: ${why}` });
    const cmp = await run(
      "compare",
      f("m.json"),
      "--machine",
      "t3d-004",
      "--algorithms",
      "shift",
      "--ports",
      "unlimited",
    );
    expect(cmp).toMatchObject({ code: 2, out: "", err: `compare: ${why}` });
    // a word that is no count: named as such everywhere, with the suggestion where unlimited is taken
    for (const cmd of [
      ["verify", f("s.json"), "-m", f("m.json")],
      ["check-planner", "--command", "true"],
    ])
      expect((await run(...cmd, "--ports", "unlimted")).err).toMatch(
        /^[\w-]+: --ports takes a count or 'unlimited', got 'unlimted' \(did you mean unlimited\?\)\n$/,
      );
    expect((await run("simulate", f("s.json"), "--machine", "t3d-004", "--ports", "many")).err).toBe(
      "simulate: --ports takes a count, got 'many'\n",
    );
    // a count: the range (1..1024 for the simulator; 1..2^20 or 'unlimited' for the verifier)
    expect((await run("compare", f("m.json"), "--machine", "t3d-004", "--ports", "2000")).err).toMatch(
      /--ports must be an integer in 1..1024, got '2000'/,
    );
    expect((await run("verify", f("s.json"), "-m", f("m.json"), "--ports", "0")).err).toMatch(
      /--ports must be an integer in 1..1048576 or 'unlimited', got '0'/,
    );
    expect((await run("simulate", f("s.json"), "--machine", "t3d-004", "--ports", "8")).code).toBe(0);
  });
});
