/**
 * MPI_Alltoallv's default as an MPI library runs it (SMPI 3.32's default, Open MPI's basic linear): every rank posts a
 * receive from and a send to every other rank, zero counts included, and waits for all; replayed like a program.
 */
import { entry, type CommMatrix } from "../../model/matrix.js";
import { R_COPY, R_RECV, R_SEND, type ReplayOps } from "./replay-ops.js";
import { replayOpsOn, type ProgramReplayOptions } from "./replay-program.js";
import type { ProgramReplayResult } from "./replay-engine.js";

/**
 * The operations of the library's linear alltoallv on `m`, as SMPI 3.32's default runs it (colls::ialltoallv in
 * src/smpi/colls/smpi_nbc_impl.cpp, then a wait for all): rank r copies its own block, posts its receives from ranks
 * 0, 1, ..., P - 1 (itself left out), then its sends to the same order, none waiting for another; a message of zero
 * elements still costs its overheads and its envelope, as the library sends it. The order matters with overheads:
 * every rank sends to rank P - 1 last, so that rank waits for messages that leave after all the others.
 */
export function linearAlltoallvOps(m: CommMatrix): ReplayOps {
  const p = m.p;
  let selves = 0;
  for (let r = 0; r < p; r++) if (entry(m, r, r) > 0) selves++;
  const n = 2 * p * (p - 1) + selves;
  const rankStart = new Uint32Array(p + 1),
    kind = new Uint8Array(n),
    peer = new Uint32Array(n),
    tag = new Uint32Array(n),
    bytes = new Float64Array(n),
    blocking = new Uint8Array(n),
    waitPrefix = new Uint32Array(n);
  let x = 0;
  for (let r = 0; r < p; r++) {
    rankStart[r] = x;
    // the rank's own block, copied from its send buffer to its receive buffer before the posts
    if (entry(m, r, r) > 0) {
      kind[x] = R_COPY;
      peer[x] = r;
      bytes[x] = entry(m, r, r) * m.elementBytes;
      waitPrefix[x] = rankStart[r]!;
      x++;
    }
    for (const k of [R_RECV, R_SEND])
      for (let q = 0; q < p; q++) {
        if (q === r) continue;
        kind[x] = k;
        peer[x] = q;
        bytes[x] = (k === R_SEND ? entry(m, r, q) : entry(m, q, r)) * m.elementBytes;
        waitPrefix[x] = rankStart[r]!;
        x++;
      }
  }
  rankStart[p] = x;
  return {
    p,
    rankStart,
    kind,
    peer,
    tag,
    bytes,
    blocking,
    waitPrefix,
    depStart: new Uint32Array(n + 1),
    deps: new Uint32Array(0),
  };
}

/** Replays the library's linear alltoallv of `m` (linearAlltoallvOps) as replayProgram replays a program. */
export function replayLibraryAlltoallv(m: CommMatrix, opts: ProgramReplayOptions): ProgramReplayResult {
  return replayOpsOn(linearAlltoallvOps(m), opts);
}
