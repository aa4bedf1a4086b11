/**
 * SMPI 3.32's communicator setup (Comm::init_smp in smpi_comm.cpp) as operations, for P ranks one per host: what the
 * Intel MPI selectors run on their first call on a communicator, before their pick.
 */
import { TAG_INIT_SMP, type LibraryOpsBuilder } from "./library-ops-builder.js";

/** The bytes of the one MPI_INT each of init_smp's collectives carries per message. */
const INT_BYTES = 4;

/**
 * Appends rank r's part of init_smp on a communicator of P ranks, one per host: an `allgather__ring` of the leaders
 * on the communicator, another of the node sizes on the leaders' communicator (every rank leads its host, in rank
 * order), a `bcast__scatter_LR_allgather` on the one-rank intra-node communicator (no message), then
 * `allreduce__default` of the blocked flag: a linear reduce to rank 0 (`colls::ireduce`: each rank's isend, rank 0's
 * receives from every other rank) and a binomial-tree broadcast from rank 0 (blocking sends and receives). Every
 * message is one 4-byte int; the communicators are created without messages (smp communicators get no id broadcast).
 */
export function pushInitSmp(b: LibraryOpsBuilder, r: number): void {
  pushRingAllgather(b, r);
  pushRingAllgather(b, r);
  pushLinearReduce(b, r);
  pushBinomialBcast(b, r);
}

/** `allgather__ring` of one int: the own int's copy, then P - 1 MPI_Sendrecv, to r + i and from r - i. */
function pushRingAllgather(b: LibraryOpsBuilder, r: number): void {
  const p = b.p;
  for (let i = 0; i < p; i++) b.sendrecv((r + i) % p, INT_BYTES, (r - i + p) % p, INT_BYTES, TAG_INIT_SMP);
}

/** `colls::ireduce` to rank 0 and its wait: rank 0 copies its int and receives every other's; the others send. */
function pushLinearReduce(b: LibraryOpsBuilder, r: number): void {
  if (r === 0) {
    b.copy(INT_BYTES, TAG_INIT_SMP);
    for (let src = 1; src < b.p; src++) b.irecv(src, INT_BYTES, TAG_INIT_SMP);
  } else b.isend(0, INT_BYTES, TAG_INIT_SMP);
  b.waitAll();
}

/**
 * `bcast__binomial_tree` of one int from rank 0: a rank other than 0 receives from r minus its lowest set bit, then
 * every rank sends to r + mask for each power of two mask below that bit (below P for rank 0), largest first, while
 * r + mask < P.
 */
function pushBinomialBcast(b: LibraryOpsBuilder, r: number): void {
  const p = b.p;
  let mask = 1;
  while (mask < p && (r & mask) === 0) mask <<= 1;
  if (mask < p) b.recv(r - mask, INT_BYTES, TAG_INIT_SMP);
  for (mask >>= 1; mask > 0; mask >>= 1) if (r + mask < p) b.send(r + mask, INT_BYTES, TAG_INIT_SMP);
}
