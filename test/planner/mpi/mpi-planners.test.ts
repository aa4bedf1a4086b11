import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixFromRows } from "../../../src/model/matrix.js";
import {
  findPlanner,
  impiAlltoallvChoice,
  MPI_PLANNERS,
  ompiAlltoallvChoice,
  plan,
} from "../../../src/planner/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { plannerProperty } from "../../../src/testing/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

const NAMES = MPI_PLANNERS.map((p) => p.name);

describe.each(NAMES)("%s", (algorithm) => {
  it("every plan verifies on a machine with unlimited ports, message level (P 1..70, every matrix kind)", () => {
    fc.assert(
      fc.property(matrixRecipe(), (r) => {
        const m = buildMatrix(r);
        const rep = verifySchedule(m, plan(m, algorithm), { ports: Infinity });
        expect(rep.checks.filter((c) => !c.holds)).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });

  it("every payload plan verifies element by element", () => {
    fc.assert(
      fc.property(matrixRecipe({ maxP: 24 }), (r) => {
        const m = buildMatrix(r);
        const rep = verifySchedule(m, plan(m, algorithm, { payload: true }), { ports: Infinity });
        expect(rep.checks.filter((c) => !c.holds)).toEqual([]);
        expect(rep.checks.map((c) => c.id)).toContain("delivery");
      }),
      { numRuns: 40 },
    );
  });

  it("passes the testing kit's planner property (check-planner) with unlimited ports (a relayed plan with payload)", () => {
    fc.assert(
      plannerProperty((m) => plan(m, algorithm, { payload: findPlanner(algorithm).traits.relayed }), {
        ports: Infinity,
      }),
      { numRuns: 30 },
    );
  });

  it("declares what the MPI library does (compare's label)", () => {
    expect(findPlanner(algorithm).traits.mpi?.does.length).toBeGreaterThan(0);
  });
});

describe("port count", () => {
  const dense = (p: number) =>
    matrixFromRows(
      Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => (i === j ? 0 : 1 + ((i + j) % 3)))),
    );

  it("pairwise and ring plans are one-port: valid with 1 port", () => {
    for (const p of [2, 3, 7, 8, 16])
      for (const a of ["mpi-pair", "mpi-ring"]) expect(verifySchedule(dense(p), plan(dense(p), a)).ok).toBe(true);
  });

  it("the linear plan is refused on a one-port machine with the reason, valid with P - 1 or unlimited ports", () => {
    const m = dense(6);
    const s = plan(m, "mpi-linear");
    const one = verifySchedule(m, s, { ports: 1 });
    const row = one.checks.find((c) => c.id === "node-contention")!;
    expect(row.holds).toBe(false);
    expect(row.measured).toBe(5);
    expect(row.witness).toMatch(
      /node 0 sends 5 messages \(to 1, 2, 3, 4 and 5\) with 1 send port; a one-port machine takes one message per node and step/,
    );
    expect(verifySchedule(m, s, { ports: 5 }).ok).toBe(true);
    expect(verifySchedule(m, s, { ports: 4 }).ok).toBe(false);
    const unlimited = verifySchedule(m, s, { ports: Infinity });
    expect(unlimited.ok).toBe(true);
    expect(unlimited.checks.find((c) => c.id === "node-contention")!.bound).toBeNull();
  });

  it("the scattered plan needs as many ports as its block", () => {
    const m = dense(9);
    const s = plan(m, "mpi-scattered", { params: { block: 3 } });
    expect(verifySchedule(m, s, { ports: 3 }).ok).toBe(true);
    expect(verifySchedule(m, s, { ports: 2 }).ok).toBe(false);
  });

  it("refuses a port count that is neither a positive integer nor unlimited", () => {
    const m = dense(3);
    expect(() => verifySchedule(m, plan(m, "mpi-ring"), { ports: 1.5 })).toThrow(
      /ports must be a positive integer or unlimited, got 1.5/,
    );
    expect(() => verifySchedule(m, plan(m, "mpi-ring"), { ports: -Infinity })).toThrow(/ports/);
  });
});

describe("selectors", () => {
  it("Open MPI's choice follows SMPI's thresholds on P", () => {
    const pick = (p: number) => ompiAlltoallvChoice(p).name;
    expect([1, 2, 3, 4, 63, 64, 127, 128, 255, 256, 1023, 1024].map(pick)).toEqual([
      "mpi-pair",
      "mpi-pair",
      "mpi-pair",
      "mpi-linear",
      "mpi-linear",
      "mpi-pair",
      "mpi-pair",
      "mpi-linear",
      "mpi-linear",
      "mpi-pair",
      "mpi-pair",
      "mpi-linear",
    ]);
  });

  it("Intel MPI's choice follows SMPI's intel_alltoallv_table: scattered only with 8 ranks per node and P > 16", () => {
    // IMPI_COLL_SELECT over the table as SMPI 3.32 writes it: {ppn, [{max_num_proc, [{max_size, algo}]}]}
    const INT_MAX = 2147483647;
    const table: [number, [number, [number, number][]][]][] = [
      [1, [[INT_MAX, [[INT_MAX, 1]]]]],
      [2, [[INT_MAX, [[INT_MAX, 1]]]]],
      [
        4,
        [
          [8, [[INT_MAX, 1]]],
          [
            INT_MAX,
            [
              [4, 1],
              [INT_MAX, 2],
            ],
          ],
        ],
      ],
      [
        8,
        [
          [16, [[INT_MAX, 1]]],
          [
            INT_MAX,
            [
              [0, 1],
              [INT_MAX, 2],
            ],
          ],
        ],
      ],
      [
        16,
        [
          [8, [[INT_MAX, 1]]],
          [
            INT_MAX,
            [
              [4, 1],
              [INT_MAX, 2],
            ],
          ],
        ],
      ],
    ];
    const select = (commSize: number, localSize: number): string => {
      let i = 0;
      while (i < table.length && localSize !== table[i]![0]) i++;
      if (i === table.length) i = 0;
      let j = 0;
      while (commSize > table[i]![1][j]![0]) j++;
      const elems = table[i]![1][j]![1];
      const blockDsize = 1; // SIZECOMP_alltoallv
      let k = 0;
      while (k < elems.length && blockDsize >= elems[k]![0]) k++;
      return ["mpi-linear", "mpi-scattered"][elems[k]![1] - 1]!;
    };
    for (const ppn of [1, 2, 3, 4, 5, 8, 16, 32])
      for (let p = 1; p <= 80; p++) expect(impiAlltoallvChoice(p, ppn).name).toBe(select(p, ppn));
    expect(impiAlltoallvChoice(16, 8).name).toBe("mpi-linear");
    expect(impiAlltoallvChoice(17, 8).name).toBe("mpi-scattered");
    expect(impiAlltoallvChoice(1024, 1).name).toBe("mpi-linear");
    const m = buildMatrix({ p: 20, kind: "dense", seed: 4, maxEntry: 9 });
    const s = plan(m, "mpi-impi", { params: { ppn: 8 } });
    expect(s.params).toEqual({ ppn: 8, algorithm: "mpi-scattered" });
    expect([...s.stepStart]).toEqual([...plan(m, "mpi-scattered").stepStart]);
    expect(plan(m, "mpi-impi").params).toEqual({ algorithm: "mpi-linear" });
  });

  it("a selector's plan is the picked planner's, under its own name with the pick in its params", () => {
    const m = buildMatrix({ p: 8, kind: "dense", seed: 3, maxEntry: 9 });
    for (const [sel, picked] of [
      ["mpi-ompi", "mpi-linear"],
      ["mpi-mpich", "mpi-scattered"],
      ["mpi-mvapich2", "mpi-ring"],
      ["mpi-impi", "mpi-linear"],
    ] as const) {
      const s = plan(m, sel);
      const t = plan(m, picked);
      expect(s.algorithm).toBe(sel);
      expect(s.params).toEqual({ algorithm: picked });
      expect([...s.stepStart]).toEqual([...t.stepStart]);
      expect([...s.src]).toEqual([...t.src]);
      expect([...s.dst]).toEqual([...t.dst]);
    }
  });
});
