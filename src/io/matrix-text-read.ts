/** Matrix text readers: CSV (a P x P grid) and Matrix Market coordinate files, streamed line by line. */
import { fail } from "../model/errors.js";
import type { CommplanError, ErrorCode } from "../model/errors.js";
import { MAX_DENSE_P, MAX_ELEMENT_BYTES, MAX_ENTRIES, MAX_P } from "../model/matrix.js";
import { growF64, growU32 } from "../internal/growable.js";
import { checkMemory, denseReadBytes } from "../model/memory-budget.js";
import { defaultMemoryBudget } from "../host/memory.js";
import type { MatrixChunkReader, MatrixReadResult } from "./matrix-json-read.js";
import { quoted } from "../internal/quoted.js";
import { counted } from "../internal/plural.js";

const MODULE = "matrix";
/** The longest line accepted (a CSV row of 16384 entries of 16 digits is about 280 KiB). */
const MAX_LINE_BYTES = 64 << 20;

type Place = { file?: string; line?: number; field?: string };

function placeOf(file: string | undefined, line?: number, field?: string): Place {
  return {
    ...(file === undefined ? {} : { file }),
    ...(line === undefined ? {} : { line }),
    ...(field === undefined ? {} : { field }),
  };
}

/**
 * Splits byte chunks into lines (at `\n`, a `\r` before it dropped) numbered from 1; the text after the last `\n` is a
 * line too.
 */
class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Lines emitted so far (after `end`, the number of lines of the text). */
  lines = 0;
  constructor(
    private readonly file: string | undefined,
    private readonly emit: (text: string, line: number) => void,
    /** Takes a whole line b[from .. to) (LF excluded) without making a string; false hands it to `emit`. */
    private readonly fast: ((b: Buffer, from: number, to: number, line: number) => boolean) | null = null,
  ) {}

  private take(buf: Buffer, s: number, e: number): string {
    let b = buf,
      from = s,
      to = e;
    if (this.pending.length > 0) {
      this.pending.push(buf.subarray(s, e));
      b = Buffer.concat(this.pending);
      from = 0;
      to = b.length;
      this.pending = [];
      this.pendingBytes = 0;
    }
    if (to > from && b[to - 1] === 0x0d) to--;
    return b.toString("utf8", from, to);
  }

  write(buf: Buffer): void {
    let s = 0;
    const fast = this.fast;
    for (let i = buf.indexOf(0x0a, s); i !== -1; i = buf.indexOf(0x0a, s)) {
      ++this.lines;
      if (fast === null || this.pending.length > 0 || !fast(buf, s, i, this.lines))
        this.emit(this.take(buf, s, i), this.lines);
      s = i + 1;
    }
    if (s < buf.length) {
      this.pendingBytes += buf.length - s;
      if (this.pendingBytes > MAX_LINE_BYTES)
        throw fail(
          MODULE,
          "BAD_INPUT",
          `line is longer than ${MAX_LINE_BYTES >> 20} MiB`,
          placeOf(this.file, this.lines + 1),
        );
      this.pending.push(Buffer.from(buf.subarray(s)));
    }
  }

  end(): void {
    this.emit(this.take(Buffer.alloc(0), 0, 0), ++this.lines);
  }
}

/**
 * The newlines in chunk[0 .. end) that the line splitter has not seen yet (it sees a chunk after its separators are
 * counted).
 */
function countNewlines(chunk: Buffer, end: number): number {
  let n = 0;
  for (let i = chunk.indexOf(0x0a); i !== -1 && i < end; i = chunk.indexOf(0x0a, i + 1)) n++;
  return n;
}

/** A comment whose first word is commplan (`# commplan ...`, `%% commplan ...`): a setting for commplan. */
const COMMPLAN_COMMENT = /^(?:#|%%?)\s*commplan(?:\s|$)/;
const ELEMENT_BYTES_COMMENT = /^(?:#|%%?)\s*commplan\s+elementBytes\s*=\s*(\S*)\s*$/;

/** The `commplan elementBytes=N` comment read so far: its value and line. */
interface ElementBytesComment {
  readonly value: number;
  readonly line: number;
}

/**
 * The elementBytes comment after the comment line `t`: a `# commplan elementBytes=N` (CSV) or `%% commplan
 * elementBytes=N` (Matrix Market) comment gives it; another comment leaves `before`. A commplan comment that is not
 * exactly one `elementBytes=N` (a misspelt key, two settings) is refused naming its line, as is a second one, rather
 * than ignored or overriding the first.
 */
function commentElementBytes(
  t: string,
  file: string | undefined,
  line: number,
  before: ElementBytesComment | undefined,
): ElementBytesComment | undefined {
  if (!COMMPLAN_COMMENT.test(t)) return before;
  const m = ELEMENT_BYTES_COMMENT.exec(t);
  if (!m)
    throw fail(
      MODULE,
      "BAD_INPUT",
      `a commplan comment takes exactly one setting, elementBytes=N; got ${quoted(t)}`,
      placeOf(file, line),
    );
  if (before !== undefined)
    throw fail(
      MODULE,
      "BAD_INPUT",
      `a second elementBytes comment (the first is on line ${before.line})`,
      placeOf(file, line, "elementBytes"),
    );
  const v = /^\d+$/.test(m[1]!) ? Number(m[1]) : NaN;
  if (!(Number.isSafeInteger(v) && v >= 1))
    throw fail(
      MODULE,
      "BAD_INPUT",
      `elementBytes in the comment must be a positive integer, got ${quoted(m[1]!)}`,
      placeOf(file, line, "elementBytes"),
    );
  if (v > MAX_ELEMENT_BYTES)
    throw fail(
      MODULE,
      "BAD_INPUT",
      `elementBytes in the comment = ${v} exceeds the maximum ${MAX_ELEMENT_BYTES}`,
      placeOf(file, line, "elementBytes"),
    );
  return { value: v, line };
}

const INTEGER = /^\d+$/;

/** A non-negative integer field of a CSV or Matrix Market line, or a CommplanError naming line and column. */
function integerField(s: string, file: string | undefined, line: number, column: number, what = ""): number {
  const v = INTEGER.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(v)) {
    const why = INTEGER.test(s) ? "exceeds 2^53 - 1" : "is not a non-negative integer";
    throw fail(MODULE, "BAD_INPUT", `${quoted(s)}${what} ${why} (column ${column})`, placeOf(file, line));
  }
  return v;
}

/**
 * CSV: P lines of P comma-separated non-negative integers; `#` comments (one may give elementBytes) and blank lines
 * skipped.
 */
export class CsvReader implements MatrixChunkReader {
  private readonly lines: LineSplitter;
  private p = -1;
  private data = new Float64Array(0);
  private row = 0;
  private lastLine = 0;
  private elementBytes: ElementBytesComment | undefined = undefined;

  constructor(
    private readonly file?: string,
    /** Bytes the matrix may take (refused past them, before it is allocated). */
    private readonly maxMemory: number = defaultMemoryBudget(),
  ) {
    this.lines = new LineSplitter(file, (t, n) => this.line(t, n));
  }

  private line(raw: string, lineNo: number): void {
    const { file } = this;
    const t = raw.trim();
    if (t === "") return;
    if (t.startsWith("#")) {
      this.elementBytes = commentElementBytes(t, file, lineNo, this.elementBytes);
      return;
    }
    this.lastLine = lineNo;
    const cells = raw.split(",");
    const p0 = this.p;
    if (p0 < 0) {
      if (cells.length > MAX_DENSE_P)
        throw fail(
          MODULE,
          "BAD_INPUT",
          `the first row has ${cells.length} entries; P is at most ${MAX_DENSE_P} (dense storage)`,
          placeOf(file, lineNo),
        );
      checkMemory(
        MODULE,
        denseReadBytes(cells.length),
        `a dense ${cells.length} x ${cells.length} matrix`,
        this.maxMemory,
        placeOf(file),
      );
      this.p = cells.length;
      this.data = new Float64Array(this.p * this.p);
    } else if (cells.length !== p0) {
      throw fail(
        MODULE,
        "BAD_INPUT",
        `row has ${counted(cells.length, "entry", "entries")}, expected ${p0}`,
        placeOf(file, lineNo),
      );
    }
    const p = this.p;
    if (this.row >= p)
      throw fail(
        MODULE,
        "BAD_INPUT",
        `more than ${p} rows: a ${p}-column matrix must have ${p} rows (it must be square)`,
        placeOf(file, lineNo),
      );
    const base = this.row * p;
    for (let j = 0; j < p; j++) this.data[base + j] = integerField(cells[j]!.trim(), file, lineNo, j + 1);
    this.row++;
  }

  // The separators of the line that stays pending across reads (the text after a chunk's last
  // newline), counted as the bytes arrive, so that a row longer than a matrix can be is refused
  // before it is held and split (a 64 MiB line of "0,0,..."). A line complete within one chunk is at
  // most a chunk long and is checked after its split.
  private commas = 0;
  private lineStart = true; // no byte but blanks yet on this line
  private comment = false;

  private countSeparators(chunk: Buffer): void {
    const nl = chunk.lastIndexOf(0x0a);
    if (nl >= 0) {
      this.commas = 0;
      this.lineStart = true;
      this.comment = false;
    }
    const limit = (this.p < 0 ? MAX_DENSE_P : this.p) - 1;
    for (let i = nl + 1; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.lineStart) {
        if (c === 0x23) this.comment = true;
        if (c !== 0x20 && c !== 0x09 && c !== 0x0d) this.lineStart = false;
      }
      if (c === 0x2c && !this.comment && ++this.commas > limit) {
        const line = this.lines.lines + 1 + countNewlines(chunk, i);
        const what =
          this.p < 0
            ? `the first row has more than ${MAX_DENSE_P} entries; P is at most ${MAX_DENSE_P} (dense storage)`
            : `row has more than ${this.p} entries, expected ${this.p}`;
        throw fail(MODULE, "BAD_INPUT", what, placeOf(this.file, line));
      }
    }
  }

  write(chunk: Buffer): void {
    this.countSeparators(chunk);
    this.lines.write(chunk);
  }

  finish(): MatrixReadResult {
    this.lines.end();
    const { file, p } = this;
    if (p < 0)
      throw fail(MODULE, "BAD_INPUT", "the matrix is empty (no rows)", placeOf(file, Math.max(1, this.lines.lines)));
    if (this.row < p)
      throw fail(
        MODULE,
        "BAD_INPUT",
        `has ${this.row} rows, expected ${p} (the matrix must be square)`,
        placeOf(file, this.lastLine),
      );
    return { p, data: this.data, elementBytes: this.elementBytes?.value };
  }
}

/** The fields of the line fastEntry reads. */
const FAST_FIELDS = new Float64Array(3);

const REAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Matrix Market `matrix coordinate integer|real|pattern general`: banner, `%` comments (one may give elementBytes), `P
 * P nnz`, 1-based entries.
 */
export class MtxReader implements MatrixChunkReader {
  private readonly lines: LineSplitter;
  private state: "banner" | "size" | "entries" = "banner";
  private field = "";
  private p = 0;
  private nnz = 0;
  private count = 0;
  private row = growU32(16);
  private col = growU32(16);
  private val = growF64(16);
  private lineOf = growU32(16);
  private lastLine = 0;
  private elementBytes: ElementBytesComment | undefined = undefined;

  constructor(
    private readonly file?: string,
    /** Bytes the matrix may take (refused past them, before it is allocated). */
    private readonly maxMemory: number = defaultMemoryBudget(),
  ) {
    this.lines = new LineSplitter(
      file,
      (t, n) => this.line(t, n),
      (b, from, to, n) => this.fastEntry(b, from, to, n),
    );
  }

  /**
   * An entry line of plain decimal fields (`i j` or `i j value`, blanks between, at most 15 digits
   * each) read from the bytes, with the same checks as entryLine; any other line, or one that a
   * check refuses, goes to the string path (which reports it).
   */
  private fastEntry(b: Buffer, from: number, to: number, lineNo: number): boolean {
    if (this.state !== "entries" || this.count >= this.nnz) return false;
    const width = this.field === "pattern" ? 2 : 3;
    const f = FAST_FIELDS;
    let x = from,
      n = 0;
    for (;;) {
      while (x < to && (b[x] === 0x20 || b[x] === 0x09 || b[x] === 0x0d)) x++;
      if (x >= to) break;
      if (n === width) return false;
      let v = 0;
      const start = x;
      for (; x < to; x++) {
        const c = b[x]! - 0x30;
        if (c < 0 || c > 9) break;
        v = v * 10 + c;
      }
      if (x === start || x - start > 15 || (x < to && b[x] !== 0x20 && b[x] !== 0x09 && b[x] !== 0x0d)) return false;
      f[n++] = v;
    }
    if (n !== width) return false;
    const i = f[0]!,
      j = f[1]!,
      p = this.p;
    if (i < 1 || i > p || j < 1 || j > p) return false;
    this.lastLine = lineNo;
    this.row.push(i - 1);
    this.col.push(j - 1);
    this.val.push(width === 3 ? f[2]! : 1);
    this.lineOf.push(lineNo);
    this.count++;
    return true;
  }

  private bad(code: ErrorCode, line: number, msg: string): CommplanError {
    return fail(MODULE, code, msg, placeOf(this.file, line));
  }

  private banner(t: string): void {
    const banner = t.trim().split(/\s+/);
    if (banner[0] !== "%%MatrixMarket")
      throw this.bad("BAD_FORMAT", 1, "not a Matrix Market file (the first line must start with %%MatrixMarket)");
    const [object, layout, field, symmetry] = banner.slice(1).map((w) => w.toLowerCase());
    if (object !== "matrix" || layout !== "coordinate")
      throw this.bad(
        "BAD_FORMAT",
        1,
        `only 'matrix coordinate' Matrix Market files are supported, got ${quoted(banner.slice(1, 3).join(" "))}`,
      );
    if (field !== "integer" && field !== "real" && field !== "pattern")
      throw this.bad("BAD_FORMAT", 1, `the field must be integer, real or pattern, got ${quoted(field ?? "")}`);
    if (symmetry !== "general")
      throw this.bad("BAD_FORMAT", 1, `only 'general' symmetry is supported, got ${quoted(symmetry ?? "")}`);
    this.field = field;
    this.state = "size";
  }

  private sizeLine(t: string, lineNo: number): void {
    const dims = t.split(/\s+/);
    if (dims.length !== 3)
      throw this.bad("BAD_INPUT", lineNo, `the size line must be 'rows columns entries', got ${quoted(t)}`);
    const [r, c, nnz] = dims.map((w, k) => integerField(w, this.file, lineNo, k + 1)) as [number, number, number];
    if (r !== c) throw this.bad("BAD_INPUT", lineNo, `the matrix is ${r} x ${c}; it must be square`);
    if (r < 1)
      throw this.bad("BAD_INPUT", lineNo, `the size line gives a ${r} x ${c} matrix; a matrix needs at least 1 row`);
    if (r > MAX_P)
      throw this.bad("BAD_INPUT", lineNo, `the size line gives a ${r} x ${c} matrix; P is at most ${MAX_P}`);
    const p = r;
    if (nnz > p * p)
      throw this.bad(
        "BAD_INPUT",
        lineNo,
        `the size line announces ${nnz} entries, more than the ${p * p} of a ${p} x ${p} matrix`,
      );
    if (nnz > MAX_ENTRIES)
      throw this.bad(
        "BAD_INPUT",
        lineNo,
        `the size line announces ${nnz} entries; a matrix has at most ${MAX_ENTRIES}`,
      );
    // sparse storage: 20 bytes per entry while reading, 12 once compressed, plus the row offsets
    checkMemory(MODULE, nnz * 32 + p * 8, `the size line's ${nnz} entries`, this.maxMemory, placeOf(this.file, lineNo));
    this.p = p;
    this.nnz = nnz;
    // sized by the size line: no doubling, and the columns become the matrix's own (take())
    this.row = growU32(nnz);
    this.col = growU32(nnz);
    this.val = growF64(nnz);
    this.lineOf = growU32(nnz);
    this.state = "entries";
  }

  private entryLine(t: string, lineNo: number): void {
    const { file, p } = this;
    const width = this.field === "pattern" ? 2 : 3;
    const w = t.split(/\s+/);
    if (w.length !== width)
      throw this.bad("BAD_INPUT", lineNo, `an entry must be '${width === 2 ? "i j" : "i j value"}', got ${quoted(t)}`);
    if (this.count >= this.nnz)
      throw this.bad("BAD_INPUT", lineNo, `more entries than the ${this.nnz} the size line announces`);
    const i = integerField(w[0]!, file, lineNo, 1, " (row index)");
    const j = integerField(w[1]!, file, lineNo, 2, " (column index)");
    if (i < 1 || i > p || j < 1 || j > p) throw this.bad("BAD_INPUT", lineNo, `index (${i}, ${j}) is outside 1..${p}`);
    let v = 1;
    if (width === 3) {
      const s = w[2]!;
      v = this.field === "integer" ? integerField(s, file, lineNo, 3) : Number(s);
      if (!Number.isFinite(v) || !REAL.test(s))
        throw this.bad("BAD_INPUT", lineNo, `${quoted(s)} is not a number (column 3)`);
      if (v < 0) throw this.bad("BAD_INPUT", lineNo, `${quoted(s)} is negative (column 3)`);
      if (!Number.isInteger(v))
        throw this.bad("BAD_INPUT", lineNo, `${quoted(s)} is not an integer: entries count elements (column 3)`);
      if (v > Number.MAX_SAFE_INTEGER) throw this.bad("BAD_INPUT", lineNo, `${quoted(s)} exceeds 2^53 - 1 (column 3)`);
    }
    this.row.push(i - 1);
    this.col.push(j - 1);
    this.val.push(v);
    this.lineOf.push(lineNo);
    this.count++;
  }

  private line(raw: string, lineNo: number): void {
    if (this.state === "banner") return this.banner(raw);
    const t = raw.trim();
    if (t === "") return;
    if (t.startsWith("%")) {
      this.elementBytes = commentElementBytes(t, this.file, lineNo, this.elementBytes);
      return;
    }
    this.lastLine = lineNo;
    if (this.state === "size") this.sizeLine(t, lineNo);
    else this.entryLine(t, lineNo);
  }

  write(chunk: Buffer): void {
    this.lines.write(chunk);
  }

  finish(): MatrixReadResult {
    this.lines.end();
    if (this.state !== "entries") throw this.bad("BAD_INPUT", this.lines.lines, "missing the size line 'P P nnz'");
    if (this.count !== this.nnz)
      throw this.bad(
        "BAD_INPUT",
        this.lastLine,
        `the size line announces ${this.nnz} entries but the file has ${this.count}`,
      );
    const lines = this.lineOf.take();
    return {
      p: this.p,
      elementBytes: this.elementBytes?.value,
      coordinates: {
        row: this.row.take(),
        col: this.col.take(),
        val: this.val.take(),
        count: this.count,
        placeOf: (k) => ({ line: lines[k]! }),
        indexBase: 1,
      },
    };
  }
}
