/**
 * The --json summaries of the commands that write a document or file: one JSON document on stdout, not with `-o -` or
 * an -o path that is stdout.
 */
import { fstatSync, statSync } from "node:fs";
import { quoted } from "../../internal/quoted.js";
import { fail } from "../../model/errors.js";
import type { CliContext } from "../context.js";

/** The help of --json on a command whose output goes to a file. */
export const JSON_SUMMARY_HELP =
  "print a summary of what was written as JSON on stdout (not with -o - or -o /dev/stdout: the output itself goes there)";

/**
 * Refuses --json when the command's output goes to stdout (two documents cannot share it): `-o -`, or a path that is
 * this process's stdout (/dev/stdout, /dev/fd/1, the file or terminal stdout was sent to: isProcessStdout).
 */
export function refuseJsonOnStdout(module: string, json: boolean | undefined, output: string): void {
  if (!json) return;
  if (output === "-")
    throw fail(
      module,
      "BAD_OPTION",
      "--json prints its summary on stdout, where -o - writes the output: give -o FILE",
      {
        field: "json",
      },
    );
  if (isProcessStdout(output))
    throw fail(
      module,
      "BAD_OPTION",
      `--json prints its summary on stdout, and -o ${quoted(output)} is that stdout too (two documents cannot share it): give -o FILE, or -o - without --json`,
      { field: "json" },
    );
}

/** Whether an output target is stdout: "-", or a path that is this process's stdout (isProcessStdout). */
export function namesStdout(target: string | undefined): boolean {
  return target !== undefined && (target === "-" || isProcessStdout(target));
}

/**
 * Refuses an output target that is stdout ("-", or a path that is this process's stdout: namesStdout) when stdout is
 * taken (by the command's own document): one line, `FLAG TARGET: WHY` ("-", or the path and "(this process's stdout)").
 * Every second target on stdout (an SVG, a trace, a hostfile) is refused here, so /dev/stdout is refused wherever "-"
 * is; `-o` with --json has its own words (refuseJsonOnStdout), by the same namesStdout rule.
 */
export function refuseStdoutTarget(
  module: string,
  flag: string,
  target: string | undefined,
  why: string,
  field: string,
): void {
  if (target === undefined || !namesStdout(target)) return;
  const shown = target === "-" ? "-" : `${quoted(target)} (this process's stdout)`;
  throw fail(module, "BAD_OPTION", `${flag} ${shown}: ${why}`, { field });
}

/**
 * Whether `path` is the file, pipe or terminal this process's stdout (fd 1) writes to (the same device and inode);
 * never /dev/null, which takes any number of documents.
 */
export function isProcessStdout(path: string): boolean {
  try {
    const out = fstatSync(1);
    const st = statSync(path);
    const same = st.dev === out.dev && st.ino === out.ino && st.rdev === out.rdev;
    return same && !(st.isCharacterDevice() && st.rdev === statSync("/dev/null").rdev);
  } catch {
    return false; // no stdout, or no such path (writing it reports that)
  }
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
