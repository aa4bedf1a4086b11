/** EventHeap: a binary min-heap of (time, id) pairs in typed arrays, times compared on a fixed grid, ties broken by the smaller id (deterministic). */

/**
 * Grid (us) on which event times are compared: 1e-9 us. Two times that are equal mathematically
 * but differ in their last bits (sums taken in another order) round to the same grid point, so
 * the smaller id (schedule order) goes first whatever the rounding; the times themselves are kept
 * unrounded. Exact for times below about 9e6 us (2^53 grid points); beyond, keys are the nearest
 * doubles, still in time order.
 */
export const TIME_GRID_US = 1e-9;
const PER_US = 1 / TIME_GRID_US;

/** A growable binary heap of events; no objects per event. */
export class EventHeap {
  private time: Float64Array;
  private key: Float64Array;
  private id: Int32Array;
  /** Number of events in the heap. */
  size = 0;
  /** Events pushed since creation (the simulator's event count). */
  pushed = 0;

  constructor(capacity = 1024) {
    const n = Math.max(16, capacity);
    this.time = new Float64Array(n);
    this.key = new Float64Array(n);
    this.id = new Int32Array(n);
  }

  private grow(): void {
    const n = this.size * 2;
    const nt = new Float64Array(n);
    nt.set(this.time);
    this.time = nt;
    const nk = new Float64Array(n);
    nk.set(this.key);
    this.key = nk;
    const ni = new Int32Array(n);
    ni.set(this.id);
    this.id = ni;
  }

  /** Adds an event at time t (us). */
  push(t: number, id: number): void {
    if (this.size === this.time.length) this.grow();
    this.pushed++;
    let i = this.size++;
    const time = this.time,
      keys = this.key,
      ids = this.id;
    const k = Math.round(t * PER_US);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = keys[parent]!;
      if (pk < k || (pk === k && ids[parent]! <= id)) break;
      time[i] = time[parent]!;
      keys[i] = pk;
      ids[i] = ids[parent]!;
      i = parent;
    }
    time[i] = t;
    keys[i] = k;
    ids[i] = id;
  }

  /** Time of the earliest event (heap must not be empty). */
  topTime(): number {
    return this.time[0]!;
  }

  /** Id of the earliest event (heap must not be empty). */
  topId(): number {
    return this.id[0]!;
  }

  /** Removes the earliest event. */
  pop(): void {
    const n = --this.size;
    if (n === 0) return;
    const time = this.time,
      keys = this.key,
      ids = this.id;
    const t = time[n]!,
      k = keys[n]!,
      id = ids[n]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      const r = c + 1;
      if (r < n && (keys[r]! < keys[c]! || (keys[r] === keys[c] && ids[r]! < ids[c]!))) c = r;
      const ck = keys[c]!;
      if (k < ck || (k === ck && id <= ids[c]!)) break;
      time[i] = time[c]!;
      keys[i] = ck;
      ids[i] = ids[c]!;
      i = c;
    }
    time[i] = t;
    keys[i] = k;
    ids[i] = id;
  }
}
