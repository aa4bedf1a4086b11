/** Emit: messages to per-rank operations in program order (copies first; nonblocking or blocking order) with their pieces. */
import type { OpTable, PieceTable, ProgramVariant } from "../model/program.js";
import type { BufferLayout } from "./layout.js";
import type { Messages } from "./messages.js";

/** Tags stay below this bound: MPI guarantees MPI_TAG_UB >= 32767. */
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
  let nOps = 0;
  for (let k = 0; k < msgs.n; k++) nOps += mSrc[k] === mDst[k] ? 1 : 2;
  const descMsg = new Uint32Array(nOps), descSide = new Uint8Array(nOps);
  let d = 0, maxClasses = 0;
  let classStart = new Uint32Array(16);
  let sorted = new Uint32Array(16);
  for (let r = 0; r < rounds; r++) {
    const a = start[r]!, b = start[r + 1]!;
    for (let q = a; q < b; q++) {
      const k = order[q]!;
      if (mSrc[k] === mDst[k]) { descMsg[d] = k; descSide[d++] = COPY; }
    }
    if (!blocking) {
      let any = false;
      for (let q = a; q < b; q++) {
        const k = order[q]!;
        if (mSrc[k] !== mDst[k]) { descMsg[d] = k; descSide[d++] = RECV; any = true; }
      }
      for (let q = a; q < b; q++) {
        const k = order[q]!;
        if (mSrc[k] !== mDst[k]) { descMsg[d] = k; descSide[d++] = SEND; }
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
      if (mSrc[k] !== mDst[k]) sorted[classStart[colour![k]!]!++] = k;
    }
    for (let q = 0; q < total; q++) {
      const k = sorted[q]!;
      descMsg[d] = k; descSide[d++] = SEND;
      descMsg[d] = k; descSide[d++] = RECV;
    }
  }
  return layoutOps(msgs, p, layout, descMsg, descSide, maxClasses);
}

/** Stable counting sort of the operation descriptors by rank, then the op and piece columns. */
function layoutOps(msgs: Messages, p: number, layout: BufferLayout, descMsg: Uint32Array, descSide: Uint8Array, maxClasses: number): Emitted {
  const nOps = descMsg.length;
  const mSrc = msgs.src, mDst = msgs.dst, mRound = msgs.round, mCount = msgs.count, x0 = msgs.x0;
  const { send, recv } = msgs;
  const opRank = new Uint32Array(nOps);
  const rankStart = new Uint32Array(p + 1);
  for (let q = 0; q < nOps; q++) {
    const k = descMsg[q]!;
    const r = descSide[q] === RECV ? mDst[k]! : mSrc[k]!;
    opRank[q] = r;
    rankStart[r + 1] = rankStart[r + 1]! + 1;
  }
  for (let r = 0; r < p; r++) rankStart[r + 1] = rankStart[r + 1]! + rankStart[r]!;
  const fill = rankStart.slice(0, p);
  const opDesc = new Uint32Array(nOps);
  for (let q = 0; q < nOps; q++) {
    const r = opRank[q]!;
    opDesc[fill[r]!] = q;
    fill[r] = fill[r]! + 1;
  }
  const pieceStart = new Uint32Array(nOps + 1);
  if (send === null || recv === null) {
    for (let x = 0; x < nOps; x++) pieceStart[x + 1] = pieceStart[x]! + (descSide[opDesc[x]!] === COPY ? 2 : 1);
  } else {
    const ss = send.start, rs = recv.start;
    for (let x = 0; x < nOps; x++) {
      const q = opDesc[x]!, k = descMsg[q]!, side = descSide[q]!;
      const n = (side === RECV ? 0 : ss[k + 1]! - ss[k]!) + (side === SEND ? 0 : rs[k + 1]! - rs[k]!);
      pieceStart[x + 1] = pieceStart[x]! + n;
    }
  }
  const nPieces = pieceStart[nOps]!;
  const rank = new Uint32Array(nOps), round = new Uint32Array(nOps), kind = new Uint8Array(nOps), peer = new Uint32Array(nOps), tag = new Uint32Array(nOps);
  const count = new Float64Array(nOps), copySplit = new Uint32Array(nOps);
  const pBuf = new Uint8Array(nPieces), pOff = new Float64Array(nPieces), pCnt = new Float64Array(nPieces);
  const sendDispls = layout.sendDispls, recvDispls = layout.recvDispls;
  for (let x = 0; x < nOps; x++) {
    const q = opDesc[x]!, k = descMsg[q]!, side = descSide[q]!;
    const a = mSrc[k]!, b = mDst[k]!, rd = mRound[k]!, z = mCount[k]!;
    rank[x] = side === RECV ? b : a;
    peer[x] = side === SEND ? b : a;
    round[x] = rd;
    kind[x] = side;
    tag[x] = side === COPY ? 0 : rd % TAG_LIMIT;
    count[x] = z;
    let at = pieceStart[x]!;
    if (x0 !== null) {
      const off = x0[k]!;
      if (side !== RECV) { pBuf[at] = 0; pOff[at] = sendDispls[a * p + b]! + off; pCnt[at++] = z; }
      if (side !== SEND) { pBuf[at] = 1; pOff[at] = recvDispls[b * p + a]! + off; pCnt[at] = z; }
      if (side === COPY) copySplit[x] = 1;
      continue;
    }
    if (side !== RECV) {
      for (let y = send!.start[k]!; y < send!.start[k + 1]!; y++) { pBuf[at] = send!.buffer[y]!; pOff[at] = send!.offset[y]!; pCnt[at++] = send!.count[y]!; }
      if (side === COPY) copySplit[x] = send!.start[k + 1]! - send!.start[k]!;
    }
    if (side !== SEND) {
      for (let y = recv!.start[k]!; y < recv!.start[k + 1]!; y++) { pBuf[at] = recv!.buffer[y]!; pOff[at] = recv!.offset[y]!; pCnt[at++] = recv!.count[y]!; }
    }
  }
  return { rankStart, ops: { rank, round, kind, peer, tag, count, pieceStart, copySplit }, pieces: { buffer: pBuf, offset: pOff, count: pCnt }, maxClasses };
}
