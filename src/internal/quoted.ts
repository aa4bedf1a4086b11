/** Quoting of input text in messages, so that a message stays one line. */

// control characters are exactly what these patterns look for
/* eslint-disable no-control-regex */
const NEEDS_ESCAPE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029'"\\]/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/* eslint-enable no-control-regex */
const SHORT: { [c: string]: string } = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

/**
 * `text` with every control character and line separator written as an escape (\n, \u001b): one line, the rest
 * untouched.
 */
export function oneLine(text: string): string {
  return text.replace(CONTROL, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The most characters of input text a message quotes; longer text is cut, with its length said. */
export const MAX_QUOTED = 40;

/**
 * Text from the input for a message: 'text', or JSON-quoted ("a\nb") when it has a control character, a line separator,
 * a quote or a backslash, so that the message stays one line; past MAX_QUOTED characters, a cut excerpt ('abc...' (5000
 * characters)).
 */
export function quoted(text: string): string {
  if (text.length <= MAX_QUOTED) return NEEDS_ESCAPE.test(text) ? oneLine(JSON.stringify(text)) : `'${text}'`;
  let cut = text.slice(0, MAX_QUOTED - 3);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1); // do not split a surrogate pair
  return `${quoted(cut + "...")} (${text.length} characters)`;
}

/**
 * A value from the input as JSON text for a message (a string "in quotes"), cut like quoted() past MAX_QUOTED
 * characters and kept on one line; the length said of a cut one is the value's own: a string's characters (not its
 * JSON quotes and escapes), else its JSON text's.
 */
export function jsonExcerpt(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  if (s.length <= MAX_QUOTED + 2) return oneLine(s);
  let cut = s.slice(0, MAX_QUOTED - 3);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${oneLine(cut)}... (${typeof v === "string" ? v.length : s.length} characters)`;
}
