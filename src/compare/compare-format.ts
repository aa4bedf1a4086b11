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

/** The narrowest terminal a table is fitted to: below it (or with no width) the table is printed whole. */
export const MIN_FIT_WIDTH = 20;

/**
 * Aligned text table (the first row is the header). Every cell is kept on one line (oneLine): a cell can hold text from
 * an input or a store (a file name, a machine's name), whose newlines or terminal escapes must not reach the terminal.
 * With `width` (a terminal's columns, at least MIN_FIT_WIDTH) a table wider than that is fitted to it (fitTable: the
 * first `keys` columns, which name a row, repeated in each block); without it, or when the table fits, every row is one
 * line (what scripts that read piped output parse).
 */
export function textTable(rows: readonly (readonly string[])[], width?: number, keys = 1): string {
  const cells = rows.map((r) => r.map(oneLine));
  const widths: number[] = [];
  for (const r of cells) r.forEach((c, k) => (widths[k] = Math.max(widths[k] ?? 0, c.length)));
  const whole = widths.reduce((a, w) => a + w, 0) + 2 * Math.max(0, widths.length - 1);
  if (width !== undefined && width >= MIN_FIT_WIDTH && whole > width)
    return fitTable(cells, widths, width, Math.max(1, Math.min(keys, widths.length - 1)));
  return (
    cells.map((r) => r.map((c, k) => (k === r.length - 1 ? c : c.padEnd(widths[k]!))).join("  ")).join("\n") + "\n"
  );
}

/**
 * The rows of columns `cols` for fitTable, aligned (no blanks at a line's end), the last column wrapped at `wrap`
 * characters when not null, its next lines indented under it.
 */
function blockRows(
  cells: readonly (readonly string[])[],
  widths: readonly number[],
  cols: readonly number[],
  wrap: number | null,
): string {
  const lines: string[] = [];
  const last = cols[cols.length - 1]!;
  const indent = cols.slice(0, -1).reduce((a, k) => a + widths[k]! + 2, 0);
  for (const r of cells) {
    const head = cols
      .slice(0, -1)
      .map((k) => (r[k] ?? "").padEnd(widths[k]!) + "  ")
      .join("");
    const parts = wrap === null ? [r[last] ?? ""] : wrapText(r[last] ?? "", wrap);
    lines.push((head + parts[0]!).trimEnd(), ...parts.slice(1).map((x) => " ".repeat(indent) + x));
  }
  return lines.join("\n") + "\n";
}

/**
 * Text cut into lines of at most `w` characters at spaces; a word longer than `w` (a URL) is kept whole on a line of
 * its own, so that it can still be copied.
 */
function wrapText(text: string, w: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > w) {
      out.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  out.push(line);
  return out;
}

/** How far namedRows indents the cells it puts under a row's name. */
const NAME_INDENT = 2;

/**
 * The table as each row's name (first cell) on a line, then its other cells on indented lines: columns 1.. cut into
 * groups that fit `width` beside the indent (a column wider than that is a group of its own), one line per group.
 */
function namedRows(cells: readonly (readonly string[])[], widths: readonly number[], width: number): string {
  const groups: number[][] = [];
  let used = Infinity;
  for (let k = 1; k < widths.length; k++) {
    if (used + 2 + widths[k]! > width) {
      groups.push([k]);
      used = NAME_INDENT + widths[k]!;
    } else {
      groups[groups.length - 1]!.push(k);
      used += 2 + widths[k]!;
    }
  }
  const indent = " ".repeat(NAME_INDENT);
  const lines: string[] = [];
  for (const r of cells) {
    lines.push(r[0] ?? "");
    for (const g of groups) lines.push((indent + g.map((k) => (r[k] ?? "").padEnd(widths[k]!)).join("  ")).trimEnd());
  }
  return lines.join("\n") + "\n";
}

/**
 * A table too wide for `width` columns, as blocks of columns one under the other (as R and pandas print a wide
 * frame): each block repeats the first `keys` columns (the row's name) and takes the next columns while they fit,
 * blocks apart by a blank line; a block of one column that still does not fit wraps its cells at spaces within the
 * width left.
 * When the first column takes more than half the width, each row's name is a line of its own instead, its other cells
 * on the indented lines under it (namedRows; the header alike).
 */
function fitTable(
  cells: readonly (readonly string[])[],
  widths: readonly number[],
  width: number,
  keys: number,
): string {
  const keyCols = widths.map((_, k) => k).slice(0, keys);
  const first = keyCols.reduce((a, k) => a + widths[k]! + 2, 0);
  // a first column wider than half the line (a store entry's 64-digit id): each row's name on a line of its own, its
  // other cells under it, indented, on as many lines as they need (the same columns on each, so they stay aligned)
  if (keys === 1 && widths.length > 1 && first > width / 2) return namedRows(cells, widths, width);
  const blocks: string[] = [];
  for (let k = keys; k < widths.length;) {
    const cols = [...keyCols, k];
    let used = first + widths[k]!;
    for (k++; k < widths.length && used + 2 + widths[k]! <= width; k++) {
      used += 2 + widths[k]!;
      cols.push(k);
    }
    blocks.push(blockRows(cells, widths, cols, used > width ? Math.max(MIN_FIT_WIDTH / 2, width - first) : null));
  }
  return blocks.length === 0 ? blockRows(cells, widths, keyCols, null) : blocks.join("\n");
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
