/** Delivery: exactly-once delivery and causality of every element of a payload plan (DESIGN.md, "Element semantics"). */
import type { CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import { check, type Check } from "./report.js";

const SOURCE = "DESIGN.md, element semantics";

/**
 * Follows every element (o, d, x) through the schedule. The chunks of each message (o, d) are
 * grouped by a stable two-pass radix sort (so they stay in step order), the message is cut into
 * elementary intervals at every chunk boundary, and each interval's holder is tracked: a chunk
 * sent in step s by node u must cover intervals that u holds since before step s; at the end
 * every interval must be at d. Cost: O(chunks log chunks + covered intervals + P^2).
 */
export function checkDelivery(m: CommMatrix, s: Schedule): { delivery: Check; causality: Check } {
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
  let badDelivery = 0, badCausality = 0;
  const seenPair = new Uint8Array(p * p);
  let bounds = new Float64Array(64);
  let holder = new Uint32Array(64);
  let ready = new Uint32Array(64);
  const el = (o: number, d: number, a: number, b: number): string => (b - a === 1 ? `element ${a} of message ${o} -> ${d}` : `elements ${a}..${b - 1} of message ${o} -> ${d}`);

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
    // cells are [bs[i], bs[i+1]) for i < u - 1 and bs[u-1] == total
    const cells = u - 1;
    holder.fill(o, 0, cells);
    ready.fill(0, 0, cells);
    for (let k = g; k < e; k++) {
      const ch = order[k]!;
      const a = c.offset[ch]!, b = a + c.count[ch]!;
      const step = chunkStep[ch]!, from = chunkSrc[ch]!, to = chunkDst[ch]!;
      let lo = lowerBound(bs, u, a);
      const hi = lowerBound(bs, u, b);
      for (; lo < hi; lo++) {
        if (holder[lo] !== from) {
          badCausality++;
          causalityWitness ??= `step ${step}: node ${from} sends ${el(o, d, bs[lo]!, bs[lo + 1]!)} but node ${holder[lo]} holds ${ready[lo]! > step ? "them from the end of this step (sent twice in one step)" : "them"}`;
        } else if (ready[lo]! > step) {
          badCausality++;
          causalityWitness ??= `step ${step}: node ${from} forwards ${el(o, d, bs[lo]!, bs[lo + 1]!)} before they arrive (they arrive in step ${ready[lo]! - 1})`;
        }
        holder[lo] = to;
        ready[lo] = step + 1;
      }
    }
    for (let i = 0; i < cells; i++) {
      if (holder[i] !== d) {
        badDelivery++;
        deliveryWitness ??= `${el(o, d, bs[i]!, bs[i + 1]!)} end at node ${holder[i]}, not ${d}`;
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
  const count = new Uint32Array(p + 1);
  for (let i = 0; i < n; i++) count[key[i]! + 1]!++;
  for (let k = 0; k < p; k++) count[k + 1] = count[k + 1]! + count[k]!;
  const out = new Uint32Array(n);
  for (let t = 0; t < n; t++) {
    const i = input ? input[t]! : t;
    out[count[key[i]!]!++] = i;
  }
  return out;
}
