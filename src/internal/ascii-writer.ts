/**
 * AsciiWriter: JSON text written byte by byte into Buffers (for the writers whose output is millions of short numbers;
 * string concatenation builds ropes and is slower: docs/architecture.md, "Why some hot code looks as it does").
 */

/**
 * The decimal digits of 0 .. 9999 as ASCII bytes packed little-endian into 32 bits (`digits`: without leading zeros,
 * `count` of them; `padded`: four, zeros in front), so a number's digits are a table read and one 32-bit store (put4),
 * not a division per digit: made on first use (90 KiB).
 */
export interface DigitTables {
  readonly digits: Uint32Array;
  readonly count: Uint8Array;
  readonly padded: Uint32Array;
}
let tables: DigitTables | null = null;

/** The digit tables (see DigitTables). */
export function digitTables(): DigitTables {
  if (tables !== null) return tables;
  const digits = new Uint32Array(10000),
    count = new Uint8Array(10000),
    padded = new Uint32Array(10000);
  for (let n = 0; n < 10000; n++) {
    const len = n >= 1000 ? 4 : n >= 100 ? 3 : n >= 10 ? 2 : 1;
    let short = 0,
      pad = 0;
    for (let k = 0, m = n; k < 4; k++, m = (m / 10) >>> 0) {
      const d = 48 + (m % 10); // digit k from the right
      pad |= d << (8 * (3 - k));
      if (k < len) short |= d << (8 * (len - 1 - k));
    }
    digits[n] = short >>> 0;
    count[n] = len;
    padded[n] = pad >>> 0;
  }
  tables = { digits, count, padded };
  return tables;
}

/**
 * Writes the decimal digits of n (an integer in 0 .. 2^32 - 1) at p in `v`, four bytes at a time from the tables, so up
 * to 3 bytes past the digits are written (the caller leaves room for 13 bytes); returns the position after the digits.
 */
export function writeDigits(v: DataView, t: DigitTables, p: number, n: number): number {
  if (n < 10000) return put4(v, p, t.digits[n]!, t.count[n]!);
  if (n < 100000000) {
    const hi = (n / 10000) >>> 0;
    p = put4(v, p, t.digits[hi]!, t.count[hi]!);
    return put4(v, p, t.padded[n - hi * 10000]!, 4);
  }
  const hi = (n / 100000000) >>> 0,
    rest = n - hi * 100000000,
    mid = (rest / 10000) >>> 0;
  p = put4(v, p, t.digits[hi]!, t.count[hi]!);
  p = put4(v, p, t.padded[mid]!, 4);
  return put4(v, p, t.padded[rest - mid * 10000]!, 4);
}

/**
 * Stores the four bytes of a packed word (little-endian) at p in `v`, one 32-bit store; returns p + `count` (the bytes
 * that hold digits).
 */
export function put4(v: DataView, p: number, w: number, count: number): number {
  v.setUint32(p, w, true);
  return p + count;
}

/** Four ASCII characters packed little-endian into 32 bits, for put4 (a shorter text leaves zero bytes at the end). */
export function word4(s: string): number {
  let w = 0;
  for (let k = 0; k < 4 && k < s.length; k++) w |= s.charCodeAt(k) << (8 * k);
  return w >>> 0;
}

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
  private dv: DataView;
  private pos = 0;

  private readonly pool: PiecePool | null;

  constructor(
    private readonly capacity: number,
    pool: PiecePool | null = null,
  ) {
    this.pool = pool !== null && pool.capacity === capacity ? pool : null;
    this.buf = Buffer.allocUnsafe(capacity);
    this.dv = viewOf(this.buf);
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
    this.dv = viewOf(next);
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

  /** Appends x as String(x) would (an integer of 32 bits from the digit tables). */
  num(x: number): void {
    if (!(x >= 0 && x <= 0xffffffff && x === Math.floor(x))) return this.text(String(x));
    this.room(13); // ten digits, or four past a short number (writeDigits)
    this.pos = writeDigits(this.dv, digitTables(), this.pos, x >>> 0);
  }

  /**
   * The Buffer, with room for `n` more bytes at `length`, for a caller that writes bytes into it directly and then
   * calls `advance` (a hot loop that writes many short rows without a call per field).
   */
  reserve(n: number): Buffer {
    this.room(n);
    return this.buf;
  }

  /** A DataView of the Buffer `reserve` returned (for its 32-bit stores: put4, writeDigits), valid as long as it. */
  view32(): DataView {
    return this.dv;
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
    this.dv = viewOf(this.buf);
    this.pos = 0;
    return out;
  }
}

/** A DataView of all of b. */
const viewOf = (b: Buffer): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** A piece of a writer's output as text: strings as they are, AsciiWriter's Buffers decoded (ASCII). */
export function pieceText(piece: string | Uint8Array): string {
  return typeof piece === "string"
    ? piece
    : Buffer.from(piece.buffer, piece.byteOffset, piece.length).toString("latin1");
}
