/**
 * The step x sender grid of one stage (004 fig. 10): each cell the receiver, "X" for a stall, null for nothing; as text
 * and SVG.
 */
import { escapeXml } from "./xml-escape.js";
import { fail } from "../model/errors.js";
import { nodeArray } from "../internal/node-array.js";
import { oneLine } from "../internal/quoted.js";
import type { Schedule } from "../model/schedule.js";
import { checkSchedule } from "../model/schedule-check.js";
import { checkArg, isOptionsObject } from "../model/option-checks.js";

/** One cell: the receiver of the sender's transfer in that step, "X" for a stall, null when idle. */
export type GridCell = number | "X" | null;

/** A stage's grid over a list of senders. */
export interface StepGrid {
  /** 0-based stage index. */
  readonly stage: number;
  readonly stageName: string;
  /** Global step index of the first row. */
  readonly firstStep: number;
  readonly senders: readonly number[];
  /** rows[k][x]: step k of the stage, sender senders[x]. */
  readonly rows: readonly (readonly GridCell[])[];
  /** The schedule's P (the compact SVG colours a cell by (receiver - sender) mod P); default: the largest node + 1. */
  readonly p?: number;
}

/**
 * Nodes of row `row` of the four-stage node array (004 sec 3.2.2 A): C = ceil(sqrt P) nodes per row,
 * or floor(sqrt P) when the array is rearranged (P = ceil(sqrt P) floor(sqrt P) - 1); row-major, cut at P.
 */
export function nodeArrayRow(p: number, row: number): number[] {
  const { cols, rows } = nodeArray(p);
  if (!Number.isInteger(row) || row < 0 || row >= rows) {
    throw fail(
      "show",
      "BAD_OPTION",
      `the row option must be in 0..${rows - 1} (P = ${p} has ${rows} rows of ${cols} nodes), got ${row}`,
      { field: "row" },
    );
  }
  const out: number[] = [];
  for (let u = row * cols; u < Math.min(p, (row + 1) * cols); u++) out.push(u);
  return out;
}

/**
 * The grid of stage `stage` (0-based). `senders` lists the columns (a node listed twice is one column, where it first
 * appears); with `addInbound`, nodes outside the list that send to a listed node in this stage are appended (004 fig.
 * 10 shows node 58 beside row 2). Without senders, every node that sends or stalls in the stage is a column.
 */
export function stepGrid(s: Schedule, stage: number, senders?: readonly number[], addInbound = false): StepGrid {
  checkSchedule(s, "show");
  if (s.stages.length === 0)
    throw fail("show", "BAD_INPUT", "the schedule has no stages (its matrix sends nothing): there is no grid to show", {
      field: "stages",
    });
  if (!Number.isInteger(stage) || stage < 0 || stage >= s.stages.length) {
    const got = Number.isInteger(stage) ? String(stage + 1) : String(stage);
    throw fail("show", "BAD_OPTION", `the stage option must be in 1..${s.stages.length}, got ${got}`, {
      field: "stage",
    });
  }
  const st = s.stages[stage]!;
  const end = st.firstStep + st.stepCount;
  let cols: number[];
  if (senders) {
    for (const u of senders)
      if (!Number.isInteger(u) || u < 0 || u >= s.p)
        throw fail("show", "BAD_OPTION", `node ${u} is not in 0..${s.p - 1}`, { field: "nodes" });
    cols = [...new Set(senders)]; // a node listed twice is one column (where it first appears)
    if (addInbound) {
      const listed = new Uint8Array(s.p);
      for (const u of cols) listed[u] = 1;
      const extra = new Uint8Array(s.p);
      for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[end]!; x++)
        if (listed[s.dst[x]!] && !listed[s.src[x]!]) extra[s.src[x]!] = 1;
      for (let u = 0; u < s.p; u++) if (extra[u]) cols.push(u);
    }
  } else {
    const active = new Uint8Array(s.p);
    for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[end]!; x++) active[s.src[x]!] = 1;
    for (let y = s.stallStart[st.firstStep]!; y < s.stallStart[end]!; y++) active[s.stallNode[y]!] = 1;
    cols = [];
    for (let u = 0; u < s.p; u++) if (active[u]) cols.push(u);
  }
  const colOf = new Int32Array(s.p).fill(-1);
  cols.forEach((u, x) => {
    if (colOf[u] === -1) colOf[u] = x;
  });
  const rows: GridCell[][] = [];
  for (let k = st.firstStep; k < end; k++) {
    const row: GridCell[] = cols.map(() => null);
    for (let x = s.stepStart[k]!; x < s.stepStart[k + 1]!; x++) {
      const c = colOf[s.src[x]!]!;
      if (c >= 0 && row[c] === null) row[c] = s.dst[x]!;
    }
    for (let y = s.stallStart[k]!; y < s.stallStart[k + 1]!; y++) {
      const c = colOf[s.stallNode[y]!]!;
      if (c >= 0) row[c] = "X";
    }
    rows.push(row);
  }
  return { stage, stageName: st.name, firstStep: st.firstStep, senders: cols, rows, p: s.p };
}

const cellText = (c: GridCell): string => (c === null ? "." : String(c));

/**
 * The grid as a text table: a header of senders, one line per step ("." idle, "X" stall). With `width` (a terminal's
 * columns, at least 20) a grid wider than that is cut into blocks of senders one under the other, each with its header
 * and the step column, apart by a blank line; without it every step is one line (what scripts that read piped output
 * parse).
 */
export function stepGridText(g: StepGrid, width?: number): string {
  checkArg(
    "show",
    "stepGridText",
    "width",
    width,
    width === undefined || (typeof width === "number" && width > 0),
    "a positive number of columns or undefined",
    "BAD_OPTION",
  );
  checkStepGrid("stepGridText", g);
  // a loop, not Math.max(...cells): a grid of 100,000 cells would pass the engine's argument limit
  let w = 4;
  for (const u of g.senders) w = Math.max(w, String(u).length + 1);
  for (const row of g.rows) for (const c of row) w = Math.max(w, cellText(c).length + 1);
  const pad = (x: string): string => x.padStart(w);
  // the step column as wide as the widest step number (4 up to step 9,999)
  const stepW = Math.max(4, String(g.rows.length).length);
  const title =
    `stage ${g.stage + 1} (${oneLine(g.stageName)}): receiver of each sender per step` +
    // the rows count from 1 within the stage (004 fig. 10); the schedule's steps, as the verifier's witnesses and
    // the per-step costs name them, count from 0 over all stages
    (g.rows.length === 0
      ? ""
      : ` (steps 1-${g.rows.length} here are the schedule's ${g.firstStep}-${g.firstStep + g.rows.length - 1})`) +
    "; X a stall, . idle";
  const n = g.senders.length;
  // senders a block: all of them, unless a terminal's width is given and they do not fit in it (at least one)
  const per =
    width === undefined || width < 20 || stepW + w * n <= width ? n : Math.max(1, Math.floor((width - stepW) / w));
  const lines = [title];
  for (let from = 0; from < Math.max(n, 1); from += Math.max(per, 1)) {
    if (from > 0) lines.push("");
    const to = Math.min(n, from + per);
    lines.push(
      "step".padEnd(stepW) +
        g.senders
          .slice(from, to)
          .map((u) => pad(String(u)))
          .join(""),
    );
    g.rows.forEach((r, k) =>
      lines.push(
        String(k + 1).padStart(stepW) +
          r
            .slice(from, to)
            .map((c) => pad(cellText(c)))
            .join(""),
      ),
    );
  }
  return lines.join("\n") + "\n";
}

/** Up to this many senders and steps the SVG writes each cell's receiver; past either, it draws the compact view. */
export const GRID_NUMBERS_MAX = 64;

/**
 * The grid as a standalone SVG: senders across, steps down, stalls shaded red, idle cells grey, each cell's receiver
 * written in it; past GRID_NUMBERS_MAX senders or steps (a P = 256 stage is 65,000 cells, 10,000 px wide as numbers),
 * the compact view.
 */
export function stepGridSvg(g: StepGrid): string {
  checkStepGrid("stepGridSvg", g);
  if (g.senders.length > GRID_NUMBERS_MAX || g.rows.length > GRID_NUMBERS_MAX) return compactGridSvg(g);
  const cw = 40,
    ch = 24,
    left = 48,
    top = 56;
  const title = `stage ${g.stage + 1} (${oneLine(g.stageName)}): receiver per sender and step; X = stall, grey = idle`;
  // wide enough for the title too (0.6 em a character of the monospace font)
  const width = Math.max(left + cw * g.senders.length + 8, Math.ceil(4 + 0.6 * 12 * title.length + 8)),
    height = top + ch * g.rows.length + 8;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="12">`,
    `<text x="4" y="16">${escapeXml(title)}</text>`,
    `<text x="4" y="${top - 8}">step</text>`,
  ];
  g.senders.forEach((u, x) =>
    out.push(`<text x="${left + x * cw + cw / 2}" y="${top - 8}" text-anchor="middle" font-weight="bold">${u}</text>`),
  );
  g.rows.forEach((r, k) => {
    const y = top + k * ch;
    out.push(`<text x="${left - 8}" y="${y + ch / 2 + 4}" text-anchor="end">${k + 1}</text>`);
    r.forEach((c, x) => {
      const fill = c === "X" ? "#f4b6b6" : c === null ? "#f2f2f2" : "#ffffff";
      out.push(`<rect x="${left + x * cw}" y="${y}" width="${cw}" height="${ch}" fill="${fill}" stroke="#999"/>`);
      if (c !== null)
        out.push(`<text x="${left + x * cw + cw / 2}" y="${y + ch / 2 + 4}" text-anchor="middle">${c}</text>`);
    });
  });
  out.push("</svg>");
  return out.join("\n") + "\n";
}

/** Tooltips drawn at most (one per run of equal cells in a row); past it the runs are drawn as one path per colour. */
const COMPACT_MAX_TIPS = 4_096;
/** Hues of the compact view's scale (distances share a hue when P - 1 passes it). */
const COMPACT_HUES = 64;
/** The compact plot's extent across and down, in px (about: a row or column is at least 2 px). */
const COMPACT_EXTENT = 1024;
/** Rows of the compact plot at most: past it, each row gathers several steps (a bin). */
const COMPACT_MAX_ROWS = COMPACT_EXTENT / 2;

/** The hue bucket of a distance 1 .. p - 1, and its colour (round the hue circle, red to magenta). */
const hueOf = (offset: number, p: number): number =>
  Math.min(COMPACT_HUES - 1, Math.floor(((offset - 1) * COMPACT_HUES) / Math.max(1, p - 1)));
const hueColour = (b: number): string => `hsl(${Math.round((300 * b) / (COMPACT_HUES - 1))},70%,48%)`;
/** A stall: black, a colour the hue scale (full saturation, mid lightness) never draws. */
const STALL_FILL = "#000000";
/** A send to the sender itself, distance 0 (off the 1 .. P - 1 scale): a mid grey, apart from the idle one. */
const SELF_FILL = "#8c8c8c";
const IDLE_FILL = "#f2f2f2";
/** The cell keys: a stall, idle; a send's key is its distance 0 .. P - 1. */
const STALL_KEY = -2,
  IDLE_KEY = -1;

/** A run of equal busy cells in a (binned) row: its row, first and last + 1 column, key (STALL_KEY or the distance). */
interface GridRun {
  readonly row: number;
  readonly from: number;
  readonly to: number;
  readonly key: number;
}

/**
 * The keys of the grid's cells, `bin` steps a row: a binned cell takes the commonest key of its busy steps (the
 * earliest of equals), idle only when every step is idle.
 */
function gridKeys(g: StepGrid, p: number, bin: number): Int32Array[] {
  const key = (c: GridCell, x: number): number =>
    c === null ? IDLE_KEY : c === "X" ? STALL_KEY : (c - g.senders[x]! + p) % p;
  const cols = g.senders.length;
  const out: Int32Array[] = [];
  for (let r0 = 0; r0 < g.rows.length; r0 += bin) {
    const keys = new Int32Array(cols);
    const r1 = Math.min(g.rows.length, r0 + bin);
    for (let x = 0; x < cols; x++) {
      if (r1 - r0 === 1) {
        keys[x] = key(g.rows[r0]![x]!, x);
        continue;
      }
      const count = new Map<number, number>();
      let best = IDLE_KEY,
        most = 0;
      for (let r = r0; r < r1; r++) {
        const k = key(g.rows[r]![x]!, x);
        if (k === IDLE_KEY) continue;
        const n = (count.get(k) ?? 0) + 1;
        count.set(k, n);
        if (n > most) [best, most] = [k, n];
      }
      keys[x] = best;
    }
    out.push(keys);
  }
  return out;
}

/** The runs of busy cells (idle ones left out) row by row. */
function gridRuns(keys: readonly Int32Array[]): GridRun[] {
  const out: GridRun[] = [];
  keys.forEach((r, row) => {
    for (let from = 0; from < r.length;) {
      const v = r[from]!;
      let to = from + 1;
      while (to < r.length && r[to] === v) to++;
      if (v !== IDLE_KEY) out.push({ row, from, to, key: v });
      from = to;
    }
  });
  return out;
}

/** The compact view's layout: the column width and row height (px), and the steps a row gathers. */
interface CompactLayout {
  readonly colW: number;
  readonly rowH: number;
  readonly bin: number;
  readonly nRows: number;
}

/**
 * Columns and rows sized apart (cells need not be square), each axis about COMPACT_EXTENT px: up to GRID_NUMBERS_MAX
 * senders a column is 16-32 px wide (every sender labelled), past that 2-8 px; a row is 2-8 px high, and past
 * COMPACT_MAX_ROWS steps rows gather steps in bins, so the plot stays about COMPACT_EXTENT px high.
 */
function compactLayout(cols: number, steps: number): CompactLayout {
  const fit = (n: number): number => Math.floor(COMPACT_EXTENT / Math.max(n, 1));
  const colW = cols > GRID_NUMBERS_MAX ? Math.max(2, Math.min(8, fit(cols))) : Math.min(32, fit(cols));
  const bin = Math.max(1, Math.ceil(steps / COMPACT_MAX_ROWS));
  const nRows = Math.ceil(steps / bin);
  return { colW, rowH: Math.max(2, Math.min(8, fit(nRows))), bin, nRows };
}

/** The scale under the plot: the hues of distances 1 .. P - 1, and swatches of distance 0, a stall and idle. */
function compactScale(left: number, scaleY: number, scaleW: number, p: number): string[] {
  const out: string[] = [];
  for (let b = 0; b < COMPACT_HUES; b++)
    out.push(
      `<rect x="${(left + (b * scaleW) / COMPACT_HUES).toFixed(1)}" y="${scaleY}" width="${(scaleW / COMPACT_HUES + 0.5).toFixed(1)}" height="10" fill="${hueColour(b)}"/>`,
    );
  out.push(`<text x="${left}" y="${scaleY + 24}">1</text>`);
  out.push(`<text x="${left + scaleW}" y="${scaleY + 24}" text-anchor="end">${Math.max(1, p - 1)}</text>`);
  out.push(
    `<text x="${left + scaleW / 2}" y="${scaleY + 24}" text-anchor="middle">(receiver - sender) mod P, P = ${p}</text>`,
  );
  const swatches: [string, string][] = [
    [SELF_FILL, "0: to itself"],
    [STALL_FILL, "stall"],
    [IDLE_FILL, "idle"],
  ];
  let x = left;
  for (const [fill, label] of swatches) {
    out.push(`<rect x="${x}" y="${scaleY + 34}" width="10" height="10" fill="${fill}" stroke="#999"/>`);
    out.push(`<text x="${x + 14}" y="${scaleY + 44}">${label}</text>`);
    x += 14 + Math.ceil(0.6 * 12 * label.length) + 16;
  }
  return out;
}

/**
 * The compact view: a cell per sender and step (columns and rows sized apart, compactLayout), coloured by the
 * receiver's distance from its sender, (receiver - sender) mod P, on a hue scale drawn under the grid (a shift's step
 * is one colour across, a direct exchange a diagonal band); mid grey for a send to the sender itself, black for a
 * stall, light grey when idle, each a swatch under the scale. Past COMPACT_MAX_ROWS steps a row gathers several steps
 * (the title says how many) and shows the commonest of their busy cells. Runs of equal cells in a row are one
 * rectangle with a tooltip naming them, or past COMPACT_MAX_TIPS runs one path per colour. `show --nodes` writes the
 * exact receivers.
 */
function compactGridSvg(g: StepGrid): string {
  let p = g.p ?? 0;
  if (g.p === undefined) {
    for (const u of g.senders) p = Math.max(p, u + 1);
    for (const r of g.rows) for (const c of r) if (typeof c === "number") p = Math.max(p, c + 1);
  }
  const cols = g.senders.length;
  const { colW, rowH, bin, nRows } = compactLayout(cols, g.rows.length);
  // room for the widest step label (56 px up to step 99,999)
  const left = Math.max(56, Math.ceil(0.6 * 12 * String(g.rows.length).length) + 14),
    top = 64;
  const binned = bin > 1 ? `; a row per ${bin} steps, its commonest busy cell` : "";
  const title = `stage ${g.stage + 1} (${oneLine(g.stageName)}): receiver per sender and step, by colour${binned}`;
  const sub =
    "colour: (receiver - sender) mod P, on the scale below; mid grey: to itself; black: a stall; light grey: idle";
  const plotW = cols * colW,
    plotH = nRows * rowH;
  const width = Math.max(left + plotW + 16, Math.ceil(8 + 0.6 * 12 * Math.max(title.length, sub.length)), 360);
  const scaleY = top + plotH + 16;
  const height = scaleY + 60;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="12">`,
    `<text x="4" y="16">${escapeXml(title)}</text>`,
    `<text x="4" y="32" font-size="11">${sub}</text>`,
    `<text x="4" y="${top - 8}">step</text>`,
    `<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="${IDLE_FILL}"/>`,
  ];
  // a label every few senders (32 px apart, or the widest label's width) and steps (32 px apart)
  let chars = 1;
  for (const u of g.senders) chars = Math.max(chars, String(u).length);
  const labelW = Math.ceil(0.6 * 12 * chars + 6);
  const everyX = Math.max(1, Math.ceil((cols > GRID_NUMBERS_MAX ? Math.max(32, labelW) : labelW) / colW));
  for (let x = 0; x < cols; x += everyX)
    out.push(`<text x="${left + x * colW + colW / 2}" y="${top - 8}" text-anchor="middle">${g.senders[x]}</text>`);
  const everyY = Math.max(1, Math.ceil(32 / rowH));
  for (let k = 0; k < nRows; k += everyY)
    out.push(`<text x="${left - 6}" y="${top + k * rowH + rowH / 2 + 4}" text-anchor="end">${k * bin + 1}</text>`);
  const runs = gridRuns(gridKeys(g, p, bin));
  const fillOf = (v: number): string => (v === STALL_KEY ? STALL_FILL : v === 0 ? SELF_FILL : hueColour(hueOf(v, p)));
  const what = (v: number): string =>
    v === STALL_KEY ? "stall" : v === 0 ? "send to itself" : `send to sender + ${v} (mod P)`;
  const steps = (row: number): string =>
    bin === 1 ? `step ${row + 1}` : `steps ${row * bin + 1}-${Math.min(g.rows.length, (row + 1) * bin)} (mostly)`;
  if (runs.length <= COMPACT_MAX_TIPS) {
    for (const { row, from, to, key } of runs) {
      const who = to - from > 1 ? `senders ${g.senders[from]}..${g.senders[to - 1]}` : `sender ${g.senders[from]}`;
      out.push(
        `<rect x="${left + from * colW}" y="${top + row * rowH}" width="${(to - from) * colW}" height="${rowH}" fill="${fillOf(key)}"><title>${steps(row)}, ${who}: ${what(key)}</title></rect>`,
      );
    }
  } else {
    // one path per colour: a few bytes a run
    const paths = new Map<string, string[]>();
    for (const { row, from, to, key } of runs) {
      const f = fillOf(key);
      const w = (to - from) * colW;
      let d = paths.get(f);
      if (d === undefined) paths.set(f, (d = []));
      d.push(`M${left + from * colW} ${top + row * rowH}h${w}v${rowH}h-${w}z`);
    }
    for (const [f, d] of paths) out.push(`<path fill="${f}" d="${d.join("")}"/>`);
  }
  out.push(...compactScale(left, scaleY, Math.min(512, width - left - 16), p));
  out.push("</svg>");
  return out.join("\n") + "\n";
}

/** Refuses `g` unless it is a StepGrid (stepGrid's: senders and rows arrays), naming `fn`. */
function checkStepGrid(fn: string, g: unknown): void {
  const ok = isOptionsObject(g) && Array.isArray(g["senders"]) && Array.isArray(g["rows"]);
  checkArg("show", fn, "g", g, ok, "a StepGrid (stepGrid's)");
}
