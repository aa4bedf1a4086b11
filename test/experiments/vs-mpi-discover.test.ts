/**
 * The vs-MPI bench compares each SMPI alltoallv algorithm with the planner that mirrors it: the mapping comes from the
 * planners' traits (`traits.mpi.smpi`), so every algorithm the bench lists maps to a planner whose trait names it, or
 * to none with the reason stated.
 */
import { describe, expect, it } from "vitest";
import { SMPI_ALLTOALLV } from "../../bench/vs-mpi-config.js";
import { mpiPlannersByTrait, SMPI_UNMIRRORED } from "../../bench/vs-mpi-discover.js";
import { mirrorText } from "../../bench/vs-mpi-report.js";
import { findPlanner, PLANNERS } from "../../src/planner/index.js";
import type { Planner } from "../../src/planner/types.js";

const mapping = mpiPlannersByTrait(SMPI_ALLTOALLV, PLANNERS);

describe("the vs-MPI bench's mapping of SMPI's algorithms to planners", () => {
  it.each([...SMPI_ALLTOALLV])("%s maps to a planner whose trait says it mirrors it, or to none with a reason", (a) => {
    const name = mapping[a];
    if (name === undefined) {
      expect(SMPI_UNMIRRORED[a], `${a}: neither mirrored nor stated`).toMatch(/\w{3,}/);
      expect(PLANNERS.filter((p) => p.traits.mpi?.smpi.includes(a)).map((p) => p.name)).toEqual([]);
    } else {
      expect(findPlanner(name).traits.mpi?.smpi).toContain(a);
      expect(SMPI_UNMIRRORED[a]).toBeUndefined();
    }
  });

  it("maps the pairs a name match gets wrong: SMPI's bruck is the scattered algorithm, its default is linear", () => {
    expect(mapping["bruck"]).toBe("mpi-scattered");
    expect(mapping["default"]).toBe("mpi-linear");
    expect(mapping["ompi_basic_linear"]).toBe("mpi-linear");
    expect(mapping["mpich"]).toBe("mpi-mpich");
    expect(mapping["impi"]).toBeUndefined();
    expect(Object.values(mapping)).not.toContain("mpi-bruck");
  });

  it("every SMPI name in a trait or in the reasons is one the bench runs", () => {
    const listed = new Set<string>(SMPI_ALLTOALLV);
    for (const p of PLANNERS)
      for (const a of p.traits.mpi?.smpi ?? []) expect(listed.has(a), `${p.name}: ${a}`).toBe(true);
    for (const a of Object.keys(SMPI_UNMIRRORED)) expect(listed.has(a), a).toBe(true);
  });

  it("refuses two planners that claim the same SMPI algorithm", () => {
    const linear = findPlanner("mpi-linear");
    const twin: Planner = { ...linear, name: "mpi-twin" };
    expect(() => mpiPlannersByTrait(["default"], [linear, twin])).toThrow(
      /default is mirrored by both mpi-linear and mpi-twin/,
    );
  });

  it("the report names the library mirrors, and each algorithm left out with its reason", () => {
    for (const text of [mirrorText(mapping), mirrorText({})]) {
      expect(text).toMatch(
        /--library NAME`: default, ompi, mpich, mvapich2, impi, bruck, pair, .*ring_one_barrier, ompi_basic_linear\)/,
      );
      // every algorithm the planners mirror has a library mirror: no planner fallback is named
      expect(text).not.toContain("bruck: mpi-scattered");
      // every SMPI algorithm has a library mirror (impi's runs init_smp first): none is left out
      expect(text).not.toContain("not predicted");
    }
  });
});
