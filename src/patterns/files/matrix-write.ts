/** Matrix files: writes a CommMatrix as commplan.matrix/v1 JSON (dense or sparse) or as CSV. */
import { FORMAT_NAMES } from "../../model/json-schema.js";
import type { CommMatrix } from "../../model/matrix.js";

/** Options of matrixToJsonText. */
export interface MatrixJsonOptions {
  /** Write `entries` (non-zero [i, j, m] triples) instead of `rows`; default: sparse when under 25% of entries are non-zero. */
  readonly sparse?: boolean;
}

/** The fraction of non-zero entries. */
function density(m: CommMatrix): number {
  let nnz = 0;
  for (let k = 0; k < m.data.length; k++) if (m.data[k] !== 0) nnz++;
  return nnz / m.data.length;
}

/** The matrix as a commplan.matrix/v1 document: the header on one line, then one line per row or entry. */
export function matrixToJsonText(m: CommMatrix, opts: MatrixJsonOptions = {}): string {
  const { p, data } = m;
  const sparse = opts.sparse ?? density(m) < 0.25;
  const head = `{"format":${JSON.stringify(FORMAT_NAMES.matrix)},"p":${p},"elementBytes":${m.elementBytes},`;
  const lines: string[] = [];
  if (sparse) {
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) {
        const v = data[i * p + j]!;
        if (v !== 0) lines.push(`[${i},${j},${v}]`);
      }
    }
    return `${head}"entries":[${lines.length > 0 ? `\n${lines.join(",\n")}\n` : ""}]}\n`;
  }
  for (let i = 0; i < p; i++) lines.push(`[${Array.from(data.subarray(i * p, (i + 1) * p)).join(",")}]`);
  return `${head}"rows":[\n${lines.join(",\n")}\n]}\n`;
}

/** The matrix as CSV: P lines of P comma-separated integers (elementBytes is not kept). */
export function matrixToCsvText(m: CommMatrix): string {
  const { p, data } = m;
  let out = "";
  for (let i = 0; i < p; i++) out += `${Array.from(data.subarray(i * p, (i + 1) * p)).join(",")}\n`;
  return out;
}
