/**
 * Payload: element tracking of a payload plan (where each element range is, round by round) and the scratch regions of
 * relayed elements.
 */
import { fail } from "../model/errors.js";
import { slotCount, slotOf, slotPeer, slotStart } from "../model/layout-slots.js";
import type { Schedule } from "../model/schedule.js";
import { progressPhases, progressTicker, type ProgressCallback } from "../model/progress.js";
import { growF64, growI32, growU32, type Growable } from "../internal/growable.js";
import { PieceCol } from "./piece-col.js";
import type { BufferLayout } from "./layout.js";
import { transfersByMessage, type Grouping, type Messages } from "./messages.js";
import { allocateScratch, type ScratchPlan } from "./scratch.js";

const AT_ORIGIN = -1; // in the origin's send buffer
const AT_DEST = -2; // in the destination's receive buffer
// Codes of the abstract pieces recorded while tracking (resolved once scratch is allocated).
const A_SEND = 0,
  A_RECV = 1,
  A_DEPART = 2,
  A_HOLD = 3;

/** Abstract pieces of one message side: code, value (an offset or an id), count. */
class RawPieces {
  readonly code: Growable<Uint32Array>;
  readonly val: Growable<Float64Array>;
  readonly cnt: Growable<Float64Array>;
  readonly start: Growable<Uint32Array>;
  /** `pieces` and `owners`: expected sizes (the columns grow past them). */
  constructor(pieces: number, owners: number) {
    this.code = growU32(pieces);
    this.val = growF64(pieces);
    this.cnt = growF64(pieces);
    this.start = growU32(owners + 1);
  }
  add(code: number, val: number, cnt: number): void {
    this.code.push(code);
    this.val.push(val);
    this.cnt.push(cnt);
  }
}

/** A payload plan's messages with resolved pieces, and the scratch size and lower bound of every rank. */
export interface PayloadLowering {
  readonly msgs: Messages;
  readonly scratchSize: Float64Array;
  readonly scratchPeak: Float64Array;
}

/**
 * Where every element of every message is between the steps: segments per message (origin, a hold in scratch, or the
 * destination), and the pieces each move reads and writes.
 */
class ElementTracker {
  readonly head: Int32Array;
  /** The segment the last move of each message ended on (chunks mostly come in element order). */
  readonly finger: Int32Array;
  readonly segOff: Growable<Float64Array>;
  readonly segCnt: Growable<Float64Array>;
  readonly segLoc: Growable<Int32Array>;
  readonly segNext: Growable<Int32Array>;
  /**
   * The segment before (-1 for a message's first): chunks that come in decreasing element order walk back from the
   * finger.
   */
  readonly segPrev: Growable<Int32Array>;
  readonly holdNode: Growable<Uint32Array>;
  readonly holdRound: Growable<Uint32Array>;
  readonly holdOff: Growable<Float64Array>;
  readonly holdCnt: Growable<Float64Array>;
  readonly dpHold: Growable<Uint32Array>;
  readonly dpInner: Growable<Float64Array>;
  readonly dpCnt: Growable<Float64Array>;
  readonly dpRound: Growable<Uint32Array>;
  readonly sendRaw: RawPieces;
  readonly recvRaw: RawPieces;

  /**
   * `chunks` and `messages` of the plan size the columns (each move of a chunk makes at most two
   * segments, a hold and a receive piece; the columns grow past them when needed): growing them
   * by doubling copied every column once more and touched twice the fresh memory.
   */
  constructor(
    readonly p: number,
    readonly layout: BufferLayout,
    chunks: number,
    messages: number,
  ) {
    const slots = slotCount(layout.sendPeers, p);
    this.head = new Int32Array(slots).fill(-1);
    this.finger = new Int32Array(slots).fill(-1);
    const segs = 2 * chunks + 16;
    this.segOff = growF64(segs);
    this.segCnt = growF64(segs);
    this.segLoc = growI32(segs);
    this.segNext = growI32(segs);
    this.segPrev = growI32(segs);
    this.holdNode = growU32(chunks);
    this.holdRound = growU32(chunks);
    this.holdOff = growF64(chunks);
    this.holdCnt = growF64(chunks);
    this.dpHold = growU32(chunks);
    this.dpInner = growF64(chunks);
    this.dpCnt = growF64(chunks);
    this.dpRound = growU32(chunks);
    this.sendRaw = new RawPieces(chunks, messages);
    this.recvRaw = new RawPieces(chunks, messages);
  }

  /** A new segment linked between `prev` and `next` (either -1 at an end). */
  private newSeg(off: number, cnt: number, loc: number, prev: number, next: number): number {
    this.segOff.push(off);
    this.segCnt.push(cnt);
    this.segLoc.push(loc);
    this.segPrev.push(prev);
    const t = this.segNext.push(next);
    if (prev >= 0) this.segNext.data[prev] = t;
    if (next >= 0) this.segPrev.data[next] = t;
    return t;
  }

  private notHeld(st: number, u: number, o: number, d: number, a: number, n: number): never {
    throw fail(
      "lower",
      "BAD_INPUT",
      `step ${st}: node ${u} sends elements ${a}..${a + n - 1} of ${o} -> ${d} that it does not hold at the start of the step`,
    );
  }

  /**
   * Moves elements a .. a+n-1 of o -> d (send slot `key`, receive displacement `recvAt` at d) from u
   * to v in step st, recording the pieces of both sides. Elements already in d's receive buffer that
   * a copy d -> d "moves" stay where they are: no piece is recorded for them (a runtime would copy
   * them onto themselves). Returns how many elements that was.
   */
  move(
    o: number,
    d: number,
    key: number,
    recvAt: number,
    a: number,
    n: number,
    u: number,
    v: number,
    st: number,
  ): number {
    const { layout, head, finger, segOff, segCnt, segLoc, segNext, segPrev, holdNode, holdRound, holdOff, holdCnt } =
      this;
    const { dpHold, dpInner, dpCnt, dpRound, sendRaw, recvRaw } = this;
    if (head[key] === -1) head[key] = this.newSeg(0, layout.sendCounts[key]!, AT_ORIGIN, -1, -1);
    // from the last move's segment, forward or back (chunks mostly come in element order, some in
    // reverse: a walk from the head each time would be quadratic in the chunks of a message)
    let cur = finger[key]!;
    if (cur < 0) cur = head[key]!;
    else while (segOff.data[cur]! > a) cur = segPrev.data[cur]!;
    while (segOff.data[cur]! + segCnt.data[cur]! <= a) cur = segNext.data[cur]!;
    if (segOff.data[cur]! < a) {
      const t = this.newSeg(a, segOff.data[cur]! + segCnt.data[cur]! - a, segLoc.data[cur]!, cur, segNext.data[cur]!);
      segCnt.data[cur] = a - segOff.data[cur]!;
      cur = t;
    }
    const first = cur,
      end = a + n;
    let stay = 0; // elements at d that stay (u === v === d)
    for (;;) {
      const off = segOff.data[cur]!;
      if (off + segCnt.data[cur]! > end) {
        this.newSeg(end, off + segCnt.data[cur]! - end, segLoc.data[cur]!, cur, segNext.data[cur]!);
        segCnt.data[cur] = end - off;
      }
      const loc = segLoc.data[cur]!,
        cnt = segCnt.data[cur]!;
      if (loc === AT_ORIGIN) {
        if (u !== o) this.notHeld(st, u, o, d, off, cnt);
        sendRaw.add(A_SEND, layout.sendDispls[key]! + off, cnt);
      } else if (loc === AT_DEST) {
        if (u !== d) this.notHeld(st, u, o, d, off, cnt);
        if (v === d) stay += cnt;
        else sendRaw.add(A_RECV, recvAt + off, cnt);
      } else {
        if (holdNode.data[loc] !== u || holdRound.data[loc]! >= st) this.notHeld(st, u, o, d, off, cnt);
        dpHold.push(loc);
        dpInner.push(off - holdOff.data[loc]!);
        dpCnt.push(cnt);
        sendRaw.add(A_DEPART, dpRound.push(st), cnt);
      }
      if (off + cnt === end) break;
      cur = segNext.data[cur]!;
    }
    let loc: number;
    if (v === d) {
      loc = AT_DEST;
      if (stay === 0) recvRaw.add(A_RECV, recvAt + a, n);
      else {
        // receive pieces for the segments that arrive, in element order as their send pieces
        for (let t = first; ; t = segNext.data[t]!) {
          if (segLoc.data[t] !== AT_DEST) recvRaw.add(A_RECV, recvAt + segOff.data[t]!, segCnt.data[t]!);
          if (t === cur) break;
        }
      }
    } else {
      holdNode.push(v);
      holdRound.push(st);
      holdOff.push(a);
      loc = holdCnt.push(n);
      recvRaw.add(A_HOLD, loc, n);
    }
    segOff.data[first] = a;
    segCnt.data[first] = n;
    segLoc.data[first] = loc;
    const after = segNext.data[cur]!;
    segNext.data[first] = after;
    if (after >= 0) segPrev.data[after] = first;
    finger[key] = first;
    return stay;
  }
}

/**
 * Follows every element range of a payload plan. Segments (per message o -> d, a linked list sorted
 * by element index) say where each range is: the origin's send buffer, the destination's receive
 * buffer, or a hold (a range that arrived at a relay in some round, kept in its scratch). A range
 * leaving a hold is a departure piece; departures are grouped by (rank, arrival round, departure
 * round) into blocks that scratch allocation places. `progress`: the messages followed, the scratch
 * allocated, the messages resolved (PAYLOAD_PROGRESS).
 */
export function payloadMessages(
  p: number,
  s: Schedule,
  g: Grouping,
  layout: BufferLayout,
  progress: ProgressCallback | null = null,
): PayloadLowering {
  const chunks = s.chunks!;
  const t = new ElementTracker(p, layout, chunks.count.length, g.n);
  const { sendRaw, recvRaw } = t;
  const byMsg = transfersByMessage(g, s.transferCount);
  const stay = new Float64Array(g.n); // per message: elements that stay where they are (see move)
  const { phase: phaseProgress, complete, end: endProgress } = progressPhases(progress, PAYLOAD_PROGRESS);
  const followed = progressTicker(phaseProgress(0), g.n);
  let mark = followed(0);
  for (let k = 0; k < g.n; k++) {
    if (k >= mark) mark = followed(k);
    const u = g.src[k]!,
      v = g.dst[k]!,
      st = g.round[k]!;
    sendRaw.start.push(sendRaw.code.length);
    recvRaw.start.push(recvRaw.code.length);
    for (let q = byMsg.start[k]!; q < byMsg.start[k + 1]!; q++) {
      const x = byMsg.order[q]!;
      let carried = 0;
      for (let c = chunks.start[x]!; c < chunks.start[x + 1]!; c++) {
        const o = chunks.origin[c]!,
          d = chunks.dest[c]!,
          a = chunks.offset[c]!,
          n = chunks.count[c]!;
        const key = o < p && d < p ? slotOf(layout.sendPeers, p, o, d) : -1;
        if (key < 0 || !(n >= 1) || !(a >= 0) || a + n > layout.sendCounts[key]!) {
          throw fail(
            "lower",
            "BAD_INPUT",
            `transfer ${x}: chunk [${o}, ${d}, ${a}, ${n}] is outside the message ${o} -> ${d} of M`,
          );
        }
        stay[k] = stay[k]! + t.move(o, d, key, layout.recvDispls[slotOf(layout.recvPeers, p, d, o)]!, a, n, u, v, st);
        carried += n;
      }
      if (carried !== s.size[x])
        throw fail(
          "lower",
          "BAD_INPUT",
          `transfer ${x}: its chunks carry ${carried} elements, its size is ${s.size[x]}`,
        );
    }
  }
  const { head, segOff, segCnt, segLoc, segNext, holdNode, holdRound, dpHold, dpInner, dpCnt, dpRound } = t;
  const copies = leftovers(
    layout,
    p,
    head,
    { off: segOff.data, cnt: segCnt.data, loc: segLoc.data, next: segNext.data },
    holdNode.data,
  );
  followed(Infinity);
  const rounds = Math.max(s.stepCount, 1);
  const nHold = holdNode.length,
    nDp = dpHold.length;
  const scratch = allocateScratch(
    p,
    rounds,
    holdNode.data,
    holdRound.data,
    nHold,
    dpHold.data,
    dpInner.data,
    dpCnt.data,
    dpRound.data,
    nDp,
  );
  complete(1);
  const msgs = resolveMessages(g, stay, sendRaw, recvRaw, scratch, dpCnt.data, copies, layout, p, phaseProgress(2));
  endProgress();
  return { msgs, scratchSize: scratch.size, scratchPeak: scratch.peak };
}

/**
 * Weights of payloadMessages' progress: following the chunks, allocating scratch, resolving the pieces (about their
 * shares of the time).
 */
const PAYLOAD_PROGRESS: readonly number[] = [500, 250, 250];

/** Segment columns (see payloadMessages). */
interface Segments {
  readonly off: Float64Array;
  readonly cnt: Float64Array;
  readonly loc: Int32Array;
  readonly next: Int32Array;
}

/**
 * Checks that every element ended at its destination and lists the self elements no transfer
 * moved (copied in round 0): per rank, the rank then [offset, count] pairs, then -1.
 */
function leftovers(layout: BufferLayout, p: number, head: Int32Array, seg: Segments, holdNode: Uint32Array): number[] {
  const { sendPeers, sendCounts } = layout;
  const copies: number[] = []; // rank, then [off, cnt] pairs, terminated by -1
  for (let o = 0; o < p; o++) {
    const end = slotStart(sendPeers, p, o + 1);
    for (let key = slotStart(sendPeers, p, o); key < end; key++) {
      const d = slotPeer(sendPeers, p, key),
        z = sendCounts[key]!;
      if (z === 0) continue;
      if (head[key] === -1) {
        if (o !== d)
          throw fail("lower", "BAD_INPUT", `no transfer carries the elements of ${o} -> ${d} (M[${o}][${d}] = ${z})`);
        copies.push(o, 0, z, -1);
        continue;
      }
      let opened = false;
      for (let t = head[key]!; t !== -1; t = seg.next[t]!) {
        const loc = seg.loc[t]!;
        if (loc === AT_DEST) continue;
        if (loc === AT_ORIGIN && o === d) {
          if (!opened) copies.push(o);
          opened = true;
          copies.push(seg.off[t]!, seg.cnt[t]!);
          continue;
        }
        const at = loc === AT_ORIGIN ? o : holdNode[loc]!;
        throw fail(
          "lower",
          "BAD_INPUT",
          `elements ${seg.off[t]!}..${seg.off[t]! + seg.cnt[t]! - 1} of ${o} -> ${d} end at node ${at}, not at ${d}`,
        );
      }
      if (opened) copies.push(-1);
    }
  }
  return copies;
}

/**
 * The messages with their abstract pieces resolved into buffer pieces (coalesced), then the round-0
 * self copies. A message's count leaves out the elements that stay (`stay`); a message left with
 * none is dropped. `progress`: messages.
 */
function resolveMessages(
  g: Grouping,
  stay: Float64Array,
  sendRaw: RawPieces,
  recvRaw: RawPieces,
  scratch: ScratchPlan,
  dpCnt: Float64Array,
  copies: readonly number[],
  layout: BufferLayout,
  p: number,
  progress: ProgressCallback | null,
): Messages {
  // about one buffer piece per abstract piece (coalescing merges some; a departure may split)
  const send = new PieceCol(sendRaw.code.length + 16, g.n + p),
    recv = new PieceCol(recvRaw.code.length + 16, g.n + p);
  const round = growU32(g.n + p),
    src = growU32(g.n + p),
    dst = growU32(g.n + p),
    count = growF64(g.n + p);
  sendRaw.start.push(sendRaw.code.length);
  recvRaw.start.push(recvRaw.code.length);
  const tick = progressTicker(progress, g.n);
  let mark = tick(0);
  for (let k = 0; k < g.n; k++) {
    if (k >= mark) mark = tick(k);
    if (stay[k]! > 0 && stay[k] === g.count[k]) continue;
    round.push(g.round[k]!);
    src.push(g.src[k]!);
    dst.push(g.dst[k]!);
    count.push(g.count[k]! - stay[k]!);
    send.open();
    for (let y = sendRaw.start.data[k]!; y < sendRaw.start.data[k + 1]!; y++) {
      const code = sendRaw.code.data[y]!,
        val = sendRaw.val.data[y]!,
        cnt = sendRaw.cnt.data[y]!;
      if (code === A_DEPART) send.piece(2, scratch.dpOffset[val]!, cnt);
      else send.piece(code === A_SEND ? 0 : 1, val, cnt);
    }
    recv.open();
    for (let y = recvRaw.start.data[k]!; y < recvRaw.start.data[k + 1]!; y++) {
      const code = recvRaw.code.data[y]!,
        val = recvRaw.val.data[y]!;
      if (code === A_RECV) {
        recv.piece(1, val, recvRaw.cnt.data[y]!);
        continue;
      }
      for (let e = scratch.holdDpStart[val]!; e < scratch.holdDpStart[val + 1]!; e++) {
        const dp = scratch.holdDps[e]!;
        recv.piece(2, scratch.dpOffset[dp]!, dpCnt[dp]!);
      }
    }
  }
  for (let q = 0; q < copies.length;) {
    const r = copies[q++]!;
    const from = q;
    let total = 0;
    send.open();
    const sendBase = layout.sendDispls[slotOf(layout.sendPeers, p, r, r)]!,
      recvBase = layout.recvDispls[slotOf(layout.recvPeers, p, r, r)]!;
    for (; copies[q] !== -1; q += 2) {
      send.piece(0, sendBase + copies[q]!, copies[q + 1]!);
      total += copies[q + 1]!;
    }
    recv.open();
    for (q = from; copies[q] !== -1; q += 2) recv.piece(1, recvBase + copies[q]!, copies[q + 1]!);
    q++;
    round.push(0);
    src.push(r);
    dst.push(r);
    count.push(total);
  }
  const sendStart = send.close(),
    recvStart = recv.close();
  return {
    n: round.length,
    round: round.toArray(),
    src: src.toArray(),
    dst: dst.toArray(),
    count: count.toArray(),
    direct: null,
    send: {
      start: sendStart,
      buffer: send.buffer.toArray(),
      offset: send.offset.toArray(),
      count: send.count.toArray(),
    },
    recv: {
      start: recvStart,
      buffer: recv.buffer.toArray(),
      offset: recv.offset.toArray(),
      count: recv.count.toArray(),
    },
  };
}
