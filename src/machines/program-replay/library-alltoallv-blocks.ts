/**
 * SMPI 3.32's `bruck` MPI_Alltoallv (also what its `mpich` selector runs), which is no Bruck algorithm: MPICH's
 * posted-in-blocks exchange, a few receives and sends posted at a time, each block waited for before the next.
 */
import type { CommMatrix } from "../../model/matrix.js";
import { LibraryOpsBuilder, RankBytes } from "./library-ops-builder.js";
import type { ReplayOps } from "./replay-ops.js";

/** The block's width of SMPI's `bruck` alltoallv (MPIR_PARAM_ALLTOALL_THROTTLE, fixed at 4 in alltoallv-bruck.cpp). */
export const LIBRARY_BLOCK = 4;

/**
 * The operations of SMPI's `bruck` alltoallv on `m`: rank r copies its own block (nothing when empty), then for each
 * block of `block` distances ii, ii + 1, ...: posts receives from r + ii + i and then sends to r - ii - i (mod P, r
 * itself skipped, i = 0 .. block - 1 within P), and waits for the block. Zero-byte blocks are sent as the library
 * sends them. O(P^2) operations.
 */
export function blocksAlltoallvOps(m: CommMatrix, block = LIBRARY_BLOCK): ReplayOps {
  const p = m.p;
  const bytes = new RankBytes(m);
  const b = new LibraryOpsBuilder(p);
  for (let r = 0; r < p; r++) {
    b.beginRank(r);
    bytes.load(r);
    b.copy(bytes.to[r]!);
    if (p === 1) continue;
    for (let ii = 0; ii < p; ii += block) {
      const ss = Math.min(block, p - ii);
      for (let i = 0; i < ss; i++) {
        const src = (r + i + ii) % p;
        if (src !== r) b.irecv(src, bytes.from[src]!);
      }
      for (let i = 0; i < ss; i++) {
        const dst = (r - i - ii + p) % p;
        if (dst !== r) b.isend(dst, bytes.to[dst]!);
      }
      b.waitAll();
    }
  }
  return b.build();
}
