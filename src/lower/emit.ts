/**
 * Emit: messages to per-rank operations in program order (copies first; nonblocking or blocking order) with their
 * pieces.
 */
import { fail } from "../model/errors.js";
import type { OpTable, PieceTable, ProgramVariant } from "../model/program.js";
import { progressTicker, type ProgressCallback } from "../model/progress.js";
import type { BufferLayout } from "./layout.js";
import type { Messages } from "./messages.js";
import { emitDirect } from "./emit-direct.js";
import { colourRound } from "./colour-round.js";
import { TAG_LIMIT } from "./tags.js";

const SEND = 0,
  RECV = 1,
  COPY = 2;

/**
 * Messages per block of rounds in the rank-major pass (about 64 operations per rank and block at P = 1024, 16 at
 * P = 4096): a block's messages (20 bytes each) stay in the core's cache while the ranks read them back.
 */
const BLOCK_MESSAGES = 1 << 15;

/**
 * The messages in program order (stable by round): `order` is null when the messages already are
 * (message q is the q-th in program order), and the messages of round r are [start[r], start[r + 1]). The messages'
 * own round starts when they have them (msgs.roundStart).
 */
function byRound(msgs: Messages, rounds: number): { order: Uint32Array | null; start: Uint32Array } {
  const given = msgs.roundStart;
  if (given !== null && given !== undefined && given.length === rounds + 1 && given[rounds] === msgs.n)
    return { order: null, start: given };
  const start = new Uint32Array(rounds + 1);
  const rd = msgs.round;
  let sorted = true;
  for (let k = 0; k < msgs.n; k++) {
    const i = rd[k]! + 1;
    start[i] = start[i]! + 1;
    if (k > 0 && rd[k - 1]! > rd[k]!) sorted = false;
  }
  for (let r = 0; r < rounds; r++) start[r + 1] = start[r + 1]! + start[r]!;
  if (sorted) return { order: null, start };
  const fill = start.slice(0, rounds);
  const order = new Uint32Array(msgs.n);
  for (let k = 0; k < msgs.n; k++) order[fill[rd[k]!]!++] = k;
  return { order, start };
}

/**
 * Greedy edge colouring of each round's messages (copies excluded) as an undirected multigraph on
 * the ranks: a message takes the smallest colour used by neither of its ranks in that round, so
 * each colour class is a matching and a rank of degree d needs at most 2d - 1 colours. `order`
 * null: the messages are in program order.
 */
export function colourRounds(msgs: Messages, p: number, order: Uint32Array | null, start: Uint32Array): Uint32Array {
  const colour = new Uint32Array(msgs.n);
  const used = new Int32Array(p);
  let out = new Uint32Array(0);
  const rounds = start.length - 1;
  for (let r = 0; r < rounds; r++) {
    const qa = start[r]!,
      qb = start[r + 1]!;
    if (out.length < qb - qa) out = new Uint32Array(2 * (qb - qa));
    colourRound(msgs.src, msgs.dst, order, qa, qb, used, out);
    for (let q = qa; q < qb; q++) colour[order === null ? q : order[q]!] = out[q - qa]!;
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
 *
 * Every column is preallocated to its exact size (a counting pass) and written in rank-major order:
 * the rounds are taken in blocks of about BLOCK_MESSAGES messages, whose operations are bucketed by
 * rank (a counting sort of 2k + side descriptors, small enough to stay in cache), and each rank then
 * writes its operations of the block as one sequential run of every column. `progress`: messages
 * laid out, once per block.
 *
 * Direct messages without copies (one piece per operation, no element offsets) take a leaner path
 * (emitDirect: a scatter pass in message order, then one rank-major pass). Messages with `checkCounts`
 * set are checked there (each send carries exactly its pair's count, and no two sends of a rank go to one
 * peer); the result is null when one does not hold.
 */
export function emitOps(
  msgs: Messages,
  p: number,
  rounds: number,
  variant: ProgramVariant,
  layout: BufferLayout,
  progress: ProgressCallback | null = null,
): Emitted | null {
  const { order, start } = byRound(msgs, rounds);
  const { src, dst } = msgs;
  const n = msgs.n;
  if (n > 0x7fffffff) throw fail("lower", "UNSUPPORTED", `the program has ${n} messages, more than 2^31 - 1`);
  const { opsOf, piecesOf, anyMessage } = countRankSizes(msgs, p);
  const nOps = opsOf[p]!,
    nPieces = piecesOf[p]!;
  if (nPieces > 0xffffffff)
    throw fail("lower", "UNSUPPORTED", `the program has ${nPieces} buffer pieces, more than 2^32 - 1`);
  const blocking = variant === "blocking";
  // Direct messages without copies: one piece per operation, piece x belongs to operation x. Blocking, the
  // direct path colours each round itself, where it reads the round's messages (no colour array, no pass of its own)
  if (msgs.direct !== null && msgs.direct.x0 === null && nPieces === nOps) {
    const e = emitDirect(msgs, p, order, start, blocking, layout, opsOf, msgs.checkCounts ?? null, progress);
    return e === null ? null : { ...e, maxClasses: blocking ? e.maxClasses : anyMessage ? 1 : 0 };
  }
  if (msgs.checkCounts) throw new Error("emitOps: counts to check outside the direct path");
  const colour = blocking ? colourRounds(msgs, p, order, start) : null;
  const maxClasses = colour === null ? (anyMessage ? 1 : 0) : classesOf(msgs, colour);
  const w = new RankWriter(msgs, p, layout, opsOf, piecesOf, nOps, nPieces);
  // Blocked rank-major pass.
  const bucket = new Uint32Array(p + 1),
    fill = new Uint32Array(p);
  let loc = new Descriptors(16),
    tmp: Float64Array = new Float64Array(16);
  const mRound = msgs.round,
    mCount = msgs.count;
  const tick = progressTicker(progress, n);
  for (let t0 = 0; t0 < rounds;) {
    let t1 = t0 + 1;
    while (t1 < rounds && start[t1 + 1]! - start[t0]! <= BLOCK_MESSAGES) t1++;
    const qa = start[t0]!,
      qb = start[t1]!;
    tick(qa);
    t0 = t1;
    if (qa === qb) continue;
    bucket.fill(0);
    for (let q = qa; q < qb; q++) {
      const k = order === null ? q : order[q]!,
        a = src[k]!,
        b = dst[k]!;
      bucket[a + 1] = bucket[a + 1]! + 1;
      if (a !== b) bucket[b + 1] = bucket[b + 1]! + 1;
    }
    for (let r = 0; r < p; r++) bucket[r + 1] = bucket[r + 1]! + bucket[r]!;
    if (loc.length < bucket[p]!) loc = new Descriptors(2 * bucket[p]!);
    fill.set(bucket.subarray(0, p));
    // what an operation reads of its message is copied beside its descriptor here, where the
    // messages are read in order: the rank-major pass then reads it sequentially, not message by message
    const { k2: lk, other: lo, round: lr, count: lc } = loc;
    for (let q = qa; q < qb; q++) {
      const k = order === null ? q : order[q]!,
        a = src[k]!,
        b = dst[k]!,
        rd = mRound[k]!,
        z = mCount[k]!;
      let y = fill[a]!++;
      lk[y] = 2 * k;
      lo[y] = b;
      lr[y] = rd;
      lc[y] = z;
      if (a !== b) {
        y = fill[b]!++;
        lk[y] = 2 * k + 1;
        lo[y] = a;
        lr[y] = rd;
        lc[y] = z;
      }
    }
    for (let r = 0; r < p; r++) {
      const ya = bucket[r]!,
        yb = bucket[r + 1]!;
      if (ya === yb) continue;
      w.begin(r);
      // Runs of one round each (the descriptors of rank r are in program order).
      for (let y0 = ya; y0 < yb;) {
        const rd = loc.round[y0]!;
        let y1 = y0 + 1;
        while (y1 < yb && loc.round[y1]! === rd) y1++;
        if (y1 - y0 === 1) {
          const k2 = loc.k2[y0]!;
          w.put(loc, y0, (k2 & 1) === 1 ? RECV : loc.other[y0] === r ? COPY : SEND);
          y0 = y1;
          continue;
        }
        tmp = writeRoundRun(w, loc, y0, y1, colour, tmp);
        y0 = y1;
      }
      w.end(r);
    }
  }
  tick(Infinity);
  return { ...w.done(), maxClasses };
}

/**
 * The counting pass: operations and pieces of every rank as prefix sums (those the messages carry, msgs.rankOps, when
 * they do), and whether any message is not a copy (a round with one has a class).
 */
function countRankSizes(
  msgs: Messages,
  p: number,
): { opsOf: Uint32Array; piecesOf: Float64Array; anyMessage: boolean } {
  const { src, dst, send, recv } = msgs;
  const n = msgs.n;
  const opsOf = new Uint32Array(p + 1),
    piecesOf = new Float64Array(p + 1);
  const given = msgs.rankOps;
  if (given !== null && given !== undefined) {
    opsOf.set(given);
    piecesOf.set(opsOf);
    return { opsOf, piecesOf, anyMessage: n > 0 };
  }
  if (send === null && recv === null) {
    // direct messages: one piece per operation unless some message is a copy (then the general loop below)
    let copy = false;
    for (let k = 0; k < n; k++) {
      const a = src[k]!,
        b = dst[k]!;
      if (a === b) {
        copy = true;
        break;
      }
      opsOf[a + 1] = opsOf[a + 1]! + 1;
      opsOf[b + 1] = opsOf[b + 1]! + 1;
    }
    if (!copy) {
      for (let r = 0; r < p; r++) opsOf[r + 1] = opsOf[r + 1]! + opsOf[r]!;
      piecesOf.set(opsOf);
      return { opsOf, piecesOf, anyMessage: n > 0 };
    }
    opsOf.fill(0);
  }
  let anyMessage = false;
  for (let k = 0; k < n; k++) {
    const a = src[k]!,
      b = dst[k]!;
    const ns = send === null ? 1 : send.start[k + 1]! - send.start[k]!;
    const nr = recv === null ? 1 : recv.start[k + 1]! - recv.start[k]!;
    opsOf[a + 1] = opsOf[a + 1]! + 1;
    if (a === b) piecesOf[a + 1] = piecesOf[a + 1]! + ns + nr;
    else {
      opsOf[b + 1] = opsOf[b + 1]! + 1;
      piecesOf[a + 1] = piecesOf[a + 1]! + ns;
      piecesOf[b + 1] = piecesOf[b + 1]! + nr;
      anyMessage = true;
    }
  }
  for (let r = 0; r < p; r++) {
    opsOf[r + 1] = opsOf[r + 1]! + opsOf[r]!;
    piecesOf[r + 1] = piecesOf[r + 1]! + piecesOf[r]!;
  }
  return { opsOf, piecesOf, anyMessage };
}

/** The blocking variant's classes: the greatest colour of a message that is not a copy, plus 1 (0: none). */
function classesOf(msgs: Messages, colour: Uint32Array): number {
  const { src, dst } = msgs;
  let top = 0;
  for (let k = 0; k < msgs.n; k++) if (src[k] !== dst[k] && colour[k]! + 1 > top) top = colour[k]! + 1;
  return top;
}

/**
 * The operations of one block of rounds bucketed by rank (a counting sort), with what each reads of
 * its message: k2 = 2k for the send side of message k, 2k + 1 for its receive side; the other rank
 * (the destination of a send, the source of a receive, the rank itself for a copy), the round and
 * the elements.
 */
class Descriptors {
  readonly k2: Uint32Array;
  readonly other: Uint32Array;
  readonly round: Uint32Array;
  readonly count: Float64Array;
  constructor(readonly length: number) {
    this.k2 = new Uint32Array(length);
    this.other = new Uint32Array(length);
    this.round = new Uint32Array(length);
    this.count = new Float64Array(length);
  }
}

/**
 * Writes one rank's operations of one round (descriptors y0 .. y1 - 1 of `loc`): copies first, then
 * nonblocking every receive before every send, or blocking class by class. Returns the scratch
 * array (grown when needed).
 */
function writeRoundRun(
  w: RankWriter,
  loc: Descriptors,
  y0: number,
  y1: number,
  colour: Uint32Array | null,
  tmpIn: Float64Array,
): Float64Array {
  const { k2, other } = loc;
  const r = w.rank;
  let tmp = tmpIn;
  // Copies first.
  for (let y = y0; y < y1; y++) if (other[y] === r) w.put(loc, y, COPY);
  if (colour === null) {
    for (let y = y0; y < y1; y++) if ((k2[y]! & 1) === 1) w.put(loc, y, RECV);
    for (let y = y0; y < y1; y++) if ((k2[y]! & 1) === 0 && other[y] !== r) w.put(loc, y, SEND);
  } else {
    // At most one operation of rank r per colour: sort the run's operations by colour (the colour
    // alone orders them; y rides along in the low bits).
    if (tmp.length < y1 - y0) tmp = new Float64Array(2 * (y1 - y0));
    let nt = 0;
    for (let y = y0; y < y1; y++) if (other[y] !== r) tmp[nt++] = colour[k2[y]! >>> 1]! * 4294967296 + y;
    sortSmall(tmp, nt);
    for (let i = 0; i < nt; i++) {
      const y = tmp[i]! % 4294967296;
      w.put(loc, y, (k2[y]! & 1) === 1 ? RECV : SEND);
    }
  }
  return tmp;
}

/** Sorts tmp[0 .. nt - 1] ascending (insertion sort for a few values). */
function sortSmall(tmp: Float64Array, nt: number): void {
  if (nt <= 16) {
    for (let i = 1; i < nt; i++) {
      const v = tmp[i]!;
      let j = i - 1;
      while (j >= 0 && tmp[j]! > v) {
        tmp[j + 1] = tmp[j]!;
        j--;
      }
      tmp[j + 1] = v;
    }
  } else tmp.subarray(0, nt).sort();
}

/**
 * Writes the operations of one rank at a time at their rank-major place (columns preallocated to
 * their exact sizes): `begin(r)` resumes rank r where it stopped, `put` appends one operation and
 * its pieces, `end(r)` saves the position.
 */
class RankWriter {
  private readonly opFill: Uint32Array;
  private readonly pieceFill: Uint32Array;
  private x = 0;
  private q = 0;
  /** The rank being written (set by `begin`). */
  rank = 0;
  readonly rankStart: Uint32Array;
  private readonly round: Uint32Array;
  private readonly kind: Uint8Array;
  private readonly peer: Uint32Array;
  private readonly tag: Uint32Array;
  private readonly count: Float64Array;
  private readonly pieceStart: Uint32Array;
  private readonly copySplit: Uint32Array;
  private readonly pBuf: Uint8Array;
  private readonly pOff: Float64Array;
  private readonly pCnt: Float64Array;
  private readonly sendDispls: Float64Array;
  private readonly recvDispls: Float64Array;

  constructor(
    private readonly msgs: Messages,
    private readonly p: number,
    layout: BufferLayout,
    opsOf: Uint32Array,
    piecesOf: Float64Array,
    nOps: number,
    private readonly nPieces: number,
  ) {
    this.rankStart = opsOf;
    this.opFill = opsOf.slice(0, p);
    this.pieceFill = Uint32Array.from(piecesOf.subarray(0, p));
    this.round = new Uint32Array(nOps);
    this.kind = new Uint8Array(nOps);
    this.peer = new Uint32Array(nOps);
    this.tag = new Uint32Array(nOps);
    this.count = new Float64Array(nOps);
    this.pieceStart = new Uint32Array(nOps + 1);
    this.copySplit = new Uint32Array(nOps);
    this.pBuf = new Uint8Array(nPieces);
    this.pOff = new Float64Array(nPieces);
    this.pCnt = new Float64Array(nPieces);
    this.sendDispls = layout.sendDispls;
    this.recvDispls = layout.recvDispls;
  }

  /** Resumes rank r. */
  begin(r: number): void {
    this.rank = r;
    this.x = this.opFill[r]!;
    this.q = this.pieceFill[r]!;
  }

  /** Saves rank r's position. */
  end(r: number): void {
    this.opFill[r] = this.x;
    this.pieceFill[r] = this.q;
  }

  /** Appends descriptor y of `loc` (side `side` of its message) as the next operation of the current rank. */
  put(loc: Descriptors, y: number, side: number): void {
    const msgs = this.msgs;
    const k = loc.k2[y]! >>> 1,
      o = loc.other[y]!,
      rd = loc.round[y]!,
      z = loc.count[y]!;
    const a = side === RECV ? o : this.rank,
      b = side === RECV ? this.rank : o;
    const x = this.x++;
    this.peer[x] = o;
    this.round[x] = rd;
    this.kind[x] = side;
    this.tag[x] = side === COPY ? 0 : rd & (TAG_LIMIT - 1);
    this.count[x] = z;
    let q = this.q;
    this.pieceStart[x] = q;
    const pBuf = this.pBuf,
      pOff = this.pOff,
      pCnt = this.pCnt;
    const direct = msgs.direct;
    if (direct !== null) {
      const p = this.p,
        off = direct.x0 === null ? 0 : direct.x0[k]!;
      if (side !== RECV) {
        pBuf[q] = 0;
        pOff[q] = this.sendDispls[direct.sendSlot === null ? a * p + b : direct.sendSlot[k]!]! + off;
        pCnt[q] = z;
        q++;
      }
      if (side !== SEND) {
        pBuf[q] = 1;
        pOff[q] = this.recvDispls[direct.recvSlot === null ? b * p + a : direct.recvSlot[k]!]! + off;
        pCnt[q] = z;
        q++;
      }
      if (side === COPY) this.copySplit[x] = 1;
    } else {
      const send = msgs.send!,
        recv = msgs.recv!;
      if (side !== RECV) {
        const y1 = send.start[k + 1]!;
        for (let y = send.start[k]!; y < y1; y++) {
          pBuf[q] = send.buffer[y]!;
          pOff[q] = send.offset[y]!;
          pCnt[q] = send.count[y]!;
          q++;
        }
        if (side === COPY) this.copySplit[x] = y1 - send.start[k]!;
      }
      if (side !== SEND) {
        const y1 = recv.start[k + 1]!;
        for (let y = recv.start[k]!; y < y1; y++) {
          pBuf[q] = recv.buffer[y]!;
          pOff[q] = recv.offset[y]!;
          pCnt[q] = recv.count[y]!;
          q++;
        }
      }
    }
    this.q = q;
  }

  /** The finished columns. */
  done(): Omit<Emitted, "maxClasses"> {
    const nOps = this.round.length,
      p = this.p;
    const rank = rankColumn(this.rankStart, p, nOps);
    this.pieceStart[nOps] = this.nPieces;
    return {
      rankStart: this.rankStart,
      ops: {
        rank,
        round: this.round,
        kind: this.kind,
        peer: this.peer,
        tag: this.tag,
        count: this.count,
        pieceStart: this.pieceStart,
        copySplit: this.copySplit,
      },
      pieces: { buffer: this.pBuf, offset: this.pOff, count: this.pCnt },
    };
  }
}

/** The rank of each operation, from the per-rank starts of the operations. */
function rankColumn(rankStart: Uint32Array, p: number, nOps: number): Uint32Array {
  const rank = new Uint32Array(nOps);
  for (let r = 0; r < p; r++) rank.fill(r, rankStart[r]!, rankStart[r + 1]!);
  return rank;
}
