/** Layout: MPI_Alltoallv buffer displacements of every rank (prefix sums by default, or checked user values). */
import { fail } from "../model/errors.js";
import type { CommMatrix } from "../model/matrix.js";

/** Displacements and buffer sizes a caller may give (elements; P*P row-major like RankLayout, sizes P). */
export interface DisplacementOptions {
  /** sendDispls[r * p + j]: where rank r's elements for j start; default: prefix sums in j order. */
  readonly sendDispls?: Float64Array;
  /** recvDispls[r * p + i]: where the elements from i start at rank r; default: prefix sums in i order. */
  readonly recvDispls?: Float64Array;
  /** Send buffer size of every rank; default: the end of its last block. */
  readonly sendSize?: Float64Array;
  /** Receive buffer size of every rank; default: the end of its last block. */
  readonly recvSize?: Float64Array;
}

/** The send and receive side of the layout. */
export interface BufferLayout {
  /** sendCounts[r * p + j] = M[r][j] (the matrix data itself, not copied). */
  readonly sendCounts: Float64Array;
  /** recvCounts[r * p + i] = M[i][r]. */
  readonly recvCounts: Float64Array;
  readonly sendDispls: Float64Array;
  readonly recvDispls: Float64Array;
  readonly sendSize: Float64Array;
  readonly recvSize: Float64Array;
}

/** The count of block j of rank r: M[r][j] on the send side, M[j][r] on the receive side. */
function countOf(m: CommMatrix, send: boolean, r: number, j: number): number {
  return send ? m.data[r * m.p + j]! : m.data[j * m.p + r]!;
}

/** Prefix-sum displacements of the rows of `counts` (P x P, row-major: the blocks of rank r in peer order), and the buffer sizes. */
function prefixRows(counts: Float64Array, p: number): { displs: Float64Array; size: Float64Array } {
  const displs = new Float64Array(p * p),
    size = new Float64Array(p);
  for (let r = 0; r < p; r++) {
    let at = 0;
    const row = r * p;
    for (let j = 0; j < p; j++) {
      displs[row + j] = at;
      at += counts[row + j]!;
    }
    size[r] = at;
  }
  return { displs, size };
}

/** The transpose of the matrix data (recvCounts[r * p + i] = M[i][r]), in 64 x 64 tiles so that both sides stay in cache. */
function transposed(m: CommMatrix): Float64Array {
  const { p, data } = m;
  const out = new Float64Array(p * p);
  const T = 64;
  for (let i0 = 0; i0 < p; i0 += T) {
    const i1 = Math.min(p, i0 + T);
    for (let r0 = 0; r0 < p; r0 += T) {
      const r1 = Math.min(p, r0 + T);
      for (let i = i0; i < i1; i++) for (let r = r0; r < r1; r++) out[r * p + i] = data[i * p + r]!;
    }
  }
  return out;
}

/** Checks user displacements of one side: integers >= 0, blocks within the buffer and not overlapping. */
function checkSide(m: CommMatrix, send: boolean, displs: Float64Array, given: Float64Array | undefined): Float64Array {
  const { p } = m;
  const side = send ? "sendDispls" : "recvDispls";
  if (displs.length !== p * p)
    throw fail("lower", "BAD_OPTION", `${side} has ${displs.length} entries, expected P * P = ${p * p}`, {
      field: side,
    });
  if (given !== undefined && given.length !== p)
    throw fail(
      "lower",
      "BAD_OPTION",
      `${send ? "sendSize" : "recvSize"} has ${given.length} entries, expected P = ${p}`,
      { field: send ? "sendSize" : "recvSize" },
    );
  const size = new Float64Array(p);
  const order: number[] = [];
  for (let r = 0; r < p; r++) {
    order.length = 0;
    let end = 0;
    for (let j = 0; j < p; j++) {
      const d = displs[r * p + j]!;
      if (!(Number.isInteger(d) && d >= 0 && d <= Number.MAX_SAFE_INTEGER))
        throw fail("lower", "BAD_OPTION", `${side}[${r}][${j}] = ${d} is not an integer >= 0`, { field: side });
      const c = countOf(m, send, r, j);
      if (c > 0) {
        order.push(j);
        end = Math.max(end, d + c);
      }
    }
    const limit = given === undefined ? end : given[r]!;
    if (end > limit)
      throw fail(
        "lower",
        "BAD_OPTION",
        `${side} of rank ${r} reach element ${end}, past its buffer of ${limit} elements`,
        { field: side },
      );
    size[r] = limit;
    order.sort((a, b) => displs[r * p + a]! - displs[r * p + b]!);
    for (let k = 1; k < order.length; k++) {
      const a = order[k - 1]!,
        b = order[k]!;
      if (displs[r * p + a]! + countOf(m, send, r, a) > displs[r * p + b]!) {
        throw fail("lower", "BAD_OPTION", `${side} of rank ${r}: the blocks of ${a} and ${b} overlap`, { field: side });
      }
    }
  }
  return size;
}

/** The buffer layout of every rank: defaults, or the caller's displacements after checking them. */
export function bufferLayout(m: CommMatrix, opts: DisplacementOptions = {}): BufferLayout {
  const { p } = m;
  const recvCounts = transposed(m);
  let sendDispls: Float64Array, sendSize: Float64Array, recvDispls: Float64Array, recvSize: Float64Array;
  if (opts.sendDispls === undefined) {
    ({ displs: sendDispls, size: sendSize } = prefixRows(m.data, p));
    if (opts.sendSize !== undefined) sendSize = checkSide(m, true, sendDispls, opts.sendSize);
  } else {
    sendDispls = opts.sendDispls;
    sendSize = checkSide(m, true, sendDispls, opts.sendSize);
  }
  if (opts.recvDispls === undefined) {
    ({ displs: recvDispls, size: recvSize } = prefixRows(recvCounts, p));
    if (opts.recvSize !== undefined) recvSize = checkSide(m, false, recvDispls, opts.recvSize);
  } else {
    recvDispls = opts.recvDispls;
    recvSize = checkSide(m, false, recvDispls, opts.recvSize);
  }
  return { sendCounts: m.data, recvCounts, sendDispls, recvDispls, sendSize, recvSize };
}
