/** compareHtml: the comparison as one self-contained HTML page (inline CSS and SVG only: no script, no network). */
import { stepGrid, stepGridSvg } from "../export/step-grid.js";
import { MAX_SVG_INTERVALS, svgDraws, timelineToSvg } from "../export/svg-gantt.js";
import { linkLoadEntries, linkLoadSvg } from "../export/svg-link-load.js";
import type { SimResult } from "../machines/sim/simulate.js";
import type { NetworkRoutes } from "../model/network.js";
import type { Schedule } from "../model/schedule.js";
import { PLANNERS } from "../planner/registry.js";
import { compareChartSvg } from "./compare-chart.js";
import { checkReport, measureCells, type CompareReport } from "./compare.js";
import { escapeXml, fmtNumber } from "./compare-format.js";
import { sweepChartSvg } from "./sweep-chart.js";
import type { SweepReport } from "./sweep.js";

/** Most senders a step grid shows (the first ones). */
export const HTML_GRID_NODES = 64;
/** Most steps of a stage its step grid shows (the first ones). */
const HTML_GRID_STEPS = 64;
/** Most stages whose step grid the page shows. */
export const HTML_GRID_STAGES = 4;

/** The best plan's schedule and its simulation (with a timeline) for the page's detail section. */
export interface BestPlan {
  readonly schedule: Schedule;
  readonly sim: SimResult;
  /** The network it was simulated on (its links' names for the link-load chart), or absent on the flat fabric. */
  readonly routes?: NetworkRoutes;
}

/** An SVG from src/export made fit for inlining: no XML namespace declaration (HTML5 knows svg). */
const inline = (svg: string): string => svg.replace(/ xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, "");

const CSS = `body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1300px}
table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ccc;padding:3px 7px;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}tr.best td{background:#eef6ea;font-weight:bold}
h1{font-size:20px}h2{font-size:16px;margin-top:1.6em}.note{color:#555;font-size:13px}figure{margin:0.6em 0;overflow-x:auto}`;

/** The comparison table as HTML. */
function tableHtml(r: CompareReport): string {
  const head = [
    "algorithm",
    "stages",
    "steps",
    "start-ups",
    "longest (elements)",
    "traffic (bytes)",
    "peak relay (elements)",
    "blocking (us)",
    "nonblocking (us)",
    `simulated ${r.mode} (us)`,
    "x bound",
    "what your MPI does",
    "direct (no relays)",
  ];
  const rows = r.rows.map((x) => {
    // the plan's measured peak relay when known, else whether its planner relays
    const relayed =
      x.peakBufferElements !== null
        ? x.peakBufferElements > 0
        : (PLANNERS.find((p) => p.name === x.algorithm)?.traits.relayed ?? !x.direct);
    const mpi = x.mpi
      ? `${x.mpi.does}${x.mpi.isDefault ? " (the default)" : ""}: ${fmtNumber(x.mpi.libraryUs)} us`
      : "";
    const cells = [
      escapeXml(x.algorithm),
      fmtNumber(x.stages),
      ...measureCells(x),
      escapeXml(mpi),
      relayed ? "no" : "yes",
    ];
    return `<tr${x.algorithm === r.best ? ' class="best"' : ""}>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`;
  });
  return (
    `<table>\n<thead><tr>${head.map((h) => `<th>${escapeXml(h)}</th>`).join("")}</tr></thead>\n<tbody>\n${rows.join("\n")}\n</tbody>\n</table>\n` +
    `<p class="note">direct (no relays): yes when every element goes from its source straight to its destination, no when the plan relays elements through other nodes (its peak relay is above 0). What your MPI does: the MPI library's own alltoallv algorithm that the row mirrors, with its makespan as the library runs it (every round posted at once, nonblocking, its messages of zero count left out); empty for commplan's plans.</p>\n`
  );
}

/** The bounds as an HTML list. */
function boundsHtml(r: CompareReport): string {
  const items = r.bounds.map(
    (b) =>
      `<li><b>${escapeXml(`${b.target} / ${b.name}`)}</b> (${b.scope === "all" ? "every schedule" : "direct schedules"}${b.contentionFree ? ", contention-free steps" : ""}): ${fmtNumber(b.value)} us = <code>${escapeXml(b.formula)}</code></li>`,
  );
  return `<ul class="note">\n${items.join("\n")}\n</ul>\n`;
}

/** Per-node load of the best plan: bytes sent and received, busy and contention wait, as a bar chart. */
export function nodeLoadSvg(sim: SimResult): string {
  const p = sim.nodes.busy.length;
  const bw = Math.max(2, Math.min(24, Math.floor(1000 / Math.max(1, p))));
  const h = 120;
  const maxOf = (vals: Float64Array): number => {
    let max = 0;
    for (let v = 0; v < p; v++) max = Math.max(max, vals[v]!);
    return max;
  };
  const maxText = (vals: Float64Array, unit: string): string => `max ${fmtNumber(maxOf(vals))} ${unit}`;
  const panel = (vals: Float64Array, colour: string, y0: number, label: string, unit: string): string => {
    const max = maxOf(vals);
    let s = `<text x="4" y="${y0 + 12}">${escapeXml(label)}</text><text x="4" y="${y0 + 26}" fill="#777">${escapeXml(maxText(vals, unit))}</text>\n`;
    for (let v = 0; v < p; v++) {
      const bh = max > 0 ? (vals[v]! / max) * (h - 20) : 0;
      s += `<rect x="${left + v * bw}" y="${(y0 + h - bh).toFixed(1)}" width="${bw - 1}" height="${bh.toFixed(1)}" fill="${colour}"><title>node ${v}: ${escapeXml(fmtNumber(vals[v]!))} ${unit}</title></rect>`;
    }
    return s + "\n";
  };
  const rows: [Float64Array, string, string, string][] = [
    [sim.nodes.sentBytes, "#4e79a7", "bytes sent", "bytes"],
    [sim.nodes.recvBytes, "#f28e2b", "bytes received", "bytes"],
    [sim.nodes.busy, "#59a14f", "busy", "us"],
    [sim.nodes.wait, "#e15759", "contention wait", "us"],
  ];
  // the labels sit left of the bars: the margin fits the longest (0.6 em per character at 11 px)
  const labelW = Math.max(
    ...rows.flatMap(([vals, , label, unit]) => [label, maxText(vals, unit)]).map((t) => t.length),
  );
  const left = Math.max(90, Math.ceil(4 + 0.6 * 11 * labelW + 8));
  const width = left + p * bw + 20;
  let out = `<svg width="${width}" height="${rows.length * (h + 10) + 20}" font-family="sans-serif" font-size="11" role="img"><title>per-node load</title>\n`;
  rows.forEach(([vals, colour, label, unit], k) => (out += panel(vals, colour, 10 + k * (h + 10), label, unit)));
  return out + `<text x="${left}" y="${rows.length * (h + 10) + 14}" fill="#777">nodes 0 .. ${p - 1}</text></svg>\n`;
}

/**
 * Step grids of the best plan's first stages (004 fig. 10 style), at most HTML_GRID_NODES senders and HTML_GRID_STEPS
 * steps each.
 */
function gridsHtml(s: Schedule): string {
  let out = "";
  const stages = Math.min(s.stages.length, HTML_GRID_STAGES);
  for (let k = 0; k < stages; k++) {
    const senders = Array.from({ length: Math.min(s.p, HTML_GRID_NODES) }, (_, v) => v);
    const g = stepGrid(s, k, senders);
    const shown = { ...g, rows: g.rows.slice(0, HTML_GRID_STEPS) };
    out += `<h3>stage ${k + 1}: ${escapeXml(s.stages[k]!.name)}</h3>\n<figure>${inline(stepGridSvg(shown))}</figure>\n`;
    if (g.rows.length > HTML_GRID_STEPS)
      out += `<p class="note">Steps 1 .. ${HTML_GRID_STEPS} of the stage's ${g.rows.length} shown.</p>\n`;
  }
  if (s.stages.length > stages) out += `<p class="note">${s.stages.length - stages} more stages not shown.</p>\n`;
  if (s.p > HTML_GRID_NODES) out += `<p class="note">Senders 0 .. ${HTML_GRID_NODES - 1} of ${s.p} shown.</p>\n`;
  return out;
}

/**
 * The page: header, table, bounds, charts (bars, sweep), and for the best plan its step grid, Gantt timeline,
 * per-node load and, on a network, its links' load. `sweep` (runSweep's) and `best` (the fastest plan with its
 * simulation) are optional sections, none by default. Throws a one-line BAD_INPUT error when `r` is not
 * compareMatrix's report.
 */
export function compareHtml(r: CompareReport, sweep: SweepReport | null = null, best: BestPlan | null = null): string {
  checkReport(r, "compareHtml");
  const title = `commplan compare: ${r.machine}, P = ${r.p}`;
  const parts: string[] = [];
  parts.push(
    `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${escapeXml(title)}</title>\n<style>\n${CSS}\n</style>\n</head>\n<body>\n`,
  );
  parts.push(`<h1>${escapeXml(title)}</h1>\n`);
  parts.push(
    `<p class="note">Matrix digest ${escapeXml(r.matrixDigest)}, ${r.elementBytes} bytes per element; simulated machine ${escapeXml(r.mode)}, ${r.ports} port(s), ${r.network ? `network ${escapeXml(r.network.name)} with link contention (port sharing ${r.network.portSharing})` : `${escapeXml(r.topology)} network`}; seed ${r.seed}. ` +
      (r.bound === null
        ? "The matrix moves nothing over the network."
        : `Lower bound for every schedule: ${fmtNumber(r.bound.value)} us (${escapeXml(r.bound.name)}).`) +
      ` Fastest: <b>${escapeXml(r.best ?? "none")}</b>.</p>\n`,
  );
  parts.push(`<h2>Comparison</h2>\n${tableHtml(r)}`);
  for (const s of r.skipped)
    parts.push(`<p class="note">skipped ${escapeXml(s.algorithm)}: ${escapeXml(s.reason)}</p>\n`);
  parts.push(`<figure>${compareChartSvg(r, { inline: true })}</figure>\n`);
  parts.push(`<h2>Lower bounds (docs/bounds.md)</h2>\n${boundsHtml(r)}`);
  if (sweep !== null)
    parts.push(
      `<h2>Message-size sweep</h2>\n<figure>${sweepChartSvg(sweep, `simulated ${sweep.mode} time against message size`, { inline: true })}</figure>\n`,
    );
  if (best !== null) {
    parts.push(
      `<h2>Best plan: ${escapeXml(best.schedule.algorithm)}</h2>\n<h3>Step grid</h3>\n${gridsHtml(best.schedule)}`,
    );
    parts.push("<h3>Timeline (simulated)</h3>\n");
    parts.push(
      svgDraws(best.sim.timeline.count, best.sim.timeline.p)
        ? `<figure>${inline(timelineToSvg(best.sim.timeline, best.sim.makespan, { title: `${best.schedule.algorithm} on ${r.machine}`, elementBytes: best.schedule.elementBytes }))}</figure>\n`
        : `<p class="note">The timeline has ${best.sim.timeline.count} intervals, more than an SVG chart draws (${MAX_SVG_INTERVALS}).</p>\n`,
    );
    parts.push(`<h3>Per-node load</h3>\n<figure>${nodeLoadSvg(best.sim)}</figure>\n`);
    const net = best.sim.network;
    if (net !== undefined && best.routes !== undefined)
      parts.push(
        `<h3>Link load (simulated)</h3>\n<p class="note">Busy fraction of each link of ${escapeXml(best.routes.name)} over the run: where the plan's messages contend.</p>\n` +
          `<figure>${inline(linkLoadSvg(linkLoadEntries(net.busy, best.routes, best.sim.makespan), { title: `link load: ${best.schedule.algorithm} on ${best.routes.name}` }))}</figure>\n`,
      );
  }
  parts.push("</body>\n</html>\n");
  return parts.join("");
}
