/** Total-exchange bench (issue 6): the table of 001 sec 4 recomputed (te-direct, te-balanced, te-offline) beside the paper's columns. */
import { runTeTable, teTableRows, PAPER_H_OVER_N, PAPER_N, type TeTableCell } from "../src/planner/total-exchange/index.js";
import { machineInfo, mdTable, timeMs, writeResults } from "./lib.js";

/** Seeds per N: 10 everywhere (N = 1024 takes several minutes: one 64N relation there is 67M packets). */
export function totalExchangeSeeds(_n: number): number {
  return 10;
}

/** Runs the table; returns the markdown summary. */
export function totalExchangeBench(log: (s: string) => void): string {
  const cells: TeTableCell[] = [];
  const wall: { n: number; seeds: number; ms: number }[] = [];
  for (const n of PAPER_N) {
    const seeds = totalExchangeSeeds(n);
    log(`total-exchange: N = ${n}, ${seeds} seeds ...`);
    const { ms, value } = timeMs(() => runTeTable({ ns: [n], hOverNs: PAPER_H_OVER_N, seeds }));
    cells.push(...value);
    wall.push({ n, seeds, ms });
  }
  const f = (x: number | null | undefined, d = 1): string => (x === null || x === undefined ? "-" : x.toFixed(d));
  const rows = teTableRows(cells);
  const summary = cells.map((c) => {
    const off = c.results["te-offline"]!, dir = c.results["te-direct"]!, bal = c.results["te-balanced"]!;
    return [
      c.n, `${c.hOverN}N`, c.seeds,
      f(c.paper?.directRounds), f(dir.meanRounds), c.paper?.directRounds == null ? "-" : f(dir.meanRounds - c.paper.directRounds),
      f(c.paper?.oursRounds), f(bal.meanRounds), f(off.meanRounds),
      c.paper?.oursRounds == null ? "-" : off.maxRounds < c.paper.oursRounds ? "yes" : "NO",
      off.maxOverLowerBound,
    ];
  });
  const md =
    "### Total exchange (001 sec 4): rounds for random h-relations\n\n" +
    "Mean over seeds 1..K (K = 10) of `generatePattern(\"h-relation\", N, { h })` (union of h random permutations, self-messages included); " +
    "time/h = rounds * N / h (a round is N steps, 001 Fact 1). '-': lost in the paper's text.\n\n" +
    mdTable(rows[0]!, rows.slice(1)) +
    "\n#### Checks\n\n" +
    mdTable(["N", "h", "seeds", "paper direct", "te-direct", "difference", "paper ours", "te-balanced", "te-offline", "te-offline (worst seed) < paper ours", "te-offline max rounds - lower bound"], summary) +
    "\n#### Wall time\n\n" +
    mdTable(["N", "seeds", "seconds (7 cells, generation included)"], wall.map((w) => [w.n, w.seeds, f(w.ms / 1000)]));
  writeResults("total-exchange", { machine: machineInfo(), seedsNote: "10 seeds for every N", wall, cells }, md);
  return md;
}
