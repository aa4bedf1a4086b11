/**
 * Emit-direct: the operations of direct messages without local copies (one piece per operation), in one pass over
 * the messages in program order writing each operation at its rank's cursor, then one rank-major pass.
 */
import type { OpTable, PieceTable } from "../model/program.js";
import { progressTicker, type ProgressCallback } from "../model/progress.js";
import type { BufferLayout } from "./layout.js";
import type { Messages } from "./messages.js";
import { TAG_LIMIT } from "./tags.js";
import { unzeroed } from "../internal/unzeroed.js";
import { colourRound } from "./colour-round.js";

/**
 * A receive's mark in the slot word of the scatter pass: its sign bit (slots stay below 2^31: MAX_ENTRIES of the peer
 * form, MAX_DENSE_P^2 of the full form). The words are int32, so that no value leaves V8's small-integer range.
 */
const RECV_BIT = -0x80000000;

/** The operations and pieces of every rank, with rankStart (one piece per operation). */
export interface DirectEmitted {
  readonly rankStart: Uint32Array;
  readonly ops: OpTable;
  readonly pieces: PieceTable;
  /** Blocking: the most colour classes of a round (0 without messages); nonblocking: 0. */
  readonly maxClasses: number;
}

/**
 * Lays out direct messages without copies as operations: per rank and round, nonblocking every receive before every
 * send (each in message order), blocking in colour order (at most one operation of a rank per colour and round).
 *
 * The scatter pass reads the messages in program order and writes each operation at its rank's cursor: a 16-byte
 * record of the slot of its block (with a receive mark), the round and, for a send, its count. At P = 1024 that is
 * about P write streams of a cache line each, and no message is read back in rank order.
 * The rank-major pass then turns each slot into the peer and the displacement, gives a receive the count of its own
 * row of the layout and, with `check` (the layout's send counts), compares each send's count with its pair's and
 * checks that no two sends of a rank go to one peer: null when one of those fails (a receive's count is its send's
 * when none does). Those checks read the rank's own rows, in cache; in message order each read jumps a row.
 *
 * `start`: the messages of round t are [start[t], start[t + 1]) of `order` (null: message q is the q-th). `blocking`:
 * each round's messages are coloured (colourRound, as colourRounds colours them) in the scatter, where it reads them.
 */
export function emitDirect(
  msgs: Messages,
  p: number,
  order: Uint32Array | null,
  start: Uint32Array,
  blocking: boolean,
  layout: BufferLayout,
  opsOf: Uint32Array,
  check: Float64Array | null,
  progress: ProgressCallback | null,
): DirectEmitted | null {
  // each operation's record, written in full by the scatter (every operation once): no zero fill
  const rec = unzeroed(Float64Array, 2 * opsOf[p]!);
  const maxClasses = scatter(msgs, p, order, start, blocking, opsOf, rec, new Int32Array(rec.buffer), progress);
  const e = rankMajor(p, start.length - 1, layout, opsOf, rec, check);
  return e === null ? null : { ...e, maxClasses };
}

/**
 * The scatter pass: operation x gets a 16-byte record, words 4x and 4x + 1 of `word` its slot (with RECV_BIT for a
 * receive) and its round, and for a send rec[2x + 1] (the record's second half) its count. One record stream per rank,
 * not a word stream and a count stream: half the streams, half the pages the scatter writes at once (at P = 1024, 33
 * against 20 ms in isolation). Returns the most colour classes of a round (blocking; 0 nonblocking).
 */
function scatter(
  msgs: Messages,
  p: number,
  order: Uint32Array | null,
  start: Uint32Array,
  blocking: boolean,
  opsOf: Uint32Array,
  rec: Float64Array,
  word: Int32Array,
  progress: ProgressCallback | null,
): number {
  const { src, dst } = msgs,
    mc = msgs.count;
  const { sendSlot, recvSlot } = msgs.direct!;
  const cur = opsOf.slice(0, p);
  const rounds = start.length - 1;
  const tick = progressTicker(progress, msgs.n);
  let perm = new Uint32Array(0),
    colour = new Uint32Array(0),
    byColour = new Uint32Array(64),
    maxClasses = 0;
  const used = blocking ? new Int32Array(p) : null;
  for (let t = 0; t < rounds; t++) {
    const qa = start[t]!,
      qb = start[t + 1]!;
    tick(qa);
    if (used === null) {
      for (let q = qa; q < qb; q++) {
        const k = order === null ? q : order[q]!,
          a = src[k]!,
          b = dst[k]!;
        const x = cur[b]!++;
        word[4 * x] = (recvSlot === null ? b * p + a : recvSlot[k]!) | RECV_BIT;
        word[4 * x + 1] = t;
      }
      for (let q = qa; q < qb; q++) {
        const k = order === null ? q : order[q]!,
          a = src[k]!,
          b = dst[k]!;
        const x = cur[a]!++;
        rec[2 * x + 1] = mc[k]!;
        word[4 * x] = sendSlot === null ? a * p + b : sendSlot[k]!;
        word[4 * x + 1] = t;
      }
      continue;
    }
    // blocking: the round's messages coloured, then in colour order (a counting sort, stable), both sides at once
    const nq = qb - qa;
    if (perm.length < nq) {
      perm = new Uint32Array(2 * nq);
      colour = new Uint32Array(2 * nq);
    }
    const top = colourRound(src, dst, order, qa, qb, used, colour);
    if (top > maxClasses) maxClasses = top;
    if (top + 1 > byColour.length) byColour = new Uint32Array(2 * (top + 1)); // all 0, as byColour is between rounds
    for (let i = 0; i < nq; i++) byColour[colour[i]! + 1] = byColour[colour[i]! + 1]! + 1;
    for (let c = 0; c < top; c++) byColour[c + 1] = byColour[c + 1]! + byColour[c]!;
    for (let i = 0; i < nq; i++) perm[byColour[colour[i]!]!++] = order === null ? qa + i : order[qa + i]!;
    byColour.fill(0, 0, top + 1);
    for (let i = 0; i < nq; i++) {
      const k = perm[i]!,
        a = src[k]!,
        b = dst[k]!;
      let x = cur[b]!++;
      word[4 * x] = (recvSlot === null ? b * p + a : recvSlot[k]!) | RECV_BIT;
      word[4 * x + 1] = t;
      x = cur[a]!++;
      rec[2 * x + 1] = mc[k]!;
      word[4 * x] = sendSlot === null ? a * p + b : sendSlot[k]!;
      word[4 * x + 1] = t;
    }
  }
  tick(Infinity);
  return maxClasses;
}

/**
 * The rank-major pass: the round, kind, peer, count and displacement of every operation from the scatter's records,
 * rank by rank (a rank's slots lie in its own rows of the layout's tables), then the columns that repeat others (tag,
 * the pieces' buffers and counts) and the rank and piece starts. With `check` (the layout's send counts), null when a
 * send carries other than its pair's count or two sends of a rank go to one peer (a stamp per slot of the rank's row:
 * the rank's number plus 1).
 *
 * The records' store becomes the pieces' displacements and counts: displacement x is written over bytes 8x .. 8x + 7,
 * which held record x / 2 (read already: x / 2 <= x), and the counts, the store's second half, are copied in after
 * the pass, when every record has been read. The program gets no store beyond its columns.
 */
function rankMajor(
  p: number,
  rounds: number,
  layout: BufferLayout,
  rankStart: Uint32Array,
  rec: Float64Array,
  check: Float64Array | null,
): Omit<DirectEmitted, "maxClasses"> | null {
  const nOps = rec.length >>> 1;
  const word = new Int32Array(rec.buffer),
    offset = new Float64Array(rec.buffer, 0, nOps);
  const round = unzeroed(Uint32Array, nOps),
    kind = unzeroed(Uint8Array, nOps),
    peer = unzeroed(Uint32Array, nOps),
    rank = unzeroed(Uint32Array, nOps),
    count = unzeroed(Float64Array, nOps);
  const { recvCounts, sendDispls, recvDispls, sendPeers, recvPeers } = layout;
  const stamp = check === null ? null : new Uint32Array(p);
  const full = sendPeers === null || recvPeers === null;
  let ok = true;
  for (let r = 0; r < p; r++) {
    const xa = rankStart[r]!,
      xb = rankStart[r + 1]!,
      mark = r + 1;
    rank.fill(r, xa, xb);
    // the full form's slot of peer j is r * p + j; the peer form's peer of a slot is in its index, and a stamp is kept
    // per slot of the rank's row (its first entries, in cache: a stamp per peer rank spread over P entries)
    const row = full ? r * p : sendPeers.start[r]!;
    for (let x = xa; x < xb; x++) {
      const w = word[4 * x]!,
        slot = w & 0x7fffffff;
      round[x] = word[4 * x + 1]!;
      if (w < 0) {
        kind[x] = 1;
        peer[x] = full ? slot - row : recvPeers.peer[slot]!;
        count[x] = recvCounts[slot]!;
        offset[x] = recvDispls[slot]!;
      } else {
        const c = rec[2 * x + 1]!;
        kind[x] = 0;
        peer[x] = full ? slot - row : sendPeers.peer[slot]!;
        count[x] = c;
        offset[x] = sendDispls[slot]!;
        if (stamp !== null) {
          if (stamp[slot - row] === mark || c !== check![slot]) ok = false;
          stamp[slot - row] = mark;
        }
      }
    }
  }
  if (!ok) return null;
  const tag = unzeroed(Uint32Array, nOps);
  if (rounds <= TAG_LIMIT) tag.set(round);
  else for (let x = 0; x < nOps; x++) tag[x] = round[x]! & (TAG_LIMIT - 1);
  const pieceStart = unzeroed(Uint32Array, nOps + 1);
  for (let x = 0; x <= nOps; x++) pieceStart[x] = x;
  return {
    rankStart,
    ops: { rank, round, kind, peer, tag, count, pieceStart, copySplit: new Uint32Array(nOps) },
    pieces: {
      buffer: copyOf(kind, unzeroed(Uint8Array, nOps)),
      offset,
      count: copyOf(count, new Float64Array(rec.buffer, 8 * nOps, nOps)),
    },
  };
}

/** `to` after copying `from` (of the same length) into it. */
function copyOf<T extends Uint8Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
