/**
 * SMPI 3.32's round-by-round MPI_Alltoallv algorithms (Faraj's pair and ring, with and without barriers) as
 * operations: one MPI_Sendrecv per round, a partner by XOR or by ring distance, and the barrier each variant adds.
 */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { pushLinearBarrier } from "./library-barrier.js";
import { LibraryOpsBuilder, RankBytes } from "./library-ops-builder.js";
import type { ReplayOps } from "./replay-ops.js";

/** The partners of a round: rank ^ i (pair), or send to rank + i and receive from rank - i (ring). */
export type RoundsPartner = "xor" | "ring";

/**
 * What a round algorithm adds: nothing; "light", a one-byte MPI_Sendrecv with the next round's partners after every
 * round but the last (its round 0 is the self copy); "one", one MPI_Barrier before the rounds; "mpi", an MPI_Barrier
 * before every round.
 */
export type RoundsBarrier = "none" | "light" | "one" | "mpi";

/** Whether p is a power of two (SMPI's pair algorithms refuse other P). */
export function isPowerOfTwo(p: number): boolean {
  return p > 0 && (p & (p - 1)) === 0;
}

/**
 * The operations of a round algorithm on `m` (SMPI's alltoallv-pair*.cpp, alltoallv-ring*.cpp): in round i = 0 ..
 * P - 1 rank r sends its block to dst and receives src's (`sendrecv`; round 0 is r's own block, a copy), with
 * dst = src = r ^ i ("xor") or dst = r + i, src = r - i mod P ("ring"), and the barriers `barrier` adds. Zero-byte
 * blocks are sent as the library sends them. O(P^2) operations.
 */
export function roundsAlltoallvOps(m: CommMatrix, partner: RoundsPartner, barrier: RoundsBarrier): ReplayOps {
  const p = m.p;
  if (partner === "xor" && !isPowerOfTwo(p))
    throw fail("machines", "BAD_OPTION", `library alltoallv: the pair algorithms need a power-of-two P, got ${p}`);
  const bytes = new RankBytes(m);
  const b = new LibraryOpsBuilder(p);
  const dstOf = (r: number, i: number): number => (partner === "xor" ? r ^ i : (r + i) % p);
  const srcOf = (r: number, i: number): number => (partner === "xor" ? r ^ i : (r - i + p) % p);
  for (let r = 0; r < p; r++) {
    b.beginRank(r);
    bytes.load(r);
    if (barrier === "one") pushLinearBarrier(b, r);
    for (let i = 0; i < p; i++) {
      if (barrier === "mpi") pushLinearBarrier(b, r);
      const dst = dstOf(r, i),
        src = srcOf(r, i);
      b.sendrecv(dst, bytes.to[dst]!, src, bytes.from[src]!);
      // the light barrier: a one-byte exchange with the next round's partners, sent to its source, from its destination
      if (barrier === "light" && i > 0 && i + 1 < p) b.sendrecv(srcOf(r, i + 1), 1, dstOf(r, i + 1), 1);
    }
  }
  return b.build();
}
