/**
 * Matrix JSON reader: streams a commplan.matrix/v1 document into dense storage with the shared JsonTokenizer, checking
 * syntax, schema and meaning.
 */
import { fail } from "../model/errors.js";
import type { CommplanError } from "../model/errors.js";
import { growF64, growU32 } from "../internal/growable.js";
import { FORMAT_NAMES, validateWithSchema } from "./json-schema.js";
import { decodeJsonString, JsonSyntaxError, JsonTokenizer } from "./json-tokenizer.js";
import type { JsonTokenHandler } from "./json-tokenizer.js";
import { checkP } from "../model/matrix.js";
import { checkMemory, denseReadBytes } from "../model/memory-budget.js";
import { defaultMemoryBudget } from "../host/memory.js";
import { jsonExcerpt, quoted } from "../internal/quoted.js";
import { counted } from "../internal/plural.js";

/** Bytes an entry of `entries` takes while read: its columns, their growth and the compressed rows (memory bench). */
const SPARSE_ENTRY_BYTES = 50;
const MODULE = "matrix";

// Contexts of the open containers.
const C_NONE = -1; // before the top-level value
const C_ROOT = 0; // the document object
const C_ROWS = 1;
const C_ROW = 2;
const C_ENTRIES = 3;
const C_ENTRY = 4;
const C_SKIP = 5; // any other container: a placeholder of its type is kept for the schema, its contents skipped

type JsonObject = { [k: string]: unknown };

/** Coordinate entries a sparse form gave (indices checked in 0..p-1, values not yet range-checked). */
export interface MatrixCoordinates {
  readonly row: Uint32Array;
  readonly col: Uint32Array;
  readonly val: Float64Array;
  readonly count: number;
  /** Where the entry at input position k was, for a duplicate's error. */
  readonly placeOf: (k: number) => { field?: string; line?: number };
  /** 1 when the format numbers nodes from 1 (Matrix Market). */
  readonly indexBase: number;
}

/**
 * What a streaming matrix reader returns: the size, the row-major data of a dense form or the
 * coordinates of a sparse one (JSON "entries", Matrix Market), and the elementBytes the file gives.
 */
export type MatrixReadResult = {
  readonly p: number;
  /** undefined when the file does not say. */
  readonly elementBytes: number | undefined;
} & ({ readonly data: Float64Array } | { readonly coordinates: MatrixCoordinates });

/** A streaming matrix reader of one format: chunks in, then the result. */
export interface MatrixChunkReader {
  /** Consumes one chunk (the reader keeps no reference to it). */
  write(chunk: Buffer): void;
  /** Ends the input; throws a CommplanError naming the place of the first problem. */
  finish(): MatrixReadResult;
}

/**
 * Incremental reader of a matrix document: feed Buffer chunks with `write`, then `finish`. The
 * header (`format`, `p`, `elementBytes`, which of `rows` / `entries`) is checked with ajv against
 * matrix.v1 (with the items of `rows` and `entries` set aside); rows and entries are checked by hand
 * while streaming, with exactly the schema's rules, and written straight into the P x P array when
 * `p` comes first (as commplan writes it); otherwise they are buffered until the end.
 */
/**
 * Bytes a value of a row read before `p` takes until the matrix is made: 8 in its store, 16 more while the store
 * doubles, and at the end the store (up to twice the values) beside the matrix's 8 per cell.
 */
const BUFFERED_ROW_VALUE_BYTES = 24;
/** Bytes an entry read before `p` is held in until p is read: its three values, 24 bytes, in a store that doubles. */
const BUFFERED_ENTRY_BYTES = 24;

export class MatrixJsonReader implements JsonTokenHandler, MatrixChunkReader {
  private readonly tok = new JsonTokenizer(this);
  private readonly root: JsonObject = {};
  private rootSeen = false;
  private top = C_NONE;
  private pendingKey = "";
  private skipDepth = 0;
  private skipOuter = C_ROOT;
  /** A valid p once read (0 until then). */
  private p = 0;
  private data: Float64Array | null = null;
  private direct = false; // rows / entries go straight into data
  // rows
  private rowPlaceholder: unknown[] = [];
  private rowIdx = -1;
  private col = 0;
  private firstBadRow = -1;
  private firstBadLen = 0;
  private firstBadLine = 0;
  private readonly rowVals = growF64(16);
  private readonly rowLens = growU32(16);
  // entries
  private entryIdx = -1;
  private el = 0;
  private readonly entry = [0, 0, 0];
  private readonly entryVals = growF64(16);
  private readonly entryRow = growU32(16);
  private readonly entryCol = growU32(16);
  private readonly entryVal = growF64(16);
  private readonly entryLine = growU32(16);

  constructor(
    readonly file?: string,
    /** Bytes the matrix may take (refused past them, before it is allocated). */
    private readonly maxMemory: number = defaultMemoryBudget(),
  ) {}

  private place(line?: number, field?: string): { file?: string; line?: number; field?: string } {
    return {
      ...(this.file === undefined ? {} : { file: this.file }),
      ...(line === undefined ? {} : { line }),
      ...(field === undefined ? {} : { field }),
    };
  }

  /** A schema or meaning error at the current line. */
  private bad(path: string, text: string, field = path): CommplanError {
    return fail(MODULE, "BAD_INPUT", `${path} ${text}`, this.place(this.tok.line, field));
  }

  /** The schema error of a value that must be an integer >= 0. */
  private count(v: number, path: string): number {
    if (!Number.isInteger(v)) throw this.bad(path, "must be integer");
    if (v < 0) throw this.bad(path, "must be >= 0");
    return v;
  }

  /** The dense matrix, allocated once its bytes (and `held` bytes still held beside it) pass the budget. */
  private storage(held = 0): Float64Array {
    if (this.data === null) {
      checkP(this.p, this.file);
      checkMemory(
        MODULE,
        denseReadBytes(this.p) + held,
        `a dense ${this.p} x ${this.p} matrix`,
        this.maxMemory,
        this.place(undefined, "/p"),
      );
      this.data = new Float64Array(this.p * this.p);
    }
    return this.data;
  }

  // ---- rows ----

  private rowValue(v: number): void {
    const j = this.col++;
    this.count(v, `/rows/${this.rowIdx}/${j}`);
    if (!this.direct) this.bufferRowValue(v);
    else if (this.rowIdx < this.p && j < this.p) this.data![this.rowIdx * this.p + j] = v;
  }

  /**
   * Holds a value of a row read before `p` (replayed at the end): the held values are charged against the budget at
   * each doubling of their store, BUFFERED_ROW_VALUE_BYTES a value (the store doubled, then beside the matrix).
   */
  private bufferRowValue(v: number): void {
    const n = this.rowVals.length + 1;
    if (n >= 1024 && (n & (n - 1)) === 0)
      checkMemory(
        MODULE,
        BUFFERED_ROW_VALUE_BYTES * n,
        `holding the ${n} values of rows given before p (give p first to read them straight into the matrix)`,
        this.maxMemory,
        this.place(this.tok.line, `/rows/${this.rowIdx}`),
      );
    this.rowVals.push(v);
  }

  private rowEnd(): void {
    if (this.direct) {
      if (this.col !== this.p && this.firstBadRow < 0) {
        this.firstBadRow = this.rowIdx;
        this.firstBadLen = this.col;
        this.firstBadLine = this.tok.line;
      }
    } else this.rowLens.push(this.col);
  }

  /** Checks the row count, then the first row of the wrong length (line when known). */
  private rowsDone(rows: number, p: number): void {
    if (rows !== p)
      throw fail(MODULE, "BAD_INPUT", `/rows has ${rows} rows but p = ${p}`, this.place(undefined, "/rows"));
    if (this.firstBadRow >= 0) {
      const line = this.firstBadLine > 0 ? this.firstBadLine : undefined;
      throw fail(
        MODULE,
        "BAD_INPUT",
        `row ${this.firstBadRow} has ${counted(this.firstBadLen, "entry", "entries")}, expected ${p} (the matrix must be square)`,
        this.place(line, `rows[${this.firstBadRow}]`),
      );
    }
  }

  // ---- entries ----

  private entryValue(v: number): void {
    if (this.el >= 3) throw this.bad(`/entries/${this.entryIdx}`, "must NOT have more than 3 items");
    this.entry[this.el] = this.count(v, `/entries/${this.entryIdx}/${this.el}`);
    this.el++;
  }

  private entryEnd(): void {
    if (this.el < 3) throw this.bad(`/entries/${this.entryIdx}`, "must NOT have fewer than 3 items");
    const [i, j, v] = this.entry as [number, number, number];
    const n = this.entryIdx + 1;
    // the entry columns double at each power of two: the doubled columns and the compressed rows made of them
    // entries given before p are also held as they came until p is read (BUFFERED_ENTRY_BYTES each)
    if (n >= 1024 && (n & (n - 1)) === 0)
      checkMemory(
        MODULE,
        2 * n * (SPARSE_ENTRY_BYTES + (this.direct ? 0 : BUFFERED_ENTRY_BYTES)),
        `a matrix of more than ${n} entries${this.direct ? "" : " given before p"}`,
        this.maxMemory,
        { ...this.place(this.tok.line, `entries[${this.entryIdx}]`) },
      );
    if (this.direct) this.acceptEntry(this.entryIdx, i, j, v, this.tok.line);
    else {
      this.entryVals.push(i);
      this.entryVals.push(j);
      this.entryVals.push(v);
    }
  }

  /** Meaning of one entry: indices below p, no pair twice. */
  private acceptEntry(k: number, i: number, j: number, v: number, line?: number): void {
    const p = this.p;
    const field = `entries[${k}]`;
    for (const [name, x] of [
      ["i", i],
      ["j", j],
    ] as const) {
      if (x >= p)
        throw fail(
          MODULE,
          "BAD_INPUT",
          `${field}: ${name} = ${x} is not a node index in 0..${p - 1}`,
          this.place(line, field),
        );
    }
    this.entryRow.push(i);
    this.entryCol.push(j);
    this.entryVal.push(v);
    this.entryLine.push(line ?? 0);
  }

  // ---- the root object ----

  private setRoot(v: unknown): void {
    const k = this.pendingKey;
    if (k === "__proto__")
      Object.defineProperty(this.root, k, { value: v, enumerable: true, writable: true, configurable: true });
    else this.root[k] = v;
    if (k === "format" && v !== FORMAT_NAMES.matrix) {
      // Fail early: a schedule given as a matrix should not be read to its end first.
      throw fail(
        MODULE,
        "BAD_FORMAT",
        `/format is ${jsonExcerpt(v)}, expected "${FORMAT_NAMES.matrix}"`,
        this.place(undefined, "/format"),
      );
    }
    if (k === "p" && typeof v === "number" && Number.isInteger(v) && v >= 1) {
      checkP(v, this.file, true); // refused up front (a dense form is checked against MAX_DENSE_P when its rows start)
      this.p = v;
    }
  }

  private skip(outer: number): void {
    this.skipOuter = outer;
    this.skipDepth = 1;
    this.top = C_SKIP;
  }

  private notAnObject(): never {
    throw fail(
      MODULE,
      "BAD_FORMAT",
      `not a ${FORMAT_NAMES.matrix} document: the top level is not a JSON object`,
      this.place(undefined, "/"),
    );
  }

  private notACount(): never {
    switch (this.top) {
      case C_NONE:
        return this.notAnObject();
      case C_ROWS:
        throw this.bad(`/rows/${this.rowIdx + 1}`, "must be array");
      case C_ROW:
        throw this.bad(`/rows/${this.rowIdx}/${this.col}`, "must be integer");
      case C_ENTRIES:
        throw this.bad(`/entries/${this.entryIdx + 1}`, "must be array");
      default: // C_ENTRY
        if (this.el >= 3) throw this.bad(`/entries/${this.entryIdx}`, "must NOT have more than 3 items");
        throw this.bad(`/entries/${this.entryIdx}/${this.el}`, "must be integer");
    }
  }

  // ---- token handlers ----

  startObject(): void {
    if (this.top === C_NONE) {
      this.rootSeen = true;
      this.top = C_ROOT;
    } else if (this.top === C_SKIP) this.skipDepth++;
    else if (this.top === C_ROOT) {
      this.setRoot({});
      this.skip(C_ROOT);
    } else this.notACount();
  }

  endObject(): void {
    if (this.top === C_SKIP) this.endSkip();
    else this.top = C_NONE; // C_ROOT
  }

  startArray(): void {
    switch (this.top) {
      case C_NONE:
        return this.notAnObject();
      case C_SKIP:
        this.skipDepth++;
        return;
      case C_ROOT:
        if (this.pendingKey === "rows" || this.pendingKey === "entries") {
          this.direct = this.p > 0;
          if (this.direct && this.pendingKey === "rows") this.storage();
          if (this.pendingKey === "rows") {
            this.setRoot(this.rowPlaceholder);
            this.top = C_ROWS;
          } else {
            this.setRoot([]);
            this.top = C_ENTRIES;
          }
          return;
        }
        this.setRoot([]);
        this.skip(C_ROOT);
        return;
      case C_ROWS:
        if (this.rowPlaceholder.length === 0) this.rowPlaceholder.push(0);
        this.rowIdx++;
        this.col = 0;
        this.top = C_ROW;
        return;
      case C_ENTRIES:
        this.entryIdx++;
        this.el = 0;
        this.top = C_ENTRY;
        return;
      default:
        this.notACount();
    }
  }

  endArray(): void {
    switch (this.top) {
      case C_SKIP:
        this.endSkip();
        return;
      case C_ROW:
        this.rowEnd();
        this.top = C_ROWS;
        return;
      case C_ENTRY:
        this.entryEnd();
        this.top = C_ENTRIES;
        return;
      default: // C_ROWS, C_ENTRIES
        this.top = C_ROOT;
    }
  }

  private endSkip(): void {
    if (--this.skipDepth === 0) this.top = this.skipOuter;
  }

  key(b: Buffer, s: number, e: number, escaped: boolean): void {
    if (this.top === C_SKIP) return;
    const name = decodeJsonString(b, s, e, escaped);
    if (Object.hasOwn(this.root, name)) throw this.bad("/", `has the key ${quoted(name)} twice`);
    this.pendingKey = name;
  }

  number(v: number): void {
    switch (this.top) {
      case C_ROW:
        this.rowValue(v);
        return;
      case C_ENTRY:
        this.entryValue(v);
        return;
      case C_ROOT:
        this.setRoot(v);
        return;
      case C_SKIP:
        return;
      default:
        this.notACount();
    }
  }

  string(b: Buffer, s: number, e: number, escaped: boolean): void {
    if (this.top === C_ROOT) this.setRoot(decodeJsonString(b, s, e, escaped));
    else if (this.top !== C_SKIP) this.notACount();
  }

  literal(v: boolean | null): void {
    if (this.top === C_ROOT) this.setRoot(v);
    else if (this.top !== C_SKIP) this.notACount();
  }

  private syntax(e: unknown): never {
    if (e instanceof JsonSyntaxError)
      throw fail(MODULE, "BAD_INPUT", `invalid JSON: ${e.detail} (column ${e.column})`, this.place(e.line));
    throw e;
  }

  /** Consumes one chunk of the document (the reader keeps no reference to it). */
  write(chunk: Buffer): void {
    try {
      this.tok.write(chunk);
    } catch (e) {
      this.syntax(e);
    }
  }

  /** Ends the input: syntax, the header against the schema, then the meaning of buffered rows or entries. */
  finish(): MatrixReadResult {
    try {
      this.tok.end();
    } catch (e) {
      this.syntax(e);
    }
    validateWithSchema("matrix-header", this.rootSeen ? this.root : null, MODULE, this.file);
    const p = this.root["p"] as number;
    const eb = this.root["elementBytes"] as number | undefined;
    if (this.root["rows"] !== undefined) {
      if (this.direct) this.rowsDone(this.rowIdx + 1, p);
      else {
        // p came after the rows: replay them now that it is known
        const lens = this.rowLens.view(),
          vals = this.rowVals.view();
        this.p = p;
        const data = this.storage(this.rowVals.data.byteLength);
        let at = 0;
        for (let i = 0; i < lens.length; i++) {
          const len = lens[i]!;
          if (len !== p && this.firstBadRow < 0) {
            this.firstBadRow = i;
            this.firstBadLen = len;
          }
          if (i < p) data.set(vals.subarray(at, at + Math.min(len, p)), i * p);
          at += len;
        }
        this.rowsDone(lens.length, p);
      }
    } else if (!this.direct) {
      this.p = p;
      const vals = this.entryVals.view();
      for (let k = 0; k < vals.length; k += 3) this.acceptEntry(k / 3, vals[k]!, vals[k + 1]!, vals[k + 2]!);
    }
    this.p = p;
    if (this.root["rows"] !== undefined) return { p, data: this.storage(), elementBytes: eb };
    const lines = this.entryLine.toArray();
    return {
      p,
      elementBytes: eb,
      coordinates: {
        row: this.entryRow.take(),
        col: this.entryCol.take(),
        val: this.entryVal.take(),
        count: this.entryRow.length,
        placeOf: (k) => ({ field: `entries[${k}]`, ...(lines[k]! > 0 ? { line: lines[k]! } : {}) }),
        indexBase: 0,
      },
    };
  }
}
