/**
 * sweepChartSvg: simulated time against mean message size per planner, log-log (as 004's figures), with the lower bound
 * and the crossovers marked.
 */
import { escapeXml, fmtNumber, SERIES_COLOURS } from "./compare-format.js";
import type { ChartOptions } from "./compare-chart.js";
import type { SweepReport } from "./sweep.js";
import { numberOpt } from "../export/options.js";
import { timeUnit } from "../export/time-unit.js";
import { checkArg, checkOptionsObject, isOptionsObject } from "../model/option-checks.js";

/** Decades covering [lo, hi] (at least one), as exponents. */
function decades(lo: number, hi: number): [number, number] {
  const a = Math.floor(Math.log10(lo)),
    b = Math.ceil(Math.log10(hi));
  return [a, b > a ? b : a + 1];
}

/**
 * The dash of planner k's line: solid through the palette, then a dash pattern per further turn of it, so that no two
 * planners of the first 65 share a colour and a dash (the lower bound's "5 4" is not among them).
 */
function seriesDash(k: number): string {
  const turn = Math.floor(k / SERIES_COLOURS.length);
  if (turn === 0) return "";
  const patterns = ["8 3", "2 2", "8 3 2 3", "1 4"];
  const d = patterns[(turn - 1) % patterns.length]!;
  return ` stroke-dasharray="${d}"`;
}

/** A label's width at the chart's 11 px font, estimated at 0.6 em a character. */
const labelWidth = (text: string): number => Math.ceil(0.6 * 11 * text.length);

/**
 * The sweep as an SVG document: a polyline per planner (beyond the palette's colours, dashed), the bound dashed,
 * crossovers as circles (leader changes filled and labelled). The time axis is in the unit (us, ms, s; the Gantt
 * chart's rule) of its lowest tick, the left margin as wide as its widest label; the canvas grows with the legend
 * (a row per planner, the bound and each kind of circle), which stays beside the plot.
 */
export function sweepChartSvg(sw: SweepReport, title: string, opts: ChartOptions = {}): string {
  const ok = isOptionsObject(sw) && Array.isArray(sw["points"]) && Array.isArray(sw["algorithms"]);
  checkArg("compare", "sweepChartSvg", "sw", sw, ok, "a SweepReport (runSweep's)");
  checkArg("compare", "sweepChartSvg", "title", title, typeof title === "string", "a string", "BAD_OPTION");
  checkOptionsObject("compare", "options", opts);
  const width = numberOpt("compare", "width", opts.width, 900, { min: 300, max: 100000 });
  const pts = sw.points.filter((p) => p.meanMessageBytes > 0);
  const xs = pts.map((p) => p.meanMessageBytes);
  const ys = pts.flatMap((p) => [...p.times, p.bound]).filter((v): v is number => v !== null && v > 0);
  const [xa, xb] = xs.length === 0 ? [0, 1] : decades(Math.min(...xs), Math.max(...xs));
  const [ya, yb] = ys.length === 0 ? [0, 1] : decades(Math.min(...ys), Math.max(...ys));
  const unit = timeUnit(10 ** ya);
  const yLabels: string[] = [];
  for (let e = ya; e <= yb; e++) yLabels.push(fmtNumber(10 ** (e - Math.round(Math.log10(unit.us)))));
  const marks: [string, string][] = [];
  if (sw.crossovers.some((c) => !c.leaderChange))
    marks.push(['r="3.5" fill="none" stroke="#555"', "two planners cross"]);
  if (sw.crossovers.some((c) => c.leaderChange))
    marks.push(['r="6" fill="none" stroke="#d62728" stroke-width="2"', "the fastest changes"]);
  const legend = [...sw.algorithms, "lower bound", ...marks.map(([, label]) => label)];
  // the rotated axis title takes the first 24 px; each legend row 16 px, the first 10 px below the plot's top
  const left = Math.max(80, 26 + Math.max(...yLabels.map(labelWidth))),
    right = Math.max(170, 34 + Math.max(...legend.map(labelWidth)) + 8),
    top = 40,
    bottom = 50;
  const height = Math.max(520, top + 18 + (legend.length - 1) * 16 + bottom);
  const pw = width - left - right,
    ph = height - top - bottom;
  const sx = (v: number): number => left + ((Math.log10(v) - xa) / (xb - xa)) * pw;
  const sy = (v: number): number => top + ph - ((Math.log10(v) - ya) / (yb - ya)) * ph;
  const ns = opts.inline ? "" : ' xmlns="http://www.w3.org/2000/svg"';
  const out: string[] = [];
  out.push(`<svg${ns} width="${width}" height="${height}" font-family="sans-serif" font-size="11" role="img">\n`);
  out.push(`<title>${escapeXml(title)}</title>\n<text x="${left}" y="18" font-size="13">${escapeXml(title)}</text>\n`);
  out.push(`<rect x="${left}" y="${top}" width="${pw}" height="${ph}" fill="none" stroke="#888"/>\n`);
  for (let e = xa; e <= xb; e++) {
    const x = sx(10 ** e).toFixed(1);
    out.push(`<line x1="${x}" y1="${top}" x2="${x}" y2="${top + ph}" stroke="#e4e4e4"/>`);
    out.push(`<text x="${x}" y="${top + ph + 14}" text-anchor="middle">${fmtNumber(10 ** e)}</text>\n`);
  }
  for (let e = ya; e <= yb; e++) {
    const y = sy(10 ** e).toFixed(1);
    out.push(`<line x1="${left}" y1="${y}" x2="${left + pw}" y2="${y}" stroke="#e4e4e4"/>`);
    out.push(`<text x="${left - 4}" y="${y}" text-anchor="end" dy="3">${yLabels[e - ya]}</text>\n`);
  }
  out.push(
    `<text x="${left + pw / 2}" y="${height - 12}" text-anchor="middle">mean message size (bytes, log)</text>\n`,
    `<text transform="translate(16 ${top + ph / 2}) rotate(-90)" text-anchor="middle">simulated time (${unit.name}, log)</text>\n`,
  );
  const series = (vals: readonly (number | null)[], colour: string, dash: string, label: string, k: number): void => {
    const xy = pts.flatMap((p, i) => (vals[i] != null && vals[i]! > 0 ? [[sx(p.meanMessageBytes), sy(vals[i]!)]] : []));
    if (xy.length === 0) return;
    const d = xy.map(([x, y]) => `${x!.toFixed(1)},${y!.toFixed(1)}`).join(" ");
    out.push(
      `<polyline points="${d}" fill="none" stroke="${colour}" stroke-width="1.6"${dash}><title>${escapeXml(label)}</title></polyline>\n`,
    );
    for (const [x, y] of xy) out.push(`<circle cx="${x!.toFixed(1)}" cy="${y!.toFixed(1)}" r="2" fill="${colour}"/>`);
    const ly = top + 10 + k * 16;
    out.push(
      `\n<line x1="${left + pw + 10}" y1="${ly}" x2="${left + pw + 30}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash}/><text x="${left + pw + 34}" y="${ly + 4}">${escapeXml(label)}</text>\n`,
    );
  };
  sw.algorithms.forEach((a, k) => {
    const vals = pts.map((p) => p.times[k] ?? null);
    series(vals, SERIES_COLOURS[k % SERIES_COLOURS.length]!, seriesDash(k), a, k);
  });
  series(
    pts.map((p) => p.bound),
    "#000",
    ' stroke-dasharray="5 4"',
    "lower bound",
    sw.algorithms.length,
  );
  // the circles' legend, below the lines' (only the kinds the chart has)
  marks.forEach(([style, label], j) => {
    const ly = top + 10 + (sw.algorithms.length + 1 + j) * 16;
    out.push(
      `<circle cx="${left + pw + 20}" cy="${ly}" ${style}/><text x="${left + pw + 34}" y="${ly + 4}">${label}</text>\n`,
    );
  });
  for (const c of sw.crossovers) {
    const x = sx(c.meanMessageBytes).toFixed(1),
      y = sy(c.timeUs).toFixed(1);
    const tip = `${c.before} / ${c.after} cross at ${fmtNumber(c.meanMessageBytes)} bytes, ${fmtNumber(c.timeUs)} us${c.leaderChange ? ` (fastest becomes ${c.after})` : ""}`;
    out.push(
      c.leaderChange
        ? `<circle cx="${x}" cy="${y}" r="6" fill="none" stroke="#d62728" stroke-width="2"><title>${escapeXml(tip)}</title></circle><text x="${x}" y="${Number(y) - 9}" fill="#d62728" text-anchor="middle">${escapeXml(c.after)}</text>\n`
        : `<circle cx="${x}" cy="${y}" r="3.5" fill="none" stroke="#555"><title>${escapeXml(tip)}</title></circle>\n`,
    );
  }
  out.push("</svg>\n");
  return out.join("");
}
