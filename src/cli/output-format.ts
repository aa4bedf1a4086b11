/** The format a command writes: --format, else the output file's extension, a contradiction refused in one line. */
import { extname } from "node:path";
import { fail } from "../model/errors.js";

/**
 * The output format: `given` (--format, its value already checked), else the one `byName` reads from the output
 * file's extension, else `fallback`; a --format that contradicts the extension is refused. `-` (stdout) has none.
 */
export function outputFormat<F extends string>(
  module: string,
  given: F | undefined,
  output: string,
  byName: (name: string) => F | null,
  fallback: F,
): F {
  const named = output === "-" ? null : byName(output);
  if (given === undefined) return named ?? fallback;
  if (named !== null && named !== given)
    throw fail(module, "BAD_OPTION", `--format ${given} but the output file ${output} has the extension of ${named}`, {
      field: "format",
    });
  return given;
}

/**
 * Refuses an output named `.arrow` for a command that writes a schedule only as commplan.schedule/v1 JSON: a reader
 * that goes by the name (pyarrow's ipc.open_file, `SELECT ... FROM 'x.arrow'`) would find JSON there. `flag` is the
 * option that named it; export -f arrow converts the JSON.
 */
export function refuseArrowName(module: string, flag: string, field: string, output: string): void {
  if (namesArrow(output))
    throw fail(
      module,
      "BAD_OPTION",
      `${flag} ${output}: ${module} writes schedule JSON (commplan.schedule/v1), not Arrow; write it to a .json file ` +
        `and convert it with 'commplan export FILE.json -f arrow -o ${output}'`,
      { field },
    );
}

/** The schedule file format a file name implies by its extension (.json, .arrow), or null. */
export function scheduleFormatOfName(name: string): "json" | "arrow" | null {
  const ext = extname(name).toLowerCase();
  return ext === ".json" ? "json" : ext === ".arrow" ? "arrow" : null;
}

/** Whether an output name (not `-`, stdout) says Arrow by its extension. */
export function namesArrow(output: string): boolean {
  return output !== "-" && scheduleFormatOfName(output) === "arrow";
}

/**
 * Refuses an export whose output name says the other of JSON and Arrow (`export -f arrow -o x.json`, `-f program -o
 * x.arrow`), in store get's words; formats that write neither are not judged by the name.
 */
export function refuseExportName(module: string, format: string, output: string): void {
  const writes = format === "arrow" ? "arrow" : format === "program" ? "json" : null;
  const named = output === "-" ? null : scheduleFormatOfName(output);
  if (writes !== null && named !== null && named !== writes)
    throw fail(module, "BAD_OPTION", `--format ${format} but the output file ${output} has the extension of ${named}`, {
      field: "format",
    });
}
