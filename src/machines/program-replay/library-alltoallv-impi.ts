/**
 * SMPI 3.32's `impi` MPI_Alltoallv on its first call on a communicator, one rank per host: the Intel MPI selector
 * (smpi_intel_mpi_selector.cpp) runs init_smp, then its pick for one process per node, the basic linear algorithm.
 */
import type { CommMatrix } from "../../model/matrix.js";
import { linearAlltoallvOps } from "./library-alltoallv.js";
import { pushInitSmp } from "./library-init-smp.js";
import { LibraryOpsBuilder } from "./library-ops-builder.js";
import { sequenceOps } from "./library-ops-sequence.js";
import type { ReplayOps } from "./replay-ops.js";

/**
 * The operations of SMPI's `impi` alltoallv on `m` as its first call on the communicator runs it: every rank's part
 * of init_smp (pushInitSmp), then the basic linear alltoallv (linearAlltoallvOps), which the Intel table picks at
 * every P with one process per node (its alltoallv block size is fixed at 1 byte). O(P^2) operations.
 */
export function impiAlltoallvOps(m: CommMatrix): ReplayOps {
  const b = new LibraryOpsBuilder(m.p);
  for (let r = 0; r < m.p; r++) {
    b.beginRank(r);
    pushInitSmp(b, r);
  }
  return sequenceOps(b.build(), linearAlltoallvOps(m));
}
