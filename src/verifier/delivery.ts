/** Delivery: exactly-once delivery and causality of every element of a payload plan (DESIGN.md, "Element semantics"). */
import { bucketItems, bucketStarts } from "../model/buckets.js";
import type { CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import { PredecessorSet } from "./predecessor-set.js";
import { check, type Check } from "./report.js";

const SOURCE = "DESIGN.md, element semantics";

/** What checkDelivery returns: the two checks and the work it did. */
export interface DeliveryResult {
  readonly delivery: Check;
  readonly causality: Check;
  /** Runs of elements visited while moving chunks (bounded by 1 + 3 x chunks per message: the proof that the check is linear up to the sort). */
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
 * chunk. At the end every run must be at d. Cost: O(C log C + P^2) (the log from sorting each
 * message's chunk boundaries).
 */
export function checkDelivery(m: CommMatrix, s: Schedule): DeliveryResult {
  const c = s.chunks;
  if (!c) throw new Error("checkDelivery needs a payload plan");
  const { p } = s;
  const n = c.origin.length;
  // step and src/dst of each chunk
  const chunkStep = new Uint32Array(n);
  const chunkSrc = new Uint32Array(n);
  const chunkDst = new Uint32Array(n);
  for (let st = 0; st < s.stepCount; st++) {
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      const a = c.start[x]!, b = c.start[x + 1]!;
      chunkStep.fill(st, a, b);
      chunkSrc.fill(s.src[x]!, a, b);
      chunkDst.fill(s.dst[x]!, a, b);
    }
  }
  // LSD radix sort: by origin, then stably by dest -> sorted by (dest, origin); both passes are
  // stable, so the chunks of one message keep their index order, which is step order.
  const order = radixByKey(c.dest, radixByKey(c.origin, null, p, n), p, n);
  let deliveryWitness: string | null = null;
  let causalityWitness: string | null = null;
  let badDelivery = 0, badCausality = 0, runVisits = 0;
  const seenPair = new Uint8Array(p * p);
  let bounds = new Float64Array(64);
  // per run start (a cell index): its holder, the step from which the holder may send it, the first cell after it
  let holder = new Uint32Array(64);
  let ready = new Uint32Array(64);
  let runEnd = new Uint32Array(64);
  const starts = new PredecessorSet();
  const el = (o: number, d: number, a: number, b: number): string => (b - a === 1 ? `element ${a} of message ${o} -> ${d}` : `elements ${a}..${b - 1} of message ${o} -> ${d}`);
  /** Makes cell x the start of a run (splitting the run that contains it). */
  const split = (x: number): void => {
    const r = starts.prev(x);
    if (r === x) return;
    starts.add(x);
    holder[x] = holder[r]!;
    ready[x] = ready[r]!;
    runEnd[x] = runEnd[r]!;
    runEnd[r] = x;
  };

  let g = 0;
  while (g < n) {
    const first = order[g]!;
    const o = c.origin[first]!, d = c.dest[first]!;
    let e = g + 1;
    while (e < n && c.origin[order[e]!] === o && c.dest[order[e]!] === d) e++;
    const total = m.data[o * p + d]!;
    seenPair[o * p + d] = 1;
    // boundaries
    const need = 2 * (e - g) + 2;
    if (bounds.length < need) {
      bounds = new Float64Array(need * 2);
      holder = new Uint32Array(need * 2);
      ready = new Uint32Array(need * 2);
      runEnd = new Uint32Array(need * 2);
    }
    let nb = 0;
    bounds[nb++] = 0;
    bounds[nb++] = total;
    let stranger = false;
    for (let k = g; k < e; k++) {
      const ch = order[k]!;
      const a = c.offset[ch]!, b = a + c.count[ch]!;
      if (b > total) {
        stranger = true;
        badDelivery++;
        deliveryWitness ??= `step ${chunkStep[ch]}: ${el(o, d, Math.max(a, total), b)} do not exist (the message has ${total} elements)`;
      }
      bounds[nb++] = a;
      bounds[nb++] = b;
    }
    if (stranger) {
      g = e;
      continue;
    }
    const bs = bounds.subarray(0, nb).sort();
    let u = 0;
    for (let k = 0; k < nb; k++) if (k === 0 || bs[k] !== bs[u - 1]) bs[u++] = bs[k]!;
    // cells are [bs[i], bs[i+1]) for i < u - 1 and bs[u-1] == total; one run holds them all at o
    const cells = u - 1;
    starts.reset(cells);
    starts.add(0);
    holder[0] = o;
    ready[0] = 0;
    runEnd[0] = cells;
    for (let k = g; k < e; k++) {
      const ch = order[k]!;
      const a = c.offset[ch]!, b = a + c.count[ch]!;
      const step = chunkStep[ch]!, from = chunkSrc[ch]!, to = chunkDst[ch]!;
      const lo = lowerBound(bs, u, a), hi = lowerBound(bs, u, b);
      split(lo);
      if (hi < cells) split(hi);
      for (let r = lo; r < hi; ) {
        runVisits++;
        const next = runEnd[r]!;
        if (holder[r] !== from) {
          badCausality += next - r;
          causalityWitness ??= `step ${step}: node ${from} sends ${el(o, d, bs[r]!, bs[next]!)} but node ${holder[r]} holds ${ready[r]! > step ? "them from the end of this step (sent twice in one step)" : "them"}`;
        } else if (ready[r]! > step) {
          badCausality += next - r;
          causalityWitness ??= `step ${step}: node ${from} forwards ${el(o, d, bs[r]!, bs[next]!)} before they arrive (they arrive in step ${ready[r]! - 1})`;
        }
        if (r !== lo) starts.remove(r);
        r = next;
      }
      holder[lo] = to;
      ready[lo] = step + 1;
      runEnd[lo] = hi;
    }
    for (let r = 0; r < cells; r = runEnd[r]!) {
      if (holder[r] !== d) {
        badDelivery += runEnd[r]! - r;
        deliveryWitness ??= `${el(o, d, bs[r]!, bs[runEnd[r]!]!)} end at node ${holder[r]}, not ${d}`;
      }
    }
    g = e;
  }
  // messages with no chunk at all
  for (let o = 0; o < p; o++) {
    for (let d = 0; d < p; d++) {
      const total = m.data[o * p + d]!;
      if (total > 0 && o !== d && !seenPair[o * p + d]) {
        badDelivery++;
        deliveryWitness ??= `${el(o, d, 0, total)} are never sent`;
      }
    }
  }
  return {
    delivery: check("delivery", "every element reaches its destination exactly once (none missing, none twice, no stranger)", SOURCE, badDelivery === 0, badDelivery, 0, deliveryWitness),
    causality: check("causality", "a node sends only elements it holds since before the step", SOURCE, badCausality === 0, badCausality, 0, causalityWitness),
    runVisits,
  };
}

/** First index i in [0, n) with a[i] >= v (a sorted ascending). */
function lowerBound(a: Float64Array, n: number, v: number): number {
  let lo = 0, hi = n;
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
