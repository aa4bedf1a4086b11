/** The total-exchange table of 001 sec 4 recomputed: mean rounds and time/h of our protocols over seeded random h-relations. */
import { fail } from "../../model/errors.js";
import { generatePattern } from "../../patterns/registry.js";
import { teRounds } from "./protocols.js";
import { paperRow, timePerH, type PaperTeRow } from "./paper-table.js";

/** Protocols the table reports by default. */
export const TE_TABLE_ALGORITHMS: readonly string[] = ["te-direct", "te-balanced", "te-offline"];
/** Most packets (N * h) one cell may route. */
export const TE_TABLE_MAX_PACKETS = 1 << 27;

/** Our result for one protocol in one cell. */
export interface TeTableResult {
  readonly meanRounds: number;
  readonly minRounds: number;
  readonly maxRounds: number;
  readonly timePerH: number;
  /** Largest rounds - lower bound over the seeds. */
  readonly maxOverLowerBound: number;
}

/** One cell (N, h) of the table. */
export interface TeTableCell {
  readonly n: number;
  readonly hOverN: number;
  readonly h: number;
  readonly seeds: number;
  readonly meanLowerBound: number;
  readonly paper: PaperTeRow | null;
  readonly results: { readonly [algorithm: string]: TeTableResult };
}

/** What to compute. */
export interface TeTableRequest {
  readonly ns: readonly number[];
  readonly hOverNs: readonly number[];
  readonly seeds: number;
  readonly algorithms?: readonly string[];
  /** Called after every (cell, seed) with a short progress line. */
  readonly progress?: (line: string) => void;
}

/** Runs the table: for each cell, `seeds` random h-relations (seeds 1..K, 001's h-relation with self-messages). */
export function runTeTable(req: TeTableRequest): TeTableCell[] {
  const algorithms = req.algorithms ?? TE_TABLE_ALGORITHMS;
  if (!Number.isInteger(req.seeds) || req.seeds < 1 || req.seeds > 10000) throw fail("planner", "BAD_OPTION", `te-table: seeds must be an integer in 1..10000, got ${req.seeds}`, { field: "seeds" });
  for (const n of req.ns) if (!Number.isInteger(n) || n < 2 || n > 4096) throw fail("planner", "BAD_OPTION", `te-table: N must be an integer in 2..4096, got ${n}`, { field: "n" });
  for (const k of req.hOverNs) if (!Number.isInteger(k) || k < 1 || k > 1024) throw fail("planner", "BAD_OPTION", `te-table: h / N must be an integer in 1..1024, got ${k}`, { field: "h" });
  for (const n of req.ns) for (const k of req.hOverNs) {
    if (n * k * n > TE_TABLE_MAX_PACKETS) throw fail("planner", "BAD_OPTION", `te-table: N = ${n}, h = ${k}N is ${n * k * n} packets, more than ${TE_TABLE_MAX_PACKETS}`, { field: "h" });
  }
  const cells: TeTableCell[] = [];
  for (const n of req.ns) {
    for (const k of req.hOverNs) {
      const h = k * n;
      const sums = algorithms.map(() => ({ sum: 0, min: Infinity, max: -Infinity, over: 0 }));
      let lb = 0;
      for (let s = 1; s <= req.seeds; s++) {
        const m = generatePattern("h-relation", n, { h }, s);
        algorithms.forEach((alg, a) => {
          const r = teRounds(alg, m, s);
          const acc = sums[a]!;
          acc.sum += r.rounds;
          acc.min = Math.min(acc.min, r.rounds);
          acc.max = Math.max(acc.max, r.rounds);
          acc.over = Math.max(acc.over, r.rounds - r.lowerBound);
          if (a === 0) lb += r.lowerBound;
        });
        req.progress?.(`te-table: N = ${n}, h = ${k}N, seed ${s}/${req.seeds}`);
      }
      const results: { [a: string]: TeTableResult } = {};
      algorithms.forEach((alg, a) => {
        const acc = sums[a]!, mean = acc.sum / req.seeds;
        results[alg] = { meanRounds: mean, minRounds: acc.min, maxRounds: acc.max, timePerH: timePerH(mean, n, h), maxOverLowerBound: acc.over };
      });
      cells.push({ n, hOverN: k, h, seeds: req.seeds, meanLowerBound: lb / req.seeds, paper: paperRow(n, k) ?? null, results });
    }
  }
  return cells;
}

/** The table as text rows (header first): paper's columns beside ours. */
export function teTableRows(cells: readonly TeTableCell[], algorithms: readonly string[] = TE_TABLE_ALGORITHMS): string[][] {
  const f = (v: number | null | undefined, d: number): string => (v === null || v === undefined ? "-" : v.toFixed(d));
  const head = ["N", "h", "paper ours rounds", "time/h", "paper direct rounds", "time/h", "lower bound", ...algorithms.flatMap((a) => [`${a} rounds`, "time/h"])];
  return [
    head,
    ...cells.map((c) => [
      String(c.n), `${c.hOverN}N`,
      f(c.paper?.oursRounds, 1), f(c.paper?.oursTimePerH, 2), f(c.paper?.directRounds, 1), f(c.paper?.directTimePerH, 2),
      f(c.meanLowerBound, 1),
      ...algorithms.flatMap((a) => [f(c.results[a]?.meanRounds, 1), f(c.results[a]?.timePerH, 2)]),
    ]),
  ];
}
