/** SVG Gantt chart of a simulated Timeline: one row per node, one bar per interval, coloured by kind. */
import { escapeXml } from "./xml-escape.js";
import { TIMELINE_NONE, type Timeline } from "../model/timeline.js";
import { fail } from "../model/errors.js";
import { numberOpt, stringOpt } from "./options.js";
/** The timeline this writer reads (src/machines/sim makes it). */
export type GanttTimeline = Timeline;
const NONE = TIMELINE_NONE;

/** Most intervals an SVG chart draws (beyond this, use the Chrome trace). */
export const MAX_SVG_INTERVALS = 200_000;

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
  readonly rowHeight?: number;
  readonly title?: string;
}

/** The timeline as an SVG document (a legend, a time axis in us, and a <title> tooltip per bar). */
export function timelineToSvg(tl: GanttTimeline, makespan: number, opts: GanttOptions = {}): string {
  if (tl.count > MAX_SVG_INTERVALS)
    throw fail(
      "svg",
      "BAD_INPUT",
      `the timeline has ${tl.count} intervals; an SVG chart draws at most ${MAX_SVG_INTERVALS} (use the Chrome trace instead)`,
      { field: "timeline" },
    );
  const width = numberOpt("svg", "width", opts.width, 1200, { min: 200, max: 100000 });
  const row = numberOpt("svg", "rowHeight", opts.rowHeight, 14, { min: 3, max: 1000 });
  const title = stringOpt("svg", "title", opts.title, "commplan simulated timeline");
  const left = 70,
    top = 40,
    legend = 24;
  const plotW = width - left - 10;
  const span = makespan > 0 ? makespan : 1;
  const sx = (t: number): number => left + (t / span) * plotW;
  const height = top + tl.p * row + 30 + legend;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="10">\n`,
  );
  out.push(`<title>${escapeXml(title)}</title>\n`);
  out.push(
    `<text x="${left}" y="14" font-size="12">${escapeXml(title)} (makespan ${makespan.toPrecision(6)} us)</text>\n`,
  );
  for (let v = 0; v < tl.p; v++) {
    const y = top + v * row;
    if (tl.p <= 256 || v % Math.ceil(tl.p / 256) === 0)
      out.push(`<text x="${left - 4}" y="${y + row - 3}" text-anchor="end">${v}</text>\n`);
    if (v % 2 === 1) out.push(`<rect x="${left}" y="${y}" width="${plotW}" height="${row}" fill="#f4f4f4"/>\n`);
  }
  for (let i = 0; i < tl.count; i++) {
    const k = tl.kind[i]!;
    const x0 = sx(tl.start[i]!),
      x1 = sx(tl.end[i]!);
    const y = top + tl.node[i]! * row + 1;
    const peer = tl.peer[i]!;
    const tip = `node ${tl.node[i]} ${tl.kindNames[k]}${peer === NONE ? "" : ` peer ${peer}`} size ${tl.size[i]} ${tl.start[i]!.toPrecision(6)}..${tl.end[i]!.toPrecision(6)} us`;
    out.push(
      `<rect x="${x0.toFixed(2)}" y="${y}" width="${Math.max(0.5, x1 - x0).toFixed(2)}" height="${row - 2}" fill="${COLOURS[k]}"><title>${tip}</title></rect>\n`,
    );
  }
  const axisY = top + tl.p * row + 12;
  for (let q = 0; q <= 10; q++) {
    const t = (span * q) / 10;
    out.push(`<text x="${sx(t).toFixed(1)}" y="${axisY}" text-anchor="middle">${t.toPrecision(4)}</text>\n`);
  }
  tl.kindNames.forEach((kind, k) => {
    const x = left + k * 80;
    out.push(
      `<rect x="${x}" y="${axisY + 10}" width="10" height="10" fill="${COLOURS[k]}"/><text x="${x + 14}" y="${axisY + 19}">${kind}</text>\n`,
    );
  });
  out.push("</svg>\n");
  return out.join("");
}
