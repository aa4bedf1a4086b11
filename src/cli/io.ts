/** CLI I/O: text and file output for commands, option parsing with clear errors (process streams: process-io.ts). */
import type { Writable } from "node:stream";
import { fail } from "../model/errors.js";
import { writePieces } from "../io/file-output.js";
import type { JsonValue } from "../model/schedule.js";
import { quoted } from "../internal/quoted.js";
import { MAX_ELEMENT_BYTES } from "../model/matrix.js";
import type { CliIo } from "./process-io.js";

export { processIo, quietOnClosedStdout, textSink, type CliIo } from "./process-io.js";

/**
 * Whether a command writing `target` ("-": stdout) may show a progress bar while it writes: stderr is a terminal, and
 * the output does not go to that terminal too.
 */
export function writingBar(io: CliIo, target: string): boolean {
  return io.interactive && !(target === "-" && io.stdoutIsTerminal === true);
}

/**
 * Writes text to a path like the matrix and schedule writers (atomically, or in place for a device
 * or FIFO: see writePieces), or to the command's `stdout` for "-".
 */
export async function writeTextTarget(target: string, text: string, stdout: Writable): Promise<void> {
  await writePieces([text], target, "commplan", { stdout });
}

const DECIMAL_INTEGER = /^[+-]?\d+$/;
const DECIMAL_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Parses an integer option in [min, max]: decimal digits only (no 0x10, 1e1, 1.0 or blanks); `flag`: how the error
 * names the option (default `--name`).
 */
export function intOption(
  name: string,
  value: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  flag = `--${name}`,
): number {
  const v = DECIMAL_INTEGER.test(value) ? Number(value) : NaN;
  if (v > Number.MAX_SAFE_INTEGER && max === Number.MAX_SAFE_INTEGER)
    throw fail("commplan", "BAD_OPTION", `${flag} is past the largest integer taken (2^53 - 1), got ${quoted(value)}`, {
      field: name,
    });
  if (!Number.isSafeInteger(v) || v < min || v > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `in ${min}..${max}`; // no 2^53 - 1 spelled out
    throw fail("commplan", "BAD_OPTION", `${flag} must be an integer ${range}, got ${quoted(value)}`, {
      field: name,
    });
  }
  return v;
}

/** How an error names the ranks option, spelt --p or --ranks (and -P by platform). */
export const RANKS_FLAGS = "--ranks (--p)";

/**
 * Parses a number option written in decimal (digits, a point, an exponent; no 0x10, Infinity or blanks); `flag`: how
 * the error names the option (default `--name`).
 */
export function numberOption(name: string, value: string, flag = `--${name}`): number {
  const v = DECIMAL_NUMBER.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(v))
    throw fail("commplan", "BAD_OPTION", `${flag} must be a number, got ${quoted(value)}`, { field: name });
  return v;
}

/** The largest --element-bytes accepted (as the patterns' elementBytes option and the files). */
export { MAX_ELEMENT_BYTES };

/**
 * Refuses "-" as a directory a command writes several files into (export --split and --out, store add's store): "-"
 * is stdout to every other option, and a directory named "-" would be made instead; `./-` names one on purpose.
 */
export function refuseDashDirectory(command: string, what: string, dir: string, field: string): void {
  if (dir === "-")
    throw fail(
      command,
      "BAD_OPTION",
      `${what}: '-' is no directory here (stdout cannot hold several files): give a path (./- for a directory named -)`,
      { field },
    );
}

/** Help text of the schedule argument of the commands that read one (readScheduleFile). */
export const SCHEDULE_ARGUMENT_HELP =
  "schedule file: JSON (commplan.schedule/v1) or Arrow (export -f arrow, told by its magic bytes); - for stdin (JSON)";

/** Help text of --element-bytes on the commands that read a matrix. */
export const ELEMENT_BYTES_HELP =
  "bytes per element, overriding the matrix file's (JSON elementBytes, or the '# commplan elementBytes=N' comment of CSV and Matrix Market; else 8)";

/** The matrix reader options of a command with --element-bytes, under the run's memory budget. */
export function matrixReadOptions(
  o: { elementBytes?: string },
  maxMemory: number,
): { elementBytes?: number; maxMemory: number } {
  return o.elementBytes === undefined
    ? { maxMemory }
    : { elementBytes: intOption("element-bytes", o.elementBytes, 1, MAX_ELEMENT_BYTES), maxMemory };
}

/**
 * Parses repeated `key=value` options into JSON values (numbers and booleans parsed, else strings); a key given twice
 * is refused; a prototype-less object, so every key (also `__proto__`) is an own key the reader checks.
 */
export function keyValues(name: string, items: readonly string[]): { [k: string]: JsonValue } {
  const out = Object.create(null) as { [k: string]: JsonValue };
  for (const item of items) {
    const eq = item.indexOf("=");
    if (eq <= 0)
      throw fail("commplan", "BAD_OPTION", `--${name} expects key=value, got ${quoted(item)}`, { field: name });
    const key = item.slice(0, eq),
      raw = item.slice(eq + 1);
    if (Object.prototype.hasOwnProperty.call(out, key))
      throw fail(
        "commplan",
        "BAD_OPTION",
        `--${name} ${key} is given twice (${quoted(items.find((x) => x.startsWith(`${key}=`)) ?? key)} and ${quoted(item)}); give it once`,
        { field: name },
      );
    let value: JsonValue = raw;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed === "number" || typeof parsed === "boolean") value = parsed;
    } catch {
      // a plain string
    }
    out[key] = value;
  }
  return out;
}

export { collect } from "./repeatable.js";

/**
 * Aligned text tables and numbers for people (integers grouped, others to 4 digits), shared with the comparison's
 * outputs.
 */
export { textTable as table, fmtNumber as fmt } from "../compare/compare-format.js";
