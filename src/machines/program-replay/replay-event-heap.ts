/**
 * ReplayEventHeap: the program replay's timed events (a CPU job's end, a message's latency elapsed), ordered as
 * EventHeap orders events: the time rounded to ticks, then the order they were scheduled in (first in, first out).
 */
import { timeKey } from "../sim/heap.js";

/**
 * A growable 4-ary min-heap of events in typed arrays, each carrying one integer (`what`) instead of an id to look up:
 * half the levels of a binary heap, a node's children contiguous. (key, sequence number) is a total order, so events
 * leave in the same order whatever the heap's shape.
 */
export class ReplayEventHeap {
  private time: Float64Array;
  private key: Float64Array;
  private seq: Float64Array;
  private what: Int32Array;
  private pushed = 0;
  /** Events in the heap. */
  size = 0;

  constructor(capacity = 1024) {
    const n = Math.max(16, capacity);
    this.time = new Float64Array(n);
    this.key = new Float64Array(n);
    this.seq = new Float64Array(n);
    this.what = new Int32Array(n);
  }

  private grow(): void {
    const n = this.size * 2;
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

  /** Adds an event at time t (us) carrying `what`, after every event already scheduled at the same tick. */
  push(t: number, what: number): void {
    if (this.size === this.time.length) this.grow();
    const k = timeKey(t),
      q = this.pushed++;
    const { time, key, seq } = this;
    let i = this.size++;
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

  /** Time (us) of the earliest event, Infinity when none is left. */
  topTime(): number {
    return this.size > 0 ? this.time[0]! : Infinity;
  }

  /** What the earliest event carries (the heap must not be empty). */
  topWhat(): number {
    return this.what[0]!;
  }

  /** Removes the earliest event (the heap must not be empty). */
  pop(): void {
    const n = --this.size;
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
