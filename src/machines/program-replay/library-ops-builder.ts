/**
 * A builder of ReplayOps in the shape of MPI calls, for the library mirrors: rank by rank, nonblocking posts up to a
 * wait, blocking sends and receives, MPI_Sendrecv and local copies as SMPI 3.32 runs them.
 */
import { matrixCols, matrixRows, type CommMatrix } from "../../model/matrix.js";
import { R_COPY, R_RECV, R_SEND, type ReplayOps } from "./replay-ops.js";

/**
 * The tag of a library alltoallv's messages (COLL_TAG_ALLTOALLV), of its barriers' (COLL_TAG_BARRIER) and of the
 * collectives of SMPI's communicator setup (Comm::init_smp).
 */
export const TAG_ALLTOALLV = 0,
  TAG_BARRIER = 1,
  TAG_INIT_SMP = 2;

/**
 * One rank's send and receive counts in bytes (the library's sendcounts and recvcounts), from the matrix's rows and
 * columns: `load(r)`, then `to[j]` is what r sends j and `from[i]` what i sends r. O(P) memory, O(P + row + column)
 * per rank.
 */
export class RankBytes {
  readonly to: Float64Array;
  readonly from: Float64Array;
  private readonly m: CommMatrix;
  private rank = -1;

  constructor(m: CommMatrix) {
    this.m = m;
    this.to = new Float64Array(m.p);
    this.from = new Float64Array(m.p);
  }

  /** Loads rank r's counts. */
  load(r: number): void {
    const { rowStart, col, val } = matrixRows(this.m);
    const { colStart, row, val: cval } = matrixCols(this.m);
    const eb = this.m.elementBytes;
    if (this.rank >= 0) {
      this.to.fill(0);
      this.from.fill(0);
    }
    this.rank = r;
    for (let k = rowStart[r]!; k < rowStart[r + 1]!; k++) this.to[col[k]!] = val[k]! * eb;
    for (let k = colStart[r]!; k < colStart[r + 1]!; k++) this.from[row[k]!] = cval[k]! * eb;
  }
}

/**
 * Operations appended rank by rank (beginRank, then the rank's calls in order); every operation waits for the ones
 * before the rank's last wait (a blocking call, waitAll). Columns grow by doubling.
 */
export class LibraryOpsBuilder {
  readonly p: number;
  private n = 0;
  private rank = -1;
  private fence = 0;
  private readonly rankStart: Uint32Array;
  private kind = new Uint8Array(64);
  private peer = new Uint32Array(64);
  private tag = new Uint32Array(64);
  private bytes = new Float64Array(64);
  private blocking = new Uint8Array(64);
  private waitPrefix = new Uint32Array(64);

  constructor(p: number) {
    this.p = p;
    this.rankStart = new Uint32Array(p + 1);
  }

  /** Starts rank r's operations (ranks in order 0, 1, ..., P - 1). */
  beginRank(r: number): void {
    this.rank = r;
    this.rankStart[r] = this.n;
    this.fence = this.n;
  }

  /** A nonblocking send (MPI_Isend: SMPI's ois) of `bytes` to `to`. */
  isend(to: number, bytes: number, tag = TAG_ALLTOALLV): void {
    this.push(R_SEND, to, tag, bytes, 0);
  }

  /** A nonblocking receive (MPI_Irecv) of `bytes` from `from`. */
  irecv(from: number, bytes: number, tag = TAG_ALLTOALLV): void {
    this.push(R_RECV, from, tag, bytes, 0);
  }

  /** MPI_Waitall on everything the rank posted: the next operation waits for all of them. */
  waitAll(): void {
    this.fence = this.n;
  }

  /** A blocking send (MPI_Send: SMPI's os when eager, the transfer's end otherwise). */
  send(to: number, bytes: number, tag = TAG_ALLTOALLV): void {
    this.push(R_SEND, to, tag, bytes, 1);
    this.waitAll();
  }

  /** A blocking receive (MPI_Recv). */
  recv(from: number, bytes: number, tag = TAG_ALLTOALLV): void {
    this.push(R_RECV, from, tag, bytes, 1);
    this.waitAll();
  }

  /** A local copy of `bytes` (Datatype::copy) for the call of `tag`; nothing for an empty block. */
  copy(bytes: number, tag = TAG_ALLTOALLV): void {
    if (bytes > 0) this.push(R_COPY, this.rank, tag, bytes, 0);
  }

  /**
   * MPI_Sendrecv as SMPI runs it (Request::sendrecv): with itself a copy; otherwise a persistent isend, then an irecv,
   * started in that order, and a wait for both.
   */
  sendrecv(to: number, sendBytes: number, from: number, recvBytes: number, tag = TAG_ALLTOALLV): void {
    if (to === this.rank && from === this.rank) {
      this.copy(sendBytes, tag);
      return;
    }
    this.isend(to, sendBytes, tag);
    this.irecv(from, recvBytes, tag);
    this.waitAll();
  }

  /** The operations built (every rank begun, in order). */
  build(): ReplayOps {
    this.rankStart[this.p] = this.n;
    const n = this.n;
    return {
      p: this.p,
      rankStart: this.rankStart,
      kind: this.kind.slice(0, n),
      peer: this.peer.slice(0, n),
      tag: this.tag.slice(0, n),
      bytes: this.bytes.slice(0, n),
      blocking: this.blocking.slice(0, n),
      waitPrefix: this.waitPrefix.slice(0, n),
      depStart: new Uint32Array(n + 1),
      deps: new Uint32Array(0),
    };
  }

  private push(kind: number, peer: number, tag: number, bytes: number, blocking: number): void {
    if (this.n === this.kind.length) this.grow();
    const x = this.n++;
    this.kind[x] = kind;
    this.peer[x] = peer;
    this.tag[x] = tag;
    this.bytes[x] = bytes;
    this.blocking[x] = blocking;
    this.waitPrefix[x] = this.fence;
  }

  private grow(): void {
    const c = this.kind.length * 2;
    const grown = <T extends Uint8Array | Uint32Array | Float64Array>(a: T, b: T): T => (b.set(a), b);
    this.kind = grown(this.kind, new Uint8Array(c));
    this.peer = grown(this.peer, new Uint32Array(c));
    this.tag = grown(this.tag, new Uint32Array(c));
    this.bytes = grown(this.bytes, new Float64Array(c));
    this.blocking = grown(this.blocking, new Uint8Array(c));
    this.waitPrefix = grown(this.waitPrefix, new Uint32Array(c));
  }
}
