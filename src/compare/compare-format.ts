/**
 * Number formatting and aligned text tables, shared by the comparison's text, SVG and HTML outputs and the CLI
 * (src/cli/io.ts re-exports them as fmt and table).
 */

/**
 * A number for people, every digit it prints true: integers exact with thousands separators, others from 1,000 up
 * rounded to the whole unit (620,004,170.3 us is 620,004,170, not 620,000,000, whose zeros would read as exact beside
 * an exact integer), below 1,000 to 4 significant digits; "-" for null.
 */
export function fmtNumber(v: number | null): string {
  if (v === null) return "-";
  if (Number.isInteger(v)) return v.toLocaleString("en-US");
  if (Number.isFinite(v) && Math.abs(v) >= 1000) return Math.round(v).toLocaleString("en-US");
  const r = Number(v.toPrecision(4));
  return Number.isInteger(r) ? r.toLocaleString("en-US") : r.toString();
}

import { oneLine } from "../internal/quoted.js";

export { escapeXml } from "../export/xml-escape.js";

/**
 * Aligned text table (the first row is the header). Every cell is kept on one line (oneLine): a cell can hold text from
 * an input or a store (a file name, a machine's name), whose newlines or terminal escapes must not reach the terminal.
 */
export function textTable(rows: readonly (readonly string[])[]): string {
  const cells = rows.map((r) => r.map(oneLine));
  const widths: number[] = [];
  for (const r of cells) r.forEach((c, k) => (widths[k] = Math.max(widths[k] ?? 0, c.length)));
  return (
    cells.map((r) => r.map((c, k) => (k === r.length - 1 ? c : c.padEnd(widths[k]!))).join("  ")).join("\n") + "\n"
  );
}

/**
 * A fixed palette of colours one per planner in registry order (cycled, the sweep chart dashes the next turns), each
 * pair apart by at least 30 in CIE L*a*b* (test/compare/sweep-chart.test.ts): Tableau's first nine, then magenta,
 * purple, olive and navy. Its grey and Dark2's green, orange and violet were dropped (too light, or too near a Tableau
 * colour: coloring and te-balanced looked alike).
 */
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
  "#e7298a",
  "#6a3d9a",
  "#808000",
  "#000080",
];
