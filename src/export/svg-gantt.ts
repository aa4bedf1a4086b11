/**
 * SVG Gantt chart of a simulated Timeline: one row per node, one bar per interval, coloured by kind; past
 * MAX_LANE_ROWS nodes, a raster of thin rows, each cell the kind that fills most of it.
 */
import { escapeXml } from "./xml-escape.js";
import { TIMELINE_NONE, type Timeline } from "../model/timeline.js";
import { fail } from "../model/errors.js";
import { numberOpt, stringOpt } from "./options.js";
import { timelineLanes } from "./timeline-lanes.js";
import { timelineRaster } from "./gantt-raster.js";
import { timeUnit, type TimeUnit } from "./time-unit.js";
import { checkTimelineArg } from "../model/timeline.js";
import { checkArg, checkOptionsObject } from "../model/option-checks.js";
/** The timeline this writer reads (src/machines/sim makes it). */
export type GanttTimeline = Timeline;
const NONE = TIMELINE_NONE;

/** Most intervals the lane view draws, and most runs the raster view draws (beyond this, use the Chrome trace). */
export const MAX_SVG_INTERVALS = 200_000;

/** Refuses (exit 2, one line) a timeline of more than MAX_SVG_INTERVALS intervals, before any of its chart is made. */
export function checkSvgIntervals(count: number): void {
  if (count > MAX_SVG_INTERVALS)
    throw fail(
      "svg",
      "BAD_INPUT",
      `the timeline has ${count} intervals; an SVG chart draws at most ${MAX_SVG_INTERVALS} (use the Chrome trace instead)`,
      { field: "timeline" },
    );
}

/** Least height in pixels of a lane of a row (a row of many lanes grows to give each this much). */
const MIN_LANE = 5;

/** Colours of the interval kinds (same order as INTERVAL_KINDS). */
const COLOURS: readonly string[] = [
  "#4e79a7",
  "#59a14f",
  "#76b7b2",
  "#edc948",
  "#e15759",
  "#bab0ac",
  "#9c755f",
  "#f28e2b",
  "#b07aa1",
  "#ff0000",
];

/** Options of the chart. */
export interface GanttOptions {
  readonly width?: number;
  /** The lane view's least row height in pixels (default 14). */
  readonly rowHeight?: number;
  readonly title?: string;
  /** "lanes", "raster", or "auto" (the default): lanes up to MAX_LANE_ROWS nodes, the raster past them. */
  readonly view?: GanttView;
  /** Bytes of an element (the schedule's elementBytes): a bar's tooltip then gives its bytes beside its elements. */
  readonly elementBytes?: number;
}

/**
 * An interval's size for its tooltip: "size 1,024 elements (8,192 bytes)" (the bytes when the element size is known)
 * for a schedule's timeline, "size 8192 B" for a program replay's (sizeUnit bytes).
 */
function sizeText(tl: GanttTimeline, size: number, elementBytes: number | undefined): string {
  if (tl.sizeUnit === "bytes") return `size ${size} B`;
  const bytes = elementBytes === undefined ? "" : ` (${(size * elementBytes).toLocaleString("en-US")} bytes)`;
  return `size ${size.toLocaleString("en-US")} element${size === 1 ? "" : "s"}${bytes}`;
}

/** The tick step for a span: the smallest of 1, 2 or 5 x 10^k giving at most `most` intervals. */
function niceStep(span: number, most: number): number {
  const raw = span / Math.max(1, most);
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const f of [1, 2, 5]) if (f * pow >= raw * (1 - 1e-9)) return f * pow;
  return 10 * pow;
}

/** A number in fixed notation with `decimals` digits after the point (never e-notation), thousands separated. */
function fixed(v: number, decimals: number): string {
  return v.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A time in us for tooltips and the title: 6 significant digits, in fixed notation. */
const plainUs = (v: number): string => {
  const r = Number(v.toPrecision(6));
  const digits = Math.max(0, Math.min(20, 5 - Math.floor(Math.log10(Math.abs(r) || 1))));
  return r.toLocaleString("en-US", { maximumFractionDigits: digits, useGrouping: false });
};

/** Estimated width in pixels of `text` at `size` (0.6 em per character). */
const textWidth = (text: string, size: number): number => 0.6 * size * text.length;

/** Past this many nodes a row per node, split into lanes, is too tall to read: the chart draws the raster view. */
export const MAX_LANE_ROWS = 128;
/** Width in pixels of a column of the raster view. */
const RASTER_COLUMN = 2;

/** The plot's rows and bars, drawn from y = 0 (the caller places them): their height, node labels and shapes. */
interface PlotBody {
  readonly height: number;
  readonly parts: string[];
  /** A line under the title saying how to read the plot, or "". */
  readonly note: string;
}

/** The geometry the plot's bodies share. */
interface PlotFrame {
  readonly left: number;
  readonly top: number;
  readonly plotW: number;
  readonly sx: (t: number) => number;
}

/**
 * The lane view: a row per node, split into lanes where its intervals overlap (a send during a receive), so that no
 * bar hides another; a row of many lanes grows to give each at least MIN_LANE pixels. A bar per interval.
 */
function laneBody(tl: GanttTimeline, row: number, f: PlotFrame, elementBytes: number | undefined): PlotBody {
  const { left, top, plotW, sx } = f;
  const lanes = timelineLanes(tl);
  const rowTop = new Float64Array(tl.p + 1);
  for (let v = 0; v < tl.p; v++)
    rowTop[v + 1] = rowTop[v]! + Math.max(row, 2 + lanes.count[v]! * Math.min(MIN_LANE, row - 2));
  const parts: string[] = [];
  for (let v = 0; v < tl.p; v++) {
    const y = top + rowTop[v]!,
      h = rowTop[v + 1]! - rowTop[v]!;
    if (tl.p <= 256 || v % Math.ceil(tl.p / 256) === 0)
      parts.push(`<text x="${left - 4}" y="${y + h / 2 + 4}" text-anchor="end">${v}</text>\n`);
    if (v % 2 === 1) parts.push(`<rect x="${left}" y="${y}" width="${plotW}" height="${h}" fill="#f4f4f4"/>\n`);
  }
  for (let i = 0; i < tl.count; i++) {
    const k = tl.kind[i]!;
    const x0 = sx(tl.start[i]!),
      x1 = sx(tl.end[i]!);
    const v = tl.node[i]!;
    const split = lanes.alone[i] === 1 ? 1 : lanes.count[v]!;
    const laneH = (rowTop[v + 1]! - rowTop[v]! - 2) / split;
    const y = Number((top + rowTop[v]! + 1 + (split === 1 ? 0 : lanes.lane[i]! * laneH)).toFixed(2));
    const peer = tl.peer[i]!;
    const tip = `node ${tl.node[i]} ${tl.kindNames[k]}${peer === NONE ? "" : ` peer ${peer}`} ${sizeText(tl, tl.size[i]!, elementBytes)} ${plainUs(tl.start[i]!)}..${plainUs(tl.end[i]!)} us`;
    parts.push(
      `<rect x="${x0.toFixed(2)}" y="${y}" width="${Math.max(0.5, x1 - x0).toFixed(2)}" height="${Number(laneH.toFixed(2))}" fill="${COLOURS[k]}"><title>${tip}</title></rect>\n`,
    );
  }
  return { height: rowTop[tl.p]!, parts, note: "" };
}

/**
 * The raster view, for more than MAX_LANE_ROWS nodes: a thin row per node (per group of nodes past 1,024), time in
 * columns of RASTER_COLUMN pixels, each cell coloured by the kind that fills most of it (timelineRaster), so the whole
 * run fits in about 1,000 pixels of height; a tooltip per run of equal cells.
 */
function rasterBody(tl: GanttTimeline, span: number, f: PlotFrame): PlotBody {
  const { left, top, plotW } = f;
  // columns of 2 px, wider while the picture would need more than MAX_SVG_INTERVALS runs (its size stays bounded
  // whatever the number of intervals; one column gives at most a run a row)
  let columns = Math.max(1, Math.floor(plotW / RASTER_COLUMN));
  let r = timelineRaster(tl, span, columns);
  while (r.runs.length > MAX_SVG_INTERVALS && columns > 1) {
    columns = Math.max(1, columns >> 1);
    r = timelineRaster(tl, span, columns);
  }
  const rowH = Math.max(1, Math.min(6, Math.floor(1024 / r.rows)));
  const colW = plotW / columns;
  const parts: string[] = [];
  // a label every 16 pixels or more, at a round node number
  const every = niceStep(r.rows, Math.max(1, Math.floor((r.rows * rowH) / 16)));
  for (let q = 0; q < r.rows; q += every)
    parts.push(`<text x="${left - 4}" y="${top + q * rowH + 4}" text-anchor="end">${q * r.nodesPerRow}</text>\n`);
  const nodesOf = (row: number): string => {
    const a = row * r.nodesPerRow,
      b = Math.min(tl.p, a + r.nodesPerRow) - 1;
    return a === b ? `node ${a}` : `nodes ${a}-${b}`;
  };
  for (const run of r.runs) {
    const tip = `${nodesOf(run.row)} mostly ${tl.kindNames[run.kind]} ${plainUs((run.from * span) / columns)}..${plainUs((run.to * span) / columns)} us`;
    parts.push(
      `<rect x="${(left + run.from * colW).toFixed(2)}" y="${top + run.row * rowH}" width="${((run.to - run.from) * colW).toFixed(2)}" height="${rowH}" fill="${COLOURS[run.kind]}"><title>${tip}</title></rect>\n`,
    );
  }
  const rows = r.nodesPerRow === 1 ? "a row per node" : `a row per ${r.nodesPerRow} nodes`;
  return {
    height: r.rows * rowH,
    parts,
    note: `${tl.p.toLocaleString("en-US")} nodes, ${rows}; each cell shows the kind that fills most of its time (blank: idle)`,
  };
}

/** Which body a chart draws: the lane view up to MAX_LANE_ROWS nodes, else the raster view (or as `view` asks). */
export type GanttView = "auto" | "lanes" | "raster";
/** The views a chart can be asked for. */
export const GANTT_VIEWS: readonly GanttView[] = ["auto", "lanes", "raster"];

/**
 * Whether a chart of `p` nodes draws the raster view: it draws a timeline of any number of intervals (its runs stay
 * at most MAX_SVG_INTERVALS), where the lane view draws at most MAX_SVG_INTERVALS intervals (checkSvgIntervals).
 */
export function drawsRaster(p: number, view: GanttView = "auto"): boolean {
  return view === "raster" || (view === "auto" && p > MAX_LANE_ROWS);
}

/** Whether a chart of a timeline of `count` intervals over `p` nodes can be drawn in `view` (timelineToSvg). */
export function svgDraws(count: number, p: number, view: GanttView = "auto"): boolean {
  return count <= MAX_SVG_INTERVALS || drawsRaster(p, view);
}

/**
 * The timeline as an SVG document: the lane view (a row per node, split into lanes where its intervals overlap, so
 * that no bar hides another, a bar and a tooltip per interval) or, past MAX_LANE_ROWS nodes, the raster view (a thin
 * row per node, each cell the kind that fills most of it), a time axis with round ticks in us, ms or s, and a legend
 * of the interval kinds present.
 */
export function timelineToSvg(tl: GanttTimeline, makespan: number, opts: GanttOptions = {}): string {
  checkTimelineArg("svg", "timelineToSvg", tl);
  checkArg(
    "svg",
    "timelineToSvg",
    "makespan",
    makespan,
    typeof makespan === "number" && makespan >= 0 && makespan < Infinity,
    "a finite time >= 0",
    "BAD_OPTION",
  );
  checkOptionsObject("svg", "options", opts);
  const width = numberOpt("svg", "width", opts.width, 1200, { min: 200, max: 100000 });
  const row = numberOpt("svg", "rowHeight", opts.rowHeight, 14, { min: 3, max: 1000 });
  const title = stringOpt("svg", "title", opts.title, "commplan simulated timeline");
  const view = opts.view ?? "auto";
  if (!GANTT_VIEWS.includes(view))
    throw fail("svg", "BAD_OPTION", `view must be auto, lanes or raster, not ${JSON.stringify(view)}`, {
      field: "view",
    });
  const raster = drawsRaster(tl.p, view);
  if (!raster) checkSvgIntervals(tl.count);
  const font = 10,
    left = 70,
    right = 16,
    top = raster ? 54 : 40;
  const plotW = width - left - right;
  const span = makespan > 0 ? makespan : 1;
  const unit = timeUnit(span);
  const sx = (t: number): number => left + (t / span) * plotW;
  const present = tl.kindNames.map(() => false);
  for (let i = 0; i < tl.count; i++) present[tl.kind[i]!] = true;
  const kinds = tl.kindNames.flatMap((name, k) => (present[k] ? [{ name, k }] : []));
  const legendRows: { name: string; k: number; x: number }[][] = [[]];
  let lx = left;
  for (const { name, k } of kinds) {
    const w = 14 + textWidth(name, font) + 16;
    if (lx > left && lx + w > width - right) {
      legendRows.push([]);
      lx = left;
    }
    legendRows[legendRows.length - 1]!.push({ name, k, x: lx });
    lx += w;
  }
  const frame = { left, top, plotW, sx };
  const body = raster ? rasterBody(tl, span, frame) : laneBody(tl, row, frame, opts.elementBytes);
  const plotBottom = top + body.height;
  const axisY = plotBottom + 14;
  const legendY = axisY + 30;
  const height = legendY + (kinds.length > 0 ? legendRows.length * 16 : 0) + 6;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="${font}">\n`,
  );
  out.push(`<title>${escapeXml(title)}</title>\n`);
  const heading = `${title} (makespan ${plainUs(makespan / unit.us)} ${unit.name})`;
  out.push(fittedText(heading, 14, 12, left, width));
  if (body.note !== "") out.push(fittedText(body.note, 28, font, left, width));
  out.push(`<text x="${left - 4}" y="${top - 4}" text-anchor="end">node</text>\n`);
  out.push(...body.parts);
  out.push(...timeAxis(span, unit, { left, plotW, width, right, plotBottom, axisY, font }));
  for (const [r, entries] of legendRows.entries())
    for (const { name, k, x } of entries) {
      const y = legendY + r * 16;
      out.push(
        `<rect x="${x}" y="${y}" width="10" height="10" fill="${COLOURS[k]}"/><text x="${x + 14}" y="${y + 9}">${escapeXml(name)}</text>\n`,
      );
    }
  out.push("</svg>\n");
  return out.join("");
}

/** A line of text at y: at the plot's left edge when it fits, else from the canvas's edge, smaller when it must be. */
function fittedText(text: string, y: number, size: number, left: number, width: number): string {
  const x = left + textWidth(text, size) <= width - 4 ? left : 4;
  const fitted = Math.min(size, Math.floor((10 * (width - x - 4)) / (0.6 * text.length)) / 10);
  return `<text x="${x}" y="${y}" font-size="${fitted}">${escapeXml(text)}</text>\n`;
}

/** The time axis: a tick and a label at every round step, the last label kept inside the canvas, and the unit. */
function timeAxis(
  span: number,
  unit: TimeUnit,
  g: {
    left: number;
    plotW: number;
    width: number;
    right: number;
    plotBottom: number;
    axisY: number;
    font: number;
  },
): string[] {
  const out: string[] = [];
  const inUnit = span / unit.us;
  const step = niceStep(inUnit, Math.max(1, Math.floor(g.plotW / 90)));
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  out.push(`<line x1="${g.left}" y1="${g.plotBottom}" x2="${g.left + g.plotW}" y2="${g.plotBottom}" stroke="#555"/>\n`);
  let lastRight = -Infinity;
  const count = Math.floor(inUnit / step + 1e-9);
  for (let q = 0; q <= count; q++) {
    const v = q * step;
    const x = g.left + (v / inUnit) * g.plotW;
    const label = fixed(v, decimals);
    const w = textWidth(label, g.font);
    let anchor = "middle",
      from = x - w / 2;
    if (x + w / 2 > g.width - 2) {
      anchor = "end";
      from = x - w;
    }
    if (from < lastRight + 4) continue;
    out.push(
      `<line x1="${x.toFixed(1)}" y1="${g.plotBottom}" x2="${x.toFixed(1)}" y2="${g.plotBottom + 4}" stroke="#555"/>` +
        `<text x="${x.toFixed(1)}" y="${g.axisY}" text-anchor="${anchor}">${label}</text>\n`,
    );
    lastRight = from + w;
  }
  out.push(
    `<text x="${(g.left + g.plotW / 2).toFixed(1)}" y="${g.axisY + 14}" text-anchor="middle">time (${unit.name})</text>\n`,
  );
  return out;
}
