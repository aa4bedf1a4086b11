/** Growable typed arrays: append-only columns for builders on hot paths. */

type TypedArrayCtor<T> = { new (n: number): T };

/** An append-only column backed by a typed array that doubles when full. */
export class Growable<T extends Uint8Array | Uint32Array | Int32Array | Float64Array> {
  /**
   * The backing store, valid up to `length`: read and overwrite elements in place; a push that grows it replaces it.
   */
  data: T;
  length = 0;
  constructor(
    private readonly ctor: TypedArrayCtor<T>,
    initial = 1024,
  ) {
    this.data = new ctor(Math.max(16, initial));
  }
  /** Appends one value; returns its index. */
  push(v: number): number {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length] = v;
    return this.length++;
  }
  /** Ensures room for n values in total. */
  grow(n: number): void {
    if (n <= this.data.length) return;
    const next = new this.ctor(Math.max(n, this.data.length * 2));
    (next as Uint32Array).set(this.data as Uint32Array);
    this.data = next;
  }
  /** Overwrites value i (i < length). */
  set(i: number, v: number): void {
    this.data[i] = v;
  }
  /** The last value (0 when empty). */
  last(): number {
    return this.length > 0 ? this.data[this.length - 1]! : 0;
  }
  /** A right-sized copy of the contents. */
  toArray(): T {
    return this.data.slice(0, this.length) as T;
  }
  /**
   * The contents as a view of the backing store, without a copy (it keeps the store's spare room, under half of it
   * after a doubling): for columns too large to hold twice while they are copied. The column must not be pushed to
   * again.
   */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
  /**
   * The contents, right-sized: the buffer itself when it is exactly full (no copy; the column must not be pushed to
   * again), else a copy.
   */
  take(): T {
    return this.length === this.data.length ? this.data : this.toArray();
  }
}

/** Growable Uint8 column. */
export const growU8 = (n?: number): Growable<Uint8Array> => new Growable(Uint8Array, n);
/** Growable Uint32 column. */
export const growU32 = (n?: number): Growable<Uint32Array> => new Growable(Uint32Array, n);
/** Growable Int32 column. */
export const growI32 = (n?: number): Growable<Int32Array> => new Growable(Int32Array, n);
/** Growable Float64 column. */
export const growF64 = (n?: number): Growable<Float64Array> => new Growable(Float64Array, n);
