/** Messages: a schedule's transfers merged per (round, src, dst), with the element ranges of direct plans. */
import { fail } from "../model/errors.js";
import type { CommMatrix } from "../model/matrix.js";
import { stepOfTransfer, type Schedule } from "../model/schedule.js";
import { F64Col, U32Col } from "./columns.js";
import type { BufferLayout } from "./layout.js";

/** Pieces of one side of every message: those of message k are [start[k], start[k + 1]). */
export interface SidePieces {
  readonly start: Uint32Array;
  readonly buffer: Uint32Array;
  readonly offset: Float64Array;
  readonly count: Float64Array;
}

/**
 * The messages of a program: one per (round, src, dst) (src == dst: a local copy). Either `x0` is
 * set (direct: the message carries elements x0 .. x0+count-1 of M[src][dst], one piece per side)
 * or `send` and `recv` hold every message's pieces (payload plans).
 */
export interface Messages {
  readonly n: number;
  readonly round: Uint32Array;
  readonly src: Uint32Array;
  readonly dst: Uint32Array;
  readonly count: Float64Array;
  readonly x0: Float64Array | null;
  readonly send: SidePieces | null;
  readonly recv: SidePieces | null;
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

/** True when no node sends twice in one step (then no transfers merge: the fast path). */
function oneSendPerNodeAndStep(s: Schedule): boolean {
  const stamp = new Uint32Array(s.p);
  for (let st = 0; st < s.stepCount; st++) {
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      const a = s.src[x]!;
      if (stamp[a] === st + 1) return false;
      stamp[a] = st + 1;
    }
  }
  return true;
}

/** Merges the transfers of each step by (src, dst); messages are numbered in step order. */
export function groupTransfers(s: Schedule): Grouping {
  const { p, transferCount: t } = s;
  if (oneSendPerNodeAndStep(s)) {
    const round = stepOfTransfer(s);
    return { n: t, round, src: s.src, dst: s.dst, count: s.size, msgOf: null };
  }
  const msgOf = new Uint32Array(t);
  const round = new U32Col(t),
    src = new U32Col(t),
    dst = new U32Col(t),
    count = new F64Col(t);
  const next = new U32Col(t); // next message of the same src in the same step (0xffffffff: none)
  const head = new Uint32Array(p),
    stamp = new Uint32Array(p); // stamp = step + 1 when head is valid
  for (let st = 0; st < s.stepCount; st++) {
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      const a = s.src[x]!,
        b = s.dst[x]!;
      let k = stamp[a] === st + 1 ? head[a]! : 0xffffffff;
      while (k !== 0xffffffff && dst.a[k] !== b) k = next.a[k]!;
      if (k === 0xffffffff) {
        k = round.push(st);
        src.push(a);
        dst.push(b);
        count.push(0);
        next.push(stamp[a] === st + 1 ? head[a]! : 0xffffffff);
        head[a] = k;
        stamp[a] = st + 1;
      }
      count.a[k] = count.a[k]! + s.size[x]!;
      msgOf[x] = k;
    }
  }
  const n = round.n;
  return { n, round: round.done(), src: src.done(), dst: dst.done(), count: count.done(), msgOf };
}

/**
 * True when every message is the only one of its pair, carries exactly M[src][dst] (src != dst) or
 * all of M[r][r] (a copy), and every non-zero entry has its message: then every message starts at
 * element 0 and no self elements are left over. A bit per pair (P^2 / 8 bytes, cache-resident)
 * replaces the P x P cursor of the general case.
 */
function distinctExactPairs(m: CommMatrix, g: Grouping): boolean {
  const { p, data } = m;
  const seen = new Uint32Array(Math.ceil((p * p) / 32));
  const { src, dst, count } = g;
  let covered = 0;
  for (let k = 0; k < g.n; k++) {
    const key = src[k]! * p + dst[k]!;
    const w = key >>> 5,
      bit = 1 << (key & 31);
    if ((seen[w]! & bit) !== 0) return false;
    seen[w] = seen[w]! | bit;
    if (count[k] !== data[key]) return false;
    if (count[k]! > 0) covered++;
  }
  let nonZero = 0;
  for (let x = 0; x < data.length; x++) if (data[x]! > 0) nonZero++;
  return covered === nonZero;
}

/**
 * The messages of a message-level plan read as direct: every transfer u -> v carries the next
 * elements of M[u][v] (consecutive ranges in transfer order); self elements no transfer carries are
 * copied in round 0. Throws when the transfers of some pair do not add up to M[u][v] (a relay plan).
 */
export function directMessages(m: CommMatrix, s: Schedule, g: Grouping): Messages {
  const { p } = m;
  if (distinctExactPairs(m, g))
    return {
      n: g.n,
      round: g.round,
      src: g.src,
      dst: g.dst,
      count: g.count,
      x0: new Float64Array(g.n),
      send: null,
      recv: null,
    };
  const cursor = new Float64Array(p * p);
  const x0 = new Float64Array(g.n + p);
  for (let k = 0; k < g.n; k++) {
    const key = g.src[k]! * p + g.dst[k]!;
    x0[k] = cursor[key]!;
    cursor[key] = cursor[key]! + g.count[k]!;
  }
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < p; j++) {
      const want = m.data[i * p + j]!,
        got = cursor[i * p + j]!;
      if (i === j ? got > want : got !== want)
        throw fail(
          "lower",
          "UNSUPPORTED",
          `${s.algorithm} relays elements: plan with --payload (its transfers ${i} -> ${j} carry ${got} elements, M[${i}][${j}] = ${want})`,
        );
    }
  }
  let extra = 0;
  for (let r = 0; r < p; r++) if (m.data[r * p + r]! > cursor[r * p + r]!) extra++;
  if (extra === 0)
    return {
      n: g.n,
      round: g.round,
      src: g.src,
      dst: g.dst,
      count: g.count,
      x0: x0.subarray(0, g.n),
      send: null,
      recv: null,
    };
  const n = g.n + extra;
  const round = new Uint32Array(n),
    src = new Uint32Array(n),
    dst = new Uint32Array(n),
    count = new Float64Array(n);
  round.set(g.round);
  src.set(g.src);
  dst.set(g.dst);
  count.set(g.count);
  let k = g.n;
  for (let r = 0; r < p; r++) {
    const left = m.data[r * p + r]! - cursor[r * p + r]!;
    if (left <= 0) continue;
    x0[k] = cursor[r * p + r]!;
    src[k] = dst[k] = r;
    count[k++] = left;
  }
  return { n, round, src, dst, count, x0: x0.subarray(0, n), send: null, recv: null };
}

/** The piece of one side of direct message k: [buffer code, offset] (send side in the send buffer, receive side in the receive buffer). */
export function directPiece(msgs: Messages, layout: BufferLayout, p: number, k: number, recvSide: boolean): number {
  const a = msgs.src[k]!,
    b = msgs.dst[k]!;
  return recvSide ? layout.recvDispls[b * p + a]! + msgs.x0![k]! : layout.sendDispls[a * p + b]! + msgs.x0![k]!;
}
