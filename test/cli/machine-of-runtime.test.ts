/**
 * A runtime preset made for a machine (ib-hdr-200-mpi for ib-hdr-200) gives the machine when --machine is not given:
 * simulate --program and --library, plan -a auto, precompute --from-capture. Without either, one line naming both.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureKey } from "../../src/cli/capture-key.js";
import { readMatrixFile } from "../../src/io/matrix-read.js";
import { RUNTIME_MODELS } from "../../src/machines/runtime/runtime-model.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("machine-of-runtime");
const f = (name: string): string => join(dir, name);

/** Runs a command expected to succeed; its stdout. */
async function ok(...args: string[]): Promise<string> {
  const r = await run(...args);
  expect(r.code, r.err).toBe(0);
  return r.out;
}

/** Runs a command expected to be refused in one line (exit 2); that line. */
async function refused(...args: string[]): Promise<string> {
  const r = await run(...args);
  expect(r.code).toBe(2);
  expect(r.out).toBe("");
  expect(r.err.trim().split("\n")).toHaveLength(1);
  return r.err.trim();
}

describe("--runtime gives --machine", () => {
  it("the presets this test relies on: ib-hdr-200-mpi is made for ib-hdr-200, smpi for no machine", () => {
    expect(RUNTIME_MODELS.find((r) => r.name === "ib-hdr-200-mpi")?.machine).toBe("ib-hdr-200");
    expect(RUNTIME_MODELS.find((r) => r.name === "smpi")?.machine).toBe("");
  });

  it("simulate --program and --library: the same replay as with --machine ib-hdr-200", async () => {
    await ok("gen", "moe", "--ranks", "8", "--seed", "3", "-o", f("m.json"));
    await ok("plan", f("m.json"), "-a", "two-stage", "--payload", "-o", f("s.json"));
    await ok("export", f("s.json"), "-m", f("m.json"), "-f", "program", "-o", f("p.json"));
    const rt = ["--runtime", "ib-hdr-200-mpi"];
    for (const input of [
      ["--program", f("p.json")],
      [f("m.json"), "--library", "pair"],
    ]) {
      const given = await ok("simulate", ...input, ...rt, "--machine", "ib-hdr-200", "--json");
      expect(await ok("simulate", ...input, ...rt, "--json")).toBe(given);
      expect(JSON.parse(given)).toMatchObject({ machine: "ib-hdr-200" });
      // another machine given is another replay: --machine wins over the runtime's
      const other = await ok("simulate", ...input, ...rt, "--machine", "t3d-004", "--json");
      expect(JSON.parse(other)).toMatchObject({ machine: "t3d-004" });
      expect(other).not.toBe(given);
    }
  });

  it("without a machine from either flag: one line naming both, the unknown runtime first", async () => {
    const needs = "needs --machine (see 'commplan machines'), or with --program or --library a --runtime made for one";
    expect(await refused("simulate", "--program", f("p.json"))).toBe(`simulate: ${needs} machine`);
    expect(await refused("simulate", "--program", f("p.json"), "--runtime", "smpi")).toBe(
      `simulate: ${needs} machine (runtime smpi is not made for one machine)`,
    );
    expect(await refused("simulate", f("s.json"))).toBe(`simulate: ${needs} machine`);
    expect(await refused("simulate", "--program", f("p.json"), "--runtime", "ib-hdr-200-mp")).toMatch(
      /unknown runtime model 'ib-hdr-200-mp' \(did you mean ib-hdr-200-mpi\?\)$/,
    );
    expect(await refused("plan", f("m.json"), "-a", "auto", "--runtime", "smpi")).toBe(
      "plan: --algorithm auto needs --machine (the machine it chooses for), or a --runtime made for one machine " +
        "(runtime smpi is not made for one machine)",
    );
  });

  it("plan -a auto --runtime ib-hdr-200-mpi writes the plan --machine ib-hdr-200 writes", async () => {
    await ok("plan", f("m.json"), "-a", "auto", "--runtime", "ib-hdr-200-mpi", "-o", f("a1.json"));
    const rt = ["--runtime", "ib-hdr-200-mpi", "--machine", "ib-hdr-200"];
    await ok("plan", f("m.json"), "-a", "auto", ...rt, "-o", f("a2.json"));
    expect(readFileSync(f("a1.json"), "utf8")).toBe(readFileSync(f("a2.json"), "utf8"));
  });

  it("precompute --from-capture: --runtime ib-hdr-200-mpi plans for ib-hdr-200; --runtime none needs --machine", async () => {
    const m = readMatrixFile(f("m.json"));
    const key = captureKey(m);
    const cap = f("cap");
    mkdirSync(cap, { recursive: true });
    writeFileSync(join(cap, "x.matrix.json"), readFileSync(f("m.json")));
    const rec = { format: "commplan.capture/v1", key, p: m.p, elementBytes: m.elementBytes, call: "MPI_Alltoallv" };
    writeFileSync(
      join(cap, "x.capture.json"),
      JSON.stringify({ ...rec, site: "a", calls: 2, matrix: "x.matrix.json" }),
    );
    const base = ["precompute", "--from-capture", cap];
    expect(await refused(...base, "--store", f("s0"), "--runtime", "none")).toBe(
      "precompute: --from-capture needs --machine (auto plans for it), or a --runtime made for one machine " +
        "(runtime none is not made for one machine)",
    );
    const planned = (store: string): unknown =>
      JSON.parse(readFileSync(join(store, "programs", key, "plan.json"), "utf8"));
    const rt = ["--runtime", "ib-hdr-200-mpi"];
    const derived = await run(...base, "--store", f("s1"), ...rt);
    expect(derived.code, derived.err).toBe(0);
    expect(derived.err).toMatch(/^precompute: 1 captured pattern \(ib-hdr-200, runtime ib-hdr-200-mpi\)/);
    const given = await run(...base, "--store", f("s2"), ...rt, "--machine", "ib-hdr-200");
    expect(given.code, given.err).toBe(0);
    expect(planned(f("s1"))).toEqual(planned(f("s2")));
  });
});
