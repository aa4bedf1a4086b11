/**
 * EventHeap: a binary min-heap of events in typed arrays, ordered by an integer time key (ticks of TIME_TICK_US), ties
 * broken by the smaller id (deterministic).
 */

/**
 * The tick (us) of the integer time keys events are ordered by: 1e-6 us. A replay gives every event
 * the key of its start plus its duration rounded to ticks (`ReplayDriver.at`), summed exactly in
 * integers, so times that are equal mathematically (the same durations added in another order) get
 * the same key whatever the floating-point rounding, and the smaller id (schedule order) goes first.
 * The times themselves are kept unrounded. Keys are exact integers below 2^53 ticks (about 9e9 us).
 */
export const TIME_TICK_US = 1e-6;
/** Ticks per microsecond. */
export const TICKS_PER_US = 1e6;

/** The key of an absolute time t (us): t rounded to ticks. */
export function timeKey(t: number): number {
  return Math.round(t * TICKS_PER_US);
}

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

  /** Adds an event at time t (us), keyed by t rounded to ticks. */
  push(t: number, id: number): void {
    this.pushKey(t, timeKey(t), id);
  }

  /** Adds an event at time t (us) with the integer time key k (ticks). */
  pushKey(t: number, k: number, id: number): void {
    if (this.size === this.time.length) this.grow();
    this.pushed++;
    let i = this.size++;
    const time = this.time,
      keys = this.key,
      ids = this.id;
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

  /** Key (ticks) of the earliest event (heap must not be empty). */
  topKey(): number {
    return this.key[0]!;
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
