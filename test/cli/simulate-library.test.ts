/** commplan simulate M.json --library NAME: MPI_Alltoallv as an SMPI algorithm runs it, on a runtime and a network. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readMatrixFile } from "../../src/io/matrix-read.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { replayLibraryAlltoallvAs } from "../../src/machines/program-replay/library-alltoallv-registry.js";
import { findMachine } from "../../src/machines/presets.js";
import { findRuntimeModel, withRuntime } from "../../src/machines/runtime/runtime-model.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("sim-library");
const f = (name: string): string => join(dir, name);

describe("commplan simulate --library", () => {
  it("replays the named algorithm's operations: JSON (schema-valid), text, a selector's pick, runtime and network", async () => {
    expect((await run("gen", "halo", "--p", "16", "--element-bytes", "64", "-o", f("m.json"))).code).toBe(0);
    const m = readMatrixFile(f("m.json"));
    const machine = findMachine("ib-hdr-200");
    for (const [name, runs] of [
      ["ompi", "ompi_basic_linear"],
      ["mpich", "bruck"],
      ["pair_mpi_barrier", "pair_mpi_barrier"],
      ["impi", "impi"],
    ] as const) {
      const r = await run(
        "simulate",
        f("m.json"),
        "--library",
        name,
        "--machine",
        "ib-hdr-200",
        "--runtime",
        "ib-hdr-200-mpi",
        "--free-copies",
        "--json",
      );
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.out) as { kind: string; runs: string; makespan: number; rankFinish: number[] };
      expect(() => validateWithSchema("simulation", doc, "test")).not.toThrow();
      expect(doc).toMatchObject({ kind: "library", algorithm: name, runs, p: 16, machine: "ib-hdr-200" });
      const runtime = withRuntime(findRuntimeModel("ib-hdr-200-mpi"), { copies: false });
      expect(doc.makespan).toBe(replayLibraryAlltoallvAs(name, m, { machine, runtime }).makespanUs);
      expect(doc.rankFinish).toHaveLength(16);
    }
    const text = await run("simulate", f("m.json"), "--library", "mvapich2", "--machine", "ib-hdr-200");
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^MPI_Alltoallv mvapich2 \(runs ring\) on ib-hdr-200, P = 16, runtime smpi, .*makespan/);
    const net = await run(
      "simulate",
      f("m.json"),
      "--library",
      "ring",
      "--machine",
      "ib-hdr-200",
      "--network",
      "fat-tree",
    );
    expect(net.code).toBe(0);
    expect(net.out).toMatch(/runtime smpi, fat-tree: makespan/);
    // --element-bytes applies to the matrix: 64 times the bytes take longer
    const json = async (...extra: string[]): Promise<number> =>
      (
        JSON.parse(
          (await run("simulate", f("m.json"), "--library", "pair", "--machine", "ib-hdr-200", "--json", ...extra)).out,
        ) as { makespan: number }
      ).makespan;
    expect(await json("--element-bytes", "4096")).toBeGreaterThan(await json());
  });

  it("refuses an unknown name (listing the known), a missing matrix, --program beside it, a schedule flag, P off a power of two for pair", async () => {
    const one = async (...argv: string[]): Promise<string> => {
      const r = await run("simulate", ...argv);
      expect(r.code).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      return r.err;
    };
    expect((await run("gen", "halo", "--p", "12", "-o", f("m12.json"))).code).toBe(0);
    expect(await one(f("m12.json"), "--library", "bogus", "--machine", "ib-hdr-200")).toMatch(
      /unknown algorithm 'bogus' \(known: default, ompi, mpich, mvapich2, bruck, pair, .*ompi_basic_linear, impi\)/,
    );
    expect(await one(f("m12.json"), "--library", "pairs", "--machine", "ib-hdr-200")).toMatch(
      /--library: unknown algorithm 'pairs' \(did you mean pair\?\) \(known: default, /,
    );
    expect(await one("--library", "pair", "--machine", "ib-hdr-200")).toMatch(/--library needs a matrix file/);
    expect(await one(f("m12.json"), "--library", "pair", "--program", f("x"), "--machine", "ib-hdr-200")).toMatch(
      /--library .* or --program, not both/,
    );
    expect(await one(f("m12.json"), "--library", "ring", "--mode", "blocking", "--machine", "ib-hdr-200")).toMatch(
      /--mode does not apply to --library/,
    );
    expect(await one(f("m12.json"), "--library", "pair", "--machine", "ib-hdr-200")).toMatch(
      /the pair algorithms need a power-of-two P, got 12/,
    );
    // ring runs at any P
    expect((await run("simulate", f("m12.json"), "--library", "ring", "--machine", "ib-hdr-200")).code).toBe(0);
  });
});
