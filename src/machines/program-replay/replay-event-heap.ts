/**
 * ReplayEventHeap: the program replay's timed events (a CPU job's end, a message's latency elapsed), ordered as
 * EventHeap orders events: the time rounded to ticks, then the order they were scheduled in (first in, first out).
 */
import { timeKey } from "../sim/heap.js";

/** The sorted runs kept apart from the heap. */
const LANES = 4;

/**
 * The events in typed arrays, each carrying one integer (`what`) instead of an id to look up. The replay schedules
 * them at nondecreasing times plus a few distinct delays (a route's latency, an overhead), so most arrive in sorted
 * runs: an event goes to the FIFO lane whose last event it follows closest, and only one that follows none of
 * LANES lanes goes to a growable 4-ary min-heap. The earliest event is the least of the lanes' heads and the heap's
 * top. (key, sequence number) is a total order, so events leave in the same order whatever the lanes and the heap.
 */
export class ReplayEventHeap {
  private time: Float64Array;
  private key: Float64Array;
  private seq: Float64Array;
  private what: Int32Array;
  /** Events in the heap. */
  private hSize = 0;
  /** The lanes: lane i is the ring [i * cap, (i + 1) * cap) of the l* arrays, from lHead[i], lLen[i] events. */
  private cap = 16;
  private lTime: Float64Array;
  private lKey: Float64Array;
  private lSeq: Float64Array;
  private lWhat: Int32Array;
  private readonly lHead = new Int32Array(LANES);
  private readonly lLen = new Int32Array(LANES);
  /** Where the earliest event is: a lane, or -1 for the heap; recomputed when `stale`. */
  private first = -1;
  private stale = true;
  private pushed = 0;
  /** Events scheduled and not yet removed. */
  size = 0;

  constructor(capacity = 1024) {
    const n = Math.max(16, capacity);
    this.time = new Float64Array(n);
    this.key = new Float64Array(n);
    this.seq = new Float64Array(n);
    this.what = new Int32Array(n);
    this.lTime = new Float64Array(LANES * this.cap);
    this.lKey = new Float64Array(LANES * this.cap);
    this.lSeq = new Float64Array(LANES * this.cap);
    this.lWhat = new Int32Array(LANES * this.cap);
  }

  /** Adds an event at time t (us) carrying `what`, after every event already scheduled at the same tick. */
  push(t: number, what: number): void {
    const k = timeKey(t),
      q = this.pushed++;
    // the new event is the earliest when alone or before the earliest (a tie goes to the older event)
    const earliest = this.size === 0 || (!this.stale && k < this.firstKey());
    this.size++;
    // the lane whose last event is the latest at or before k, else an empty one, else the heap
    const { lHead, lLen, lKey } = this;
    const cap = this.cap;
    let lane = -1,
      laneKey = -Infinity,
      empty = -1;
    for (let i = 0; i < LANES; i++) {
      const len = lLen[i]!;
      if (len === 0) {
        if (empty < 0) empty = i;
        continue;
      }
      const tail = lKey[i * cap + ((lHead[i]! + len - 1) & (cap - 1))]!;
      if (tail <= k && tail > laneKey) {
        lane = i;
        laneKey = tail;
      }
    }
    if (lane < 0) lane = empty;
    if (lane < 0) this.heapPush(t, k, q, what);
    else {
      if (lLen[lane] === cap) this.growLanes();
      const c = this.cap,
        j = lane * c + ((lHead[lane]! + lLen[lane]!++) & (c - 1));
      this.lTime[j] = t;
      this.lKey[j] = k;
      this.lSeq[j] = q;
      this.lWhat[j] = what;
    }
    if (earliest) {
      this.first = lane;
      this.stale = false;
    }
  }

  /** Time (us) of the earliest event, Infinity when none is left. */
  topTime(): number {
    if (this.size === 0) return Infinity;
    const i = this.firstSource();
    return i < 0 ? this.time[0]! : this.lTime[i * this.cap + this.lHead[i]!]!;
  }

  /** What the earliest event carries (the heap must not be empty). */
  topWhat(): number {
    const i = this.firstSource();
    return i < 0 ? this.what[0]! : this.lWhat[i * this.cap + this.lHead[i]!]!;
  }

  /** Removes the earliest event (the heap must not be empty). */
  pop(): void {
    const i = this.firstSource();
    this.size--;
    this.stale = true;
    if (i < 0) this.heapPop();
    else {
      this.lHead[i] = (this.lHead[i]! + 1) & (this.cap - 1);
      this.lLen[i]!--;
    }
  }

  /** The key of the earliest event (not stale, not empty). */
  private firstKey(): number {
    const i = this.first;
    return i < 0 ? this.key[0]! : this.lKey[i * this.cap + this.lHead[i]!]!;
  }

  /** Where the earliest event is (a lane, -1: the heap), the least (key, sequence number) of the heads. */
  private firstSource(): number {
    if (!this.stale) return this.first;
    const { lHead, lLen, lKey, lSeq } = this;
    const cap = this.cap;
    let best = -1,
      bk = Infinity,
      bq = Infinity;
    if (this.hSize > 0) {
      bk = this.key[0]!;
      bq = this.seq[0]!;
    }
    for (let i = 0; i < LANES; i++) {
      if (lLen[i] === 0) continue;
      const j = i * cap + lHead[i]!,
        k = lKey[j]!;
      if (k < bk || (k === bk && lSeq[j]! < bq)) {
        best = i;
        bk = k;
        bq = lSeq[j]!;
      }
    }
    this.first = best;
    this.stale = false;
    return best;
  }

  /** Doubles the lanes' capacity, each lane's events moved to the start of its new ring in order. */
  private growLanes(): void {
    const cap = this.cap,
      c2 = 2 * cap;
    const t = new Float64Array(LANES * c2),
      k = new Float64Array(LANES * c2),
      s = new Float64Array(LANES * c2),
      w = new Int32Array(LANES * c2);
    for (let i = 0; i < LANES; i++) {
      for (let x = 0; x < this.lLen[i]!; x++) {
        const from = i * cap + ((this.lHead[i]! + x) & (cap - 1)),
          to = i * c2 + x;
        t[to] = this.lTime[from]!;
        k[to] = this.lKey[from]!;
        s[to] = this.lSeq[from]!;
        w[to] = this.lWhat[from]!;
      }
      this.lHead[i] = 0;
    }
    this.lTime = t;
    this.lKey = k;
    this.lSeq = s;
    this.lWhat = w;
    this.cap = c2;
  }

  private growHeap(): void {
    const n = this.hSize * 2;
    const t = new Float64Array(n),
      k = new Float64Array(n),
      s = new Float64Array(n),
      w = new Int32Array(n);
    t.set(this.time);
    k.set(this.key);
    s.set(this.seq);
    w.set(this.what);
    this.time = t;
    this.key = k;
    this.seq = s;
    this.what = w;
  }

  /** The heap gets event (t, key k, sequence number q). */
  private heapPush(t: number, k: number, q: number, what: number): void {
    if (this.hSize === this.time.length) this.growHeap();
    const { time, key, seq } = this;
    let i = this.hSize++;
    while (i > 0) {
      const p = (i - 1) >> 2,
        kp = key[p]!;
      if (kp < k || (kp === k && seq[p]! < q)) break;
      time[i] = time[p]!;
      key[i] = kp;
      seq[i] = seq[p]!;
      this.what[i] = this.what[p]!;
      i = p;
    }
    time[i] = t;
    key[i] = k;
    seq[i] = q;
    this.what[i] = what;
  }

  /** Removes the heap's top. */
  private heapPop(): void {
    const n = --this.hSize;
    if (n === 0) return;
    const { time, key, seq, what } = this;
    const t = time[n]!,
      k = key[n]!,
      q = seq[n]!,
      w = what[n]!;
    let i = 0;
    for (;;) {
      const c0 = 4 * i + 1;
      if (c0 >= n) break;
      let c = c0,
        kc = key[c0]!,
        qc = seq[c0]!;
      const cEnd = c0 + 4 < n ? c0 + 4 : n;
      for (let d = c0 + 1; d < cEnd; d++) {
        const kd = key[d]!;
        if (kd < kc || (kd === kc && seq[d]! < qc)) {
          c = d;
          kc = kd;
          qc = seq[d]!;
        }
      }
      if (k < kc || (k === kc && q < qc)) break;
      time[i] = time[c]!;
      key[i] = kc;
      seq[i] = qc;
      what[i] = what[c]!;
      i = c;
    }
    time[i] = t;
    key[i] = k;
    seq[i] = q;
    what[i] = w;
  }
}
