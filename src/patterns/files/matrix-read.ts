/** Matrix files: reads a CommMatrix from JSON (commplan.matrix/v1), CSV or Matrix Market coordinate text. */
import { readFileSync } from "node:fs";
import { fail, isCommplanError } from "../../model/errors.js";
import type { CommplanError, ErrorCode } from "../../model/errors.js";
import { validateWithSchema } from "../../model/json-schema.js";
import { findJsonSyntaxError } from "../../model/json-tokenizer.js";
import { checkP, DEFAULT_ELEMENT_BYTES, matrixFromData, matrixFromEntries, matrixFromRows } from "../../model/matrix.js";
import type { CommMatrix } from "../../model/matrix.js";

const MODULE = "matrix";

/** The text formats a matrix file can have. */
export type MatrixFileFormat = "json" | "csv" | "mtx";

/** Options of parseMatrixText. */
export interface ParseMatrixOptions {
  /** File name for error messages. */
  readonly file?: string;
  /** The format; sniffed from the text when absent (`{` json, `%%MatrixMarket` mtx, else csv). */
  readonly format?: MatrixFileFormat;
  /** Bytes per element for CSV and Matrix Market, which do not carry it (default 8). */
  readonly elementBytes?: number;
}

type Place = { file?: string; line?: number; field?: string };

function placeOf(file: string | undefined, line?: number, field?: string): Place {
  return { ...(file === undefined ? {} : { file }), ...(line === undefined ? {} : { line }), ...(field === undefined ? {} : { field }) };
}

/** The format of a matrix text, judged from its first characters only. */
export function sniffMatrixFormat(text: string): MatrixFileFormat {
  const t = text.trimStart();
  if (t.startsWith("{")) return "json";
  if (t.startsWith("%%MatrixMarket")) return "mtx";
  return "csv";
}

/** The 1-based line and column of a character offset. */
function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1, start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < pos; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: pos - start + 1 };
}

/** Re-throws a CommplanError from the matrix constructors with the file name in its message. */
function withFile(e: unknown, file: string | undefined): never {
  if (isCommplanError(e) && file !== undefined && e.place.file === undefined) {
    const text = e.message.startsWith(`${MODULE}: `) ? e.message.slice(MODULE.length + 2) : e.message;
    throw fail(MODULE, e.code, text, { ...e.place, file });
  }
  throw e;
}

function parseJson(text: string, opts: ParseMatrixOptions): CommMatrix {
  const { file } = opts;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    // V8 gives "at position N" for some errors only; the tokenizer finds the place of the others.
    const m = /at position (\d+)/.exec((e as Error).message);
    const found = findJsonSyntaxError(text);
    if (found) throw fail(MODULE, "BAD_INPUT", `invalid JSON: ${found.detail} (column ${found.column})`, placeOf(file, found.line));
    const { line, column } = m ? lineColumn(text, Number(m[1])) : lineColumn(text, text.length);
    throw fail(MODULE, "BAD_INPUT", `invalid JSON: ${(e as Error).message} (column ${column})`, placeOf(file, line));
  }
  validateWithSchema("matrix", doc, MODULE, file);
  const d = doc as { p: number; elementBytes?: number; rows?: number[][]; entries?: number[][] };
  const mopts = { elementBytes: d.elementBytes ?? DEFAULT_ELEMENT_BYTES, ...(file === undefined ? {} : { file }) };
  try {
    if (d.rows !== undefined) {
      if (d.rows.length !== d.p) throw fail(MODULE, "BAD_INPUT", `/rows has ${d.rows.length} rows but p = ${d.p}`, placeOf(file, undefined, "/rows"));
      return matrixFromRows(d.rows, mopts);
    }
    return matrixFromEntries(d.p, d.entries ?? [], mopts);
  } catch (e) {
    return withFile(e, file);
  }
}

const INTEGER = /^\d+$/;

/** A non-negative integer field of a CSV or Matrix Market line, or a CommplanError naming line and column. */
function integerField(s: string, file: string | undefined, line: number, column: number, what = ""): number {
  const v = INTEGER.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(v)) {
    const why = INTEGER.test(s) ? "exceeds 2^53 - 1" : "is not a non-negative integer";
    throw fail(MODULE, "BAD_INPUT", `'${s}'${what} ${why} (column ${column})`, placeOf(file, line));
  }
  return v;
}

function parseCsv(text: string, opts: ParseMatrixOptions): CommMatrix {
  const { file } = opts;
  const lines = text.split(/\r?\n/);
  let p = -1;
  let data = new Float64Array(0);
  let row = 0;
  let lastLine = 0;
  for (let ln = 0; ln < lines.length; ln++) {
    const raw = lines[ln]!;
    const t = raw.trim();
    if (t === "" || t.startsWith("#")) continue;
    const lineNo = ln + 1;
    lastLine = lineNo;
    const cells = raw.split(",");
    if (p < 0) {
      p = checkPAt(cells.length, file, lineNo);
      data = new Float64Array(p * p);
    } else if (cells.length !== p) {
      throw fail(MODULE, "BAD_INPUT", `row has ${cells.length} entries, expected ${p}`, placeOf(file, lineNo));
    }
    if (row >= p) throw fail(MODULE, "BAD_INPUT", `more than ${p} rows: a ${p}-column matrix must have ${p} rows (it must be square)`, placeOf(file, lineNo));
    for (let j = 0; j < p; j++) data[row * p + j] = integerField(cells[j]!.trim(), file, lineNo, j + 1);
    row++;
  }
  if (p < 0) throw fail(MODULE, "BAD_INPUT", "the matrix is empty (no rows)", placeOf(file, Math.max(1, lines.length)));
  if (row < p) throw fail(MODULE, "BAD_INPUT", `has ${row} rows, expected ${p} (the matrix must be square)`, placeOf(file, lastLine));
  try {
    return matrixFromData(p, data, { elementBytes: opts.elementBytes ?? DEFAULT_ELEMENT_BYTES, ...(file === undefined ? {} : { file }) });
  } catch (e) {
    return withFile(e, file);
  }
}

function checkPAt(p: number, file: string | undefined, line: number): number {
  try {
    return checkP(p, file);
  } catch (e) {
    throw fail(MODULE, "BAD_INPUT", `a row of ${p} entries: ${(e as CommplanError).message.replace(/^matrix: (.*?: )?/, "")}`, placeOf(file, line));
  }
}

function parseMtx(text: string, opts: ParseMatrixOptions): CommMatrix {
  const { file } = opts;
  const lines = text.split(/\r?\n/);
  const bad = (code: ErrorCode, line: number, msg: string): CommplanError => fail(MODULE, code, msg, placeOf(file, line));
  const banner = (lines[0] ?? "").trim().split(/\s+/);
  if (banner[0] !== "%%MatrixMarket") throw bad("BAD_FORMAT", 1, "not a Matrix Market file (the first line must start with %%MatrixMarket)");
  const [object, layout, field, symmetry] = banner.slice(1).map((w) => w.toLowerCase());
  if (object !== "matrix" || layout !== "coordinate") throw bad("BAD_FORMAT", 1, `only 'matrix coordinate' Matrix Market files are supported, got '${banner.slice(1, 3).join(" ")}'`);
  if (field !== "integer" && field !== "real" && field !== "pattern") throw bad("BAD_FORMAT", 1, `the field must be integer, real or pattern, got '${field ?? ""}'`);
  if (symmetry !== "general") throw bad("BAD_FORMAT", 1, `only 'general' symmetry is supported, got '${symmetry ?? ""}'`);
  let ln = 1;
  while (ln < lines.length && (lines[ln]!.trim() === "" || lines[ln]!.startsWith("%"))) ln++;
  if (ln >= lines.length) throw bad("BAD_INPUT", lines.length, "missing the size line 'P P nnz'");
  const sizeLine = ln + 1;
  const dims = lines[ln]!.trim().split(/\s+/);
  if (dims.length !== 3) throw bad("BAD_INPUT", sizeLine, `the size line must be 'rows columns entries', got '${lines[ln]!.trim()}'`);
  const [r, c, nnz] = dims.map((w, k) => integerField(w, file, sizeLine, k + 1)) as [number, number, number];
  if (r !== c) throw bad("BAD_INPUT", sizeLine, `the matrix is ${r} x ${c}; it must be square`);
  const p = checkPAt(r, file, sizeLine);
  const data = new Float64Array(p * p);
  const seen = new Uint8Array(p * p);
  const width = field === "pattern" ? 2 : 3;
  let count = 0;
  let lastLine = sizeLine;
  for (ln++; ln < lines.length; ln++) {
    const t = lines[ln]!.trim();
    if (t === "" || t.startsWith("%")) continue;
    const lineNo = ln + 1;
    lastLine = lineNo;
    const w = t.split(/\s+/);
    if (w.length !== width) throw bad("BAD_INPUT", lineNo, `an entry must be '${width === 2 ? "i j" : "i j value"}', got '${t}'`);
    if (count >= nnz) throw bad("BAD_INPUT", lineNo, `more entries than the ${nnz} the size line announces`);
    const i = integerField(w[0]!, file, lineNo, 1, " (row index)");
    const j = integerField(w[1]!, file, lineNo, 2, " (column index)");
    if (i < 1 || i > p || j < 1 || j > p) throw bad("BAD_INPUT", lineNo, `index (${i}, ${j}) is outside 1..${p}`);
    let v = 1;
    if (width === 3) {
      const s = w[2]!;
      v = field === "integer" ? integerField(s, file, lineNo, 3) : Number(s);
      if (!Number.isFinite(v) || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw bad("BAD_INPUT", lineNo, `'${s}' is not a number (column 3)`);
      if (v < 0) throw bad("BAD_INPUT", lineNo, `'${s}' is negative (column 3)`);
      if (!Number.isInteger(v)) throw bad("BAD_INPUT", lineNo, `'${s}' is not an integer: entries count elements (column 3)`);
      if (v > Number.MAX_SAFE_INTEGER) throw bad("BAD_INPUT", lineNo, `'${s}' exceeds 2^53 - 1 (column 3)`);
    }
    const idx = (i - 1) * p + (j - 1);
    if (seen[idx]) throw bad("BAD_INPUT", lineNo, `entry (${i}, ${j}) appears twice`);
    seen[idx] = 1;
    data[idx] = v;
    count++;
  }
  if (count !== nnz) throw bad("BAD_INPUT", lastLine, `the size line announces ${nnz} entries but the file has ${count}`);
  try {
    return matrixFromData(p, data, { elementBytes: opts.elementBytes ?? DEFAULT_ELEMENT_BYTES, ...(file === undefined ? {} : { file }) });
  } catch (e) {
    return withFile(e, file);
  }
}

/** Parses a matrix from text: JSON (commplan.matrix/v1), CSV (a P x P grid) or Matrix Market coordinate. */
export function parseMatrixText(text: string, opts: ParseMatrixOptions = {}): CommMatrix {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const format = opts.format ?? sniffMatrixFormat(body);
  switch (format) {
    case "json":
      return parseJson(body, opts);
    case "mtx":
      return parseMtx(body, opts);
    case "csv":
      return parseCsv(body, opts);
    default:
      throw fail(MODULE, "BAD_OPTION", `unknown matrix format '${String(format)}' (json, csv or mtx)`, placeOf(opts.file));
  }
}

/** Reads a matrix file (path, or "-" for stdin), its format sniffed from the contents. */
export function readMatrixFile(path: string, opts: Omit<ParseMatrixOptions, "file"> = {}): CommMatrix {
  const file = path === "-" ? "<stdin>" : path;
  let text: string;
  try {
    text = readFileSync(path === "-" ? 0 : path, "utf8");
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EACCES" || code === "EPERM" ? "permission denied" : `cannot read: ${(e as Error).message}`;
    throw fail(MODULE, "IO", why, { file });
  }
  return parseMatrixText(text, { ...opts, file });
}
