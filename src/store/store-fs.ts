/** Store file access that follows no symbolic link and opens no FIFO or device: lstat kinds, file reads, appends. */
import { closeSync, constants, fstatSync, lstatSync, openSync, read, readSync, writeSync } from "node:fs";
import type { Stats } from "node:fs";
import { constants as bufferConstants } from "node:buffer";
import { formatBytes } from "../model/memory-budget.js";

/** What a path is, without following a symbolic link at its end. */
export type PathKind = "missing" | "file" | "directory" | "symbolic link" | "FIFO" | "socket" | "device";

function kindOfStats(st: Stats): PathKind {
  if (st.isFile()) return "file";
  if (st.isDirectory()) return "directory";
  if (st.isSymbolicLink()) return "symbolic link";
  if (st.isFIFO()) return "FIFO";
  if (st.isSocket()) return "socket";
  return "device";
}

/** The kind of `path` by lstat (a link is a link, not what it points at); "missing" when there is nothing there. */
export function pathKind(path: string): PathKind {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st === undefined ? "missing" : kindOfStats(st);
}

/** "a FIFO", "a directory", "an ..." for a kind. */
export function aKind(kind: PathKind): string {
  return `a ${kind}`;
}

/** The largest entry the store reads: 4 GiB, Node 20's largest buffer (no writer makes a larger one: it is damage). */
export const MAX_ENTRY_BYTES = Math.min(bufferConstants.MAX_LENGTH, 2 ** 32);

/** The most one readSync call reads: Node refuses a length past 2^31 - 1, and an entry may be up to 4 GiB. */
const MAX_READ = 1 << 30;

/**
 * A regular file's bytes, why it cannot be read as one (`problem`, with its size when it was opened), or null when
 * missing.
 */
export type RegularRead = { bytes: Uint8Array; problem: null } | { bytes: null; problem: string; size?: number };

/**
 * A check of a file from its two ends before it is read whole: given its size and its first and last `ends` bytes
 * (fewer when the file is smaller), why it is refused, or null to read it.
 */
export interface EndsCheck {
  readonly ends: number;
  readonly problem: (size: number, head: Uint8Array, tail: Uint8Array) => string | null;
}

/** The verdict of `check` on the open file `fd` of `size` bytes, from its two ends only. */
function endsProblem(fd: number, size: number, check: EndsCheck | null): string | null {
  if (check === null) return null;
  const n = Math.min(check.ends, size);
  const head = Buffer.alloc(n);
  const tail = Buffer.alloc(n);
  const got = readSync(fd, head, 0, n, 0);
  const gotTail = readSync(fd, tail, 0, n, size - n);
  return check.problem(size, head.subarray(0, got), tail.subarray(0, gotTail));
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens a regular file for reading without following a link or opening a FIFO or device (checked by lstat first,
 * then opened with O_NOFOLLOW | O_NONBLOCK and checked again on the handle): its descriptor and size, why it cannot
 * be read (larger than `limit` included), or null when missing.
 */
function openRegular(file: string, limit: number): { fd: number; size: number } | { problem: string } | null {
  const kind = pathKind(file);
  if (kind === "missing") return null;
  if (kind !== "file") return { problem: `${aKind(kind)}, not a file` };
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (e) {
    if ((e as { code?: unknown }).code === "ENOENT") return null;
    if ((e as { code?: unknown }).code === "ELOOP") return { problem: "a symbolic link, not a file" };
    throw e;
  }
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  const problem = !st.isFile()
    ? `${aKind(kindOfStats(st))}, not a file`
    : st.size > limit
      ? `${formatBytes(st.size)}, larger than any entry can be`
      : null;
  if (problem === null) return { fd, size: st.size };
  closeSync(fd);
  return { problem };
}

/**
 * Reads a regular file whole into a fresh (8-byte aligned) buffer, opened as openRegular does; past `limit` bytes it
 * is not read, nor when `check` refuses its two ends (a store entry with no seal at its end: read to no purpose).
 * Null when the file is missing.
 */
export function readRegular(
  file: string,
  limit: number = MAX_ENTRY_BYTES,
  check: EndsCheck | null = null,
): RegularRead | null {
  const opened = openRegular(file, limit);
  if (opened === null) return null;
  if ("problem" in opened) return { bytes: null, problem: opened.problem };
  const { fd, size } = opened;
  try {
    const refused = endsProblem(fd, size, check);
    if (refused !== null) return { bytes: null, problem: refused, size };
    const out = Buffer.allocUnsafeSlow(size); // its own ArrayBuffer, 8-byte aligned, not zeroed
    const at = readFully(fd, out, 0, out.length);
    return { bytes: at === out.length ? out : out.subarray(0, at), problem: null };
  } finally {
    closeSync(fd);
  }
}

/** readSync until `n` bytes are in `into` (each call at most MAX_READ) or the file ends: the count read. */
function readFully(fd: number, into: Uint8Array, pos: number, n: number): number {
  let at = 0;
  while (at < n) {
    const got = readSync(fd, into, at, Math.min(n - at, MAX_READ), pos + at);
    if (got === 0) break;
    at += got;
  }
  return at;
}

/**
 * A regular file judged without being read whole, opened as readRegular opens it (its two ends checked by `check`
 * first): `judge` gets its size and a reader of its bytes at any position, and its verdict is returned with the size.
 * The problem instead when it cannot be read (with its size when it was opened), or null when it is missing.
 */
export function judgeRegular<T>(
  file: string,
  limit: number,
  check: EndsCheck | null,
  judge: (size: number, readAt: (into: Uint8Array, pos: number, n: number) => number) => T,
): { size: number; verdict: T; problem: null } | { problem: string; size?: number } | null {
  const opened = openRegular(file, limit);
  if (opened === null) return null;
  if ("problem" in opened) return { problem: opened.problem };
  const { fd, size } = opened;
  try {
    const refused = endsProblem(fd, size, check);
    if (refused !== null) return { problem: refused, size };
    return { size, verdict: judge(size, (into, pos, n) => readFully(fd, into, pos, n)), problem: null };
  } finally {
    closeSync(fd);
  }
}

/** The pieces readRegularInPieces reads the start of a file in: 1 MiB (on a 20 MB entry, 512 KiB-4 MiB read alike). */
const PIECE = 1 << 20;

/** fs.read as a promise: the bytes read. */
function readAt(fd: number, out: Uint8Array, from: number, to: number): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, out, from, to - from, from, (e, n) => (e === null ? resolve(n) : reject(e))),
  );
}

/**
 * readRegular on the thread pool, so work on the bytes read so far overlaps the reading of the next: the file's last
 * `tail` bytes (from `tailFrom`) are read first, then its start in 1 MiB pieces in order, and `arrived(bytes, upTo,
 * tailFrom)` runs as each piece is in place (bytes [0, upTo) and [tailFrom, end) are), while the next is read. A file
 * that comes out shorter than its size is refused as one that changed while read; one whose ends `check` refuses,
 * before it is read.
 */
export async function readRegularInPieces(
  file: string,
  tail: number,
  arrived: (bytes: Uint8Array, upTo: number, tailFrom: number) => void,
  limit: number = MAX_ENTRY_BYTES,
  check: EndsCheck | null = null,
): Promise<RegularRead | null> {
  const opened = openRegular(file, limit);
  if (opened === null) return null;
  if ("problem" in opened) return { bytes: null, problem: opened.problem };
  const { fd, size } = opened;
  try {
    const refused = endsProblem(fd, size, check);
    if (refused !== null) return { bytes: null, problem: refused, size };
    const out = Buffer.allocUnsafeSlow(size);
    const tailFrom = Math.max(0, size - tail);
    const fill = async (from: number, to: number): Promise<boolean> => {
      for (let at = from; at < to;) {
        const n = await readAt(fd, out, at, to);
        if (n === 0) return false;
        at += n;
      }
      return true;
    };
    const short = { bytes: null, problem: "shorter than its size when it was read (changed while read)" } as const;
    if (!(await fill(tailFrom, size))) return short;
    let upTo = 0;
    let next = fill(0, Math.min(PIECE, tailFrom));
    while (upTo < tailFrom) {
      if (!(await next)) return short;
      upTo = Math.min(upTo + PIECE, tailFrom);
      if (upTo < tailFrom) next = fill(upTo, Math.min(upTo + PIECE, tailFrom));
      try {
        arrived(out, upTo, tailFrom);
      } catch (e) {
        await next.catch(() => false); // the descriptor is closed only when no read is under way on it
        throw e;
      }
    }
    if (tailFrom === 0) arrived(out, 0, 0);
    return { bytes: out, problem: null };
  } finally {
    closeSync(fd);
  }
}

const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Appends text to a regular file (created when missing), never through a link and never to a FIFO or device. */
export function appendRegular(file: string, text: string): void {
  const fd = openSync(file, APPEND_FLAGS, 0o666);
  try {
    if (!fstatSync(fd).isFile()) throw Object.assign(new Error("not a regular file"), { code: "EISDIR" });
    const b = Buffer.from(text);
    let at = 0;
    while (at < b.length) at += writeSync(fd, b, at, b.length - at);
  } finally {
    closeSync(fd);
  }
}
