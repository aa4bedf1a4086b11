/** Every planner's plan of the workload patterns (moe, halo, shuffle, spmv) verifies, with payload, over random P, options and seeds. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isCommplanError } from "../../src/model/errors.js";
import type { CommMatrix } from "../../src/model/matrix.js";
import { generatePattern, type PatternInput } from "../../src/patterns/index.js";
import { PLANNERS, plan } from "../../src/planner/index.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { readSparseMatrixFile } from "../../src/io/sparse-matrix-read.js";

const FIXTURE = new URL("../fixtures/matrices/west0479.mtx", import.meta.url).pathname;
const sparse = readSparseMatrixFile(FIXTURE);

/** Small options of each workload (entries of tens of elements, so that payload plans stay small). */
const WORKLOADS: readonly [string, fc.Arbitrary<Record<string, number>>, PatternInput][] = [
  [
    "moe",
    fc.record({
      tokens: fc.integer({ min: 1, max: 12 }),
      hidden: fc.integer({ min: 1, max: 3 }),
      k: fc.constant(1),
      skew: fc.double({ min: 0, max: 2, noNaN: true }),
      capacityFactor: fc.constantFrom(0, 1, 1.25),
    }),
    {},
  ],
  [
    "halo",
    fc
      .record({
        dims: fc.constantFrom(2, 3),
        nx: fc.integer({ min: 1, max: 4 }),
        ny: fc.integer({ min: 1, max: 4 }),
        nz: fc.integer({ min: 1, max: 4 }),
        periodic: fc.integer({ min: 0, max: 1 }),
      })
      // nz only in 3D (generatePattern refuses a z option given in 2D)
      .map(({ nz, ...o }) => (o.dims === 3 ? { ...o, nz } : o)),
    {},
  ],
  [
    "shuffle",
    fc.record({
      rows: fc.integer({ min: 0, max: 40 }),
      keys: fc.integer({ min: 1, max: 200 }),
      skew: fc.double({ min: 0, max: 2, noNaN: true }),
      range: fc.integer({ min: 0, max: 1 }),
    }),
    {},
  ],
  ["spmv", fc.constant({}), { sparse }],
];

/** Plans m with every planner (skipping only a declared UNSUPPORTED refusal) and expects the verifier to pass each plan. */
function planAllAndVerify(m: CommMatrix, seed: number): number {
  let planned = 0;
  for (const pl of PLANNERS) {
    let s;
    try {
      s = plan(m, pl.name, { payload: true, seed });
    } catch (e) {
      if (isCommplanError(e) && e.code === "UNSUPPORTED") continue;
      throw e;
    }
    planned++;
    // MPI's linear and scattered plans post several messages per node at once: a many-port machine
    const r = verifySchedule(m, s, { ports: pl.traits.mpi ? Infinity : 1 });
    expect({ planner: pl.name, failed: r.checks.filter((c) => !c.holds) }).toEqual({ planner: pl.name, failed: [] });
  }
  return planned;
}

describe("every planner verifies on the workload patterns", () => {
  for (const [name, optionsArb, input] of WORKLOADS) {
    it(`${name}: plans of random instances (P in 2..9) pass the verifier`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 2, max: 9 }), optionsArb, fc.integer({ min: 0, max: 1000 }), (p, opts, seed) => {
          const m = generatePattern(name, p, opts, seed, input);
          expect(planAllAndVerify(m, seed)).toBeGreaterThanOrEqual(PLANNERS.length - 2);
        }),
        { numRuns: 15 },
      );
    });
  }
});
