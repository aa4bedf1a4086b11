/**
 * Per-message software overheads as SMPI takes them (`smpi/os`, `smpi/or`, `smpi/ois`): piecewise linear in the
 * message size, `size:seconds:seconds_per_byte;...`.
 */
import { fail } from "../../model/errors.js";
import { checkArg, isOptionsObject } from "../../model/option-checks.js";

/** One piece: from `fromBytes` (exclusive, except for the first piece) the overhead is us + usPerByte * bytes. */
export interface OverheadPiece {
  readonly fromBytes: number;
  readonly us: number;
  readonly usPerByte: number;
}

/** An overhead: its pieces sorted by fromBytes (empty: no overhead). */
export type Overhead = readonly OverheadPiece[];

/** No overhead. */
export const NO_OVERHEAD: Overhead = Object.freeze([]);

/**
 * The overhead (us) of a message of `bytes` bytes (its payload, without the envelope), by SMPI's rule: the first
 * piece up to its bound, then the last piece whose bound is below the size.
 */
export function overheadUs(o: Overhead, bytes: number): number {
  checkOverhead("overheadUs", o);
  checkArg("machines", "overheadUs", "bytes", bytes, typeof bytes === "number" && bytes >= 0, "a number of bytes >= 0");
  return overheadAt(o, bytes);
}

/** overheadUs unchecked, for the replay's loop over its operations (the overhead checked where it was made). */
export function overheadAt(o: Overhead, bytes: number): number {
  const n = o.length;
  if (n === 0) return 0;
  let cur = o[0]!.us + o[0]!.usPerByte * bytes;
  // an indexed loop: the program replay takes overheads for each of its operations, and for-of over the frozen
  // pieces was slower there (about 1.5 times the loop's CPU time)
  for (let i = 0; i < n; i++) {
    const piece = o[i]!;
    if (bytes <= piece.fromBytes) return cur;
    cur = piece.us + piece.usPerByte * bytes;
  }
  return cur;
}

/** A constant overhead of `us` microseconds per message plus `usPerByte` per byte. */
export function flatOverhead(us: number, usPerByte = 0): Overhead {
  const num = (v: unknown): boolean => typeof v === "number" && v >= 0 && v < Infinity;
  checkArg("machines", "flatOverhead", "us", us, num(us), "a time >= 0 (us)", "BAD_OPTION");
  checkArg(
    "machines",
    "flatOverhead",
    "usPerByte",
    usPerByte,
    num(usPerByte),
    "a time per byte >= 0 (us)",
    "BAD_OPTION",
  );
  return us === 0 && usPerByte === 0 ? NO_OVERHEAD : Object.freeze([{ fromBytes: 0, us, usPerByte }]);
}

/** Parses SMPI's syntax (`size:seconds:seconds_per_byte;...`); `what` names the option in the error. */
export function parseOverhead(text: string, what: string): Overhead {
  checkArg("machines", "parseOverhead", "text", text, typeof text === "string", "a string", "BAD_OPTION");
  checkArg("machines", "parseOverhead", "what", what, typeof what === "string", "a string (what it is, for messages)");
  const t = text.trim();
  if (t === "" || t === "0") return NO_OVERHEAD;
  const pieces: OverheadPiece[] = [];
  for (const part of t.split(";")) {
    if (part.trim() === "") continue;
    const f = part.split(":").map((s) => Number(s.trim()));
    if (f.length !== 3 || f.some((x) => !Number.isFinite(x) || x < 0))
      throw fail(
        "machines",
        "BAD_OPTION",
        `${what}: '${part}' is not size:seconds:seconds_per_byte with three non-negative numbers`,
      );
    pieces.push({ fromBytes: f[0]!, us: f[1]! * 1e6, usPerByte: f[2]! * 1e6 });
  }
  pieces.sort((a, b) => a.fromBytes - b.fromBytes);
  return Object.freeze(pieces);
}

/** The overhead in SMPI's syntax (seconds), or "0" for none. */
export function smpiOverheadText(o: Overhead): string {
  checkOverhead("smpiOverheadText", o);
  if (o.length === 0) return "0";
  const num = (x: number): string => String(Number(x.toPrecision(12)));
  return o.map((p) => `${p.fromBytes}:${num(p.us / 1e6)}:${num(p.usPerByte / 1e6)}`).join(";");
}

/** Refuses an overhead that is not an array of pieces { fromBytes, us, usPerByte } (numbers), naming `fn`. */
export function checkOverhead(fn: string, o: unknown, field = "o"): void {
  const num = (v: unknown): boolean => typeof v === "number" && v >= 0 && v < Infinity;
  const piece = (x: unknown): boolean =>
    isOptionsObject(x) && num(x["fromBytes"]) && num(x["us"]) && typeof x["usPerByte"] === "number";
  const ok = Array.isArray(o) && o.every(piece);
  checkArg("machines", fn, field, o, ok, "an Overhead (an array of { fromBytes, us, usPerByte }; parseOverhead's)");
}
