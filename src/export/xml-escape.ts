/**
 * escapeXml: text made safe for XML and HTML content and attribute values (one place for every SVG, XML and HTML
 * writer).
 */

/** Escapes &, <, > and " (so the result fits element content and double-quoted attributes alike). */
export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
