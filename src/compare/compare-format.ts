/**
 * Number formatting and aligned text tables, shared by the comparison's text, SVG and HTML outputs and the CLI
 * (src/cli/io.ts re-exports them as fmt and table).
 */

/** A number for people: integers with thousands separators, others with 4 significant digits; "-" for null. */
export function fmtNumber(v: number | null): string {
  if (v === null) return "-";
  if (Number.isInteger(v)) return v.toLocaleString("en-US");
  const r = Number(v.toPrecision(4));
  return Number.isInteger(r) ? r.toLocaleString("en-US") : r.toString();
}

export { escapeXml } from "../export/xml-escape.js";

/** Aligned text table (the first row is the header). */
export function textTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, k) => (widths[k] = Math.max(widths[k] ?? 0, c.length)));
  return rows.map((r) => r.map((c, k) => (k === r.length - 1 ? c : c.padEnd(widths[k]!))).join("  ")).join("\n") + "\n";
}

/** A fixed palette of distinguishable colours, one per planner in registry order (cycled). */
export const SERIES_COLOURS: readonly string[] = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
  "#1b9e77",
  "#d95f02",
  "#7570b3",
  "#e7298a",
  "#66a61e",
];
