/** Growable typed arrays: append-only columns for builders on hot paths. */

type TypedArrayCtor<T> = { new (n: number): T };

/** An append-only column backed by a typed array that doubles when full. */
export class Growable<T extends Uint32Array | Float64Array> {
  private buf: T;
  length = 0;
  constructor(
    private readonly ctor: TypedArrayCtor<T>,
    initial = 1024,
  ) {
    this.buf = new ctor(Math.max(16, initial));
  }
  /** Appends one value. */
  push(v: number): void {
    if (this.length === this.buf.length) this.grow(this.length + 1);
    this.buf[this.length++] = v;
  }
  /** Ensures room for n values in total. */
  grow(n: number): void {
    if (n <= this.buf.length) return;
    const next = new this.ctor(Math.max(n, this.buf.length * 2));
    (next as Uint32Array).set(this.buf as Uint32Array);
    this.buf = next;
  }
  /** Overwrites value i (i < length). */
  set(i: number, v: number): void {
    this.buf[i] = v;
  }
  /** The last value (0 when empty). */
  last(): number {
    return this.length > 0 ? this.buf[this.length - 1]! : 0;
  }
  /** A right-sized copy of the contents. */
  toArray(): T {
    return this.buf.slice(0, this.length) as T;
  }
  /** The contents, right-sized: the buffer itself when it is exactly full (no copy; the column must not be pushed to again), else a copy. */
  take(): T {
    return this.length === this.buf.length ? this.buf : this.toArray();
  }
}

/** Growable Uint32 column. */
export const growU32 = (n?: number): Growable<Uint32Array> => new Growable(Uint32Array, n);
/** Growable Float64 column. */
export const growF64 = (n?: number): Growable<Float64Array> => new Growable(Float64Array, n);
