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

/** Prefix-sum displacements of one side, and the buffer sizes. */
function prefixSide(m: CommMatrix, send: boolean): { displs: Float64Array; size: Float64Array } {
  const { p } = m;
  const displs = new Float64Array(p * p), size = new Float64Array(p);
  for (let r = 0; r < p; r++) {
    let at = 0;
    for (let j = 0; j < p; j++) {
      displs[r * p + j] = at;
      at += countOf(m, send, r, j);
    }
    size[r] = at;
  }
  return { displs, size };
}

/** Checks user displacements of one side: integers >= 0, blocks within the buffer and not overlapping. */
function checkSide(m: CommMatrix, send: boolean, displs: Float64Array, given: Float64Array | undefined): Float64Array {
  const { p } = m;
  const side = send ? "sendDispls" : "recvDispls";
  if (displs.length !== p * p) throw fail("lower", "BAD_OPTION", `${side} has ${displs.length} entries, expected P * P = ${p * p}`, { field: side });
  if (given !== undefined && given.length !== p) throw fail("lower", "BAD_OPTION", `${send ? "sendSize" : "recvSize"} has ${given.length} entries, expected P = ${p}`, { field: send ? "sendSize" : "recvSize" });
  const size = new Float64Array(p);
  const order: number[] = [];
  for (let r = 0; r < p; r++) {
    order.length = 0;
    let end = 0;
    for (let j = 0; j < p; j++) {
      const d = displs[r * p + j]!;
      if (!(Number.isInteger(d) && d >= 0 && d <= Number.MAX_SAFE_INTEGER)) throw fail("lower", "BAD_OPTION", `${side}[${r}][${j}] = ${d} is not an integer >= 0`, { field: side });
      const c = countOf(m, send, r, j);
      if (c > 0) {
        order.push(j);
        end = Math.max(end, d + c);
      }
    }
    const limit = given === undefined ? end : given[r]!;
    if (end > limit) throw fail("lower", "BAD_OPTION", `${side} of rank ${r} reach element ${end}, past its buffer of ${limit} elements`, { field: side });
    size[r] = limit;
    order.sort((a, b) => displs[r * p + a]! - displs[r * p + b]!);
    for (let k = 1; k < order.length; k++) {
      const a = order[k - 1]!, b = order[k]!;
      if (displs[r * p + a]! + countOf(m, send, r, a) > displs[r * p + b]!) {
        throw fail("lower", "BAD_OPTION", `${side} of rank ${r}: the blocks of ${a} and ${b} overlap`, { field: side });
      }
    }
  }
  return size;
}

/** The buffer layout of every rank: defaults, or the caller's displacements after checking them. */
export function bufferLayout(m: CommMatrix, opts: DisplacementOptions = {}): BufferLayout {
  let sendDispls: Float64Array, sendSize: Float64Array, recvDispls: Float64Array, recvSize: Float64Array;
  if (opts.sendDispls === undefined) {
    ({ displs: sendDispls, size: sendSize } = prefixSide(m, true));
    if (opts.sendSize !== undefined) sendSize = checkSide(m, true, sendDispls, opts.sendSize);
  } else {
    sendDispls = opts.sendDispls;
    sendSize = checkSide(m, true, sendDispls, opts.sendSize);
  }
  if (opts.recvDispls === undefined) {
    ({ displs: recvDispls, size: recvSize } = prefixSide(m, false));
    if (opts.recvSize !== undefined) recvSize = checkSide(m, false, recvDispls, opts.recvSize);
  } else {
    recvDispls = opts.recvDispls;
    recvSize = checkSide(m, false, recvDispls, opts.recvSize);
  }
  const { p } = m;
  const recvCounts = new Float64Array(p * p);
  for (let i = 0; i < p; i++) for (let r = 0; r < p; r++) recvCounts[r * p + i] = m.data[i * p + r]!;
  return { sendCounts: m.data, recvCounts, sendDispls, recvDispls, sendSize, recvSize };
}
