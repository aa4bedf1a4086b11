/** The --json summaries of the commands that write a document or file: one JSON document on stdout, not with `-o -`. */
import { statSync } from "node:fs";
import { fail } from "../../model/errors.js";
import type { CliContext } from "../context.js";

/** The help of --json on a command whose output goes to a file. */
export const JSON_SUMMARY_HELP =
  "print a summary of what was written as JSON on stdout (not with -o -: the output itself goes there)";

/** Refuses --json when the command's output goes to stdout (two documents cannot share it). */
export function refuseJsonOnStdout(module: string, json: boolean | undefined, output: string): void {
  if (json && output === "-")
    throw fail(
      module,
      "BAD_OPTION",
      "--json prints its summary on stdout, where -o - writes the output: give -o FILE",
      {
        field: "json",
      },
    );
}

/** Prints one JSON document (indented) on stdout. */
export function printJson(ctx: CliContext, doc: object): void {
  ctx.io.out(JSON.stringify(doc, null, 2) + "\n");
}

/** The size in bytes of a written file, or null when it is not a regular file (a device or FIFO written in place). */
export function writtenBytes(path: string): number | null {
  const st = statSync(path, { throwIfNoEntry: false });
  return st !== undefined && st.isFile() ? st.size : null;
}
