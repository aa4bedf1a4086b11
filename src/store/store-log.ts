/**
 * The store's log: one creation record per entry written (`{"add": id, "host", "pid", "time"}`), kept outside the
 * sealed entry so that the same plan gives the same entry bytes in every store; `store list` reads who wrote an entry
 * and when from here.
 */
import { judgeRegular } from "./store-fs.js";

/**
 * Who wrote an entry and when: the creation record kept in the store's log (and in the header of the entries an
 * earlier commplan wrote, which kept it there).
 */
export interface CreationRecord {
  readonly host: string;
  readonly pid: number;
  readonly time: string;
}

/** The pieces the log is read in (1 MiB): its memory is a piece, one line and the records of the ids asked for. */
const PIECE = 1 << 20;

/** The longest line read (a record is under 300 bytes): a longer one is passed over unread, never held. */
const LINE_LIMIT = 16 * 1024;

/** The largest log read (1 GiB, some seven million records): past it no creation record is shown. */
const LOG_LIMIT = 2 ** 30;

/** An entry id as the log's `add` names it: 64 lowercase hex digits. */
const ENTRY_ID = /^[0-9a-f]{64}$/;

/**
 * The creation record `v` holds (a parsed log line's fields, or an earlier entry header's `created`), or null when it
 * is not one: a host and time that are strings, a pid that is a non-negative safe integer.
 */
export function creationRecordOf(v: unknown): CreationRecord | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const { host, pid, time } = v as { [k: string]: unknown };
  if (typeof host !== "string" || typeof time !== "string") return null;
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid < 0) return null;
  return { host, pid, time };
}

/** The creation record of one log line, with the entry id it names, or null for a line that is not one. */
function recordOfLine(line: string): { id: string; record: CreationRecord } | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  const record = creationRecordOf(v);
  const add = (v as { add?: unknown }).add;
  if (record === null || typeof add !== "string" || !ENTRY_ID.test(add)) return null;
  return { id: add, record };
}

/** A file-system error (it carries an errno code such as EACCES or EIO), as opposed to a bug. */
function isFsError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code);
}

/**
 * The log's lines handed to `take` one by one, read in pieces: a line is split off the bytes read (a newline byte is
 * never inside a UTF-8 character), a line cut by a piece's end is kept as its pieces until its end is read, and a line
 * longer than LINE_LIMIT is dropped as its bytes go by, never joined.
 */
function eachLine(
  size: number,
  readAt: (into: Uint8Array, pos: number, n: number) => number,
  take: (line: string) => void,
): void {
  const piece = Buffer.alloc(Math.min(PIECE, size));
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let tooLong = false;
  const end = (bytes: Buffer): void => {
    if (!tooLong && partialBytes + bytes.length <= LINE_LIMIT)
      take(Buffer.concat([...partial, bytes]).toString("utf8"));
    partial = [];
    partialBytes = 0;
    tooLong = false;
  };
  for (let at = 0; at < size;) {
    const got = readAt(piece, at, Math.min(PIECE, size - at));
    if (got === 0) break;
    at += got;
    let from = 0;
    for (let nl = piece.indexOf(10, from); nl !== -1 && nl < got; nl = piece.indexOf(10, from)) {
      end(piece.subarray(from, nl));
      from = nl + 1;
    }
    const rest = got - from;
    if (tooLong || partialBytes + rest > LINE_LIMIT) {
      tooLong = true;
      partial = [];
    } else if (rest > 0) partial.push(Buffer.from(piece.subarray(from, got))); // a copy: the piece is read into again
    partialBytes += rest;
  }
  end(Buffer.alloc(0));
}

/**
 * The creation record of each entry in `ids` the log at `file` names: the last line for an id wins (an entry removed
 * by gc and added again is logged twice); lines for other ids are not kept. Empty when the log is missing, not a
 * regular file (damage `verify` names), larger than LOG_LIMIT or cannot be read; a line that is not a record (cut short
 * by a writer killed while appending, longer than LINE_LIMIT, an `add` that is not an entry id) is passed over. Read in
 * 1 MiB pieces: its memory is bounded by a piece, one line and the records of `ids`, whatever the file holds. A bug
 * (an error that is not a file system's) is thrown.
 */
export function creationRecords(file: string, ids: ReadonlySet<string>): Map<string, CreationRecord> {
  const records = new Map<string, CreationRecord>();
  if (ids.size === 0) return records;
  try {
    judgeRegular(file, LOG_LIMIT, null, (size, readAt) =>
      eachLine(size, readAt, (line) => {
        const r = recordOfLine(line);
        if (r !== null && ids.has(r.id)) records.set(r.id, r.record);
      }),
    );
  } catch (e) {
    if (!isFsError(e)) throw e;
    // a log that cannot be read (permission denied) shows no creation record, as a link or a FIFO there does
  }
  return records;
}
