/**
 * DueHeap: the flows in progress keyed by their completion time, one entry per flow moved in place when its time
 * changes (no stale entries), ordered as EventHeap orders events: the time rounded to ticks, then the smaller id.
 */
import { timeKey } from "../sim/heap.js";

/**
 * A 4-ary min-heap of flow ids 0 .. n-1 with a position index, in typed arrays (half the levels of a binary heap; a
 * flow's children are contiguous). (key, id) is a total order, so the top is the same whatever the heap's shape. Each
 * place holds its flow's key and time, so that a sift reads the heap's own few cache lines, not the flows' tables.
 */
export class DueHeap {
  private readonly heap: Int32Array;
  /** The key and time (us) of the flow at each place. */
  private readonly key: Float64Array;
  private readonly time: Float64Array;
  /** Flow f's place in the heap, -1 when absent. */
  private readonly pos: Int32Array;
  /** Flows in the heap. */
  size = 0;

  constructor(n: number) {
    this.heap = new Int32Array(n);
    this.key = new Float64Array(n);
    this.time = new Float64Array(n);
    this.pos = new Int32Array(n).fill(-1);
  }

  /** Flow f completes at t (us): it joins the heap or moves to its new place. */
  set(f: number, t: number): void {
    const k = timeKey(t);
    let i = this.pos[f]!;
    const up = i < 0 || k < this.key[i]!;
    if (i < 0) i = this.size++;
    if (up) this.siftUp(i, f, k, t);
    else this.siftDown(i, f, k, t);
  }

  /** Flow f leaves the heap (nothing when absent). */
  delete(f: number): void {
    const i = this.pos[f]!;
    if (i < 0) return;
    this.pos[f] = -1;
    const n = --this.size;
    if (i === n) return;
    const g = this.heap[n]!,
      k = this.key[n]!,
      t = this.time[n]!;
    if (i > 0) {
      const p = (i - 1) >> 2,
        h = this.heap[p]!,
        kh = this.key[p]!;
      if (k < kh || (k === kh && g < h)) {
        this.siftUp(i, g, k, t);
        return;
      }
    }
    this.siftDown(i, g, k, t);
  }

  /** The flow completing first (the heap must not be empty). */
  topFlow(): number {
    return this.heap[0]!;
  }

  /** When the first flow completes (us), Infinity when none is in progress. */
  topTime(): number {
    return this.size > 0 ? this.time[0]! : Infinity;
  }

  /** Places flow f (key k, time t) at place i or above it. */
  private siftUp(i: number, f: number, k: number, t: number): void {
    const { heap, pos, key, time } = this;
    while (i > 0) {
      const p = (i - 1) >> 2,
        g = heap[p]!,
        kg = key[p]!;
      if (kg < k || (kg === k && g < f)) break;
      heap[i] = g;
      key[i] = kg;
      time[i] = time[p]!;
      pos[g] = i;
      i = p;
    }
    heap[i] = f;
    key[i] = k;
    time[i] = t;
    pos[f] = i;
  }

  /** Places flow f (key k, time t) at place i or below it. */
  private siftDown(i: number, f: number, k: number, t: number): void {
    const { heap, pos, key, time } = this;
    const n = this.size;
    for (;;) {
      const c0 = 4 * i + 1;
      if (c0 >= n) break;
      let c = c0,
        g = heap[c0]!,
        kg = key[c0]!;
      const cEnd = c0 + 4 < n ? c0 + 4 : n;
      for (let d = c0 + 1; d < cEnd; d++) {
        const kh = key[d]!;
        if (kh < kg || (kh === kg && heap[d]! < g)) {
          c = d;
          g = heap[d]!;
          kg = kh;
        }
      }
      if (k < kg || (k === kg && f < g)) break;
      heap[i] = g;
      key[i] = kg;
      time[i] = time[c]!;
      pos[g] = i;
      i = c;
    }
    heap[i] = f;
    key[i] = k;
    time[i] = t;
    pos[f] = i;
  }
}
