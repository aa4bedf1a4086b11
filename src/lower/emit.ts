/** Emit: messages to per-rank operations in program order (copies first; nonblocking or blocking order) with their pieces. */
import { fail } from "../model/errors.js";
import type { OpTable, PieceTable, ProgramVariant } from "../model/program.js";
import type { BufferLayout } from "./layout.js";
import type { Messages } from "./messages.js";

/** Tags stay below this bound (a power of two): MPI guarantees MPI_TAG_UB >= 32767. */
export const TAG_LIMIT = 32768;

const SEND = 0, RECV = 1, COPY = 2;

/** The messages in program order: stable by round. */
function byRound(msgs: Messages, rounds: number): { order: Uint32Array; start: Uint32Array } {
  const start = new Uint32Array(rounds + 1);
  for (let k = 0; k < msgs.n; k++) { const i = msgs.round[k]! + 1; start[i] = start[i]! + 1; }
  for (let r = 0; r < rounds; r++) start[r + 1] = start[r + 1]! + start[r]!;
  const fill = start.slice(0, rounds);
  const order = new Uint32Array(msgs.n);
  for (let k = 0; k < msgs.n; k++) order[fill[msgs.round[k]!]!++] = k;
  return { order, start };
}

/**
 * Greedy edge colouring of each round's messages (copies excluded) as an undirected multigraph on
 * the ranks: a message takes the smallest colour used by neither of its ranks in that round, so
 * each colour class is a matching and a rank of degree d needs at most 2d - 1 colours.
 */
export function colourRounds(msgs: Messages, p: number, order: Uint32Array, start: Uint32Array): Uint32Array {
  const colour = new Uint32Array(msgs.n);
  const used = new Uint32Array(p), stamp = new Uint32Array(p);
  let high: Map<number, Set<number>> | null = null; // colours >= 32, rarely needed
  const rounds = start.length - 1;
  for (let r = 0; r < rounds; r++) {
    high?.clear();
    for (let q = start[r]!; q < start[r + 1]!; q++) {
      const k = order[q]!, a = msgs.src[k]!, b = msgs.dst[k]!;
      if (a === b) continue;
      if (stamp[a] !== r + 1) { stamp[a] = r + 1; used[a] = 0; }
      if (stamp[b] !== r + 1) { stamp[b] = r + 1; used[b] = 0; }
      const mask = used[a]! | used[b]!;
      let c: number;
      if (mask !== 0xffffffff) {
        const bit = ~mask & (mask + 1);
        c = 31 - Math.clz32(bit);
        used[a] = used[a]! | bit;
        used[b] = used[b]! | bit;
      } else {
        high ??= new Map();
        const ha = high.get(a) ?? new Set<number>(), hb = high.get(b) ?? new Set<number>();
        c = 32;
        while (ha.has(c) || hb.has(c)) c++;
        ha.add(c);
        hb.add(c);
        high.set(a, ha);
        high.set(b, hb);
      }
      colour[k] = c;
    }
  }
  return colour;
}

/** The operations and pieces of every rank, with rankStart. */
export interface Emitted {
  readonly rankStart: Uint32Array;
  readonly ops: OpTable;
  readonly pieces: PieceTable;
  /** Sub-phases (colour classes) of the busiest round (blocking; 1 for nonblocking rounds with messages). */
  readonly maxClasses: number;
}

/**
 * Lays the messages out as operations. Per rank and round: copies first; then, nonblocking, every
 * receive before every send (receives posted first); blocking, class by class (each rank has at
 * most one operation per class).
 */
export function emitOps(msgs: Messages, p: number, rounds: number, variant: ProgramVariant, layout: BufferLayout): Emitted {
  const { order, start } = byRound(msgs, rounds);
  const blocking = variant === "blocking";
  const colour = blocking ? colourRounds(msgs, p, order, start) : null;
  const mSrc = msgs.src, mDst = msgs.dst;
  const out = new OpWriter(msgs, p, layout);
  let maxClasses = 0;
  let classStart = new Uint32Array(16);
  let sorted = new Uint32Array(16);
  for (let r = 0; r < rounds; r++) {
    const a = start[r]!, b = start[r + 1]!;
    for (let q = a; q < b; q++) {
      const k = order[q]!;
      if (mSrc[k] === mDst[k]) out.put(k, COPY);
    }
    if (!blocking) {
      let any = false;
      for (let q = a; q < b; q++) {
        const k = order[q]!;
        if (mSrc[k] !== mDst[k]) { out.put(k, RECV); any = true; }
      }
      for (let q = a; q < b; q++) {
        const k = order[q]!;
        if (mSrc[k] !== mDst[k]) out.put(k, SEND);
      }
      if (any) maxClasses = Math.max(maxClasses, 1);
      continue;
    }
    // Blocking: counting sort of the round's messages by colour.
    let nc = 0;
    for (let q = a; q < b; q++) {
      const k = order[q]!;
      if (mSrc[k] !== mDst[k]) nc = Math.max(nc, colour![k]! + 1);
    }
    maxClasses = Math.max(maxClasses, nc);
    if (classStart.length < nc + 1) classStart = new Uint32Array(2 * nc + 2);
    if (sorted.length < b - a) sorted = new Uint32Array(2 * (b - a));
    classStart.fill(0, 0, nc + 1);
    for (let q = a; q < b; q++) {
      const k = order[q]!;
      if (mSrc[k] !== mDst[k]) { const i = colour![k]! + 1; classStart[i] = classStart[i]! + 1; }
    }
    for (let c = 0; c < nc; c++) classStart[c + 1] = classStart[c + 1]! + classStart[c]!;
    const total = classStart[nc]!;
    for (let q = a; q < b; q++) {
      const k = order[q]!;
      if (mSrc[k] !== mDst[k]) { const i = colour![k]!; sorted[classStart[i]!] = k; classStart[i] = classStart[i]! + 1; }
    }
    for (let q = 0; q < total; q++) {
      const k = sorted[q]!;
      out.put(k, SEND);
      out.put(k, RECV);
    }
  }
  return { ...out.done(), maxClasses };
}

/**
 * Writes operations in program order (round-major, sequential writes), remembering where each goes
 * in rank-major order; `done` then moves one column at a time into place. A permutation pass per
 * column touches P write streams at once instead of P per column, which keeps caches useful at
 * large P (at P = 4096, writing every column straight into its rank-major slot was several times
 * slower).
 */
class OpWriter {
  private readonly opFill: Uint32Array;
  private readonly pieceFill: Uint32Array;
  readonly rankStart: Uint32Array;
  private x = 0;
  private q = 0;
  // Round-major columns; `pos` is each operation's rank-major index, `ppos` each piece's.
  private readonly pos: Uint32Array;
  private readonly round: Uint32Array;
  private readonly kind: Uint8Array;
  private readonly peer: Uint32Array;
  private readonly tag: Uint32Array;
  private readonly count: Float64Array;
  private readonly pieceStart: Uint32Array;
  private readonly copySplit: Uint32Array;
  private readonly ppos: Uint32Array;
  private readonly pBuf: Uint8Array;
  private readonly pOff: Float64Array;
  private readonly pCnt: Float64Array;
  private readonly nPieces: number;

  constructor(private readonly msgs: Messages, private readonly p: number, private readonly layout: BufferLayout) {
    const { src, dst, send, recv } = msgs;
    const opsOf = new Uint32Array(p + 1), piecesOf = new Float64Array(p + 1);
    for (let k = 0; k < msgs.n; k++) {
      const a = src[k]!, b = dst[k]!;
      const ns = send === null ? 1 : send.start[k + 1]! - send.start[k]!;
      const nr = recv === null ? 1 : recv.start[k + 1]! - recv.start[k]!;
      opsOf[a + 1] = opsOf[a + 1]! + 1;
      if (a === b) piecesOf[a + 1] = piecesOf[a + 1]! + ns + nr;
      else {
        opsOf[b + 1] = opsOf[b + 1]! + 1;
        piecesOf[a + 1] = piecesOf[a + 1]! + ns;
        piecesOf[b + 1] = piecesOf[b + 1]! + nr;
      }
    }
    for (let r = 0; r < p; r++) {
      opsOf[r + 1] = opsOf[r + 1]! + opsOf[r]!;
      piecesOf[r + 1] = piecesOf[r + 1]! + piecesOf[r]!;
    }
    const nOps = opsOf[p]!, nPieces = piecesOf[p]!;
    if (nPieces > 0xffffffff) throw fail("lower", "UNSUPPORTED", `the program has ${nPieces} buffer pieces, more than 2^32 - 1`);
    this.nPieces = nPieces;
    this.rankStart = opsOf;
    this.opFill = opsOf.slice(0, p);
    this.pieceFill = Uint32Array.from(piecesOf.subarray(0, p));
    this.pos = new Uint32Array(nOps);
    this.round = new Uint32Array(nOps);
    this.kind = new Uint8Array(nOps);
    this.peer = new Uint32Array(nOps);
    this.tag = new Uint32Array(nOps);
    this.count = new Float64Array(nOps);
    this.pieceStart = new Uint32Array(nOps);
    this.copySplit = new Uint32Array(nOps);
    this.ppos = new Uint32Array(nPieces);
    this.pBuf = new Uint8Array(nPieces);
    this.pOff = new Float64Array(nPieces);
    this.pCnt = new Float64Array(nPieces);
  }

  /** Appends side `side` of message k (the next operation in program order of its rank). */
  put(k: number, side: number): void {
    const msgs = this.msgs;
    const a = msgs.src[k]!, b = msgs.dst[k]!, rd = msgs.round[k]!, z = msgs.count[k]!;
    const r = side === RECV ? b : a;
    const x = this.x++;
    const fx = this.opFill[r]!;
    this.opFill[r] = fx + 1;
    this.pos[x] = fx;
    this.peer[x] = side === SEND ? b : a;
    this.round[x] = rd;
    this.kind[x] = side;
    this.tag[x] = side === COPY ? 0 : rd & (TAG_LIMIT - 1);
    this.count[x] = z;
    const first = this.pieceFill[r]!;
    this.pieceStart[x] = first;
    let q = this.q;
    const { x0, send, recv } = msgs;
    const pBuf = this.pBuf, pOff = this.pOff, pCnt = this.pCnt, ppos = this.ppos;
    if (x0 !== null) {
      const off = x0[k]!, p = this.p;
      if (side !== RECV) { pBuf[q] = 0; pOff[q] = this.layout.sendDispls[a * p + b]! + off; pCnt[q] = z; ppos[q] = first; q++; }
      if (side !== SEND) { pBuf[q] = 1; pOff[q] = this.layout.recvDispls[b * p + a]! + off; pCnt[q] = z; ppos[q] = first + (side === COPY ? 1 : 0); q++; }
      if (side === COPY) this.copySplit[x] = 1;
    } else {
      if (side !== RECV) {
        for (let y = send!.start[k]!; y < send!.start[k + 1]!; y++) { pBuf[q] = send!.buffer[y]!; pOff[q] = send!.offset[y]!; pCnt[q] = send!.count[y]!; ppos[q] = first + q - this.q; q++; }
        if (side === COPY) this.copySplit[x] = send!.start[k + 1]! - send!.start[k]!;
      }
      if (side !== SEND) {
        for (let y = recv!.start[k]!; y < recv!.start[k + 1]!; y++) { pBuf[q] = recv!.buffer[y]!; pOff[q] = recv!.offset[y]!; pCnt[q] = recv!.count[y]!; ppos[q] = first + q - this.q; q++; }
      }
    }
    this.pieceFill[r] = first + q - this.q;
    this.q = q;
  }

  /** The finished columns, moved into rank-major order one at a time. */
  done(): Omit<Emitted, "maxClasses"> {
    const { pos, ppos } = this;
    const nOps = pos.length;
    const u32 = (col: Uint32Array): Uint32Array => {
      const out = new Uint32Array(nOps);
      for (let x = 0; x < nOps; x++) out[pos[x]!] = col[x]!;
      return out;
    };
    const f64 = (col: Float64Array, at: Uint32Array, n: number): Float64Array => {
      const out = new Float64Array(n);
      for (let x = 0; x < n; x++) out[at[x]!] = col[x]!;
      return out;
    };
    const u8 = (col: Uint8Array, at: Uint32Array, n: number): Uint8Array => {
      const out = new Uint8Array(n);
      for (let x = 0; x < n; x++) out[at[x]!] = col[x]!;
      return out;
    };
    const pieceStart = new Uint32Array(nOps + 1);
    for (let x = 0; x < nOps; x++) pieceStart[pos[x]!] = this.pieceStart[x]!;
    const rank = new Uint32Array(nOps);
    for (let r = 0; r < this.p; r++) rank.fill(r, this.rankStart[r]!, this.rankStart[r + 1]!);
    pieceStart[nOps] = this.nPieces;
    return {
      rankStart: this.rankStart,
      ops: { rank, round: u32(this.round), kind: u8(this.kind, pos, nOps), peer: u32(this.peer), tag: u32(this.tag), count: f64(this.count, pos, nOps), pieceStart, copySplit: u32(this.copySplit) },
      pieces: { buffer: u8(this.pBuf, ppos, this.nPieces), offset: f64(this.pOff, ppos, this.nPieces), count: f64(this.pCnt, ppos, this.nPieces) },
    };
  }
}
