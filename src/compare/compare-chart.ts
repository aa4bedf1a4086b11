/**
 * compareChartSvg: the comparison as a horizontal bar chart (modelled blocking, modelled nonblocking, simulated time
 * per planner; the lower bound as a line).
 */
import { checkReport, type CompareReport } from "./compare.js";
import { escapeXml, fmtNumber } from "./compare-format.js";
import { numberOpt } from "../export/options.js";

/** The three bars of each planner, with their colours. */
const BARS = [
  { key: "blockingUs", label: "modelled blocking", colour: "#bab0ac" },
  { key: "nonblockingUs", label: "modelled nonblocking", colour: "#76b7b2" },
  { key: "simulatedUs", label: "simulated", colour: "#4e79a7" },
] as const;

/** Options of the chart. */
export interface ChartOptions {
  readonly width?: number;
  /** Leave out the xmlns attribute (for SVG inlined in HTML). */
  readonly inline?: boolean;
}

/** Estimated width in pixels of `text` at the chart's 11 px font (0.6 em a character). */
const textWidth = (text: string): number => 0.6 * 11 * text.length;

/** An x scale over [lo, hi]: logarithmic when hi / lo > 20, else linear from 0. */
function scale(
  lo: number,
  hi: number,
  x0: number,
  w: number,
): { at: (v: number) => number; log: boolean; ticks: number[] } {
  if (hi <= 0) return { at: () => x0, log: false, ticks: [0] };
  if (lo > 0 && hi / lo > 20) {
    const a = Math.floor(Math.log10(lo)),
      b = Math.ceil(Math.log10(hi));
    const ticks: number[] = [];
    for (let e = a; e <= b; e++) ticks.push(10 ** e);
    return { at: (v) => x0 + ((Math.log10(Math.max(v, 10 ** a)) - a) / Math.max(1, b - a)) * w, log: true, ticks };
  }
  const step = 10 ** Math.floor(Math.log10(hi)) / (hi / 10 ** Math.floor(Math.log10(hi)) < 3 ? 2 : 1);
  const ticks: number[] = [];
  for (let t = 0; t <= hi * 1.0001; t += step) ticks.push(t);
  const top = ticks[ticks.length - 1]! < hi ? ticks[ticks.length - 1]! + step : ticks[ticks.length - 1]!;
  if (top > ticks[ticks.length - 1]!) ticks.push(top);
  return { at: (v) => x0 + (v / top) * w, log: false, ticks };
}

/** The chart as an SVG document (one group of three bars per planner, the bound as a dashed line, a legend). */
export function compareChartSvg(r: CompareReport, opts: ChartOptions = {}): string {
  checkReport(r, "compareChartSvg");
  const width = numberOpt("compare", "width", opts.width, 900, { min: 300, max: 100000 });
  const name = (x: CompareReport["rows"][number]): string => x.algorithm + (x.algorithm === r.best ? " (fastest)" : "");
  // room for the longest planner name on the left and half the last tick label on the right (0.6 em a character)
  const left = Math.max(150, Math.ceil(12 + r.rows.reduce((w, x) => Math.max(w, textWidth(name(x))), 0))),
    top = 50,
    bar = 7,
    group = BARS.length * bar + 8;
  const height = top + Math.max(1, r.rows.length) * group + 50;
  const values = r.rows.flatMap((x) => BARS.map((b) => x[b.key])).filter((v) => v > 0);
  if (r.bound !== null) values.push(r.bound.value);
  const lo = Math.min(...values, Infinity),
    hi = Math.max(0, ...values);
  const lastTick = scale(lo, hi, left, 1).ticks.at(-1)!;
  const right = Math.max(20, Math.ceil(textWidth(fmtNumber(lastTick)) / 2 + 4));
  const plotW = width - left - right;
  const sx = scale(lo, hi, left, plotW);
  const out: string[] = [];
  const ns = opts.inline ? "" : ' xmlns="http://www.w3.org/2000/svg"';
  const title = `commplan compare: ${r.machine}, P = ${r.p}, time per planner (us${sx.log ? ", log scale" : ""})`;
  out.push(`<svg${ns} width="${width}" height="${height}" font-family="sans-serif" font-size="11" role="img">\n`);
  out.push(`<title>${escapeXml(title)}</title>\n`);
  out.push(`<text x="${left}" y="16" font-size="13">${escapeXml(title)}</text>\n`);
  BARS.forEach((b, k) => {
    const x = left + k * 170;
    out.push(`<rect x="${x}" y="26" width="10" height="10" fill="${b.colour}"/>`);
    out.push(`<text x="${x + 14}" y="35">${b.label}</text>\n`);
  });
  const axisY = top + r.rows.length * group + 4;
  for (const t of sx.ticks) {
    const x = sx.at(t).toFixed(1);
    out.push(`<line x1="${x}" y1="${top - 4}" x2="${x}" y2="${axisY}" stroke="#ddd"/>`);
    out.push(`<text x="${x}" y="${axisY + 14}" text-anchor="middle">${fmtNumber(t)}</text>\n`);
  }
  r.rows.forEach((x, k) => {
    const y0 = top + k * group;
    out.push(
      `<text x="${left - 6}" y="${y0 + group / 2}" text-anchor="end"${x.algorithm === r.best ? ' font-weight="bold"' : ""}>${escapeXml(name(x))}</text>\n`,
    );
    BARS.forEach((b, j) => {
      const v = x[b.key];
      const w = Math.max(0, sx.at(v) - left);
      out.push(
        `<rect x="${left}" y="${y0 + j * bar}" width="${w.toFixed(1)}" height="${bar - 1}" fill="${b.colour}"><title>${escapeXml(`${x.algorithm}, ${b.label}: ${fmtNumber(v)} us`)}</title></rect>\n`,
      );
    });
  });
  if (r.bound !== null) {
    const x = sx.at(r.bound.value).toFixed(1);
    out.push(
      `<line x1="${x}" y1="${top - 6}" x2="${x}" y2="${axisY}" stroke="#e15759" stroke-dasharray="4 3"><title>${escapeXml(`lower bound ${r.bound.name}: ${fmtNumber(r.bound.value)} us`)}</title></line>\n`,
    );
    const label = `lower bound (simulated ${r.mode})`;
    // centred under the line, moved in when that would leave the canvas
    const lx = Math.min(Math.max(Number(x), textWidth(label) / 2 + 2), width - textWidth(label) / 2 - 2);
    out.push(
      `<text x="${lx.toFixed(1)}" y="${axisY + 28}" fill="#e15759" text-anchor="middle">${escapeXml(label)}</text>\n`,
    );
  }
  out.push(`<text x="${left + plotW / 2}" y="${height - 4}" text-anchor="middle">time (us)</text>\n`);
  out.push("</svg>\n");
  return out.join("");
}
