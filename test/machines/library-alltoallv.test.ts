/**
 * The library mirror of MPI_Alltoallv's default (linearAlltoallvOps) against a rank-by-rank transcription of SMPI
 * 3.32's `colls::ialltoallv` (smpi_nbc_impl.cpp): the self block copied first, then a receive from every other rank in
 * ascending order, then a send to every other rank in the same order, zero counts included, all posted before one wait.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { entry, matrixFromRows, toSparse, type CommMatrix } from "../../src/model/matrix.js";
import { linearAlltoallvOps, replayLibraryAlltoallv } from "../../src/machines/program-replay/library-alltoallv.js";
import { R_COPY, R_RECV, R_SEND, type ReplayOps } from "../../src/machines/program-replay/replay-ops.js";
import { findMachine } from "../../src/machines/presets.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";

/** Rank r's operations as "kind peer bytes", in SMPI's order. */
function smpiDefault(m: CommMatrix, r: number): string[] {
  const out: string[] = [];
  const bytes = (i: number, j: number): number => entry(m, i, j) * m.elementBytes;
  // Datatype::copy(sendbuf + senddisps[rank], ...): nothing to copy for an empty block
  if (entry(m, r, r) > 0) out.push(`copy ${r} ${bytes(r, r)}`);
  for (let i = 0; i < m.p; i++) if (i !== r) out.push(`recv ${i} ${bytes(i, r)}`);
  for (let i = 0; i < m.p; i++) if (i !== r) out.push(`send ${i} ${bytes(r, i)}`);
  return out;
}

function rankOps(ops: ReplayOps, r: number): string[] {
  const names = { [R_SEND]: "send", [R_RECV]: "recv", [R_COPY]: "copy" } as Record<number, string>;
  const out: string[] = [];
  for (let x = ops.rankStart[r]!; x < ops.rankStart[r + 1]!; x++)
    out.push(`${names[ops.kind[x]!]} ${ops.peer[x]} ${ops.bytes[x]}`);
  return out;
}

describe("linearAlltoallvOps", () => {
  it("posts SMPI's default's operations in its order, empty messages included, dense and sparse storage alike", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 24, kinds: ["dense", "sparse", "empty-rows", "zero", "spike", "permutation"] }),
        fc.boolean(),
        (recipe, sparse) => {
          const dense = buildMatrix(recipe);
          const m = sparse ? toSparse(dense) : dense;
          const ops = linearAlltoallvOps(m);
          expect(ops.p).toBe(m.p);
          for (let r = 0; r < m.p; r++) {
            expect(rankOps(ops, r)).toEqual(smpiDefault(dense, r));
            // nothing waits before the final wait: every operation's prefix is its rank's start
            for (let x = ops.rankStart[r]!; x < ops.rankStart[r + 1]!; x++)
              expect(ops.waitPrefix[x]).toBe(ops.rankStart[r]);
          }
          expect(ops.depStart.length).toBe(ops.kind.length + 1);
          expect([...ops.blocking].every((b) => b === 0)).toBe(true);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("an empty message costs its overheads: the same matrix with more zero pairs is not cheaper at P = 8", () => {
    // a ring of 8 ranks: 8 messages among 56 pairs; SMPI's default posts 14 operations per rank all the same
    const rows = Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => (j === (i + 1) % 8 ? 4 : 0)));
    const m = matrixFromRows(rows, { elementBytes: 8 });
    const machine = findMachine("ib-hdr-200");
    const withOverheads = replayLibraryAlltoallv(m, { machine, runtime: "ib-hdr-200-mpi" }).makespanUs;
    // 7 sends at 0.3 us each before the wait, then at least the receive overhead of the one message that is not empty
    expect(withOverheads).toBeGreaterThanOrEqual(7 * 0.3 + 0.3);
    const plain = replayLibraryAlltoallv(m, { machine, runtime: "smpi" }).makespanUs;
    expect(withOverheads).toBeGreaterThan(plain);
  });
});
