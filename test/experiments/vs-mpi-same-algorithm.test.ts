/**
 * The vs-MPI bench runs a selector that SMPI resolves to another measured algorithm's function only once
 * (smpiSameAlgorithm): the selectors are resolved as SimGrid 3.32's sources do, and every cached case on record that
 * measured both ran them to the same simulated time.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { VsMpiCaseResult } from "../../bench/vs-mpi-case.js";
import { alltoallvRuns, SMPI_ALLTOALLV, smpiSameAlgorithm } from "../../bench/vs-mpi-config.js";

describe("smpiSameAlgorithm", () => {
  it("resolves SMPI 3.32's selectors: mpich to bruck, mvapich2 to ring, ompi by P", () => {
    for (const p of [2, 3, 4, 16, 63, 64, 127, 128, 255, 256, 1023, 1024, 4096]) {
      expect(smpiSameAlgorithm("mpich", p)).toBe("bruck");
      expect(smpiSameAlgorithm("mvapich2", p)).toBe("ring");
    }
    const ompi = (p: number): string | null => smpiSameAlgorithm("ompi", p);
    expect([2, 3, 64, 127, 256, 1023].map(ompi)).toEqual(Array(6).fill("pair"));
    expect([4, 16, 63, 128, 255, 1024].map(ompi)).toEqual(Array(6).fill("ompi_basic_linear"));
  });

  it("times ompi_basic_linear by default's run (the same posts in the same order)", () => {
    for (const p of [2, 16, 64, 256, 1024]) expect(smpiSameAlgorithm("ompi_basic_linear", p)).toBe("default");
  });

  it("leaves every other algorithm to be measured, default and impi included", () => {
    const own = SMPI_ALLTOALLV.filter((a) => !["mpich", "mvapich2", "ompi", "ompi_basic_linear"].includes(a));
    for (const p of [16, 64, 256]) for (const a of own) expect(smpiSameAlgorithm(a, p), `${a} at ${p}`).toBeNull();
  });

  it("matches every cached case that measured a selector and its target apart", () => {
    const file = join(import.meta.dirname, "..", "..", "bench", "results", "vs-mpi.json");
    const cases = Object.values(
      (JSON.parse(readFileSync(file, "utf8")) as { cases: Record<string, VsMpiCaseResult> }).cases,
    );
    let compared = 0;
    for (const c of cases)
      for (const a of SMPI_ALLTOALLV) {
        const same = smpiSameAlgorithm(a, c.p);
        if (same === null || c.alltoallvSameAs?.[a] !== undefined) continue;
        if (typeof c.alltoallv[a] !== "number" || typeof c.alltoallv[same] !== "number") continue;
        expect(c.alltoallv[a], `${c.key}: ${a} against ${same}`).toBe(c.alltoallv[same]);
        compared++;
      }
    expect(compared).toBeGreaterThan(1000);
  });
});

describe("alltoallvRuns", () => {
  it("runs every algorithm but one whose target runs, auto's program beside the first and the last run", () => {
    for (const p of [16, 64, 127, 256]) {
      const { runs, sameAs } = alltoallvRuns(SMPI_ALLTOALLV, p);
      const ran = runs.map((r) => r.algorithm);
      expect(ran).toEqual(
        SMPI_ALLTOALLV.filter((a) => !["mpich", "mvapich2", "ompi", "ompi_basic_linear"].includes(a)),
      );
      expect(runs.filter((r) => r.withProgram).map((r) => r.algorithm)).toEqual([ran[0], ran.at(-1)]);
      expect(new Map(sameAs)).toEqual(
        new Map([
          ["mpich", "bruck"],
          ["mvapich2", "ring"],
          ["ompi", smpiSameAlgorithm("ompi", p) === "pair" ? "pair" : "default"],
          ["ompi_basic_linear", "default"],
        ]),
      );
      for (const [, same] of sameAs) expect(ran).toContain(same);
    }
  });

  it("runs a selector whose target is not among the algorithms, and one algorithm with the program", () => {
    expect(alltoallvRuns(["mpich"], 64)).toEqual({ runs: [{ algorithm: "mpich", withProgram: true }], sameAs: [] });
    expect(alltoallvRuns(["ompi", "ompi_basic_linear"], 64)).toEqual({
      runs: [
        { algorithm: "ompi", withProgram: true },
        { algorithm: "ompi_basic_linear", withProgram: true },
      ],
      sameAs: [],
    });
    expect(alltoallvRuns(["ompi", "ompi_basic_linear", "ring"], 16).sameAs).toEqual([["ompi", "ompi_basic_linear"]]);
    // A chain is followed while its links are among the algorithms: ompi at P = 16 runs basic linear, timed by default.
    expect(alltoallvRuns(["default", "ompi", "ompi_basic_linear"], 16)).toEqual({
      runs: [{ algorithm: "default", withProgram: true }],
      sameAs: [
        ["ompi", "default"],
        ["ompi_basic_linear", "default"],
      ],
    });
  });
});
