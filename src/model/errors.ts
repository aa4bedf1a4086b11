/** CommplanError: the one error class of commplan; it carries a code and the place of the problem. */

/** Machine-readable kinds of problem a user can cause. */
export type ErrorCode =
  | "BAD_INPUT" // malformed or out-of-range input data
  | "BAD_FORMAT" // a file of the wrong format or version
  | "BAD_OPTION" // a command-line or API option out of range
  | "MISMATCH" // e.g. a schedule for another matrix
  | "IO" // a file could not be read or written
  | "UNSUPPORTED"; // a valid request this planner cannot do (e.g. P not a perfect square)

/** Where a problem is: a file, a line (1-based), a field path. */
export interface ErrorPlace {
  readonly file?: string;
  readonly line?: number;
  readonly field?: string;
}

/** The error commplan throws for problems the user must see; the message starts with the module. */
export class CommplanError extends Error {
  override readonly name = "CommplanError";
  readonly code: ErrorCode;
  readonly place: ErrorPlace;
  /**
   * The module whose name starts the message (`fail`'s first argument, "matrix" for `matrix: ...`), so that a caller
   * can say the problem in its own name (the command line writes `plan: ...`); undefined when the message names none.
   */
  readonly module: string | undefined;
  constructor(code: ErrorCode, message: string, place: ErrorPlace = {}, module?: string) {
    super(message);
    this.code = code;
    this.place = place;
    this.module = module !== undefined && message.startsWith(`${module}: `) ? module : undefined;
  }
}

/** True for a CommplanError (also across module copies). */
export function isCommplanError(e: unknown): e is CommplanError {
  return e instanceof Error && (e as { name?: unknown }).name === "CommplanError" && "code" in e;
}

/** Builds a CommplanError whose message is `module: text` (with file and line when known). */
export function fail(module: string, code: ErrorCode, text: string, place: ErrorPlace = {}): CommplanError {
  const where = [place.file, place.line !== undefined ? `line ${place.line}` : undefined].filter(Boolean).join(":");
  const prefix = where ? `${module}: ${where}: ` : `${module}: `;
  return new CommplanError(code, prefix + text, place, module);
}
