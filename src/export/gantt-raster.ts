/**
 * The raster view of a timeline for the SVG Gantt chart of many nodes: a row per node (or per group of nodes past
 * MAX_RASTER_ROWS), time cut into columns, each cell the kind that fills most of it.
 */
import type { Timeline } from "../model/timeline.js";
import { intervalsByGroup } from "./timeline-lanes.js";

/** Most rows of the raster: past this many nodes, consecutive nodes share a row. */
export const MAX_RASTER_ROWS = 1024;

/** A run of cells of one row with the same kind: columns [from, to), and the time they cover in us. */
export interface RasterRun {
  readonly row: number;
  readonly kind: number;
  readonly from: number;
  readonly to: number;
}

/** The raster: nodes per row, rows, columns, and its runs (row by row, left to right). */
export interface Raster {
  readonly nodesPerRow: number;
  readonly rows: number;
  readonly columns: number;
  readonly runs: RasterRun[];
}

/**
 * The raster of `tl` over [0, span] in `columns` columns. A cell takes the kind whose intervals cover most of its
 * time, summed over the row's nodes; it stays blank (idle) when all kinds together cover less than half of the row's
 * time in it. Equal cells next to each other form one run. O(intervals x the columns each covers + rows x columns x
 * kinds).
 */
export function timelineRaster(tl: Timeline, span: number, columns: number): Raster {
  const nodesPerRow = Math.max(1, Math.ceil(tl.p / MAX_RASTER_ROWS));
  const rows = Math.ceil(tl.p / nodesPerRow);
  const kinds = tl.kindNames.length;
  const colUs = span / columns;
  const { start, order } = intervalsByGroup(tl, nodesPerRow);
  // time of each kind in each column of the current row, kind-major
  const acc = new Float64Array(kinds * columns);
  const runs: RasterRun[] = [];
  for (let r = 0; r < rows; r++) {
    acc.fill(0);
    for (let q = start[r]!; q < start[r + 1]!; q++) {
      const i = order[q]!;
      const t0 = Math.max(0, tl.start[i]!),
        t1 = Math.min(span, tl.end[i]!);
      if (!(t1 > t0)) continue;
      const base = tl.kind[i]! * columns;
      const c1 = Math.min(columns - 1, Math.floor(t1 / colUs));
      for (let c = Math.floor(t0 / colUs); c <= c1; c++)
        acc[base + c]! += Math.min(t1, (c + 1) * colUs) - Math.max(t0, c * colUs);
    }
    const nodes = Math.min(tl.p, (r + 1) * nodesPerRow) - r * nodesPerRow;
    const half = 0.5 * nodes * colUs;
    let runKind = -1,
      runFrom = 0;
    for (let c = 0; c <= columns; c++) {
      // the kind that fills most of the cell (the first of equals), if the kinds together fill half of it
      let kind = -1,
        most = 0,
        busy = 0;
      for (let k = 0; c < columns && k < kinds; k++) {
        const t = acc[k * columns + c]!;
        busy += t;
        if (t > most) {
          most = t;
          kind = k;
        }
      }
      if (busy < half) kind = -1;
      if (kind === runKind) continue;
      if (runKind >= 0) runs.push({ row: r, kind: runKind, from: runFrom, to: c });
      runKind = kind;
      runFrom = c;
    }
  }
  return { nodesPerRow, rows, columns, runs };
}
