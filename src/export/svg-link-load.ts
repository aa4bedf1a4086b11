/**
 * SVG of link load after a simulated run on a network: a labelled heat map by (row, col) of the links that carried
 * traffic when every link has them and the grid is small enough to read, else a bar chart of the busiest links.
 */
import { escapeXml } from "./xml-escape.js";
import { fail } from "../model/errors.js";
import { numberOpt, stringOpt } from "./options.js";
import type { NetworkRoutes } from "../model/network.js";
import { checkArg, checkOptionsObject, isOptionsObject } from "../model/option-checks.js";

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
  /** Names of the heat map's row and column (the node the link leaves, the node it enters); default the numbers. */
  readonly rowLabel?: string;
  readonly colLabel?: string;
}

/** Most nodes a link-load heat map has as rows and columns (beyond: the chart of the busiest links). */
const MAX_HEATMAP_NODES = 512;

/**
 * The links of a simulated run as chart entries (`busy`: each link's busy time in us, as SimNetworkStats has it):
 * load = busy fraction of the makespan; each link a cell (row = the node it leaves, column = the node it enters, from
 * its "a->b" label) when the network has at most MAX_HEATMAP_NODES nodes, else no cells (a bar chart of the busiest).
 */
export function linkLoadEntries(busy: Float64Array, routes: NetworkRoutes, makespan: number): LinkLoadEntry[] {
  const index = new Map<string, number>();
  const ends: [string, string][] = [];
  for (let l = 0; l < busy.length; l++) {
    const label = routes.linkLabel(l);
    const at = label.indexOf("->");
    const pair: [string, string] = at < 0 ? [label, label] : [label.slice(0, at), label.slice(at + 2)];
    ends.push(pair);
    for (const v of pair) if (!index.has(v)) index.set(v, index.size);
  }
  const cells = index.size <= MAX_HEATMAP_NODES;
  return ends.map(([a, b], l) => ({
    label: routes.linkLabel(l),
    load: makespan > 0 ? busy[l]! / makespan : 0,
    ...(cells ? { row: index.get(a)!, col: index.get(b)!, rowLabel: a, colLabel: b } : {}),
  }));
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

/** Most rows or columns a heat map has; a larger grid is drawn as the bar chart of the busiest links. */
export const MAX_HEATMAP_SIDE = 96;

/** Smallest side of a heat map's cell in pixels: a label of 10 px fits its row and a number of 9 px its cell. */
const MIN_CELL = 14;

/** Busiest links the heat map lists beside the grid, with their loads. */
const HOTTEST_LISTED = 10;

/** White (0) to dark red (1). */
function heat(load: number): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(load) ? load : 0));
  const g = Math.round(255 * (1 - f)),
    b = Math.round(255 * (1 - f) * (1 - f));
  const r = Math.round(255 - 80 * f);
  return `rgb(${r},${g},${b})`;
}

/** A busy fraction in percent: one decimal from 0.1 %, two significant digits below (never "0.0 %" for a busy link). */
function pct(x: number): string {
  const v = Math.max(0, x) * 100;
  if (v === 0 || v >= 0.0995) return `${v.toFixed(1)} %`;
  return `${v.toLocaleString("en-US", { maximumSignificantDigits: 2, useGrouping: false })} %`;
}
const tip = (e: LinkLoadEntry): string =>
  escapeXml(`${e.label}${e.group !== undefined ? ` (${e.group})` : ""}: busy ${pct(e.load)}`);
/** Estimated width in pixels of `text` at `size` (0.6 em per character). */
const textWidth = (text: string, size: number): number => 0.6 * size * text.length;

/**
 * The link loads as an SVG document: a heat map when every entry has a row and a column, else a bar chart; only links
 * that carried traffic are drawn, coloured on a scale whose top is the busiest link.
 */
export function linkLoadSvg(links: readonly LinkLoadEntry[], opts: LinkLoadSvgOptions = {}): string {
  checkArg(
    "svg",
    "linkLoadSvg",
    "links",
    links,
    Array.isArray(links) && links.every(isOptionsObject),
    "an array of { label, load, group? }",
  );
  checkOptionsObject("svg", "options", opts);
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
  const title = stringOpt("svg", "title", opts.title, "link load (busy fraction)");
  const top = numberOpt("svg", "top", opts.top, 32, { min: 1, max: 100000, integer: true });
  const width = numberOpt("svg", "width", opts.width, 720, { min: 200, max: 100000 });
  const used = links.filter((e) => e.load > 0);
  let hottest = 0;
  for (const e of used) hottest = Math.max(hottest, Math.min(1, e.load));
  if (used.length === 0) return emptyChart(title, links.length, width);
  if (grid) {
    const rows = new Set(used.map((e) => e.row!)).size,
      cols = new Set(used.map((e) => e.col!)).size;
    if (Math.max(rows, cols) <= MAX_HEATMAP_SIDE) return heatMap(used, links.length, title, hottest);
  }
  return barChart(used, links.length, title, top, width, hottest);
}

/** A chart with nothing to draw: no link carried traffic. */
function emptyChart(title: string, total: number, width: number): string {
  const text = `${title}: none of the ${total} links carried traffic`;
  const w = Math.max(width, Math.ceil(textWidth(text, 12) + 20));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="40" viewBox="0 0 ${w} 40" font-family="sans-serif" font-size="12">\n` +
    `<text x="10" y="24">${escapeXml(text)}</text>\n</svg>\n`
  );
}

/** The links ranked by load, the busiest first (ties in input order). */
const ranked = (links: readonly LinkLoadEntry[]): LinkLoadEntry[] =>
  links
    .map((e, i) => ({ e, i }))
    .sort((a, b) => b.e.load - a.e.load || a.i - b.i)
    .map(({ e }) => e);

/** Sorted distinct values of `key` over the links, each with its label. */
function axis(
  links: readonly LinkLoadEntry[],
  key: "row" | "col",
  label: "rowLabel" | "colLabel",
): { index: Map<number, number>; labels: string[] } {
  const names = new Map<number, string>();
  for (const e of links) if (!names.has(e[key]!)) names.set(e[key]!, e[label] ?? String(e[key]));
  const order = [...names.keys()].sort((a, b) => a - b);
  return { index: new Map(order.map((v, k) => [v, k])), labels: order.map((v) => names.get(v)!) };
}

function heatMap(used: readonly LinkLoadEntry[], total: number, title: string, hottest: number): string {
  const font = 10;
  const rows = axis(used, "row", "rowLabel"),
    cols = axis(used, "col", "colLabel");
  const side = Math.max(rows.labels.length, cols.labels.length);
  // at least a line of text: every row and column keeps its label and every listed link its number
  const cell = Math.max(MIN_CELL, Math.min(40, Math.floor(640 / side)));
  const longest = (ls: readonly string[]): number => Math.max(...ls.map((l) => textWidth(l, font)));
  const left = 10 + 16 + Math.ceil(longest(rows.labels)) + 6,
    gridTop = 56 + 16 + Math.ceil(longest(cols.labels)) + 6;
  const gridW = cols.labels.length * cell,
    gridH = rows.labels.length * cell;
  const hot = ranked(used).slice(0, HOTTEST_LISTED);
  const rank = new Map(hot.map((e, k) => [e, k + 1]));
  const listX = left + gridW + 24;
  const listLines = [
    "busiest links",
    ...hot.map((e, k) => `${k + 1}. ${e.label}${e.group !== undefined ? ` (${e.group})` : ""}  ${pct(e.load)}`),
  ];
  const heading = `${used.length} of ${total} links carried traffic; row: the link's start, column: its end`;
  const w = Math.ceil(
    Math.max(
      listX + longest(listLines) + 10,
      10 + textWidth(title, 12) + 10,
      10 + textWidth(heading, font) + 10,
      left + legendWidth(hottest, font) + 10,
    ),
  );
  const h = Math.max(gridTop + gridH, gridTop + listLines.length * 16) + 50;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="${font}">`,
    `<text x="10" y="20" font-size="12">${escapeXml(title)}</text>`,
    `<text x="10" y="38" fill="#555">${escapeXml(heading)}</text>`,
    `<text x="${left + gridW / 2}" y="62" text-anchor="middle" font-weight="bold">to</text>`,
    `<text x="20" y="${gridTop + gridH / 2}" text-anchor="middle" font-weight="bold" transform="rotate(-90 20 ${gridTop + gridH / 2})">from</text>`,
  ];
  rows.labels.forEach((l, k) => {
    out.push(
      `<text x="${left - 4}" y="${gridTop + k * cell + cell / 2 + 3.5}" text-anchor="end">${escapeXml(l)}</text>`,
    );
  });
  cols.labels.forEach((l, k) => {
    const x = left + k * cell + cell / 2 + 3.5,
      y = gridTop - 4;
    out.push(`<text x="${x}" y="${y}" transform="rotate(-90 ${x} ${y})">${escapeXml(l)}</text>`);
  });
  out.push(
    `<rect x="${left}" y="${gridTop}" width="${gridW}" height="${gridH}" fill="none" stroke="#999" stroke-width="0.5"/>`,
  );
  for (const e of used) {
    const x = left + cols.index.get(e.col!)! * cell,
      y = gridTop + rows.index.get(e.row!)! * cell;
    const k = rank.get(e);
    out.push(
      `<rect x="${x}" y="${y}" width="${cell - 1}" height="${cell - 1}" fill="${heat(e.load / hottest)}" stroke="${k === undefined ? "#ccc" : "#000"}"><title>${tip(e)}</title></rect>`,
    );
    if (k !== undefined)
      out.push(
        `<text x="${x + (cell - 1) / 2}" y="${y + cell / 2 + 3}" text-anchor="middle" font-size="9" fill="${e.load / hottest > 0.55 ? "#fff" : "#000"}">${k}</text>`,
      );
  }
  listLines.forEach((l, k) =>
    out.push(
      `<text x="${listX}" y="${gridTop + 10 + k * 16}"${k === 0 ? ' font-weight="bold"' : ""}>${escapeXml(l)}</text>`,
    ),
  );
  out.push(legend(left, h - 16, hottest));
  out.push("</svg>");
  return out.join("\n") + "\n";
}

function barChart(
  used: readonly LinkLoadEntry[],
  total: number,
  title: string,
  top: number,
  width: number,
  hottest: number,
): string {
  const shown = ranked(used).slice(0, Math.max(1, top));
  const heading = `${title}: the ${shown.length} busiest of ${total} links`;
  const labelW = Math.ceil(shown.reduce((m, e) => Math.max(m, textWidth(e.label, 12) + 12), 60)),
    barW = Math.max(100, width - labelW - 80),
    rowH = 18;
  const w = Math.ceil(
    Math.max(width, labelW + barW + 80, 10 + textWidth(heading, 12) + 10, labelW + legendWidth(hottest, 12) + 10),
  );
  const h = 60 + shown.length * rowH + 30;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="12">`,
    `<text x="10" y="20">${escapeXml(heading)}</text>`,
  ];
  shown.forEach((e, k) => {
    const y = 40 + k * rowH,
      f = Math.min(1, e.load) / hottest;
    out.push(`<text x="${labelW - 6}" y="${y + 12}" text-anchor="end">${escapeXml(e.label)}</text>`);
    out.push(`<rect x="${labelW}" y="${y}" width="${barW}" height="${rowH - 4}" fill="#f4f4f4"/>`);
    out.push(
      `<rect x="${labelW}" y="${y}" width="${(f * barW).toFixed(1)}" height="${rowH - 4}" fill="${heat(f)}" stroke="#999"><title>${tip(e)}</title></rect>`,
    );
    out.push(`<text x="${labelW + barW + 6}" y="${y + 12}">${pct(e.load)}</text>`);
  });
  out.push(legend(labelW, h - 20, hottest));
  out.push("</svg>");
  return out.join("\n") + "\n";
}

const legendText = (hottest: number): string => `0 % .. ${pct(hottest)} busy (the busiest link)`;
/** Width of the colour scale with its text. */
const legendWidth = (hottest: number, size: number): number => 210 + textWidth(legendText(hottest), size);

/** The colour scale: white at 0 % to dark red at the busiest link's load. */
function legend(x: number, y: number, hottest: number): string {
  const stops = [0, 0.25, 0.5, 0.75, 1]
    .map((f, k) => `<rect x="${x + k * 40}" y="${y - 10}" width="40" height="10" fill="${heat(f)}" stroke="#ccc"/>`)
    .join("");
  return `${stops}<text x="${x + 210}" y="${y}">${legendText(hottest)}</text>`;
}
