/** plan --algorithm auto's answer on the command line: whose times they are, the model's or an MPI runtime's. */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("auto-answer");

describe("plan --algorithm auto: the answer against MPI_Alltoallv", () => {
  it("without --runtime says its times are the machine model's, not an MPI runtime's; with it, says nothing of the kind", async () => {
    const m = join(dir, "m.json");
    expect((await run("gen", "random", "--p", "8", "--seed", "2", "-o", m)).code).toBe(0);
    const model = await run("plan", m, "-a", "auto", "--machine", "ib-hdr-200", "-o", join(dir, "a.json"));
    expect(model.code).toBe(0);
    // the answer line first, then whose figures they are (before, nothing told them from SMPI's)
    expect(model.err).toMatch(
      /\nplan: (call MPI_Alltoallv|use the plan)[^\n]*\nplan: these times are the ib-hdr-200 model's \(1 port per node\), not an MPI runtime's: --runtime NAME/,
    );
    const net = await run(
      ...["plan", m, "-a", "auto", "--machine", "ib-hdr-200", "--network", "fat-tree:k=4", "-o", join(dir, "n.json")],
    );
    expect(net.err).toContain("plan: these times are the ib-hdr-200 model's (1 port per node on network fat-tree:k=4)");
    const rt = await run(
      ...["plan", m, "-a", "auto", "--machine", "ib-hdr-200", "--runtime", "smpi", "-o", join(dir, "r.json")],
    );
    expect(rt.code).toBe(0);
    expect(rt.err).toMatch(/\nplan: (call MPI_Alltoallv|use the plan)/);
    expect(rt.err).not.toContain("model's");
    // the export hint does not read as advice to run the plan when the answer is to call MPI_Alltoallv
    const answer = (JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as { auto: { mpi: { answer: string } } }).auto
      .mpi.answer;
    expect(answer).toBe("call MPI_Alltoallv");
    expect(rt.err).toContain(
      "plan: on runtime smpi, where MPI_Alltoallv is the answer: should you run the plan anyway, run it as the ",
    );
  });

  it("an unknown --runtime is refused in one line from the command run, naming the option", async () => {
    const m = join(dir, "u.json");
    expect((await run("gen", "uniform", "--p", "4", "-o", m)).code).toBe(0);
    for (const args of [
      ["plan", m, "-a", "auto", "--machine", "ib-hdr-200", "--runtime", "smpx"],
      ["plan", m, "-a", "auto", "--runtime", "smpx"],
    ]) {
      const r = await run(...args);
      expect(r.code).toBe(2);
      // before: "machines: unknown runtime model 'smpx' (did you mean smpi?)", from a command the user did not run
      expect(r.err).toBe("plan: --runtime: unknown runtime model 'smpx' (did you mean smpi?)\n");
    }
  });
});
