/**
 * A whole file read with a limit: the readers that hold a document (program, topology, sparse Matrix Market, precompute
 * spec) read it through here, so a FIFO, a device such as /dev/zero or an endless stdin is refused once it passes the
 * limit instead of being read until memory runs out (readFileSync of a file whose stat says 0 bytes reads to its end).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** The pieces a bounded read takes: 1 MiB. */
const PIECE = 1 << 20;

/** Sleeps a few milliseconds (a non-blocking stdin with no data yet). */
function nap(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
}

/**
 * readSync of up to `buf.length` bytes at the descriptor's position into `buf`: 0 at the end (EOF included, as Windows
 * pipes say it); a non-blocking stdin with nothing yet is waited for; any other error is thrown as Node's.
 */
export function readChunkSync(fd: number, buf: Uint8Array): number {
  for (;;) {
    try {
      return readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (code === "EAGAIN") nap();
      else if (code === "EOF") return 0;
      else throw e;
    }
  }
}

/**
 * The bytes of `file` ("-": standard input), read in 1 MiB pieces; once more than `limit` bytes have arrived, `past(n)`
 * is called with the bytes read before the last piece (it throws the reader's refusal) and nothing more is read. A
 * file-system error is thrown as Node's (the caller words it).
 */
export function readBounded(file: string, limit: number, past: (before: number) => never): Buffer {
  const fd = file === "-" ? 0 : openSync(file, "r");
  try {
    const pieces: Buffer[] = [];
    let total = 0;
    // a regular file is read into one buffer of its size (no copy when it did not grow meanwhile)
    const st = fstatSync(fd);
    if (st.isFile() && st.size > 0 && st.size <= limit) {
      const whole = Buffer.allocUnsafe(st.size);
      while (total < whole.length) {
        const n = readSync(fd, whole, total, Math.min(whole.length - total, 1 << 30), null);
        if (n === 0) break;
        total += n;
      }
      pieces.push(total === whole.length ? whole : whole.subarray(0, total));
      if (total < whole.length) return pieces[0]!;
    }
    const buf = Buffer.allocUnsafe(PIECE);
    for (;;) {
      const n = readChunkSync(fd, buf);
      if (n === 0) break;
      if (total + n > limit) past(total);
      total += n;
      pieces.push(Buffer.from(buf.subarray(0, n)));
    }
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, total);
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}
