/** EventHeap: a binary min-heap of (time, id) pairs in typed arrays, ties broken by the smaller id (deterministic). */

/** A growable binary heap of events; no objects per event. */
export class EventHeap {
  private time: Float64Array;
  private id: Int32Array;
  /** Number of events in the heap. */
  size = 0;
  /** Events pushed since creation (the simulator's event count). */
  pushed = 0;

  constructor(capacity = 1024) {
    this.time = new Float64Array(Math.max(16, capacity));
    this.id = new Int32Array(Math.max(16, capacity));
  }

  /** Adds an event. */
  push(t: number, id: number): void {
    if (this.size === this.time.length) {
      const nt = new Float64Array(this.size * 2);
      nt.set(this.time);
      this.time = nt;
      const ni = new Int32Array(this.size * 2);
      ni.set(this.id);
      this.id = ni;
    }
    this.pushed++;
    let i = this.size++;
    const time = this.time,
      ids = this.id;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = time[parent]!;
      if (pt < t || (pt === t && ids[parent]! <= id)) break;
      time[i] = pt;
      ids[i] = ids[parent]!;
      i = parent;
    }
    time[i] = t;
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
      ids = this.id;
    const t = time[n]!,
      id = ids[n]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      const r = c + 1;
      if (r < n && (time[r]! < time[c]! || (time[r] === time[c] && ids[r]! < ids[c]!))) c = r;
      const ct = time[c]!;
      if (t < ct || (t === ct && id <= ids[c]!)) break;
      time[i] = ct;
      ids[i] = ids[c]!;
      i = c;
    }
    time[i] = t;
    ids[i] = id;
  }
}
