/**
 * Reads a schedule file in either form commplan writes: commplan.schedule/v1 JSON, or the Arrow IPC file of `export -f
 * arrow` and the plan store (told by its magic bytes).
 */
import { checkReadArguments } from "../model/option-checks.js";
import { open, stat } from "node:fs/promises";
import { fail, isCommplanError } from "../model/errors.js";
import { checkMemory } from "../model/memory-budget.js";
import { memoryBudgetOf } from "../host/memory.js";
import type { Schedule } from "../model/schedule.js";
import { fsError } from "./file-output.js";
import { readScheduleJson, type ReadScheduleOptions } from "./schedule-json-read.js";

const MODULE = "schedule";
/** The first bytes of an Arrow IPC file. */
const ARROW_MAGIC = "ARROW1";
/**
 * What an Arrow IPC stream (not a file) starts with: the continuation marker 0xFFFFFFFF of its first message, as
 * pyarrow's ipc.new_stream, polars' write_ipc_stream and apache-arrow's stream writer write it.
 */
const STREAM_MARKER = "\xff\xff\xff\xff";
/** Why an Arrow IPC stream is refused, and what to write instead. */
const STREAM_REFUSAL =
  "an Arrow IPC stream, not an Arrow IPC file: commplan reads the file format " +
  "(pyarrow: ipc.new_file or feather.write_feather; polars: write_ipc)";

/**
 * The bytes of the file at `path` when it is a regular file that starts with Arrow's magic bytes,
 * its size first held against the memory budget (the bytes and about as much again for the columns
 * decoding copies); null for anything else (the JSON reader reads it, and reports what is wrong).
 * Only a regular file is opened: opening and closing a pipe (a FIFO another command writes into)
 * would end its writer before the reader read a byte.
 */
async function arrowBytes(path: string, maxMemory: number): Promise<Uint8Array | null> {
  let size: number, fh;
  try {
    const st = await stat(path);
    if (!st.isFile()) return null;
    size = st.size;
    fh = await open(path, "r");
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(ARROW_MAGIC.length);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    if (bytesRead >= STREAM_MARKER.length && head.toString("latin1").startsWith(STREAM_MARKER))
      throw fail(MODULE, "BAD_FORMAT", STREAM_REFUSAL, { file: path });
    if (bytesRead !== head.length || head.toString("latin1") !== ARROW_MAGIC) return null;
    checkMemory(MODULE, 2 * size, `the ${size}-byte Arrow schedule`, maxMemory, { file: path });
    // an Arrow file ends with the magic bytes too: a file cut short (or not Arrow) is refused before it is read
    const tail = Buffer.alloc(ARROW_MAGIC.length);
    const end = await fh.read(tail, 0, tail.length, Math.max(0, size - tail.length));
    if (size < 2 * ARROW_MAGIC.length || end.bytesRead !== tail.length || tail.toString("latin1") !== ARROW_MAGIC)
      throw fail(
        MODULE,
        "BAD_FORMAT",
        `an Arrow file that is not a readable commplan schedule: it does not end with Arrow's magic bytes (cut short?)`,
        { file: path },
      );
    // read in pieces: readFile refuses a file past 2 GiB, and a plan store entry (store get -f arrow) may be 4 GiB
    const bytes = new Uint8Array(size);
    for (let at = 0; at < size;) {
      const { bytesRead: n } = await fh.read(bytes, at, Math.min(size - at, 1 << 30), at);
      if (n === 0) return bytes.subarray(0, at);
      at += n;
    }
    return bytes;
  } catch (e) {
    throw fsError(e, MODULE, path, false);
  } finally {
    await fh.close();
  }
}

/** Standard input is JSON only: an Arrow file piped in fails at its first byte, said so. */
async function withStdinHint(read: Promise<Schedule>): Promise<Schedule> {
  try {
    return await read;
  } catch (e) {
    if (isCommplanError(e) && /line 1: unexpected 'A'/.test(e.message))
      throw fail(
        MODULE,
        "BAD_FORMAT",
        `${e.message.replace(/^[a-z-]+: /, "")} (an Arrow schedule? standard input is read as JSON: give the Arrow file's path)`,
      );
    if (isCommplanError(e) && /line 1: unexpected byte 0xff/.test(e.message))
      throw fail(
        MODULE,
        "BAD_FORMAT",
        `${e.message.replace(/^[a-z-]+: /, "")} (an Arrow IPC stream? standard input is read as JSON, and Arrow only ` +
          `as an IPC file given by its path)`,
      );
    throw e;
  }
}

/**
 * The schedule in `source` ("-" for stdin, always JSON): an Arrow file is decoded with its columns
 * checked (decodeScheduleArrow); anything else is read as JSON.
 */
export async function readScheduleFile(source: string, opts: ReadScheduleOptions = {}): Promise<Schedule> {
  checkReadArguments(MODULE, source, opts, ["highWaterMark", "maxMemory"]);
  if (source === "-") return withStdinHint(readScheduleJson(source, opts));
  const bytes = await arrowBytes(source, memoryBudgetOf(opts));
  if (bytes === null) return readScheduleJson(source, opts);
  // apache-arrow (some 150 modules) is loaded only to read an Arrow file, not for every JSON schedule
  const { decodeScheduleArrow } = await import("./schedule-arrow.js");
  try {
    return decodeScheduleArrow(bytes);
  } catch (e) {
    const text = isCommplanError(e) ? e.message.replace(/^[a-z-]+: /, "") : String((e as Error)?.message ?? e);
    throw fail(MODULE, "BAD_FORMAT", `an Arrow file that is not a readable commplan schedule: ${text}`, {
      file: source,
    });
  }
}
