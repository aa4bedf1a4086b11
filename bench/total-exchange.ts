/** Total-exchange bench (issue 6): the table of 001 sec 4 recomputed (te-direct, te-balanced, te-offline) beside the paper's columns; fails on a missed goal. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  compareDirect,
  directCheckRows,
  NOISE_Z,
  offlineCheckRows,
  runTeTable,
  teTableRows,
  teTableViolations,
  PAPER_H_OVER_N,
  PAPER_N,
  type TeTableCell,
} from "../src/experiments/index.js";
import { machineInfo, mdTable, timeMs, writeResults } from "./lib.js";

/** Seeds per N: 10 everywhere (N = 1024 takes several minutes: one 64N relation there is 67M packets). */
export function totalExchangeSeeds(_n: number): number {
  return 10;
}

/** The docs page whose results block the bench rewrites, and the block's markers. */
export const TE_DOCS = join(import.meta.dirname, "..", "docs", "algorithms", "total-exchange.md");
export const TE_DOCS_START = "<!-- bench:total-exchange:start -->";
export const TE_DOCS_END = "<!-- bench:total-exchange:end -->";

/** The markdown of the results (shared by bench/results/total-exchange.md and the docs page). */
export function totalExchangeMarkdown(
  cells: readonly TeTableCell[],
  wall: readonly { n: number; seeds: number; ms: number }[],
): string {
  const rows = teTableRows(cells),
    direct = directCheckRows(cells),
    offline = offlineCheckRows(cells);
  const seeds = [...new Set(cells.map((c) => c.seeds))].join(", ");
  const outside = cells.filter((c) => compareDirect(c)?.withinNoise === false);
  const violations = teTableViolations(cells);
  const f1 = (x: number): string => x.toFixed(1);
  return (
    "### Total exchange (001 sec 4): rounds for random h-relations\n\n" +
    `Mean over seeds 1..K (K = ${seeds}) of \`generatePattern("h-relation", N, { h })\` (union of h random permutations, self-messages included); ` +
    "time/h = rounds * N / h (a round is N steps, 001 Fact 1). '-': lost in the paper's text; '*': lost in the text, derived from the partner column " +
    "(rounds = time/h * h / N, good to +-0.005 h / N rounds). Lower bound: ceil(max packets a node sends or receives / (N - 1)); " +
    "relay bound: no total-exchange router needs fewer rounds (docs/algorithms/total-exchange.md).\n\n" +
    mdTable(rows[0]!, rows.slice(1)) +
    "\n#### te-direct against the paper's direct column\n\n" +
    `Within noise: |our mean - paper| <= ${NOISE_Z} SE, where SE = max(sample SE = sd / sqrt(K) over our seeds, model sd / sqrt(K)) ('-' for K < 2; the paper's own error is unknown, see the docs). ` +
    "Model: the max of N (N - 1) independent Binomial(h, 1/N) pair loads (maxPairLoadModel).\n\n" +
    mdTable(direct[0]!, direct.slice(1)) +
    "\nOutside the noise: " +
    (outside.length === 0
      ? "none.\n"
      : outside
          .map((c) => {
            const d = compareDirect(c)!;
            return `N = ${c.n}, h = ${c.hOverN}N (${f1(d.mean)} vs ${d.paper}, ${d.z === null ? "-" : d.z.toFixed(1)} SE, paper ${d.paperAmongSeeds} of our seeds, model ${f1(d.modelMean)})`;
          })
          .join("; ") + ".\n") +
    "\n#### te-offline against the paper's protocol and the lower bounds\n\n" +
    mdTable(offline[0]!, offline.slice(1)) +
    "\nGoals (te-offline's worst seed below the paper's protocol, at most lower bound + 2 on every seed): " +
    (violations.length === 0 ? "all met.\n" : `MISSED: ${violations.join("; ")}.\n`) +
    "\n#### Wall time\n\n" +
    mdTable(
      ["N", "seeds", "seconds (7 cells, generation included)"],
      wall.map((w) => [w.n, w.seeds, (w.ms / 1000).toFixed(1)]),
    )
  );
}

/** Replaces the results block of the docs page with `md`. */
export function writeDocsBlock(md: string): void {
  const doc = readFileSync(TE_DOCS, "utf8");
  const a = doc.indexOf(TE_DOCS_START),
    b = doc.indexOf(TE_DOCS_END);
  if (a < 0 || b < a)
    throw new Error(`bench total-exchange: ${TE_DOCS} has no ${TE_DOCS_START} ... ${TE_DOCS_END} block`);
  writeFileSync(TE_DOCS, doc.slice(0, a + TE_DOCS_START.length) + "\n" + md + doc.slice(b));
}

/** Runs the table; writes the results and the docs block; sets a non-zero exit code when a goal is missed. */
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
  const md = totalExchangeMarkdown(cells, wall);
  const violations = teTableViolations(cells);
  writeResults(
    "total-exchange",
    { machine: machineInfo(), seedsNote: "10 seeds for every N", wall, cells, violations },
    md,
  );
  writeDocsBlock(md);
  if (violations.length > 0) {
    for (const v of violations) log(`total-exchange: goal missed: ${v}`);
    process.exitCode = 1;
  }
  return md;
}
