/**
 * SVG of link load after a simulated run on a network: a heat map by (row, col) when every link has them, else a bar
 * chart of the busiest links.
 */
import { escapeXml } from "./xml-escape.js";
import { fail } from "../model/errors.js";
import { numberOpt, stringOpt } from "./options.js";

/** One link to draw: its label, its load (busy fraction, 0..1), and optionally where it sits. */
export interface LinkLoadEntry {
  readonly label: string;
  /** Busy fraction of the run (0..1; larger values are drawn as 1). */
  readonly load: number;
  /** A group name shown in the tooltip (e.g. "uplinks"). */
  readonly group?: string;
  /** Heat-map cell: drawn as a grid when every entry has both. */
  readonly row?: number;
  readonly col?: number;
}

/** Options of the chart. */
export interface LinkLoadSvgOptions {
  readonly title?: string;
  /** Bars in the bar chart (the busiest first). Default 32. */
  readonly top?: number;
  readonly width?: number;
}

/** Most links a heat map draws. */
export const MAX_HEATMAP_LINKS = 100_000;

/** White (0) to dark red (1). */
function heat(load: number): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(load) ? load : 0));
  const g = Math.round(255 * (1 - f)),
    b = Math.round(255 * (1 - f) * (1 - f));
  const r = Math.round(255 - 80 * f);
  return `rgb(${r},${g},${b})`;
}

const pct = (x: number): string => `${(Math.max(0, x) * 100).toFixed(1)} %`;
const tip = (e: LinkLoadEntry): string =>
  escapeXml(`${e.label}${e.group !== undefined ? ` (${e.group})` : ""}: busy ${pct(e.load)}`);

/** The link loads as an SVG document: a heat map when every entry has a row and a column, else a bar chart. */
export function linkLoadSvg(links: readonly LinkLoadEntry[], opts: LinkLoadSvgOptions = {}): string {
  for (const [i, e] of links.entries())
    if (!(e.load >= 0))
      throw fail("svg", "BAD_INPUT", `link ${i} (${e.label}) has load ${e.load}; need a number >= 0`, {
        field: `links[${i}].load`,
      });
  const grid = links.length > 0 && links.every((e) => e.row !== undefined && e.col !== undefined);
  if (grid && links.length > MAX_HEATMAP_LINKS)
    throw fail("svg", "BAD_INPUT", `${links.length} links; a heat map draws at most ${MAX_HEATMAP_LINKS}`, {
      field: "links",
    });
  const title = escapeXml(stringOpt("svg", "title", opts.title, "link load (busy fraction)"));
  const top = numberOpt("svg", "top", opts.top, 32, { min: 1, max: 100000, integer: true });
  const width = numberOpt("svg", "width", opts.width, 720, { min: 200, max: 100000 });
  return grid ? heatMap(links, title) : barChart(links, title, top, width);
}

function heatMap(links: readonly LinkLoadEntry[], title: string): string {
  let rows = 0,
    cols = 0;
  for (const e of links) {
    rows = Math.max(rows, e.row! + 1);
    cols = Math.max(cols, e.col! + 1);
  }
  const cell = Math.max(6, Math.min(40, Math.floor(720 / Math.max(rows, cols))));
  const w = cols * cell + 40,
    h = rows * cell + 70;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">`,
    `<text x="20" y="20">${title}</text>`,
  ];
  for (const e of links) {
    const x = 20 + e.col! * cell,
      y = 30 + e.row! * cell;
    out.push(
      `<rect x="${x}" y="${y}" width="${cell - 1}" height="${cell - 1}" fill="${heat(e.load)}" stroke="#ccc"><title>${tip(e)}</title></rect>`,
    );
  }
  out.push(legend(20, h - 30));
  out.push("</svg>");
  return out.join("\n") + "\n";
}

function barChart(links: readonly LinkLoadEntry[], title: string, top: number, width: number): string {
  const shown = links
    .map((e, i) => ({ e, i }))
    .sort((a, b) => b.e.load - a.e.load || a.i - b.i)
    .slice(0, Math.max(1, top));
  const labelW = 200,
    barW = Math.max(100, width - labelW - 80),
    rowH = 18;
  const h = 60 + shown.length * rowH + 30;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${h}" font-family="sans-serif" font-size="12">`,
    `<text x="10" y="20">${title}: the ${shown.length} busiest of ${links.length} links</text>`,
  ];
  shown.forEach(({ e }, k) => {
    const y = 40 + k * rowH,
      f = Math.min(1, e.load);
    out.push(`<text x="${labelW - 6}" y="${y + 12}" text-anchor="end">${escapeXml(e.label)}</text>`);
    out.push(`<rect x="${labelW}" y="${y}" width="${barW}" height="${rowH - 4}" fill="#f4f4f4"/>`);
    out.push(
      `<rect x="${labelW}" y="${y}" width="${(f * barW).toFixed(1)}" height="${rowH - 4}" fill="${heat(e.load)}" stroke="#999"><title>${tip(e)}</title></rect>`,
    );
    out.push(`<text x="${labelW + barW + 6}" y="${y + 12}">${pct(e.load)}</text>`);
  });
  out.push(legend(labelW, h - 20));
  out.push("</svg>");
  return out.join("\n") + "\n";
}

function legend(x: number, y: number): string {
  const stops = [0, 0.25, 0.5, 0.75, 1]
    .map((f, k) => `<rect x="${x + k * 40}" y="${y - 10}" width="40" height="10" fill="${heat(f)}"/>`)
    .join("");
  return `${stops}<text x="${x + 210}" y="${y}">0 % .. 100 % busy</text>`;
}
