/** Store file access that follows no symbolic link and opens no FIFO or device: lstat kinds, file reads, appends. */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, writeSync } from "node:fs";
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

/** A regular file's bytes, why it cannot be read as one (`problem`), or null when missing. */
export type RegularRead = { bytes: Uint8Array; problem: null } | { bytes: null; problem: string };

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads a regular file whole into a fresh (8-byte aligned) buffer without following a link or
 * opening a FIFO or device (checked by lstat first, then opened with O_NOFOLLOW | O_NONBLOCK and
 * checked again on the handle); past `limit` bytes it is not read. Null when the file is missing.
 */
export function readRegular(file: string, limit: number = MAX_ENTRY_BYTES): RegularRead | null {
  const kind = pathKind(file);
  if (kind === "missing") return null;
  if (kind !== "file") return { bytes: null, problem: `${aKind(kind)}, not a file` };
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (e) {
    if ((e as { code?: unknown }).code === "ENOENT") return null;
    if ((e as { code?: unknown }).code === "ELOOP") return { bytes: null, problem: "a symbolic link, not a file" };
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { bytes: null, problem: `${aKind(kindOfStats(st))}, not a file` };
    if (st.size > limit) return { bytes: null, problem: `${formatBytes(st.size)}, larger than any entry can be` };
    const out = Buffer.allocUnsafeSlow(st.size); // its own ArrayBuffer, 8-byte aligned, not zeroed
    let at = 0;
    while (at < out.length) {
      const n = readSync(fd, out, at, out.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return { bytes: at === out.length ? out : out.subarray(0, at), problem: null };
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
