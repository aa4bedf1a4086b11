/**
 * Sparse Matrix Market reader: the nonzero structure (SparseStructure) of a `matrix coordinate` file of any field and
 * symmetry, for the spmv pattern.
 */
import { ENCODING_HEAD_BYTES, encodingProblem } from "./json-text.js";
import { statSync } from "node:fs";
import { readBounded } from "./bounded-read.js";
import { fail, type ErrorCode } from "../model/errors.js";
import { checkMemory } from "../model/memory-budget.js";
import { memoryBudgetOf } from "../host/memory.js";
import { quoted } from "../internal/quoted.js";
import { sparseFromCoordinates, type SparseStructure } from "../model/sparse-structure.js";
import { fsError } from "./file-output.js";
import { checkArg, checkOptionsObject, checkPathArg } from "../model/option-checks.js";

const MODULE = "sparse-matrix";
/** The largest file read (bytes): a sparse matrix of about 20 million stored entries. */
export const MAX_SPARSE_FILE_BYTES = 1 << 30;
/** The largest number of rows or columns (indices are 32-bit). */
export const MAX_SPARSE_DIM = 2 ** 31 - 2;

const FIELDS = ["real", "integer", "pattern", "complex"] as const;
const SYMMETRIES = ["general", "symmetric", "skew-symmetric", "hermitian"] as const;
const INDEX = /^\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The banner's field and symmetry. */
interface Banner {
  readonly field: (typeof FIELDS)[number];
  readonly symmetry: (typeof SYMMETRIES)[number];
}

function bad(code: ErrorCode, file: string | undefined, line: number, text: string): Error {
  return fail(MODULE, code, text, { ...(file === undefined ? {} : { file }), line });
}

function banner(t: string, file: string | undefined): Banner {
  const w = t.trim().split(/\s+/);
  if (w[0] !== "%%MatrixMarket")
    throw bad("BAD_FORMAT", file, 1, "not a Matrix Market file (the first line must start with %%MatrixMarket)");
  const [object, layout, field, symmetry] = w.slice(1).map((x) => x.toLowerCase());
  if (object !== "matrix" || layout !== "coordinate")
    throw bad(
      "BAD_FORMAT",
      file,
      1,
      `only 'matrix coordinate' (sparse) Matrix Market files are supported, got ${quoted(w.slice(1, 3).join(" "))}`,
    );
  const f = FIELDS.find((x) => x === field);
  if (f === undefined)
    throw bad("BAD_FORMAT", file, 1, `the field must be ${FIELDS.join(", ")}, got ${quoted(field ?? "")}`);
  const s = SYMMETRIES.find((x) => x === symmetry);
  if (s === undefined)
    throw bad("BAD_FORMAT", file, 1, `the symmetry must be ${SYMMETRIES.join(", ")}, got ${quoted(symmetry ?? "")}`);
  return { field: f, symmetry: s };
}

function index(s: string, file: string | undefined, line: number, what: string, max: number): number {
  const v = INDEX.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(v) || v < 1 || v > max)
    throw bad("BAD_INPUT", file, line, `${what} ${quoted(s)} must be an integer in 1..${max}`);
  return v;
}

/** The size line `rows cols entries`. */
function sizeLine(t: string, file: string | undefined, line: number, b: Banner): [number, number, number] {
  const w = t.split(/\s+/);
  if (w.length !== 3)
    throw bad("BAD_INPUT", file, line, `the size line must be 'rows columns entries', got ${quoted(t)}`);
  const rows = index(w[0]!, file, line, "rows", MAX_SPARSE_DIM);
  const cols = index(w[1]!, file, line, "columns", MAX_SPARSE_DIM);
  const nnz = INDEX.test(w[2]!) ? Number(w[2]) : NaN;
  if (!Number.isSafeInteger(nnz) || nnz > rows * cols)
    throw bad("BAD_INPUT", file, line, `entries ${quoted(w[2]!)} must be an integer in 0..${rows * cols}`);
  if (b.symmetry !== "general" && rows !== cols)
    throw bad("BAD_INPUT", file, line, `a ${b.symmetry} matrix must be square, got ${rows} x ${cols}`);
  return [rows, cols, nnz];
}

/**
 * Bytes a line of the text takes while the file is parsed: its slot in the array of lines and the string of the line
 * (measured: gen spmv --file of a 50 MB file of 3.3 million lines peaked at 296 MB past Node's own, 5.9 bytes per byte
 * of the file, of which the size line's check had counted 53 MB).
 */
const SPARSE_LINE_BYTES = 32;

/** Options of the sparse Matrix Market readers. */
export interface SparseReadOptions {
  /** Bytes the structure may take (checked at the size line); default: half the memory, <= 32 GiB. */
  readonly maxMemory?: number;
}

/**
 * Parses the structure of a Matrix Market coordinate matrix (values are checked to be numbers and
 * otherwise ignored; explicit zeros count as stored entries). Symmetric, skew-symmetric and
 * hermitian files give both triangles. Errors are one-line CommplanErrors naming the file and line.
 */
export function parseSparseMatrixMarket(text: string, file?: string, opts: SparseReadOptions = {}): SparseStructure {
  checkArg(MODULE, "parseSparseMatrixMarket", "text", text, typeof text === "string", "a string", "BAD_OPTION");
  checkArg(
    MODULE,
    "parseSparseMatrixMarket",
    "file",
    file,
    file === undefined || typeof file === "string",
    "a file name or undefined",
    "BAD_OPTION",
  );
  checkOptionsObject(MODULE, "options", opts);
  const lines = text.replace(/^\ufeff/, "").split("\n");
  if (lines.length === 1 && lines[0]!.trim() === "")
    throw fail(MODULE, "BAD_INPUT", "the input is empty", file === undefined ? {} : { file });
  const b = banner(lines[0]!, file);
  const width = b.field === "pattern" ? 2 : b.field === "complex" ? 4 : 3;
  let size: [number, number, number] | null = null;
  let rowOf = new Int32Array(0),
    colOf = new Int32Array(0);
  let count = 0,
    read = 0,
    lastLine = 1;
  for (let n = 1; n < lines.length; n++) {
    const t = lines[n]!.trim();
    if (t === "" || t.startsWith("%")) continue;
    const line = n + 1;
    lastLine = line;
    if (size === null) {
      size = sizeLine(t, file, line, b);
      const cap = b.symmetry === "general" ? size[2] : 2 * size[2];
      // the text is held while its entries are read: its bytes, its string and its lines (SPARSE_LINE_BYTES each)
      const text = 2 * lines.reduce((n, l) => n + l.length + 1, 0) + SPARSE_LINE_BYTES * lines.length;
      checkMemory(
        MODULE,
        text + cap * 16 + (size[0] + 1) * 8 + size[1] * 4,
        `the ${size[0]} x ${size[1]} matrix of ${size[2]} entries the size line announces, read from its ` +
          `${lines.length} lines`,
        memoryBudgetOf(opts),
        file === undefined ? {} : { file },
      );
      rowOf = new Int32Array(cap);
      colOf = new Int32Array(cap);
      continue;
    }
    const w = t.split(/\s+/);
    if (w.length !== width)
      throw bad(
        "BAD_INPUT",
        file,
        line,
        `an entry must have ${width} fields ('i j${width > 2 ? " value" : ""}${width > 3 ? " imaginary" : ""}'), got ${quoted(t)}`,
      );
    if (read >= size[2]) throw bad("BAD_INPUT", file, line, `more entries than the ${size[2]} the size line announces`);
    const i = index(w[0]!, file, line, "row index", size[0]);
    const j = index(w[1]!, file, line, "column index", size[1]);
    for (let k = 2; k < width; k++)
      if (!NUMBER.test(w[k]!)) throw bad("BAD_INPUT", file, line, `${quoted(w[k]!)} is not a number (column ${k + 1})`);
    if (b.symmetry !== "general" && j > i)
      throw bad(
        "BAD_INPUT",
        file,
        line,
        `entry (${i}, ${j}) is above the diagonal; a ${b.symmetry} file gives the lower triangle`,
      );
    read++;
    rowOf[count] = i - 1;
    colOf[count++] = j - 1;
    if (b.symmetry !== "general" && i !== j) {
      rowOf[count] = j - 1;
      colOf[count++] = i - 1;
    }
  }
  if (size === null) {
    const end = lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
    throw bad("BAD_INPUT", file, Math.max(1, end), "missing the size line 'rows columns entries'");
  }
  if (read !== size[2])
    throw bad("BAD_INPUT", file, lastLine, `the size line announces ${size[2]} entries but the file has ${read}`);
  return sparseFromCoordinates(size[0], size[1], rowOf, colOf, count, file);
}

/** The file's bytes as text, refused in one line when they are UTF-16 or hold a NUL byte at the start. */
function utf8Text(bytes: Buffer, file: string): string {
  const why = encodingProblem(bytes.subarray(0, ENCODING_HEAD_BYTES));
  if (why !== null) throw fail(MODULE, "BAD_INPUT", why, { file });
  return bytes.toString("utf8");
}

/**
 * Reads a sparse Matrix Market file (a path, or - for stdin; at most MAX_SPARSE_FILE_BYTES, refused as soon as more
 * arrive: stdin, a FIFO or a device has no size to check first) into its structure.
 */
export function readSparseMatrixFile(path: string, opts: SparseReadOptions = {}): SparseStructure {
  checkPathArg(MODULE, "readSparseMatrixFile", "path", path, 'a path or "-"');
  checkOptionsObject(MODULE, "options", opts);
  const file = path === "-" ? "<stdin>" : path;
  const past = (): never => {
    throw fail(MODULE, "BAD_INPUT", `the file has more than the ${MAX_SPARSE_FILE_BYTES} bytes read`, { file });
  };
  let text: string;
  try {
    if (path !== "-") {
      const size = statSync(path).size;
      if (size > MAX_SPARSE_FILE_BYTES)
        throw fail(MODULE, "BAD_INPUT", `the file has ${size} bytes, more than the ${MAX_SPARSE_FILE_BYTES} read`, {
          file,
        });
      // its bytes and its text, before they are read (the size line's check adds the lines and the entries)
      checkMemory(MODULE, 2 * size, `reading the ${size}-byte file`, memoryBudgetOf(opts), { file });
    }
    text = utf8Text(readBounded(path, MAX_SPARSE_FILE_BYTES, past), file);
  } catch (e) {
    throw fsError(e, MODULE, file, false);
  }
  return parseSparseMatrixMarket(text, file, opts);
}
