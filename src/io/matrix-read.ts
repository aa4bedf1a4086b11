/**
 * Matrix files: reads a CommMatrix from JSON (commplan.matrix/v1), CSV or Matrix Market coordinate text, streamed in
 * chunks.
 */
import { checkReadArguments, describeValue } from "../model/option-checks.js";
import { ENCODING_HEAD_BYTES, encodingProblem } from "./json-text.js";
import { closeSync, openSync } from "node:fs";
import { readChunkSync } from "./bounded-read.js";
import { extname } from "node:path";
import { fail, isCommplanError } from "../model/errors.js";
import { memoryBudgetOf } from "../host/memory.js";
import { fsError } from "./file-output.js";
import { checkEntry, DEFAULT_ELEMENT_BYTES, matrixFromCoordinates, matrixFromData } from "../model/matrix.js";
import type { CommMatrix } from "../model/matrix.js";
import { MatrixJsonReader, type MatrixChunkReader } from "./matrix-json-read.js";
import { CsvReader, MtxReader } from "./matrix-text-read.js";
import { quoted } from "../internal/quoted.js";
import { checkArg } from "../model/option-checks.js";

const MODULE = "matrix";
/** Bytes per read (default). */
const CHUNK = 1 << 20;

/** The text formats a matrix file can have. */
export type MatrixFileFormat = "json" | "csv" | "mtx";

/** The name of each format in messages. */
const FORMAT_TITLE: Record<MatrixFileFormat, string> = { json: "JSON", csv: "CSV", mtx: "Matrix Market" };

/** Options of parseMatrixText and readMatrixFile. */
export interface ParseMatrixOptions {
  /** File name for error messages; its extension also picks the format (see `format`). */
  readonly file?: string;
  /** The format; when absent, from the file name's extension (.json, .csv, .mtx or .mm), else sniffed from the text. */
  readonly format?: MatrixFileFormat;
  /**
   * Bytes per element; overrides what the file says (JSON `elementBytes`, or the `commplan elementBytes=N` comment of
   * CSV and Matrix Market). Default: the file's, else 8.
   */
  readonly elementBytes?: number;
  /** Bytes per read from a file (default 1 MiB; tests use small chunks). */
  readonly chunkSize?: number;
  /** Bytes the matrix may take, a dense copy of a sparse one included; default: half the memory, <= 32 GiB. */
  readonly maxMemory?: number;
}

/**
 * The format of a matrix text, judged from its first characters only (`{` or `[` json, `%%MatrixMarket` mtx, else csv).
 */
export function sniffMatrixFormat(text: string): MatrixFileFormat {
  checkArg(MODULE, "sniffMatrixFormat", "text", text, typeof text === "string", "a string", "BAD_OPTION");
  const t = text.replace(/^\ufeff/, "").trimStart();
  if (t.startsWith("{") || t.startsWith("[")) return "json";
  if (t.startsWith("%%MatrixMarket")) return "mtx";
  return "csv";
}

/** The format a file name implies by its extension, or null. */
export function matrixFormatOfName(name: string): MatrixFileFormat | null {
  checkArg(
    MODULE,
    "matrixFormatOfName",
    "name",
    name,
    typeof name === "string",
    "a file name (a string)",
    "BAD_OPTION",
  );
  switch (extname(name).toLowerCase()) {
    case ".json":
      return "json";
    case ".csv":
      return "csv";
    case ".mtx":
    case ".mm":
      return "mtx";
    default:
      return null;
  }
}

const SNIFF_BYTES = 14; // "%%MatrixMarket"

/** True when `b` is a proper prefix of the UTF-8 byte-order mark EF BB BF (one or two of its bytes). */
function isBomPrefix(b: Buffer): boolean {
  return b.length > 0 && b.length < 3 && b[0] === 0xef && (b.length < 2 || b[1] === 0xbb);
}

/** The index of the first byte of `b` from `from` on that is not a space, tab, CR or LF (b.length when none). */
function firstNonBlank(b: Buffer, from = 0): number {
  let i = from;
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  return i;
}

/** `b` without a leading UTF-8 byte-order mark. */
function withoutBom(b: Buffer): Buffer {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b;
}

/** Bytes under which a held chunk is joined with the next (a byte-order mark or a format's first word split). */
const SMALL_HELD = 4096;

/**
 * Streams a matrix file of any format: holds back the first bytes until the format is known
 * (option, then extension, then content), skips a UTF-8 byte-order mark, and names the format and
 * why it was chosen in an error when that may surprise (a CSV guess, or an extension that
 * disagrees with the content). The bytes held back are kept as the chunks they came in and each is scanned once for
 * the first byte that is not blank, so a long blank start costs time in proportion to its length (the chunks are not
 * joined and rescanned at every read); they are then passed to the format's reader whole, so its line numbers stay
 * true.
 */
class MatrixStreamReader {
  private reader: MatrixChunkReader | null = null;
  /** The bytes held back until the format is known, in the chunks they came in (copies). */
  private held: Buffer[] = [];
  /** Where the scan for the first non-blank byte goes on: the held chunk, and the byte in it. */
  private scan = { chunk: 0, at: 0 };
  private format: MatrixFileFormat | null;
  private readonly why: "option" | "extension" | "content";
  private sniffed: MatrixFileFormat | null = null;

  /** Bytes the matrix may take (the maxMemory option, else the default). */
  private readonly maxMemory: number;

  constructor(private readonly opts: ParseMatrixOptions) {
    this.maxMemory = memoryBudgetOf(opts);
    const byName = opts.file === undefined ? null : matrixFormatOfName(opts.file);
    this.format = opts.format ?? byName;
    this.why = opts.format !== undefined ? "option" : byName !== null ? "extension" : "content";
  }

  /** Up to `n` held bytes from chunk `chunk`'s byte `at` on (across the chunks after it). */
  private heldBytes(chunk: number, at: number, n: number): Buffer {
    const parts: Buffer[] = [];
    let got = 0;
    for (let c = chunk; c < this.held.length && got < n; c++, at = 0) {
      const part = this.held[c]!.subarray(at, at + n - got);
      parts.push(part);
      got += part.length;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /**
   * The held bytes from the first that is not blank (after a byte-order mark) on, up to SNIFF_BYTES of them; null
   * when all are blank. Only the bytes not scanned before are scanned.
   */
  private textStart(): Buffer | null {
    const first = this.held[0]!;
    if (this.scan.chunk === 0 && this.scan.at === 0) this.scan.at = first.length - withoutBom(first).length;
    for (; this.scan.chunk < this.held.length; this.scan.chunk++, this.scan.at = 0) {
      const b = this.held[this.scan.chunk]!;
      this.scan.at = firstNonBlank(b, this.scan.at);
      if (this.scan.at < b.length) return this.heldBytes(this.scan.chunk, this.scan.at, SNIFF_BYTES);
    }
    this.scan = { chunk: this.held.length - 1, at: this.held.at(-1)!.length };
    return null;
  }

  /** The sniffed format once enough bytes are known (or at the end), else null. */
  private sniff(end: boolean): MatrixFileFormat | null {
    if (this.held.length === 0) return end ? (this.format ?? "csv") : null;
    if (!end && isBomPrefix(this.held[0]!)) return null; // a byte-order mark split across reads: wait for the rest
    const t = this.textStart();
    if (t === null) return end ? (this.format ?? "csv") : null; // blank: nothing to disagree with
    if (t[0] === 0x25 && t.length < SNIFF_BYTES) return end ? sniffMatrixFormat(t.toString("utf8")) : null;
    return sniffMatrixFormat(t.toString("utf8"));
  }

  private start(end: boolean): boolean {
    this.sniffed ??= this.sniff(end);
    if (this.sniffed === null) return false;
    const format = (this.format ??= this.sniffed);
    const file = this.opts.file;
    const why = encodingProblem(this.heldBytes(0, 0, ENCODING_HEAD_BYTES));
    if (why !== null) throw fail(MODULE, "BAD_INPUT", why, file === undefined ? {} : { file });
    this.reader =
      format === "json"
        ? new MatrixJsonReader(file, this.maxMemory)
        : format === "csv"
          ? new CsvReader(file, this.maxMemory)
          : new MtxReader(file, this.maxMemory);
    const held = this.held;
    this.held = [];
    if (held.length > 0) held[0] = withoutBom(held[0]!);
    for (const b of held) this.guard(() => this.reader!.write(b));
    return true;
  }

  /** Runs f, adding to a format error how the format was chosen when that may surprise. */
  private guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (!isCommplanError(e) || e.code === "IO") throw e;
      const format = this.format!,
        title = FORMAT_TITLE[format];
      let note = "";
      if (this.why === "extension" && this.sniffed !== format)
        note = ` (read as ${title} because of the file name's extension)`;
      else if (this.why === "content" && format === "csv")
        note = " (read as CSV: the text starts with neither '{' nor '%%MatrixMarket')";
      if (note === "") throw e;
      const where = [e.place.file, e.place.line !== undefined ? `line ${e.place.line}` : undefined]
        .filter(Boolean)
        .join(":");
      const prefix = where ? `${MODULE}: ${where}: ` : `${MODULE}: `;
      throw fail(
        MODULE,
        e.code,
        (e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message) + note,
        e.place,
      );
    }
  }

  write(chunk: Buffer): void {
    if (this.reader) return this.guard(() => this.reader!.write(chunk));
    const last = this.held.at(-1);
    // a small chunk is joined with the next (a bounded copy; the scan's place in it stays true), so a byte-order mark
    // split by tiny reads is whole; a larger one is kept as it is
    if (last !== undefined && last.length < SMALL_HELD) this.held[this.held.length - 1] = Buffer.concat([last, chunk]);
    else this.held.push(Buffer.from(chunk));
    this.start(false);
  }

  finish(): CommMatrix {
    const { file } = this.opts;
    if (!this.reader) {
      // the format was to come from the content, and there is none: say so, not what a format makes of nothing
      const empty = this.held.length === 0 || (this.held.length === 1 && withoutBom(this.held[0]!).length === 0);
      if (this.why === "content" && (this.held.length === 0 || this.textStart() === null)) {
        throw fail(
          MODULE,
          "BAD_INPUT",
          empty ? "the input is empty" : "the input is empty (only blanks)",
          file === undefined ? {} : { file },
        );
      }
      this.start(true);
    }
    const r = this.guard(() => this.reader!.finish());
    const opts = {
      elementBytes: this.opts.elementBytes ?? r.elementBytes ?? DEFAULT_ELEMENT_BYTES,
      ...(file === undefined ? {} : { file }),
      maxMemory: this.maxMemory,
    };
    if ("data" in r) return matrixFromData(r.p, r.data, opts);
    const c = r.coordinates;
    // a sparse form stays sparse: entries are checked here (values), the reader checked the indices
    for (let k = 0; k < c.count; k++) {
      const v = c.val[k]!;
      if (!(v >= 0 && Number.isInteger(v) && v <= Number.MAX_SAFE_INTEGER))
        checkEntry(v, c.row[k]!, c.col[k]!, file, c.placeOf(k).line);
    }
    return matrixFromCoordinates(r.p, c.row, c.col, c.val, c.count, {
      ...opts,
      duplicateAt: c.placeOf,
      indexBase: c.indexBase,
    });
  }
}

/** Parses a matrix from text: JSON (commplan.matrix/v1), CSV (a P x P grid) or Matrix Market coordinate. */
export function parseMatrixText(text: string, opts: ParseMatrixOptions = {}): CommMatrix {
  if (typeof text !== "string")
    throw fail(MODULE, "BAD_OPTION", `the text must be a string, got ${describeValue(text)}`, { field: "text" });
  if (opts.file !== undefined && typeof opts.file !== "string")
    throw fail(MODULE, "BAD_OPTION", `file must be a string (a name for messages), got ${typeof opts.file}`, {
      field: "file",
    });
  if (opts.format !== undefined && !(opts.format in FORMAT_TITLE)) {
    throw fail(
      MODULE,
      "BAD_OPTION",
      `unknown matrix format ${quoted(String(opts.format))} (json, csv or mtx)`,
      opts.file === undefined ? {} : { file: opts.file },
    );
  }
  const r = new MatrixStreamReader(opts);
  r.write(Buffer.from(text, "utf8"));
  return r.finish();
}

/**
 * Reads a matrix file (path, or "-" for stdin) in chunks, never holding its text: the format
 * comes from the `format` option, else the extension, else the contents.
 */
export function readMatrixFile(path: string, opts: Omit<ParseMatrixOptions, "file"> = {}): CommMatrix {
  checkReadArguments("matrix", path, opts, ["format", "elementBytes", "chunkSize", "maxMemory"]);
  const file = path === "-" ? "<stdin>" : path;
  const reader = new MatrixStreamReader({ ...opts, ...(path === "-" ? { file } : { file: path }) });
  let fd: number;
  try {
    fd = path === "-" ? 0 : openSync(path, "r");
  } catch (e) {
    throw fsError(e, MODULE, file, false);
  }
  try {
    const buf = Buffer.allocUnsafe(opts.chunkSize ?? CHUNK);
    for (;;) {
      let n: number;
      try {
        n = readChunkSync(fd, buf);
      } catch (e) {
        throw fsError(e, MODULE, file, false);
      }
      if (n === 0) break;
      reader.write(buf.subarray(0, n));
    }
  } finally {
    if (path !== "-") closeSync(fd);
  }
  return reader.finish();
}
