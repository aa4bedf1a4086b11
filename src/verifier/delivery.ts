/**
 * Delivery: every element ends at its destination, delivered once; causality; departures from a destination
 * (pass-through) of every element of a payload plan (docs/verifier.md, delivery).
 */
import { bucketItems, bucketStarts } from "../internal/buckets.js";
import { entry, type CommMatrix } from "../model/matrix.js";
import { networkMessages } from "./network-messages.js";
import type { ChunkTable, Schedule } from "../model/schedule.js";
import { PredecessorSet } from "./predecessor-set.js";
import { check, type Check } from "./report.js";
import { progressTicker, type ProgressCallback } from "../model/progress.js";

const SOURCE = "docs/verifier.md, delivery and causality";

/** What checkDelivery returns: the two checks and the work it did. */
export interface DeliveryResult {
  readonly delivery: Check;
  readonly causality: Check;
  /** A measure, always holding: element departures from their own destination (correct, but extra traffic). */
  readonly passThrough: Check;
  /**
   * Timed payload schedules (a realised trace) only, else null: no transfer starts before the elements it forwards have
   * arrived at its source (the end of the transfer that brought them).
   */
  readonly timedCausality: Check | null;
  /**
   * Runs of elements visited while moving chunks (bounded by 1 + 3 x chunks per message: the proof that the check is
   * linear up to the sort).
   */
  readonly runVisits: number;
}

/**
 * Follows every element (o, d, x) through the schedule. The chunks of each message (o, d) are
 * grouped by a stable two-pass radix sort (so they stay in step order) and the message is cut
 * into elementary intervals at every chunk boundary. The intervals are kept as runs: maximal
 * stretches moved together, each with one holder and the step from which that holder may send
 * it (an ordered set of run starts answers "which run holds element x"). A chunk sent in step s
 * by node u must cover runs that u holds since before step s; it splits at most the two runs at
 * its ends and merges every run it covers into one, so each chunk creates at most 3 runs and
 * visits the runs it removes: O(1) amortised run visits and O(log_32 C) set operations per
 * chunk. At the end every run must be at d. With realised times each run also keeps when it arrived
 * (the end of the transfer that brought it), and a chunk's transfer must not start before that. Cost:
 * O(C log C + P^2) time (the log from sorting each message's chunk boundaries, the P^2 a pass over the matrix),
 * O(C + P) memory.
 * `progress`: chunks followed (message by message).
 */
export function checkDelivery(m: CommMatrix, s: Schedule, progress: ProgressCallback | null = null): DeliveryResult {
  const c = s.chunks;
  if (!c) throw new Error("checkDelivery needs a payload plan");
  const { p } = s;
  const n = c.origin.length;
  const chunks = chunkColumns(s, c);
  // LSD radix sort: by origin, then stably by dest -> sorted by (dest, origin); both passes are
  // stable, so the chunks of one message keep their index order, which is step order.
  const order = radixByKey(c.dest, radixByKey(c.origin, null, p, n), p, n);
  const t = new Tally();
  const runs = new Runs();
  const tick = progressTicker(progress, n);
  let mark = tick(0);
  for (let g = 0; g < n;) {
    if (g >= mark) mark = tick(g);
    const o = c.origin[order[g]!]!,
      d = c.dest[order[g]!]!;
    let e = g + 1;
    while (e < n && c.origin[order[e]!] === o && c.dest[order[e]!] === d) e++;
    const msg: Message = { o, d, total: entry(m, o, d), first: g, end: e };
    if (cutCells(msg, c, order, chunks, runs, t)) {
      moveChunks(msg, c, order, chunks, runs, t);
      endsAtDestination(msg, runs, t);
    }
    g = e;
  }
  neverSent(m, c, t);
  tick(Infinity);
  return {
    delivery: check(
      "delivery",
      "every element ends at its destination, delivered once (none missing, none twice, no stranger)",
      SOURCE,
      t.badDelivery === 0,
      t.badDelivery,
      0,
      t.deliveryWitness,
    ),
    causality: check(
      "causality",
      "a node sends only elements it holds since before the step",
      SOURCE,
      t.badCausality === 0,
      t.badCausality,
      0,
      t.causalityWitness,
    ),
    passThrough: check(
      "pass-through",
      "elements that reach their destination and leave it again (departures counted; correct, but extra traffic)",
      SOURCE,
      true,
      t.passThrough,
    ),
    timedCausality:
      s.times === null
        ? null
        : check(
            "timed-causality",
            "a relay forwards elements only after they have arrived (realised times)",
            SOURCE,
            t.badTimed === 0,
            t.badTimed,
            0,
            t.timedWitness,
          ),
    runVisits: t.runVisits,
  };
}

/** Step, sender and receiver of each chunk (its transfer's); with realised times, its transfer's start and end. */
interface ChunkColumns {
  readonly step: Uint32Array;
  readonly from: Uint32Array;
  readonly to: Uint32Array;
  readonly transfer: Uint32Array | null;
  readonly start: Float64Array | null;
  readonly end: Float64Array | null;
}

/** One message's chunks: order[first..end) are the chunks of o -> d, in step order. */
interface Message {
  readonly o: number;
  readonly d: number;
  readonly total: number;
  readonly first: number;
  readonly end: number;
}

/** Failure counts, first witnesses and work done, over all messages. */
class Tally {
  badDelivery = 0;
  badCausality = 0;
  badTimed = 0;
  runVisits = 0;
  passThrough = 0;
  deliveryWitness: string | null = null;
  causalityWitness: string | null = null;
  timedWitness: string | null = null;
}

/**
 * The runs of the message being followed: cell boundaries, and per run start (a cell index) its
 * holder, the step from which the holder may send it, when it arrived there (realised times; -Infinity at its
 * origin) and the first cell after it. Reused (grown)
 * from message to message.
 */
class Runs {
  bounds = new Float64Array(64);
  /** Distinct boundaries in bounds[0..u): cells are [bounds[i], bounds[i + 1]) for i < cells. */
  u = 0;
  cells = 0;
  holder = new Uint32Array(64);
  ready = new Uint32Array(64);
  arrived = new Float64Array(64);
  runEnd = new Uint32Array(64);
  readonly starts = new PredecessorSet();

  /** Makes room for `need` boundaries. */
  ensure(need: number): void {
    if (this.bounds.length >= need) return;
    this.bounds = new Float64Array(need * 2);
    this.holder = new Uint32Array(need * 2);
    this.ready = new Uint32Array(need * 2);
    this.arrived = new Float64Array(need * 2);
    this.runEnd = new Uint32Array(need * 2);
  }

  /** Makes cell x the start of a run (splitting the run that contains it). */
  split(x: number): void {
    const r = this.starts.prev(x);
    if (r === x) return;
    this.starts.add(x);
    this.holder[x] = this.holder[r]!;
    this.ready[x] = this.ready[r]!;
    this.arrived[x] = this.arrived[r]!;
    this.runEnd[x] = this.runEnd[r]!;
    this.runEnd[r] = x;
  }
}

/** Names elements a..b-1 of a message in a witness. */
const el = (o: number, d: number, a: number, b: number): string =>
  b - a === 1 ? `element ${a} of message ${o} -> ${d}` : `elements ${a}..${b - 1} of message ${o} -> ${d}`;

/** The verb after `el(o, d, a, b)`: singular for one element. */
const verb = (a: number, b: number, one: string, many: string): string => (b - a === 1 ? one : many);

/** Step, sender and receiver of every chunk, from its transfer (and the transfer itself when the schedule is timed). */
function chunkColumns(s: Schedule, c: ChunkTable): ChunkColumns {
  const n = c.origin.length;
  const step = new Uint32Array(n),
    from = new Uint32Array(n),
    to = new Uint32Array(n);
  const transfer = s.times === null ? null : new Uint32Array(n);
  for (let st = 0; st < s.stepCount; st++) {
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      const a = c.start[x]!,
        b = c.start[x + 1]!;
      step.fill(st, a, b);
      from.fill(s.src[x]!, a, b);
      to.fill(s.dst[x]!, a, b);
      transfer?.fill(x, a, b);
    }
  }
  return { step, from, to, transfer, start: s.times?.start ?? null, end: s.times?.end ?? null };
}

/**
 * Cuts the message into cells at every chunk boundary (plus 0 and its length) and starts one run
 * holding them all at the origin. A chunk past the message's end (a stranger) fails delivery and
 * the message is not followed further: returns false.
 */
function cutCells(
  msg: Message,
  c: ChunkTable,
  order: Uint32Array,
  chunks: ChunkColumns,
  runs: Runs,
  t: Tally,
): boolean {
  const { o, d, total } = msg;
  runs.ensure(2 * (msg.end - msg.first) + 2);
  const bounds = runs.bounds;
  let nb = 0;
  bounds[nb++] = 0;
  bounds[nb++] = total;
  let stranger = false;
  for (let k = msg.first; k < msg.end; k++) {
    const ch = order[k]!;
    const a = c.offset[ch]!,
      b = a + c.count[ch]!;
    if (b > total) {
      stranger = true;
      t.badDelivery++;
      const from = Math.max(a, total);
      t.deliveryWitness ??= `step ${chunks.step[ch]}: ${el(o, d, from, b)} ${verb(from, b, "does", "do")} not exist (the message has ${total} element${total === 1 ? "" : "s"})`;
    }
    bounds[nb++] = a;
    bounds[nb++] = b;
  }
  if (stranger) return false;
  const bs = bounds.subarray(0, nb).sort();
  let u = 0;
  for (let k = 0; k < nb; k++) if (k === 0 || bs[k] !== bs[u - 1]) bs[u++] = bs[k]!;
  // cells are [bs[i], bs[i+1]) for i < u - 1 and bs[u-1] == total; one run holds them all at o
  runs.u = u;
  runs.cells = u - 1;
  runs.starts.reset(runs.cells);
  runs.starts.add(0);
  runs.holder[0] = o;
  runs.ready[0] = 0;
  runs.arrived[0] = -Infinity;
  runs.runEnd[0] = runs.cells;
  return true;
}

/**
 * Moves the message's chunks in step order: each must cover runs its sender holds since before its step (and, with
 * realised times, since before its transfer starts); the covered runs merge into one at the receiver.
 */
function moveChunks(msg: Message, c: ChunkTable, order: Uint32Array, chunks: ChunkColumns, runs: Runs, t: Tally): void {
  const { o, d } = msg;
  const bs = runs.bounds,
    { holder, ready, arrived, runEnd, starts } = runs;
  for (let k = msg.first; k < msg.end; k++) {
    const ch = order[k]!;
    const a = c.offset[ch]!,
      b = a + c.count[ch]!;
    const step = chunks.step[ch]!,
      from = chunks.from[ch]!,
      to = chunks.to[ch]!;
    const x = chunks.transfer?.[ch] ?? 0,
      begins = chunks.start?.[x] ?? 0;
    const lo = lowerBound(bs, runs.u, a),
      hi = lowerBound(bs, runs.u, b);
    runs.split(lo);
    if (hi < runs.cells) runs.split(hi);
    for (let r = lo; r < hi;) {
      t.runVisits++;
      const next = runEnd[r]!;
      if (from === d && holder[r] === d) t.passThrough += bs[next]! - bs[r]!;
      if (holder[r] !== from) {
        t.badCausality += next - r;
        t.causalityWitness ??= `step ${step}: node ${from} sends ${el(o, d, bs[r]!, bs[next]!)} but node ${holder[r]} holds ${verb(bs[r]!, bs[next]!, "it", "them")}${ready[r]! > step ? " from the end of this step (sent twice in one step)" : ""}`;
      } else if (ready[r]! > step) {
        t.badCausality += next - r;
        t.causalityWitness ??= `step ${step}: node ${from} forwards ${el(o, d, bs[r]!, bs[next]!)} before ${verb(bs[r]!, bs[next]!, "it arrives (it arrives", "they arrive (they arrive")} in step ${ready[r]! - 1})`;
      } else if (begins < arrived[r]!) {
        t.badTimed += next - r;
        t.timedWitness ??= `transfer ${x} (${from} -> ${to}, step ${step}) starts at ${begins} us forwarding elements of message ${o} -> ${d} (${bs[r]!}..${bs[next]! - 1}) that arrive at node ${from} only at ${arrived[r]} us`;
      }
      if (r !== lo) starts.remove(r);
      r = next;
    }
    holder[lo] = to;
    ready[lo] = step + 1;
    arrived[lo] = chunks.end?.[x] ?? 0;
    runEnd[lo] = hi;
  }
}

/** Every run of the message must end at its destination. */
function endsAtDestination(msg: Message, runs: Runs, t: Tally): void {
  const { o, d } = msg;
  const { bounds: bs, holder, runEnd } = runs;
  for (let r = 0; r < runs.cells; r = runEnd[r]!) {
    if (holder[r] !== d) {
      t.badDelivery += runEnd[r]! - r;
      t.deliveryWitness ??= `${el(o, d, bs[r]!, bs[runEnd[r]!]!)} ${verb(bs[r]!, bs[runEnd[r]!]!, "ends", "end")} at node ${holder[r]}, not ${d}`;
    }
  }
}

/**
 * Messages off the diagonal with no chunk at all fail delivery. With the chunks sorted by
 * (origin, dest), one row-major walk over the matrix meets the sent messages in order: no P x P
 * table.
 */
function neverSent(m: CommMatrix, c: ChunkTable, t: Tally): void {
  const { p } = m;
  const n = c.origin.length;
  const order = radixByKey(c.origin, radixByKey(c.dest, null, p, n), p, n);
  let g = 0;
  // the network messages in row-major order (a scan of a dense matrix, the rows of a sparse one)
  const msgs = networkMessages(m);
  for (let x = 0; x < msgs.size.length; x++) {
    const o = msgs.src[x]!,
      d = msgs.dst[x]!,
      total = msgs.size[x]!;
    while (g < n && (c.origin[order[g]!]! < o || (c.origin[order[g]!] === o && c.dest[order[g]!]! < d))) g++;
    if (g < n && c.origin[order[g]!] === o && c.dest[order[g]!] === d) continue;
    t.badDelivery++;
    t.deliveryWitness ??= `${el(o, d, 0, total)} ${verb(0, total, "is", "are")} never sent`;
  }
}

/** First index i in [0, n) with a[i] >= v (a sorted ascending). */
function lowerBound(a: Float64Array, n: number, v: number): number {
  let lo = 0,
    hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Stable counting sort of indices (given order, or 0..n-1) by key[i] in [0, p). */
function radixByKey(key: Uint32Array, input: Uint32Array | null, p: number, n: number): Uint32Array {
  const start = bucketStarts(key, p, 0, n, new Uint32Array(p + 1));
  return bucketItems(key, start, input, 0, n, new Uint32Array(n));
}
