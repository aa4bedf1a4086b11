/** The CLI's check that a schedule or program file was made for the --matrix file, naming both files when not. */
import { isCommplanError, fail } from "../model/errors.js";
import { checkMadeFor, type CommMatrix } from "../model/matrix.js";

/** A file argument as messages name it (`-` is stdin). */
function shownFile(path: string): string {
  return path === "-" ? "<stdin>" : path;
}

/**
 * checkMadeFor(m, doc, what, command), whose mismatch (another P, another digest) names the document's file and the
 * matrix file: `verify: s.json: the schedule was made for another matrix (digest ..., --matrix h.json has ...)`.
 */
export function checkFilesMatch(
  command: string,
  m: CommMatrix,
  doc: { readonly p: number; readonly matrixDigest: string },
  what: string,
  files: { readonly doc: string; readonly matrix: string },
): void {
  try {
    checkMadeFor(m, doc, what, command);
  } catch (e) {
    if (!isCommplanError(e) || e.code !== "MISMATCH") throw e;
    const text = e.message
      .slice(command.length + 2)
      .replace(/(this|the) matrix has/, `--matrix ${shownFile(files.matrix)} has`);
    throw fail(command, "MISMATCH", text, { ...e.place, file: shownFile(files.doc) });
  }
}

/**
 * The P check alone, for a document without a matrix digest (export lowers one, as lowerSchedule does): its P
 * against the matrix file's, in checkFilesMatch's words
 * (`export: s.json: the schedule is for P = 4, --matrix m.json has P = 5`).
 */
export function checkFilesP(
  command: string,
  m: CommMatrix,
  p: number,
  what: string,
  files: { readonly doc: string; readonly matrix: string },
): void {
  if (p !== m.p)
    throw fail(command, "MISMATCH", `${what} is for P = ${p}, --matrix ${shownFile(files.matrix)} has P = ${m.p}`, {
      field: "p",
      file: shownFile(files.doc),
    });
}
