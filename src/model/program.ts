/** Program: a schedule lowered to per-rank operations on MPI_Alltoallv-style buffers (the runtime IR). */
import type { ScheduleHeader } from "./schedule.js";

/**
 * The buffers of a rank. `send` holds the M[r][j] elements for j at sendDispls[j]; `recv` holds the
 * M[i][r] elements from i at recvDispls[i]; `scratch` holds relayed elements between their arrival
 * and their departure.
 */
export type BufferName = "send" | "recv" | "scratch";
/** Every BufferName, in the order of their numeric codes (0, 1, 2) in PieceTable.buffer. */
export const BUFFER_NAMES: readonly BufferName[] = Object.freeze(["send", "recv", "scratch"]);

/** What an operation does: send a message, receive one, or copy locally (no network). */
export type OpKind = "send" | "recv" | "copy";
/** Every OpKind, in the order of their numeric codes (0, 1, 2) in OpTable.kind. */
export const OP_KINDS: readonly OpKind[] = Object.freeze(["send", "recv", "copy"]);

/**
 * How a rank's operations may be executed. "nonblocking": within a round every operation is posted
 * at once (MPI_Irecv / MPI_Isend, then MPI_Waitall). "blocking": each rank executes its operations
 * in program order with blocking calls; the lowering orders them so that no rank waits forever
 * under rendezvous sends. "dataflow": the nonblocking program's operations, each posted as soon as
 * the operations of its rank it waits for (Program.after) have completed; no round barriers.
 */
export type ProgramVariant = "nonblocking" | "blocking" | "dataflow";

/**
 * The dependencies of a dataflow program, compressed by operation: operation x waits for operations
 * op[start[x]] .. op[start[x + 1] - 1] (program-wide indices, ascending), all earlier operations of
 * its own rank.
 */
export interface AfterTable {
  /** n + 1 offsets into `op` for n operations. */
  readonly start: Uint32Array;
  readonly op: Uint32Array;
}

/**
 * Buffer pieces: piece k is elements offset .. offset+count-1 of buffer `buffer` (a BufferName
 * code) of the operation's rank. A message is the concatenation of its pieces, in order.
 */
export interface PieceTable {
  readonly buffer: Uint8Array;
  readonly offset: Float64Array;
  readonly count: Float64Array;
}

/**
 * Operations, columnar, sorted by (rank, round, position in the rank's program). Operation x has
 * pieces [pieceStart[x], pieceStart[x + 1]); for a copy, the first `copySplit[x]` of them are the
 * source and the rest the destination (both add up to `count[x]`).
 */
export interface OpTable {
  readonly rank: Uint32Array;
  readonly round: Uint32Array;
  readonly kind: Uint8Array;
  /** The other rank of a send or receive (the rank itself for a copy). */
  readonly peer: Uint32Array;
  /** Message tag: a send and its receive carry the same tag (0 for a copy). */
  readonly tag: Uint32Array;
  /** Elements moved. */
  readonly count: Float64Array;
  readonly pieceStart: Uint32Array;
  /** Source pieces of a copy (0 for sends and receives). */
  readonly copySplit: Uint32Array;
}

/**
 * The slots of one side of a layout in the peer form (as MPI_Neighbor_alltoallv takes them): rank
 * r's blocks are slots start[r] .. start[r + 1] - 1, slot k holding the block of peer peer[k]
 * (peers ascending within a rank, counts >= 1: only the non-zero blocks).
 */
export interface PeerIndex {
  /** p + 1 slot offsets. */
  readonly start: Uint32Array;
  readonly peer: Uint32Array;
}

/** The form of a layout: "full" (P blocks per rank, as MPI_Alltoallv) or "peers" (the non-zero blocks only). */
export type LayoutForm = "full" | "peers";
/** Every LayoutForm. */
export const LAYOUT_FORMS: readonly LayoutForm[] = Object.freeze(["full", "peers"]);

/**
 * Per-rank buffer layout (elements): counts and displacements per slot, and the buffer sizes. In
 * the full form (`sendPeers` and `recvPeers` null) rank r has a slot for every peer, slot r * p + j
 * for peer j, as MPI_Alltoallv's arrays (P^2 slots); in the peer form only the non-zero blocks have
 * slots (O(P + E): a sparse matrix's layout). See `slotOf` in layout-slots.ts.
 */
export interface RankLayout {
  /** sendCounts[slot of (r, j)] = M[r][j]: the elements rank r sends j (the program does not carry the matrix). */
  readonly sendCounts: Float64Array;
  /** recvCounts[slot of (r, i)] = M[i][r]: the elements rank r receives from i. */
  readonly recvCounts: Float64Array;
  /** sendDispls[slot of (r, j)]: where rank r's elements for j start in its send buffer. */
  readonly sendDispls: Float64Array;
  /** recvDispls[slot of (r, i)]: where the elements from i start in rank r's receive buffer. */
  readonly recvDispls: Float64Array;
  /** The send side's slots in the peer form; null in the full form. */
  readonly sendPeers: PeerIndex | null;
  /** The receive side's slots in the peer form; null in the full form. */
  readonly recvPeers: PeerIndex | null;
  /** Elements of each rank's send, receive and scratch buffer. */
  readonly sendSize: Float64Array;
  readonly recvSize: Float64Array;
  readonly scratchSize: Float64Array;
}

/** A lowered schedule: every rank's operations in rounds, on its buffers. */
export interface Program extends ScheduleHeader {
  readonly variant: ProgramVariant;
  /** Rounds (one per step of the schedule, the same for every rank). */
  readonly rounds: number;
  readonly layout: RankLayout;
  /** Operations of rank r are [rankStart[r], rankStart[r + 1]) in `ops`. */
  readonly rankStart: Uint32Array;
  readonly ops: OpTable;
  readonly pieces: PieceTable;
  /** The dependencies of a dataflow program (present exactly when `variant` is "dataflow"). */
  readonly after?: AfterTable;
}
