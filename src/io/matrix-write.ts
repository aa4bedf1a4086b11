/**
 * Matrix files: writes a CommMatrix as commplan.matrix/v1 JSON (dense or sparse), CSV or Matrix Market, streamed in
 * pieces.
 */
import { fail } from "../model/errors.js";
import { OUTPUT_OPTION_KEYS, writePieces, type OutputOptions } from "./file-output.js";
import { FORMAT_NAMES } from "./json-schema.js";
import { MAX_DENSE_P, checkMatrixArg, matrixRows, nonzeroCount, type CommMatrix } from "../model/matrix.js";
import { checkOptionKeys, checkOptionsObject } from "../model/option-checks.js";
import { matrixFormatOfName, type MatrixFileFormat } from "./matrix-read.js";
import { quoted } from "../internal/quoted.js";

/** Target size of the pieces handed to the stream (characters). */
const PIECE = 1 << 20;

/** Options of the matrix writers. */
export interface MatrixWriteOptions extends OutputOptions {
  /**
   * JSON only: write `entries` (non-zero [i, j, m] triples) instead of `rows`; default: sparse when under 25% of
   * entries are non-zero.
   */
  readonly sparse?: boolean;
  /** Characters per piece (default 1 Mi; tests use small pieces). */
  readonly pieceSize?: number;
}

/** The comment line that carries elementBytes in CSV (`#`) and Matrix Market (`%%`) files; the reader honours it. */
export function elementBytesComment(lead: "#" | "%%", elementBytes: number): string {
  return `${lead} commplan elementBytes=${elementBytes}\n`;
}

/** Refuses a dense form (P x P cells) past MAX_DENSE_P: no reader would take it back, and its text is P^2 numbers. */
function denseFormFits(m: CommMatrix, form: string): void {
  if (m.p > MAX_DENSE_P)
    throw fail(
      "matrix",
      "BAD_OPTION",
      `${form} is dense (P x P cells) and P = ${m.p} exceeds ${MAX_DENSE_P}: write the JSON entries form or Matrix Market`,
      { field: "format" },
    );
}

/** The fraction of non-zero entries (a sparse matrix counts as sparse, whatever its fill). */
function density(m: CommMatrix): number {
  if (m.sparse) return 0;
  let nnz = 0;
  for (let k = 0; k < m.data.length; k++) if (m.data[k] !== 0) nnz++;
  return nnz / m.data.length;
}

/** Row i as comma-separated integers (a sparse row is spelled out from its entries: no dense copy). */
function rowText(m: CommMatrix, i: number): string {
  const s = m.sparse;
  if (!s) return m.data.subarray(i * m.p, (i + 1) * m.p).join(",");
  const cells = new Array<number>(m.p).fill(0);
  for (let k = s.rowStart[i]!; k < s.rowStart[i + 1]!; k++) cells[s.col[k]!] = s.val[k]!;
  return cells.join(",");
}

/**
 * The matrix as a commplan.matrix/v1 document in pieces of about `pieceSize` characters: the header
 * on one line, then one line per row (dense) or per non-zero entry (sparse).
 */
export function* matrixJsonPieces(m: CommMatrix, opts: MatrixWriteOptions = {}): Generator<string, void, undefined> {
  const p = m.p;
  const piece = opts.pieceSize ?? PIECE;
  const sparse = opts.sparse ?? density(m) < 0.25;
  if (!sparse) denseFormFits(m, "the JSON rows form");
  const rows = sparse ? matrixRows(m) : null;
  let out = `{"format":${JSON.stringify(FORMAT_NAMES.matrix)},"p":${p},"elementBytes":${m.elementBytes},"${sparse ? "entries" : "rows"}":[`;
  let first = true;
  for (let i = 0; i < p; i++) {
    if (rows) {
      for (let k = rows.rowStart[i]!; k < rows.rowStart[i + 1]!; k++) {
        out += `${first ? "\n" : ",\n"}[${i},${rows.col[k]!},${rows.val[k]!}]`;
        first = false;
      }
    } else {
      out += `${first ? "\n" : ",\n"}[${rowText(m, i)}]`;
      first = false;
    }
    if (out.length >= piece) {
      yield out;
      out = "";
    }
  }
  yield `${out}${first ? "" : "\n"}]}\n`;
}

/** The matrix as CSV in pieces: a `# commplan elementBytes=N` comment line, then P lines of P integers. */
export function* matrixCsvPieces(m: CommMatrix, opts: MatrixWriteOptions = {}): Generator<string, void, undefined> {
  const piece = opts.pieceSize ?? PIECE;
  denseFormFits(m, "CSV");
  let out = elementBytesComment("#", m.elementBytes);
  for (let i = 0; i < m.p; i++) {
    out += `${rowText(m, i)}\n`;
    if (out.length >= piece) {
      yield out;
      out = "";
    }
  }
  yield out;
}

/**
 * The matrix as a Matrix Market coordinate integer general file in pieces: the banner, a
 * `%% commplan elementBytes=N` comment, the size line `P P nnz`, then `i j value` (1-based) per
 * non-zero entry, row by row.
 */
export function* matrixMtxPieces(m: CommMatrix, opts: MatrixWriteOptions = {}): Generator<string, void, undefined> {
  const p = m.p;
  const piece = opts.pieceSize ?? PIECE;
  const { rowStart, col, val } = matrixRows(m);
  let out = `%%MatrixMarket matrix coordinate integer general\n${elementBytesComment("%%", m.elementBytes)}${p} ${p} ${nonzeroCount(m)}\n`;
  for (let i = 0; i < p; i++) {
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) out += `${i + 1} ${col[k]! + 1} ${val[k]!}\n`;
    if (out.length >= piece) {
      yield out;
      out = "";
    }
  }
  yield out;
}

/** The pieces of a matrix file in the given format. */
export function matrixPieces(
  m: CommMatrix,
  format: MatrixFileFormat,
  opts: MatrixWriteOptions = {},
): Generator<string, void, undefined> {
  switch (format) {
    case "json":
      return matrixJsonPieces(m, opts);
    case "csv":
      return matrixCsvPieces(m, opts);
    case "mtx":
      return matrixMtxPieces(m, opts);
    default:
      throw fail("matrix", "BAD_OPTION", `unknown matrix format ${quoted(String(format))} (json, csv or mtx)`, {
        field: "format",
      });
  }
}

const join = (pieces: Iterable<string>): string => {
  let text = "";
  for (const piece of pieces) text += piece;
  return text;
};

/** The matrix as one commplan.matrix/v1 JSON string (small matrices and tests; large ones: writeMatrixFile). */
export function matrixToJsonText(m: CommMatrix, opts: MatrixWriteOptions = {}): string {
  checkOptionsObject("matrix", "options", opts);
  checkMatrixArg("matrix", m);
  return join(matrixJsonPieces(m, opts));
}

/** The matrix as one CSV string, with its `# commplan elementBytes=N` line (small matrices and tests). */
export function matrixToCsvText(m: CommMatrix): string {
  checkMatrixArg("matrix", m);
  return join(matrixCsvPieces(m));
}

/** The matrix as one Matrix Market string, with its `%% commplan elementBytes=N` line (small matrices and tests). */
export function matrixToMtxText(m: CommMatrix): string {
  checkMatrixArg("matrix", m);
  return join(matrixMtxPieces(m));
}

/**
 * Writes a matrix file to a path, or to `opts.stdout` for "-", streamed in pieces with backpressure; a
 * path is written to a temporary file beside it and renamed into place (never half a file). Without a `format`, the
 * one the target's extension implies as readMatrixFile reads it (matrixFormatOfName: .json, .csv, .mtx or .mm), else
 * JSON (stdout, and any other extension, which the reader then tells from the contents).
 */
export async function writeMatrixFile(
  m: CommMatrix,
  target: string,
  format?: MatrixFileFormat,
  opts: MatrixWriteOptions = {},
): Promise<void> {
  checkMatrixArg("matrix", m);
  checkOptionsObject("matrix", "options", opts);
  checkOptionKeys("matrix", opts, [...OUTPUT_OPTION_KEYS, "sparse", "pieceSize"]);
  const f = format ?? (typeof target === "string" ? matrixFormatOfName(target) : null) ?? "json";
  await writePieces(matrixPieces(m, f, opts), target, "matrix", opts);
}
