/**
 * MPI_Alltoallv's default as an MPI library runs it (SMPI 3.32's default, Open MPI's basic linear): every rank copies
 * its own block, posts a receive from and a send to every other rank, zero counts included, and waits for all;
 * replayed like a program.
 */
import { matrixRows, type CommMatrix } from "../../model/matrix.js";
import { R_COPY, R_RECV, R_SEND, type ReplayOps } from "./replay-ops.js";
import { replayOpsOn, type ProgramReplayOptions } from "./replay-program.js";
import type { ProgramReplayResult } from "./replay-engine.js";

/**
 * The operations of the library's linear alltoallv on `m`, in SMPI 3.32's order (`colls::ialltoallv` and
 * `alltoallv__ompi_basic_linear`): rank r copies its own block when it is not empty, then posts its receives from
 * ranks 0, 1, ..., P - 1 (r skipped), then its sends in the same order, none waiting for another; a message of zero
 * elements still costs its overheads and its envelope, as the library sends it. Read from the matrix's rows: O(P^2)
 * operations, O(E) reads of the matrix.
 */
export function linearAlltoallvOps(m: CommMatrix): ReplayOps {
  const p = m.p;
  const { rowStart, col, val } = matrixRows(m);
  const self = new Float64Array(p);
  for (let i = 0; i < p; i++) for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) if (col[k] === i) self[i] = val[k]!;
  const rankStart = new Uint32Array(p + 1);
  for (let r = 0; r < p; r++) rankStart[r + 1] = rankStart[r]! + 2 * (p - 1) + (self[r]! > 0 ? 1 : 0);
  const n = rankStart[p]!;
  const kind = new Uint8Array(n),
    peer = new Uint32Array(n),
    bytes = new Float64Array(n),
    waitPrefix = new Uint32Array(n);
  // rank r's receive from q (q != r) is its operation recvAt(r) + q - (q > r), its send to q p - 1 later
  const recvAt = (r: number): number => rankStart[r]! + (self[r]! > 0 ? 1 : 0);
  for (let r = 0; r < p; r++) {
    const s = rankStart[r]!;
    waitPrefix.fill(s, s, rankStart[r + 1]!);
    if (self[r]! > 0) {
      kind[s] = R_COPY;
      peer[s] = r;
      bytes[s] = self[r]! * m.elementBytes;
    }
    const at = recvAt(r);
    for (let q = 0, x = at; q < p; q++) {
      if (q === r) continue;
      kind[x] = R_RECV;
      kind[x + p - 1] = R_SEND;
      peer[x] = peer[x + p - 1] = q;
      x++;
    }
  }
  for (let i = 0; i < p; i++)
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const j = col[k]!;
      if (j === i) continue;
      const b = val[k]! * m.elementBytes;
      bytes[recvAt(i) + p - 1 + j - (j > i ? 1 : 0)] = b;
      bytes[recvAt(j) + i - (i > j ? 1 : 0)] = b;
    }
  return {
    p,
    rankStart,
    kind,
    peer,
    tag: new Uint32Array(n),
    bytes,
    blocking: new Uint8Array(n),
    waitPrefix,
    depStart: new Uint32Array(n + 1),
    deps: new Uint32Array(0),
  };
}

/** Replays the library's linear alltoallv of `m` (linearAlltoallvOps) as replayProgram replays a program. */
export function replayLibraryAlltoallv(m: CommMatrix, opts: ProgramReplayOptions): ProgramReplayResult {
  return replayOpsOn(linearAlltoallvOps(m), opts);
}
