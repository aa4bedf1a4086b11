/**
 * The step x sender grid of one stage (004 fig. 10): each cell the receiver, "X" for a stall, null for nothing; as text
 * and SVG.
 */
import { escapeXml } from "./xml-escape.js";
import { fail } from "../model/errors.js";
import { nodeArray } from "../internal/node-array.js";
import type { Schedule } from "../model/schedule.js";
import { checkSchedule } from "../model/schedule-check.js";

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
  return { stage, stageName: st.name, firstStep: st.firstStep, senders: cols, rows };
}

const cellText = (c: GridCell): string => (c === null ? "." : String(c));

/** The grid as a text table: a header of senders, one line per step ("." idle, "X" stall). */
export function stepGridText(g: StepGrid): string {
  // a loop, not Math.max(...cells): a grid of 100,000 cells would pass the engine's argument limit
  let w = 4;
  for (const u of g.senders) w = Math.max(w, String(u).length + 1);
  for (const row of g.rows) for (const c of row) w = Math.max(w, cellText(c).length + 1);
  const pad = (x: string): string => x.padStart(w);
  const lines = [
    `stage ${g.stage + 1} (${g.stageName}): receiver of each sender per step` +
      // the rows count from 1 within the stage (004 fig. 10); the schedule's steps, as the verifier's witnesses and
      // the per-step costs name them, count from 0 over all stages
      (g.rows.length === 0
        ? ""
        : ` (steps 1-${g.rows.length} here are the schedule's ${g.firstStep}-${g.firstStep + g.rows.length - 1})`) +
      "; X a stall, . idle",
    "step" + g.senders.map((u) => pad(String(u))).join(""),
  ];
  g.rows.forEach((r, k) => lines.push(String(k + 1).padStart(4) + r.map((c) => pad(cellText(c))).join("")));
  return lines.join("\n") + "\n";
}

/** The grid as a standalone SVG: senders across, steps down, stalls shaded. */
export function stepGridSvg(g: StepGrid): string {
  const cw = 40,
    ch = 24,
    left = 48,
    top = 56;
  const title = `stage ${g.stage + 1} (${g.stageName}): receiver per sender and step; X = stall`;
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
