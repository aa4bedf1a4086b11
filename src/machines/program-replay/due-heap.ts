/**
 * DueHeap: the flows in progress keyed by their completion time, one entry per flow moved in place when its time
 * changes (no stale entries), ordered as EventHeap orders events: the time rounded to ticks, then the smaller id.
 */
import { timeKey } from "../sim/heap.js";

/** A binary min-heap of flow ids 0 .. n-1 with a position index, in typed arrays. */
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
    const up = i < 0 || this.before(k, f, this.key[f]!, f);
    this.time[f] = t;
    this.key[f] = k;
    if (i < 0) i = this.size++;
    if (up) this.siftUp(i, f);
    else this.siftDown(i, f);
  }

  /** Flow f leaves the heap (nothing when absent). */
  delete(f: number): void {
    const i = this.pos[f]!;
    if (i < 0) return;
    this.pos[f] = -1;
    const n = --this.size;
    if (i === n) return;
    const g = this.heap[n]!;
    if (i > 0 && this.before(this.key[g]!, g, this.key[this.heap[(i - 1) >> 1]!]!, this.heap[(i - 1) >> 1]!))
      this.siftUp(i, g);
    else this.siftDown(i, g);
  }

  /** The flow completing first (the heap must not be empty). */
  topFlow(): number {
    return this.heap[0]!;
  }

  /** When the first flow completes (us), Infinity when none is in progress. */
  topTime(): number {
    return this.size > 0 ? this.time[this.heap[0]!]! : Infinity;
  }

  /** Whether (key a, flow f) goes before (key b, flow g). */
  private before(a: number, f: number, b: number, g: number): boolean {
    return a < b || (a === b && f < g);
  }

  private siftUp(i: number, f: number): void {
    const { heap, pos, key } = this;
    const k = key[f]!;
    while (i > 0) {
      const p = (i - 1) >> 1,
        g = heap[p]!;
      if (!this.before(k, f, key[g]!, g)) break;
      heap[i] = g;
      pos[g] = i;
      i = p;
    }
    heap[i] = f;
    pos[f] = i;
  }

  private siftDown(i: number, f: number): void {
    const { heap, pos, key } = this;
    const n = this.size,
      k = key[f]!;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      let g = heap[c]!;
      if (c + 1 < n) {
        const h = heap[c + 1]!;
        if (this.before(key[h]!, h, key[g]!, g)) {
          c++;
          g = h;
        }
      }
      if (!this.before(key[g]!, g, k, f)) break;
      heap[i] = g;
      pos[g] = i;
      i = c;
    }
    heap[i] = f;
    pos[f] = i;
  }
}
