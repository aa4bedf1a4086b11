/** Messages: a schedule's transfers merged per (round, src, dst), with the element ranges of direct plans. */
import { fail } from "../model/errors.js";
import { slotOf, slotPeer, slotStart } from "../model/layout-slots.js";
import { stepOfTransfer, type Schedule } from "../model/schedule.js";
import { checkSchedule, isTransferOk } from "../model/schedule-check.js";
import { growF64, growU32 } from "../internal/growable.js";
import type { BufferLayout } from "./layout.js";

/** Pieces of one side of every message: those of message k are [start[k], start[k + 1]). */
export interface SidePieces {
  readonly start: Uint32Array;
  readonly buffer: Uint32Array;
  readonly offset: Float64Array;
  readonly count: Float64Array;
}

/**
 * Where the one piece of each direct message lies: elements x0[k] .. x0[k] + count - 1 of the block
 * (src, dst), whose displacement is the send side's slot sendSlot[k] and the receive side's slot
 * recvSlot[k]. In the full form both slots follow from the pair (src * P + dst, dst * P + src) and
 * are null (no array of P^2 or T entries); x0 is null when every message starts its block.
 */
export interface DirectPlaces {
  readonly sendSlot: Uint32Array | null;
  readonly recvSlot: Uint32Array | null;
  readonly x0: Float64Array | null;
}

/**
 * The messages of a program: one per (round, src, dst) (src == dst: a local copy). Either `direct`
 * is set (the message is one piece per side: DirectPlaces) or `send` and `recv` hold every
 * message's pieces (payload plans).
 */
export interface Messages {
  readonly n: number;
  readonly round: Uint32Array;
  readonly src: Uint32Array;
  readonly dst: Uint32Array;
  readonly count: Float64Array;
  readonly direct: DirectPlaces | null;
  readonly send: SidePieces | null;
  readonly recv: SidePieces | null;
  /**
   * When the messages are numbered in round order: those of round t are [roundStart[t], roundStart[t + 1]) (null or
   * absent: the emitter orders them by round itself).
   */
  readonly roundStart?: Uint32Array | null;
  /**
   * Direct messages without local copies: the operations of rank r are [rankOps[r], rankOps[r + 1]) (a send per
   * message from r, a receive per message to r), counted where the messages were read (null or absent: the emitter
   * counts them).
   */
  readonly rankOps?: Uint32Array | null;
  /**
   * Direct messages taken as exact pairs before their slots were checked distinct and their counts compared: the send
   * counts of the layout, which the emitter compares with each send where it reads its rank's row, checking there too
   * that no two sends of a rank share a slot; it refuses the messages (null) when one does not hold (null or absent:
   * nothing left to check).
   */
  readonly checkCounts?: Float64Array | null;
}

/** Transfers grouped into messages: the message of each transfer, and the transfers of each message in order. */
export interface Grouping {
  readonly n: number;
  readonly round: Uint32Array;
  readonly src: Uint32Array;
  readonly dst: Uint32Array;
  readonly count: Float64Array;
  /** The message of each transfer; null when every message is one transfer (message k = transfer k). */
  readonly msgOf: Uint32Array | null;
  /** The messages of step t are [start[t], start[t + 1]) (they are numbered in step order). */
  readonly start: Uint32Array;
  /** What the pass that found every message one transfer counted (null or absent: messages merged). */
  readonly tally?: TransferTally | null;
}

/** What groupTransfers' pass over the transfers counts when each is a message of its own. */
export interface TransferTally {
  /**
   * The operations of rank r are [rankOps[r], rankOps[r + 1]) (a send per transfer from r, a receive per transfer to
   * r), or null when some transfer is a local copy.
   */
  readonly rankOps: Uint32Array | null;
  /** The elements of all transfers (summed in transfer order). */
  readonly total: number;
}

/** The transfers of each message in order: those of message k are order[start[k] .. start[k + 1]). */
export function transfersByMessage(g: Grouping, transferCount: number): { start: Uint32Array; order: Uint32Array } {
  const { n, msgOf } = g;
  if (msgOf === null) {
    const order = new Uint32Array(n),
      start = new Uint32Array(n + 1);
    for (let k = 0; k < n; k++) {
      order[k] = k;
      start[k + 1] = k + 1;
    }
    return { start, order };
  }
  const start = new Uint32Array(n + 1);
  for (let x = 0; x < transferCount; x++) {
    const i = msgOf[x]! + 1;
    start[i] = start[i]! + 1;
  }
  for (let k = 0; k < n; k++) start[k + 1] = start[k + 1]! + start[k]!;
  const fill = start.slice(0, n);
  const order = new Uint32Array(transferCount);
  for (let x = 0; x < transferCount; x++) {
    const k = msgOf[x]!;
    order[fill[k]!] = x;
    fill[k] = fill[k]! + 1;
  }
  return { start, order };
}

/**
 * One pass over the transfers in step order: each checked as checkSchedule checks it (throws its error on one that
 * fails), and, while no node sends twice in a step (then no transfers merge: the fast path), each rank's operations
 * counted and the elements summed. Null at the first node that sends twice in a step, the transfers after it left to
 * groupTransfers' merging loop, which checks each as it reads it.
 */
function tallyTransfers(s: Schedule): TransferTally | null {
  const { p, src, dst, size, stepStart } = s;
  const stamp = new Uint32Array(p),
    ops = new Uint32Array(p + 1);
  let copies = false,
    total = 0;
  for (let st = 0; st < s.stepCount; st++) {
    const x1 = stepStart[st + 1]!;
    for (let x = stepStart[st]!; x < x1; x++) {
      const a = src[x]!,
        b = dst[x]!,
        z = size[x]!;
      if (!isTransferOk(a, b, z, p)) checkSchedule(s, "lower");
      if (stamp[a] === st + 1) return null;
      stamp[a] = st + 1;
      if (a === b) copies = true;
      ops[a + 1] = ops[a + 1]! + 1;
      ops[b + 1] = ops[b + 1]! + 1;
      total += z;
    }
  }
  for (let r = 0; r < p; r++) ops[r + 1] = ops[r + 1]! + ops[r]!;
  return { rankOps: copies ? null : ops, total };
}

/**
 * Merges the transfers of each step by (src, dst); messages are numbered in step order. Checks every transfer as
 * checkSchedule does (lowerSchedule leaves that pass to this one): a transfer that fails throws checkSchedule's error.
 */
export function groupTransfers(s: Schedule): Grouping {
  const { p, transferCount: t } = s;
  const tally = tallyTransfers(s);
  if (tally !== null) {
    // the step of every transfer (4 bytes each) made when first read: the direct path reads the step starts instead
    let round: Uint32Array | null = null;
    return {
      n: t,
      get round(): Uint32Array {
        return (round ??= stepOfTransfer(s));
      },
      src: s.src,
      dst: s.dst,
      count: s.size,
      msgOf: null,
      start: s.stepStart,
      tally,
    };
  }
  const msgOf = new Uint32Array(t);
  const round = growU32(t),
    src = growU32(t),
    dst = growU32(t),
    count = growF64(t);
  const next = growU32(t); // next message of the same src in the same step (0xffffffff: none)
  const head = new Uint32Array(p),
    stamp = new Uint32Array(p); // stamp = step + 1 when head is valid
  const start = new Uint32Array(s.stepCount + 1);
  for (let st = 0; st < s.stepCount; st++) {
    start[st] = round.length;
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      const a = s.src[x]!,
        b = s.dst[x]!;
      if (!isTransferOk(a, b, s.size[x]!, p)) checkSchedule(s, "lower");
      let k = stamp[a] === st + 1 ? head[a]! : 0xffffffff;
      while (k !== 0xffffffff && dst.data[k] !== b) k = next.data[k]!;
      if (k === 0xffffffff) {
        k = round.push(st);
        src.push(a);
        dst.push(b);
        count.push(0);
        next.push(stamp[a] === st + 1 ? head[a]! : 0xffffffff);
        head[a] = k;
        stamp[a] = st + 1;
      }
      count.data[k] = count.data[k]! + s.size[x]!;
      msgOf[x] = k;
    }
  }
  const n = round.length;
  start[s.stepCount] = n;
  return { n, round: round.toArray(), src: src.toArray(), dst: dst.toArray(), count: count.toArray(), msgOf, start };
}

/**
 * The send-side slot of every message (its pair (src, dst) in the layout), or null in the full form (slot src * P +
 * dst); throws the relay error when the peer form has no block for a pair.
 */
function sendSlots(layout: BufferLayout, p: number, s: Schedule, g: Grouping): Uint32Array | null {
  const peers = layout.sendPeers;
  if (peers === null) return null;
  const slot = new Uint32Array(g.n);
  const { src, dst } = g;
  for (let k = 0; k < g.n; k++) {
    const a = src[k]!,
      b = dst[k]!;
    const y = slotOf(peers, p, a, b);
    if (y < 0) throw relays(s, a, b, g.count[k]!, 0);
    slot[k] = y;
  }
  return slot;
}

/** The receive-side slot of every message (the block of src at dst), or null in the full form (slot dst * P + src). */
function recvSlots(layout: BufferLayout, p: number, src: Uint32Array, dst: Uint32Array, n: number): Uint32Array | null {
  const peers = layout.recvPeers;
  if (peers === null) return null;
  const slot = new Uint32Array(n);
  for (let k = 0; k < n; k++) slot[k] = slotOf(peers, p, dst[k]!, src[k]!);
  return slot;
}

/** The error of a message-level plan whose transfers a -> b do not carry exactly M[a][b]. */
function relays(s: Schedule, a: number, b: number, got: number, want: number): Error {
  return fail(
    "lower",
    "UNSUPPORTED",
    `${s.algorithm} relays elements: plan with the option payload (its transfers ${a} -> ${b} carry ${got} elements, M[${a}][${b}] = ${want})`,
  );
}

/**
 * True when every message is the only one of its pair, carries exactly M[src][dst] (src != dst) or
 * all of M[r][r] (a copy), and every non-zero entry has its message: then every message starts at
 * element 0 and no self elements are left over. A bit per send slot (P^2 / 8 bytes in the full form,
 * cache-resident) replaces the per-slot cursor of the general case.
 */
function distinctExactPairs(layout: BufferLayout, p: number, g: Grouping, slot: Uint32Array | null): boolean {
  const counts = layout.sendCounts;
  const seen = new Uint32Array(Math.ceil(counts.length / 32));
  const { count, src, dst } = g;
  let covered = 0;
  for (let k = 0; k < g.n; k++) {
    const key = slot === null ? src[k]! * p + dst[k]! : slot[k]!;
    const w = key >>> 5,
      bit = 1 << (key & 31);
    if ((seen[w]! & bit) !== 0) return false;
    seen[w] = seen[w]! | bit;
    if (count[k] !== counts[key]) return false;
    if (count[k]! > 0) covered++;
  }
  let nonZero = 0;
  for (let x = 0; x < counts.length; x++) if (counts[x]! > 0) nonZero++;
  return covered === nonZero;
}

/**
 * The tally of the messages (as tallyTransfers makes it for the transfers): every rank's operations, null on a local
 * copy, and the elements; groupTransfers' own when every message is one transfer, else one pass in message order.
 */
function messageTally(g: Grouping, p: number): TransferTally {
  if (g.tally !== null && g.tally !== undefined) return g.tally;
  const { count, src, dst } = g;
  const ops = new Uint32Array(p + 1);
  let total = 0;
  for (let k = 0; k < g.n; k++) {
    const a = src[k]!,
      b = dst[k]!;
    if (a === b) return { rankOps: null, total };
    ops[a + 1] = ops[a + 1]! + 1;
    ops[b + 1] = ops[b + 1]! + 1;
    total += count[k]!;
  }
  for (let r = 0; r < p; r++) ops[r + 1] = ops[r + 1]! + ops[r]!;
  return { rankOps: ops, total };
}

/**
 * The cheap part of distinctExactPairs for plans without local copies (the emitter's lean path): no message is a copy,
 * and the messages carry as many elements in all as the matrix holds (exact sums below 2^53), both from messageTally.
 * With distinct slots, equal totals and each message carrying its slot's count, every non-zero entry has its message.
 * The rest is left to the emitter, which reads each rank's row of the tables in turn: that no two sends of a rank share
 * a slot, and that each carries its slot's count. In message order, each of those reads jumps to another row (another
 * page of the table at P = 1024): a bit per slot, or the comparison of the counts, cost as much as the rest of this
 * check or more, and more again on a loaded machine. `sendTotal`: the matrix's total when the caller has it (the sum of
 * the send buffers' sizes of a default layout: P additions, not P^2; exact below 2^53 in any order), null to sum the
 * layout's counts. Returns every rank's operations as prefix sums, or null.
 */
function noCopiesSameTotal(layout: BufferLayout, g: Grouping, p: number, sendTotal: number | null): Uint32Array | null {
  const { rankOps, total } = messageTally(g, p);
  if (rankOps === null) return null;
  let want = 0;
  if (sendTotal !== null) want = sendTotal;
  else {
    const counts = layout.sendCounts;
    for (let x = 0; x < counts.length; x++) want += counts[x]!;
  }
  return total === want && want <= Number.MAX_SAFE_INTEGER ? rankOps : null;
}

/**
 * The messages of a message-level plan as direct without local copies when noCopiesSameTotal holds (the emitter's
 * lean path), with their round starts and every rank's operations; their slots and counts are left for the emitter to
 * check (`checkCounts`); null otherwise (then directMessages decides). `sendTotal`: as noCopiesSameTotal takes it.
 */
export function directMessagesUnchecked(
  layout: BufferLayout,
  p: number,
  s: Schedule,
  g: Grouping,
  sendTotal: number | null = null,
): Messages | null {
  const rankOps = noCopiesSameTotal(layout, g, p, sendTotal);
  if (rankOps === null) return null;
  const slot = sendSlots(layout, p, s, g);
  const { n, src, dst, count } = g;
  const places = { sendSlot: slot, recvSlot: recvSlots(layout, p, src, dst, n), x0: null };
  const checkCounts = layout.sendCounts;
  return {
    n,
    // read only when the emitter orders the messages by round itself (the round starts are given): g's when read
    get round(): Uint32Array {
      return g.round;
    },
    src,
    dst,
    count,
    direct: places,
    send: null,
    recv: null,
    roundStart: g.start,
    rankOps,
    checkCounts,
  };
}

/**
 * The messages of a message-level plan read as direct: every transfer u -> v carries the next
 * elements of M[u][v] (consecutive ranges in transfer order); self elements no transfer carries are
 * copied in round 0. Throws when the transfers of some pair do not add up to M[u][v] (a relay plan).
 * Work and memory are per message and per slot of the layout (O(P + E + T) in the peer form; in the
 * full form no array per message beyond x0 when messages split a block).
 */
export function directMessages(layout: BufferLayout, p: number, s: Schedule, g: Grouping): Messages {
  const slot = sendSlots(layout, p, s, g);
  const direct = (
    n: number,
    round: Uint32Array,
    src: Uint32Array,
    dst: Uint32Array,
    count: Float64Array,
    x0: Float64Array | null,
    sendSlot: Uint32Array | null,
  ): Messages => {
    const places = { sendSlot, recvSlot: recvSlots(layout, p, src, dst, n), x0 };
    // the self copies added below come after the last round's messages: then the emitter orders them by round
    const roundStart = n === g.n ? g.start : null;
    return { n, round, src, dst, count, direct: places, send: null, recv: null, roundStart };
  };
  if (distinctExactPairs(layout, p, g, slot)) return direct(g.n, g.round, g.src, g.dst, g.count, null, slot);
  const { sendCounts, sendPeers } = layout;
  const cursor = new Float64Array(sendCounts.length);
  const x0 = new Float64Array(g.n + p);
  for (let k = 0; k < g.n; k++) {
    const key = slot === null ? g.src[k]! * p + g.dst[k]! : slot[k]!;
    x0[k] = cursor[key]!;
    cursor[key] = cursor[key]! + g.count[k]!;
  }
  let extra = 0;
  for (let i = 0; i < p; i++) {
    const end = slotStart(sendPeers, p, i + 1);
    for (let key = slotStart(sendPeers, p, i); key < end; key++) {
      const j = slotPeer(sendPeers, p, key);
      const want = sendCounts[key]!,
        got = cursor[key]!;
      if (i === j ? got > want : got !== want) throw relays(s, i, j, got, want);
      if (i === j && want > got) extra++;
    }
  }
  if (extra === 0) return direct(g.n, g.round, g.src, g.dst, g.count, x0.subarray(0, g.n), slot);
  const n = g.n + extra;
  const round = new Uint32Array(n),
    src = new Uint32Array(n),
    dst = new Uint32Array(n),
    count = new Float64Array(n),
    slots = slot === null ? null : new Uint32Array(n);
  round.set(g.round);
  src.set(g.src);
  dst.set(g.dst);
  count.set(g.count);
  if (slot !== null) slots!.set(slot);
  let k = g.n;
  for (let r = 0; r < p; r++) {
    const key = sendPeers === null ? r * p + r : slotOf(sendPeers, p, r, r);
    if (key < 0) continue;
    const left = sendCounts[key]! - cursor[key]!;
    if (left <= 0) continue;
    x0[k] = cursor[key]!;
    src[k] = dst[k] = r;
    if (slots !== null) slots[k] = key;
    count[k++] = left;
  }
  return direct(n, round, src, dst, count, x0.subarray(0, n), slots);
}
