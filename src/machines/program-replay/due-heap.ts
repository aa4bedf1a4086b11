/**
 * DueHeap: the flows in progress keyed by their completion time, one entry per flow moved in place when its time
 * changes (no stale entries), ordered as EventHeap orders events: the time rounded to ticks, then the smaller id.
 */
import { timeKey } from "../sim/heap.js";

/**
 * A 4-ary min-heap of flow ids 0 .. n-1 with a position index, in typed arrays (half the levels of a binary heap; a
 * flow's children are contiguous). (key, id) is a total order, so the top is the same whatever the heap's shape.
 */
export class DueHeap {
  private readonly heap: Int32Array;
  /** Flow f's place in the heap, -1 when absent. */
  private readonly pos: Int32Array;
  private readonly time: Float64Array;
  private readonly key: Float64Array;
  /** Flows in the heap. */
  size = 0;

  constructor(n: number) {
    this.heap = new Int32Array(n);
    this.pos = new Int32Array(n).fill(-1);
    this.time = new Float64Array(n);
    this.key = new Float64Array(n);
  }

  /** Flow f completes at t (us): it joins the heap or moves to its new place. */
  set(f: number, t: number): void {
    const k = timeKey(t);
    let i = this.pos[f]!;
    const up = i < 0 || k < this.key[f]!;
    this.time[f] = t;
    this.key[f] = k;
    if (i < 0) i = this.size++;
    if (up) this.siftUp(i, f, k);
    else this.siftDown(i, f, k);
  }

  /** Flow f leaves the heap (nothing when absent). */
  delete(f: number): void {
    const i = this.pos[f]!;
    if (i < 0) return;
    this.pos[f] = -1;
    const n = --this.size;
    if (i === n) return;
    const g = this.heap[n]!,
      k = this.key[g]!;
    if (i > 0) {
      const h = this.heap[(i - 1) >> 2]!,
        kh = this.key[h]!;
      if (k < kh || (k === kh && g < h)) {
        this.siftUp(i, g, k);
        return;
      }
    }
    this.siftDown(i, g, k);
  }

  /** The flow completing first (the heap must not be empty). */
  topFlow(): number {
    return this.heap[0]!;
  }

  /** When the first flow completes (us), Infinity when none is in progress. */
  topTime(): number {
    return this.size > 0 ? this.time[this.heap[0]!]! : Infinity;
  }

  private siftUp(i: number, f: number, k: number): void {
    const { heap, pos, key } = this;
    while (i > 0) {
      const p = (i - 1) >> 2,
        g = heap[p]!,
        kg = key[g]!;
      if (kg < k || (kg === k && g < f)) break;
      heap[i] = g;
      pos[g] = i;
      i = p;
    }
    heap[i] = f;
    pos[f] = i;
  }

  private siftDown(i: number, f: number, k: number): void {
    const { heap, pos, key } = this;
    const n = this.size;
    for (;;) {
      const c0 = 4 * i + 1;
      if (c0 >= n) break;
      let c = c0,
        g = heap[c0]!,
        kg = key[g]!;
      const cEnd = c0 + 4 < n ? c0 + 4 : n;
      for (let d = c0 + 1; d < cEnd; d++) {
        const h = heap[d]!,
          kh = key[h]!;
        if (kh < kg || (kh === kg && h < g)) {
          c = d;
          g = h;
          kg = kh;
        }
      }
      if (k < kg || (k === kg && f < g)) break;
      heap[i] = g;
      pos[g] = i;
      i = c;
    }
    heap[i] = f;
    pos[f] = i;
  }
}
