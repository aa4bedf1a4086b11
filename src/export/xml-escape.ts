/**
 * escapeXml and xmlCommentText: text made safe for XML and HTML content, attribute values and comments (one place for
 * every SVG, XML and HTML writer).
 */

/**
 * Characters XML 1.0 cannot hold in any form (C0 controls but tab, line feed and carriage return;
 * U+FFFE, U+FFFF; unpaired surrogates): not even as character references.
 */
/* eslint-disable no-control-regex -- control characters are what this pattern finds */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */

/** A character XML cannot hold, written as the text \uXXXX. */
function codeText(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Escapes &, <, > and " (so the result fits element content and double-quoted attributes alike);
 * a character XML cannot hold is written as the text \uXXXX.
 */
export function escapeXml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(NOT_XML, codeText);
}

/**
 * Text for the inside of an XML comment: no "--" (a space between two dashes), no <, > or & (spaces), characters XML
 * cannot hold as \uXXXX.
 */
export function xmlCommentText(s: string): string {
  return s
    .replace(NOT_XML, codeText)
    .replace(/-(?=-)/g, "- ")
    .replace(/[<>&]/g, " ");
}
