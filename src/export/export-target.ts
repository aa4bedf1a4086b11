/** The checks a format makes of its target: one file (-o or stdout), or a directory (--out). */
import { fail } from "../model/errors.js";
import type { ExportTarget } from "./types.js";

/** The directory of a multi-file format (--out, else --split); refused when neither is given. */
export function targetDirectory(t: ExportTarget, format: string): string {
  const dir = t.dir ?? t.split;
  if (dir === null)
    throw fail("export", "BAD_OPTION", `format ${format} writes several files: give a directory (dir)`, {
      field: "out",
    });
  return dir;
}

/** Refuses a directory (--out, --split) for a format that writes one file. */
export function requireSingleFile(t: ExportTarget, format: string): void {
  if (t.dir !== null || t.split !== null)
    throw fail(
      "export",
      "BAD_OPTION",
      `format ${format} writes one file: give a file (output, "-" for stdout), not a directory (dir or split)`,
      { field: "out" },
    );
}
