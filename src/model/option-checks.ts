/** Option checks shared by the entry points: an options object, a boolean option (one-line BAD_OPTION errors). */
import { didYouMean } from "../internal/did-you-mean.js";
import { fail, type ErrorCode } from "./errors.js";

/** What a bad value is, for a one-line message: a number as itself, a string quoted (cut at 40), else its kind. */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "function") return "a function";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  return String(v);
}

/** Whether `v` is an options object: an object, not null, not an array. */
export function isOptionsObject(v: unknown): v is { readonly [k: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Throws a one-line BAD_OPTION error of `module` on `field` unless `v` is an options object (not null, not an array)
 * or undefined (the defaults).
 */
export function checkOptionsObject(module: string, field: string, v: unknown): void {
  if (v === undefined || isOptionsObject(v)) return;
  throw fail(module, "BAD_OPTION", `${field} must be an object or undefined, got ${describeValue(v)}`, { field });
}

/**
 * An option key for a one-line message: a plain one (letters, digits, `_$.-`, at most 40) as 'key', any other as
 * describeValue quotes a string (JSON-escaped, so a newline is `\n`; cut at 40 characters).
 */
function quotedKey(key: string): string {
  return /^[\w$.-]{1,40}$/.test(key) ? `'${key}'` : describeValue(key);
}

/**
 * Throws a one-line BAD_OPTION error of `module` naming the first key of the options object `v` that is not in `known`
 * (with a "did you mean" and the known keys; after `fn: ` when the function is named), as the command line refuses an
 * unknown flag: a misspelt option would
 * otherwise be dropped and its default used (`{ paylod: true }` planned without payloads). Anything but an options
 * object passes (checkOptionsObject refuses it).
 */
export function checkOptionKeys(module: string, v: unknown, known: readonly string[], fn?: string): void {
  if (!isOptionsObject(v)) return;
  for (const key of Object.keys(v)) {
    if (known.includes(key)) continue;
    const text = `unknown option ${quotedKey(key)}${didYouMean(key, known)}; known: ${known.join(", ")}`;
    throw fail(module, "BAD_OPTION", fn === undefined ? text : `${fn}: ${text}`, { field: key });
  }
}

/**
 * Throws a one-line BAD_OPTION error of `module` on `field` unless `v` is true, false, or undefined or null (the
 * default).
 */
export function checkBooleanOption(module: string, field: string, v: unknown): void {
  if (v === undefined || v === null || typeof v === "boolean") return;
  throw fail(module, "BAD_OPTION", `${field} must be true or false, got ${describeValue(v)}`, { field });
}

/**
 * The one check of a reader's arguments: `path` a non-empty string (a file, or "-" for stdin), `opts` an options object
 * or undefined with no key outside `known`; one-line BAD_OPTION errors of `module`, not Node's TypeError from open.
 */
export function checkReadArguments(module: string, path: unknown, opts: unknown, known: readonly string[]): void {
  if (typeof path !== "string" || path === "")
    throw fail(module, "BAD_OPTION", `the file must be a path or "-", got ${describeValue(path)}`, { field: "path" });
  checkOptionsObject(module, "options", opts);
  checkOptionKeys(module, opts, known);
}

/**
 * Throws a one-line error of `module` (BAD_INPUT unless `code` says otherwise) naming the public function `fn` and its
 * argument `field` unless `ok`: `fn: field must be <what>, got <the value>`. The check of a plain argument (a string, a
 * number, an object) made once where a plain-JavaScript caller hands it in, so a null is named, not met as a TypeError.
 */
export function checkArg(
  module: string,
  fn: string,
  field: string,
  v: unknown,
  ok: boolean,
  what: string,
  code: ErrorCode = "BAD_INPUT",
): void {
  if (!ok) throw fail(module, code, `${fn}: ${field} must be ${what}, got ${describeValue(v)}`, { field });
}

/** checkArg of a path argument, a non-empty string (`what`: 'a path or "-"', "a directory path"), as BAD_OPTION. */
export function checkPathArg(module: string, fn: string, field: string, v: unknown, what: string): void {
  checkArg(module, fn, field, v, typeof v === "string" && v !== "", what, "BAD_OPTION");
}

/** Whether `v` is an integer in lo..hi. */
export function isIntIn(v: unknown, lo: number, hi: number): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= lo && v <= hi;
}
