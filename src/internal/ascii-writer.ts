/**
 * AsciiWriter: JSON text written byte by byte into Buffers (for the writers whose output is millions of short numbers;
 * string concatenation builds ropes and is slower: docs/architecture.md, "Why some hot code looks as it does").
 */

/**
 * Buffers of pieces handed back once written out, for AsciiWriter.take to reuse: a file written piece by piece then
 * holds only the pieces in flight, not every piece written since the last garbage collection (a fresh Buffer per piece
 * lets tens of MiB of written pieces wait for one).
 */
export class PiecePool {
  private readonly free: ArrayBuffer[] = [];

  /** Pools Buffers of `capacity` bytes (a writer's own, not Node's shared slab: past 4 KiB). */
  constructor(readonly capacity: number) {}

  /** A Buffer of `capacity` bytes: a released one, else a new one. */
  get(): Buffer {
    const b = this.free.pop();
    return b === undefined ? Buffer.allocUnsafe(this.capacity) : Buffer.from(b, 0, this.capacity);
  }

  /** Hands back a piece `take` gave out once it is written (others, and past 8 held, are left to the collector). */
  readonly release = (piece: string | Uint8Array): void => {
    if (typeof piece === "string" || piece.byteOffset !== 0 || piece.buffer.byteLength !== this.capacity) return;
    if (this.free.length < 8) this.free.push(piece.buffer as ArrayBuffer);
  };
}

/**
 * Appends ASCII text and numbers to a Buffer that grows on demand; `take` hands over what was
 * written (and starts a new Buffer, from `pool` when given: the caller may still be writing the old one to a stream).
 * Numbers are written as `String(x)` writes them (integers digit by digit, others through String).
 */
export class AsciiWriter {
  private buf: Buffer;
  private pos = 0;

  private readonly pool: PiecePool | null;

  constructor(
    private readonly capacity: number,
    pool: PiecePool | null = null,
  ) {
    this.pool = pool !== null && pool.capacity === capacity ? pool : null;
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /** Bytes written since the last `take`. */
  get length(): number {
    return this.pos;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Appends s, which must be ASCII (JSON punctuation, names, numbers). */
  text(s: string): void {
    this.room(s.length);
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < s.length; i++) b[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Appends one ASCII character code. */
  char(c: number): void {
    this.room(1);
    this.buf[this.pos++] = c;
  }

  /** Appends x as String(x) would. */
  num(x: number): void {
    if (!(x >= 0 && x <= 0xffffffff && x === Math.floor(x))) return this.text(String(x));
    this.room(10);
    const b = this.buf;
    let n = x >>> 0;
    if (n < 10) {
      b[this.pos++] = 48 + n;
      return;
    }
    let digits = 1;
    for (let m = n; m >= 10; m = (m / 10) >>> 0) digits++;
    let p = this.pos + digits;
    this.pos = p;
    while (n >= 10) {
      const q = (n / 10) >>> 0;
      b[--p] = 48 + n - q * 10;
      n = q;
    }
    b[p - 1] = 48 + n;
  }

  /**
   * The Buffer, with room for `n` more bytes at `length`, for a caller that writes bytes into it directly and then
   * calls `advance` (a hot loop that writes many short rows without a call per field).
   */
  reserve(n: number): Buffer {
    this.room(n);
    return this.buf;
  }

  /** Sets the length to `pos` after bytes were written up to it into the Buffer `reserve` returned. */
  advance(pos: number): void {
    this.pos = pos;
  }

  /** What was written since the last take or clear, as a view valid until the next write (for a synchronous write). */
  view(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  /** Forgets what was written, keeping the Buffer (after its view was written out). */
  clear(): void {
    this.pos = 0;
  }

  /** What was written since the last take (a view of its own Buffer), and a fresh Buffer for what follows. */
  take(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    this.buf = this.pool?.get() ?? Buffer.allocUnsafe(this.capacity);
    this.pos = 0;
    return out;
  }
}

/** A piece of a writer's output as text: strings as they are, AsciiWriter's Buffers decoded (ASCII). */
export function pieceText(piece: string | Uint8Array): string {
  return typeof piece === "string"
    ? piece
    : Buffer.from(piece.buffer, piece.byteOffset, piece.length).toString("latin1");
}
