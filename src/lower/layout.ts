/**
 * Layout: MPI_Alltoallv buffer displacements of every rank (prefix sums by default, or checked user values), in the
 * full or the peer form.
 */
import { fail } from "../model/errors.js";
import { isSparse, matrixCols, matrixRows, type CommMatrix } from "../model/matrix.js";
import { checkMemory } from "../model/memory-budget.js";
import { memoryBudgetOf } from "../host/memory.js";
import { slotPeer, slotStart } from "../model/layout-slots.js";
import type { LayoutForm, PeerIndex, RankLayout } from "../model/program.js";
import { counted } from "../internal/plural.js";
import { unzeroed } from "../internal/unzeroed.js";

/** The form and the displacements and buffer sizes a caller may give (elements). */
export interface DisplacementOptions {
  /**
   * "full" (P blocks per rank, P^2 slots) or "peers" (the non-zero blocks only); default: peers for a sparse matrix,
   * full for a dense one.
   */
  readonly form?: LayoutForm;
  /**
   * Per slot of the form (full: sendDispls[r * p + j]; peers: M's non-zero entries in row order): where rank r's
   * elements for j start; default: prefix sums in j order.
   */
  readonly sendDispls?: Float64Array;
  /**
   * Per slot of the form (full: recvDispls[r * p + i]; peers: M's non-zero entries in column order): where the elements
   * from i start at rank r; default: prefix sums in i order.
   */
  readonly recvDispls?: Float64Array;
  /** Send buffer size of every rank; default: the end of its last block. */
  readonly sendSize?: Float64Array;
  /** Receive buffer size of every rank; default: the end of its last block. */
  readonly recvSize?: Float64Array;
  /** Bytes a full-form layout may take (refused past it); by default half the machine's memory, at most 32 GiB. */
  readonly maxMemory?: number;
}

/** The send and receive side of the layout (RankLayout without the scratch sizes). */
export type BufferLayout = Omit<RankLayout, "scratchSize">;

/** One side's slots and counts before displacements. */
interface Side {
  readonly peers: PeerIndex | null;
  readonly counts: Float64Array;
}

/** Prefix-sum displacements of every rank's slots (its blocks in peer order), and the buffer sizes. */
function prefixDispls(side: Side, p: number): { displs: Float64Array; size: Float64Array } {
  const { peers, counts } = side;
  // the full form's P^2 slots are all written below (rank r's are r * p .. r * p + p - 1): no zero fill
  const displs = peers === null ? unzeroed(Float64Array, counts.length) : new Float64Array(counts.length),
    size = new Float64Array(p);
  for (let r = 0; r < p; r++) {
    let at = 0;
    const end = slotStart(peers, p, r + 1);
    for (let k = slotStart(peers, p, r); k < end; k++) {
      displs[k] = at;
      at += counts[k]!;
    }
    size[r] = at;
  }
  return { displs, size };
}

/**
 * The transpose of the matrix data (recvCounts[r * p + i] = M[i][r]), in 64 x 64 tiles so that both sides stay in
 * cache, each tile written row by row (sequential writes; with the rows of the output inner, each write went to a
 * line 8 KB from the last at P = 1024, all in one set of the cache: 6.4 ms against 2.5 ms).
 */
function transposed(m: CommMatrix): Float64Array {
  const { p, data } = m;
  const out = unzeroed(Float64Array, p * p); // every entry written below
  const T = 64;
  for (let r0 = 0; r0 < p; r0 += T) {
    const r1 = Math.min(p, r0 + T);
    for (let i0 = 0; i0 < p; i0 += T) {
      const i1 = Math.min(p, i0 + T);
      for (let r = r0; r < r1; r++) for (let i = i0; i < i1; i++) out[r * p + i] = data[i * p + r]!;
    }
  }
  return out;
}

/** Checks user displacements of one side: one per slot, integers >= 0, blocks within the buffer and not overlapping. */
function checkSide(
  side: Side,
  p: number,
  send: boolean,
  displs: Float64Array,
  given: Float64Array | undefined,
): Float64Array {
  const { peers, counts } = side;
  const name = send ? "sendDispls" : "recvDispls",
    sizeName = send ? "sendSize" : "recvSize";
  if (displs.length !== counts.length)
    throw fail(
      "lower",
      "BAD_OPTION",
      `${name} has ${counted(displs.length, "entry", "entries")}, expected ${peers === null ? `P * P = ${counts.length}` : `one per non-zero entry, ${counts.length}`}`,
      { field: name },
    );
  if (given !== undefined && given.length !== p)
    throw fail(
      "lower",
      "BAD_OPTION",
      `${sizeName} has ${counted(given.length, "entry", "entries")}, expected P = ${p}`,
      {
        field: sizeName,
      },
    );
  const size = new Float64Array(p);
  const order: number[] = [];
  for (let r = 0; r < p; r++) {
    order.length = 0;
    let end = 0;
    const k1 = slotStart(peers, p, r + 1);
    for (let k = slotStart(peers, p, r); k < k1; k++) {
      const d = displs[k]!;
      if (!(Number.isInteger(d) && d >= 0 && d <= Number.MAX_SAFE_INTEGER))
        throw fail("lower", "BAD_OPTION", `${name}[${r}][${slotPeer(peers, p, k)}] = ${d} is not an integer >= 0`, {
          field: name,
        });
      if (counts[k]! > 0) {
        order.push(k);
        end = Math.max(end, d + counts[k]!);
      }
    }
    const limit = given === undefined ? end : given[r]!;
    if (end > limit)
      throw fail(
        "lower",
        "BAD_OPTION",
        `${name} of rank ${r} reach element ${end}, past its buffer of ${limit} elements`,
        {
          field: name,
        },
      );
    if (!(Number.isInteger(limit) && limit >= 0 && limit <= Number.MAX_SAFE_INTEGER))
      throw fail("lower", "BAD_OPTION", `${sizeName}[${r}] = ${limit} is not an integer >= 0`, { field: sizeName });
    size[r] = limit;
    order.sort((a, b) => displs[a]! - displs[b]!);
    for (let i = 1; i < order.length; i++) {
      const a = order[i - 1]!,
        b = order[i]!;
      if (displs[a]! + counts[a]! > displs[b]!)
        throw fail(
          "lower",
          "BAD_OPTION",
          `${name} of rank ${r}: the blocks of ${slotPeer(peers, p, a)} and ${slotPeer(peers, p, b)} overlap`,
          { field: name },
        );
    }
  }
  return size;
}

/** Displacements and size of one side: defaults, or the caller's after checking them. */
function sideDispls(
  side: Side,
  p: number,
  send: boolean,
  displs: Float64Array | undefined,
  size: Float64Array | undefined,
): { displs: Float64Array; size: Float64Array } {
  if (displs === undefined) {
    const d = prefixDispls(side, p);
    return size === undefined ? d : { displs: d.displs, size: checkSide(side, p, send, d.displs, size) };
  }
  return { displs, size: checkSide(side, p, send, displs, size) };
}

/** The form a matrix gets when the caller names none: peers for sparse storage, full for dense. */
export function defaultLayoutForm(m: CommMatrix): LayoutForm {
  return isSparse(m) ? "peers" : "full";
}

/** The buffer layout of every rank: defaults, or the caller's displacements after checking them. */
export function bufferLayout(m: CommMatrix, opts: DisplacementOptions = {}): BufferLayout {
  const { p } = m;
  const form = opts.form ?? defaultLayoutForm(m);
  if (form !== "full" && form !== "peers")
    throw fail("lower", "BAD_OPTION", `form must be full or peers, got ${String(form)}`, { field: "form" });
  let send: Side, recv: Side;
  if (form === "full") {
    // Four P x P arrays (the counts of a dense matrix are its data: three new ones).
    const what = `a full-form layout (P blocks per rank) at P = ${p}`;
    checkMemory("lower", (isSparse(m) ? 4 : 3) * 8 * p * p, what, memoryBudgetOf(opts), { field: "form" });
    send = { peers: null, counts: m.data };
    recv = { peers: null, counts: transposed(m) };
  } else {
    const rows = matrixRows(m),
      cols = matrixCols(m);
    send = { peers: { start: rows.rowStart, peer: rows.col }, counts: rows.val };
    recv = { peers: { start: cols.colStart, peer: cols.row }, counts: cols.val };
  }
  for (const k of ["sendDispls", "recvDispls", "sendSize", "recvSize"] as const) {
    const v: unknown = opts[k];
    if (v !== undefined && !(v instanceof Float64Array))
      throw fail("lower", "BAD_OPTION", `${k} must be a Float64Array, got ${v === null ? "null" : typeof v}`, {
        field: k,
      });
  }
  const s = sideDispls(send, p, true, opts.sendDispls, opts.sendSize);
  const r = sideDispls(recv, p, false, opts.recvDispls, opts.recvSize);
  return {
    sendCounts: send.counts,
    recvCounts: recv.counts,
    sendDispls: s.displs,
    recvDispls: r.displs,
    sendPeers: send.peers,
    recvPeers: recv.peers,
    sendSize: s.size,
    recvSize: r.size,
  };
}
