/** Columns: growable typed arrays with direct element access, for the lowering's passes. */

/** An append-only Float64 column that doubles when full; `a` is the backing store (valid up to `n`). */
export class F64Col {
  a: Float64Array;
  n = 0;
  constructor(initial = 1024) {
    this.a = new Float64Array(Math.max(16, initial));
  }
  /** Appends one value; returns its index. */
  push(v: number): number {
    if (this.n === this.a.length) {
      const next = new Float64Array(this.a.length * 2);
      next.set(this.a);
      this.a = next;
    }
    this.a[this.n] = v;
    return this.n++;
  }
  /** A right-sized copy. */
  done(): Float64Array {
    return this.a.slice(0, this.n);
  }
}

/** An append-only Uint32 column (see F64Col). */
export class U32Col {
  a: Uint32Array;
  n = 0;
  constructor(initial = 1024) {
    this.a = new Uint32Array(Math.max(16, initial));
  }
  /** Appends one value; returns its index. */
  push(v: number): number {
    if (this.n === this.a.length) {
      const next = new Uint32Array(this.a.length * 2);
      next.set(this.a);
      this.a = next;
    }
    this.a[this.n] = v;
    return this.n++;
  }
  /** A right-sized copy. */
  done(): Uint32Array {
    return this.a.slice(0, this.n);
  }
}

/** An append-only Int32 column (see F64Col). */
export class I32Col {
  a: Int32Array;
  n = 0;
  constructor(initial = 1024) {
    this.a = new Int32Array(Math.max(16, initial));
  }
  /** Appends one value; returns its index. */
  push(v: number): number {
    if (this.n === this.a.length) {
      const next = new Int32Array(this.a.length * 2);
      next.set(this.a);
      this.a = next;
    }
    this.a[this.n] = v;
    return this.n++;
  }
}

/**
 * Buffer pieces grouped by owner (a message side): pieces of owner k are [start[k], start[k + 1]).
 * Owners are appended in order; `piece` coalesces with the previous piece of the same owner when
 * it continues it in the same buffer.
 */
export class PieceCol {
  readonly buffer: U32Col;
  readonly offset: F64Col;
  readonly count: F64Col;
  readonly start: U32Col;
  /** `pieces` and `owners`: expected sizes (the columns grow past them). */
  constructor(pieces = 1024, owners = 1024) {
    this.buffer = new U32Col(pieces);
    this.offset = new F64Col(pieces);
    this.count = new F64Col(pieces);
    this.start = new U32Col(owners + 1);
  }
  /** Opens the next owner's piece list. */
  open(): void {
    this.start.push(this.buffer.n);
  }
  /** Appends a piece to the open owner, merging it into the previous one when adjacent. */
  piece(buffer: number, offset: number, count: number): void {
    const n = this.buffer.n;
    if (
      n > this.start.a[this.start.n - 1]! &&
      this.buffer.a[n - 1] === buffer &&
      this.offset.a[n - 1]! + this.count.a[n - 1]! === offset
    ) {
      this.count.a[n - 1] = this.count.a[n - 1]! + count;
      return;
    }
    this.buffer.push(buffer);
    this.offset.push(offset);
    this.count.push(count);
  }
  /** Closes the owner list (start gets its final entry). */
  close(): Uint32Array {
    this.start.push(this.buffer.n);
    return this.start.done();
  }
}
