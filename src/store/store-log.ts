/**
 * The store's log: one creation record per entry written (`{"add": id, "host", "pid", "time"}`), kept outside the
 * sealed entry so that the same plan gives the same entry bytes in every store; `store list` reads who wrote an entry
 * and when from here.
 */
import { StringDecoder } from "node:string_decoder";
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

/** The pieces the log is read in: its memory is the records kept, not the file. */
const PIECE = 1 << 20;

/** The largest log read: past it (a billion entries' records) no creation record is shown. */
const LOG_LIMIT = 2 ** 40;

/** The creation record of one log line, with the entry id it names, or null for a line that is not one. */
function recordOfLine(line: string): { id: string; record: CreationRecord } | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null) return null;
  const { add, host, pid, time } = v as { [k: string]: unknown };
  if (typeof add !== "string" || typeof host !== "string" || typeof time !== "string") return null;
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid < 0) return null;
  return { id: add, record: { host, pid, time } };
}

/**
 * The creation record of every entry the log at `file` names, by id: the last line for an id wins (an entry removed
 * by gc and added again is logged twice). Empty when the log is missing or not a regular file (damage `verify` names);
 * a line that is not a record (cut short by a writer killed while appending) is passed over. Read in 1 MiB pieces.
 */
export function creationRecords(file: string): Map<string, CreationRecord> {
  const records = new Map<string, CreationRecord>();
  const take = (lines: readonly string[]): void => {
    for (const line of lines) {
      const r = recordOfLine(line);
      if (r !== null) records.set(r.id, r.record);
    }
  };
  try {
    judgeRegular(file, LOG_LIMIT, null, (size, readAt) => {
      const piece = Buffer.alloc(Math.min(PIECE, size));
      const text = new StringDecoder("utf8"); // a character cut by a piece's end is joined to its rest
      let rest = "";
      for (let at = 0; at < size;) {
        const got = readAt(piece, at, Math.min(PIECE, size - at));
        if (got === 0) break;
        at += got;
        const lines = (rest + text.write(piece.subarray(0, got))).split("\n");
        rest = lines.pop()!;
        take(lines);
      }
      take([rest + text.end()]);
    });
  } catch {
    // a log that cannot be read (permission denied) shows no creation record, as a link or a FIFO there does
  }
  return records;
}
