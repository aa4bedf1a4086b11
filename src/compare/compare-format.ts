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
 * The narrowest terminal a table is fitted to: below it (or with no width) the table is printed whole, one line per
 * row. From it up every line of a fitted table fits the width, but a single word wider than the room left for it (a
 * 64-digit id, a URL), which is kept whole on a line of its own so that it can still be copied.
 */
export const MIN_FIT_WIDTH = 20;

/**
 * The symbols between U+2300 and U+2BFF shown as emoji by default (Emoji_Presentation, East Asian Width W in Unicode
 * 15: ⌚, ⏩, ☔, ♈..♓, ⚡, ⛔, ✅, ❌, ➕, ⭐ ...), as [first, last] code points; the others there are one column.
 */
// prettier-ignore
const WIDE_SYMBOLS: readonly (readonly [number, number])[] = [
  [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0], [0x23f3, 0x23f3], [0x25fd, 0x25fe],
  [0x2614, 0x2615], [0x2648, 0x2653], [0x267f, 0x267f], [0x2693, 0x2693], [0x26a1, 0x26a1], [0x26aa, 0x26ab],
  [0x26bd, 0x26be], [0x26c4, 0x26c5], [0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea], [0x26f2, 0x26f3],
  [0x26f5, 0x26f5], [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b], [0x2728, 0x2728],
  [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2795, 0x2797], [0x27b0, 0x27b0],
  [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55],
];

/**
 * Whether the code point `c` takes two terminal columns: the East Asian wide and fullwidth ranges (Hangul Jamo, CJK and
 * its punctuation, Hiragana, Katakana, Hangul syllables, CJK compatibility, fullwidth forms), and emoji: the symbols
 * shown as emoji by default (WIDE_SYMBOLS), pictographs, emoticons, transport and map symbols (🚀), geometric shapes
 * extended's coloured ones, supplemental symbols and pictographs and their extension A (🪐, 🫠).
 */
function isWide(c: number): boolean {
  return (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2300 && c <= 0x2bff && WIDE_SYMBOLS.some(([a, b]) => c >= a && c <= b)) ||
    (c >= 0x2e80 && c <= 0x303e) ||
    (c >= 0x3041 && c <= 0x33ff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xa000 && c <= 0xa4cf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1f64f) ||
    (c >= 0x1f680 && c <= 0x1f6ff) ||
    (c >= 0x1f7e0 && c <= 0x1f7f0) ||
    (c >= 0x1f900 && c <= 0x1f9ff) ||
    (c >= 0x1fa70 && c <= 0x1faff) ||
    (c >= 0x20000 && c <= 0x3fffd)
  );
}

/**
 * The columns `text` takes on a terminal: a code point (not a UTF-16 unit) each, two for an East Asian wide one
 * (isWide), none for a combining mark (U+0300..U+036F, U+20D0..U+20FF), a zero-width space or joiner
 * (U+200B..U+200D) or a variation selector (U+FE00..U+FE0F); but U+FE0F (emoji presentation) after a one-column
 * symbol from U+203C up (❤, ☀, ✔) shows it as an emoji, two columns, so it adds the one more.
 */
export function displayWidth(text: string): number {
  let w = 0;
  let widens = false; // whether a U+FE0F next shows the code point before as an emoji
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const zero = (c >= 0x300 && c <= 0x36f) || (c >= 0x20d0 && c <= 0x20ff) || (c >= 0x200b && c <= 0x200d);
    const cw = zero || (c >= 0xfe00 && c <= 0xfe0f) ? 0 : isWide(c) ? 2 : 1;
    w += c === 0xfe0f && widens ? 1 : cw;
    widens = cw === 1 && c >= 0x203c;
  }
  return w;
}

/** `text` padded with spaces to `w` display columns (displayWidth). */
function pad(text: string, w: number): string {
  return text + " ".repeat(Math.max(0, w - displayWidth(text)));
}

/**
 * Aligned text table (the first row is the header). Every cell is kept on one line (oneLine): a cell can hold text from
 * an input or a store (a file name, a machine's name), whose newlines or terminal escapes must not reach the terminal.
 * Widths are display columns (displayWidth: a CJK character takes two). With `width` (a terminal's columns, at least
 * MIN_FIT_WIDTH) a table wider than that is fitted to it (fitTable: the first `keys` columns, which name a row,
 * repeated in each block); without it, or when the table fits, every row is one line (what scripts that read piped
 * output parse).
 */
export function textTable(rows: readonly (readonly string[])[], width?: number, keys = 1): string {
  const cells = rows.map((r) => r.map(oneLine));
  const widths: number[] = [];
  for (const r of cells) r.forEach((c, k) => (widths[k] = Math.max(widths[k] ?? 0, displayWidth(c))));
  const whole = widths.reduce((a, w) => a + w, 0) + 2 * Math.max(0, widths.length - 1);
  if (width !== undefined && width >= MIN_FIT_WIDTH && whole > width)
    return fitTable(cells, widths, width, Math.max(1, Math.min(keys, widths.length - 1)));
  return cells.map((r) => r.map((c, k) => (k === r.length - 1 ? c : pad(c, widths[k]!))).join("  ")).join("\n") + "\n";
}

/**
 * The rows of columns `cols` for fitTable, aligned (no blanks at a line's end), the last column wrapped at `wrap`
 * display columns when not null, its next lines indented under it.
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
      .map((k) => pad(r[k] ?? "", widths[k]!) + "  ")
      .join("");
    const parts = wrap === null ? [r[last] ?? ""] : wrapText(r[last] ?? "", wrap);
    lines.push((head + parts[0]!).trimEnd(), ...parts.slice(1).map((x) => " ".repeat(indent) + x));
  }
  return lines.join("\n") + "\n";
}

/**
 * Text cut into lines of at most `w` display columns (`next` for the lines after the first) at spaces, the spaces
 * between two words on a line kept as they were (the two between a row's name cells) and those at a cut dropped, so
 * that no line starts or ends with a blank; a word wider than the room (a URL) is kept whole on a line of its own, so
 * that it can still be copied.
 */
function wrapText(text: string, w: number, next = w): string[] {
  const out: string[] = [];
  let line = "";
  for (const [, gap, word] of text.matchAll(/( *)([^ ]+)/g)) {
    if (line !== "" && displayWidth(line) + gap!.length + displayWidth(word!) > (out.length === 0 ? w : next)) {
      out.push(line);
      line = word!;
    } else line = line === "" ? word! : line + gap! + word!;
  }
  out.push(line);
  return out;
}

/** How far namedRows indents the cells it puts under a row's name. */
const NAME_INDENT = 2;

/**
 * The table as each row's name (its first `keys` cells, wrapped at spaces to the width, its next lines indented) on a
 * line, then its other cells on indented lines: those columns cut into groups that fit `width` beside the indent, one
 * line per group; a column wider than that is a group of its own, its cells wrapped at spaces to the width left.
 */
function namedRows(
  cells: readonly (readonly string[])[],
  widths: readonly number[],
  width: number,
  keys: number,
): string {
  const groups: number[][] = [];
  let used = Infinity;
  for (let k = keys; k < widths.length; k++) {
    if (used + 2 + widths[k]! > width) {
      groups.push([k]);
      used = NAME_INDENT + widths[k]!;
    } else {
      groups[groups.length - 1]!.push(k);
      used += 2 + widths[k]!;
    }
  }
  const indent = " ".repeat(NAME_INDENT);
  const room = width - NAME_INDENT;
  const lines: string[] = [];
  for (const r of cells) {
    // the name's next lines indented, as its cells are: only a row's first line starts at column 0
    const name = wrapText(r.slice(0, keys).join("  "), width, room);
    lines.push(name[0]!, ...name.slice(1).map((x) => indent + x));
    for (const g of groups) {
      if (g.length === 1 && widths[g[0]!]! > room) {
        lines.push(...wrapText(r[g[0]!] ?? "", room).map((x) => (indent + x).trimEnd()));
        continue;
      }
      lines.push((indent + g.map((k) => pad(r[k] ?? "", widths[k]!)).join("  ")).trimEnd());
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * A table too wide for `width` columns, as blocks of columns one under the other (as R and pandas print a wide
 * frame): each block repeats the first `keys` columns (the row's name) and takes the next columns while they fit,
 * blocks apart by a blank line; a block of one column that still does not fit wraps its cells at spaces within the
 * width left (at least half the width).
 * When the first `keys` columns take more than half the width, each row's name is a line of its own instead, its other
 * cells on the indented lines under it (namedRows; the header alike).
 */
function fitTable(
  cells: readonly (readonly string[])[],
  widths: readonly number[],
  width: number,
  keys: number,
): string {
  const keyCols = widths.map((_, k) => k).slice(0, keys);
  const first = keyCols.reduce((a, k) => a + widths[k]! + 2, 0);
  // key columns wider than half the line (a store entry's 64-digit id; verify's check and detail): each row's name on
  // a line of its own, its other cells under it, indented, on as many lines as they need (the same columns on each)
  if (widths.length > keys && first > width / 2) return namedRows(cells, widths, width, keys);
  const blocks: string[] = [];
  for (let k = keys; k < widths.length;) {
    const cols = [...keyCols, k];
    let used = first + widths[k]!;
    for (k++; k < widths.length && used + 2 + widths[k]! <= width; k++) {
      used += 2 + widths[k]!;
      cols.push(k);
    }
    // first <= width / 2, so the room left is at least half the width
    blocks.push(blockRows(cells, widths, cols, used > width ? width - first : null));
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
