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
