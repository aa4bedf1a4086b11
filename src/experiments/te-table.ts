/**
 * The total-exchange table of 001 sec 4 recomputed: mean rounds and time/h of our protocols over seeded random
 * h-relations.
 */
import { fail } from "../model/errors.js";
import { generatePattern } from "../patterns/registry.js";
import { maxPairLoadModel } from "./max-load-model.js";
import { teRounds } from "../planner/total-exchange/protocols.js";
import { PLANNERS } from "../planner/registry.js";
import { paperRow, timePerH, type PaperTeField, type PaperTeRow } from "./paper-table.js";
import { relayLowerBound } from "../planner/total-exchange/round-engine.js";

/** Protocols the table reports by default: the total-exchange planners marked `inPaperTable`, in registry order. */
export const TE_TABLE_ALGORITHMS: readonly string[] = PLANNERS.filter(
  (p) => p.traits.family?.name === "total-exchange" && p.traits.family.inPaperTable,
).map((p) => p.name);
/** Most packets (N * h) one cell may route. */
export const TE_TABLE_MAX_PACKETS = 1 << 27;

/** Our result for one protocol in one cell. */
export interface TeTableResult {
  readonly meanRounds: number;
  readonly minRounds: number;
  readonly maxRounds: number;
  /** Sample standard deviation of the rounds over the seeds (0 for one seed). */
  readonly sdRounds: number;
  /** Standard error of the mean: sd / sqrt(seeds). */
  readonly seRounds: number;
  /** Rounds per seed, seeds 1..K. */
  readonly rounds: readonly number[];
  readonly timePerH: number;
  /** Largest rounds - lower bound over the seeds. */
  readonly maxOverLowerBound: number;
  /** Seeds on which the rounds equal the relay lower bound (no total-exchange router does better). */
  readonly atRelayBound: number;
}

/** One cell (N, h) of the table. */
export interface TeTableCell {
  readonly n: number;
  readonly hOverN: number;
  readonly h: number;
  readonly seeds: number;
  readonly meanLowerBound: number;
  /** Mean over the seeds of the relay lower bound (relayLowerBound). */
  readonly meanRelayBound: number;
  /** Mean and sd of the max pair load (te-direct's rounds) in the independent-pairs model (maxPairLoadModel). */
  readonly directModel: { readonly mean: number; readonly sd: number };
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
  if (!Number.isInteger(req.seeds) || req.seeds < 1 || req.seeds > 10000)
    throw fail("planner", "BAD_OPTION", `te-table: seeds must be an integer in 1..10000, got ${req.seeds}`, {
      field: "seeds",
    });
  for (const n of req.ns)
    if (!Number.isInteger(n) || n < 2 || n > 4096)
      throw fail("planner", "BAD_OPTION", `te-table: N must be an integer in 2..4096, got ${n}`, { field: "n" });
  for (const k of req.hOverNs)
    if (!Number.isInteger(k) || k < 1 || k > 1024)
      throw fail("planner", "BAD_OPTION", `te-table: h / N must be an integer in 1..1024, got ${k}`, { field: "h" });
  for (const n of req.ns)
    for (const k of req.hOverNs) {
      if (n * k * n > TE_TABLE_MAX_PACKETS)
        throw fail(
          "planner",
          "BAD_OPTION",
          `te-table: N = ${n}, h = ${k}N is ${n * k * n} packets, more than ${TE_TABLE_MAX_PACKETS}`,
          { field: "h" },
        );
    }
  const cells: TeTableCell[] = [];
  for (const n of req.ns) {
    for (const k of req.hOverNs) {
      const h = k * n;
      const per = algorithms.map(() => ({ rounds: [] as number[], over: 0, atRelay: 0 }));
      let lb = 0,
        relay = 0;
      for (let s = 1; s <= req.seeds; s++) {
        const m = generatePattern("h-relation", n, { h }, s);
        const rb = relayLowerBound(m);
        relay += rb;
        algorithms.forEach((alg, a) => {
          const r = teRounds(alg, m, s);
          const acc = per[a]!;
          acc.rounds.push(r.rounds);
          acc.over = Math.max(acc.over, r.rounds - r.lowerBound);
          if (r.rounds === rb) acc.atRelay++;
          if (a === 0) lb += r.lowerBound;
        });
        req.progress?.(`te-table: N = ${n}, h = ${k}N, seed ${s}/${req.seeds}`);
      }
      const results: { [a: string]: TeTableResult } = {};
      algorithms.forEach((alg, a) => {
        const { rounds, over, atRelay } = per[a]!;
        const { mean, sd } = meanSd(rounds);
        results[alg] = {
          meanRounds: mean,
          minRounds: Math.min(...rounds),
          maxRounds: Math.max(...rounds),
          sdRounds: sd,
          seRounds: sd / Math.sqrt(rounds.length),
          rounds,
          timePerH: timePerH(mean, n, h),
          maxOverLowerBound: over,
          atRelayBound: atRelay,
        };
      });
      const model = maxPairLoadModel(n, h);
      cells.push({
        n,
        hOverN: k,
        h,
        seeds: req.seeds,
        meanLowerBound: lb / req.seeds,
        meanRelayBound: relay / req.seeds,
        directModel: { mean: model.mean, sd: model.sd },
        paper: paperRow(n, k) ?? null,
        results,
      });
    }
  }
  return cells;
}

/** Mean and sample standard deviation (0 for fewer than two values). */
export function meanSd(xs: readonly number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  if (xs.length < 2) return { mean, sd: 0 };
  return { mean, sd: Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1)) };
}

/** A paper value for a table: '-' when lost, a trailing '*' when derived from its partner column. */
export function paperText(row: PaperTeRow | null, field: PaperTeField, digits: number): string {
  const v = row?.[field];
  if (v === null || v === undefined) return "-";
  return v.toFixed(digits) + (row!.derived.includes(field) ? "*" : "");
}

/** The table as text rows (header first): paper's columns beside ours ('*': derived from the partner column). */
export function teTableRows(
  cells: readonly TeTableCell[],
  algorithms: readonly string[] = TE_TABLE_ALGORITHMS,
): string[][] {
  const f = (v: number | null | undefined, d: number): string => (v === null || v === undefined ? "-" : v.toFixed(d));
  const head = [
    "N",
    "h",
    "paper ours rounds",
    "time/h",
    "paper direct rounds",
    "time/h",
    "lower bound",
    "relay bound",
    ...algorithms.flatMap((a) => [`${a} rounds`, "time/h"]),
  ];
  return [
    head,
    ...cells.map((c) => [
      String(c.n),
      `${c.hOverN}N`,
      paperText(c.paper, "oursRounds", 1),
      paperText(c.paper, "oursTimePerH", 2),
      paperText(c.paper, "directRounds", 1),
      paperText(c.paper, "directTimePerH", 2),
      f(c.meanLowerBound, 1),
      f(c.meanRelayBound, 1),
      ...algorithms.flatMap((a) => [f(c.results[a]?.meanRounds, 1), f(c.results[a]?.timePerH, 2)]),
    ]),
  ];
}
