/** MPI_Barrier as SMPI 3.32 runs it by default (barrier__default: Open MPI's basic linear barrier), as operations. */
import { TAG_BARRIER, type LibraryOpsBuilder } from "./library-ops-builder.js";

/**
 * Appends rank r's part of SMPI's default barrier (`barrier__ompi_basic_linear`): a rank other than 0 sends rank 0 an
 * empty message (MPI_Send) and receives one back (MPI_Recv); rank 0 posts a receive from every other rank, waits for
 * them all, then posts an empty send to every other rank and waits for them all.
 */
export function pushLinearBarrier(b: LibraryOpsBuilder, r: number): void {
  const p = b.p;
  if (p === 1) return;
  if (r > 0) {
    b.send(0, 0, TAG_BARRIER);
    b.recv(0, 0, TAG_BARRIER);
    return;
  }
  for (let i = 1; i < p; i++) b.irecv(i, 0, TAG_BARRIER);
  b.waitAll();
  for (let i = 1; i < p; i++) b.isend(i, 0, TAG_BARRIER);
  b.waitAll();
}
