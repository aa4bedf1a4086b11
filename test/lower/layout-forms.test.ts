// The two forms of a program's layout: full (P blocks per rank, as MPI_Alltoallv) and peers (the
// non-zero blocks only, as MPI_Neighbor_alltoallv). The same schedule lowers to the same operations
// in both; only the layout's slots differ, and the program checks pass on both.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerSchedule } from "../../src/lower/index.js";
import { isCommplanError } from "../../src/model/errors.js";
import { slotOf, slotStart } from "../../src/model/layout-slots.js";
import { matrixFromRows, toSparse, type CommMatrix } from "../../src/model/matrix.js";
import type { Program } from "../../src/model/program.js";
import { PLANNERS, plan } from "../../src/planner/registry.js";
import { verifyProgram } from "../../src/verifier/program/index.js";
import { matrixArb } from "../helpers/arbitraries.js";
import { runRounds } from "./program-interpreter.js";

const elementsOf = (m: CommMatrix): number => m.data.reduce((a, b) => a + b, 0);

function tryPlan(m: CommMatrix, name: string): ReturnType<typeof plan> | null {
  try {
    return plan(m, name, { payload: true });
  } catch (e) {
    if (isCommplanError(e) && (e.code === "UNSUPPORTED" || e.code === "BAD_OPTION")) return null;
    throw e;
  }
}

/** The operation and piece columns as plain arrays. */
function opsOf(prog: Program): number[][] {
  return [
    ...Object.values(prog.ops).map((c: ArrayLike<number>) => Array.from(c)),
    ...Object.values(prog.pieces).map((c: ArrayLike<number>) => Array.from(c)),
    Array.from(prog.rankStart),
  ];
}

describe("full and peer layouts", () => {
  for (const planner of PLANNERS) {
    it(`${planner.name}: the same operations in both forms, the same displacements at every non-zero block, and both pass the program checks`, () => {
      fc.assert(
        fc.property(
          matrixArb({ minP: 1, maxP: 8, kinds: ["dense", "sparse", "empty-rows", "permutation", "spike"] }).filter(
            (m) => elementsOf(m) <= 2000,
          ),
          (m) => {
            const s = tryPlan(m, planner.name);
            if (s === null) return;
            for (const variant of ["nonblocking", "blocking"] as const) {
              const full = lowerSchedule(m, s, { variant, form: "full" }).program;
              const peers = lowerSchedule(m, s, { variant, form: "peers" }).program;
              expect(full.layout.sendPeers).toBeNull();
              expect(peers.layout.sendPeers).not.toBeNull();
              expect(opsOf(peers)).toEqual(opsOf(full));
              const { p } = m;
              let blocks = 0;
              for (let r = 0; r < p; r++)
                for (let j = 0; j < p; j++) {
                  const ks = slotOf(peers.layout.sendPeers, p, r, j),
                    kr = slotOf(peers.layout.recvPeers, p, j, r);
                  expect(ks >= 0, `send block ${r} -> ${j}`).toBe(m.data[r * p + j]! > 0);
                  expect(kr >= 0, `receive block ${r} -> ${j}`).toBe(m.data[r * p + j]! > 0);
                  if (ks < 0) continue;
                  blocks++;
                  expect(peers.layout.sendDispls[ks]).toBe(full.layout.sendDispls[r * p + j]);
                  expect(peers.layout.recvDispls[kr]).toBe(full.layout.recvDispls[j * p + r]);
                }
              expect(slotStart(peers.layout.sendPeers, p, p)).toBe(blocks);
              expect(Array.from(peers.layout.sendSize)).toEqual(Array.from(full.layout.sendSize));
              expect(Array.from(peers.layout.recvSize)).toEqual(Array.from(full.layout.recvSize));
              expect(Array.from(peers.layout.scratchSize)).toEqual(Array.from(full.layout.scratchSize));
              expect(verifyProgram(m, peers).ok).toBe(true);
              expect(runRounds(m, peers)).toBe(elementsOf(m));
            }
          },
        ),
        { numRuns: 12, seed: 11 },
      );
    });
  }

  const m = matrixFromRows([
    [3, 0, 4, 5],
    [1, 2, 0, 7],
    [0, 0, 0, 0],
    [6, 0, 9, 0],
  ]);

  it("the default form follows the storage: full for dense, peers for sparse", () => {
    const s = plan(m, "shift");
    expect(lowerSchedule(m, s).program.layout.sendPeers).toBeNull();
    const sp = lowerSchedule(toSparse(m), s).program.layout;
    expect(Array.from(sp.sendPeers!.start)).toEqual([0, 3, 6, 6, 8]);
    expect(Array.from(sp.sendPeers!.peer)).toEqual([0, 2, 3, 0, 1, 3, 0, 2]);
    expect(Array.from(sp.sendDispls)).toEqual([0, 3, 7, 0, 1, 3, 0, 6]);
    // column j of M is rank j's receive side: rank 0 receives from 0, 1 and 3
    expect(Array.from(sp.recvPeers!.start)).toEqual([0, 3, 4, 6, 8]);
    expect(Array.from(sp.recvPeers!.peer)).toEqual([0, 1, 3, 1, 0, 3, 0, 1]);
    expect(Array.from(sp.recvDispls)).toEqual([0, 3, 4, 0, 0, 4, 0, 5]);
  });

  it("user displacements in the peer form are one per non-zero block, checked like the full form's", () => {
    const s = plan(m, "two-stage", { payload: true });
    const sm = toSparse(m);
    // every rank's blocks reversed, after a gap of 2
    const sd = Float64Array.from([11, 7, 2, 11, 9, 2, 11, 2]);
    const size = new Float64Array(4).fill(20);
    const prog = lowerSchedule(sm, s, { sendDispls: sd, sendSize: size }).program;
    expect(verifyProgram(sm, prog).ok).toBe(true);
    expect(runRounds(sm, prog)).toBe(elementsOf(m));
    expect(() => lowerSchedule(sm, s, { sendDispls: new Float64Array(16) })).toThrow(
      /^lower: sendDispls has 16 entries, expected one per non-zero entry, 8/,
    );
    const bad = sd.slice();
    bad[1] = 12; // rank 0: the block of 2 (4 elements at 12) overlaps the block of 0 (3 at 11)
    expect(() => lowerSchedule(sm, s, { sendDispls: bad, sendSize: size })).toThrow(
      /^lower: sendDispls of rank 0: the blocks of 0 and 2 overlap/,
    );
    expect(() => lowerSchedule(sm, s, { form: "neighbours" as never })).toThrow(/^lower: form must be full or peers/);
  });
});
