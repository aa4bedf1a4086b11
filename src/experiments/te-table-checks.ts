/**
 * Checks of the recomputed 001 table: te-direct against the paper's direct column (within noise?), te-offline against
 * the paper's protocol and the bounds.
 */
import type { TeTableCell } from "./te-table.js";

/** A difference larger than this many standard errors of our mean is outside the noise. */
export const NOISE_Z = 3;
/**
 * te-offline's goal: at most this many rounds above the node lower bound on every seed
 * (docs/algorithms/total-exchange.md).
 */
export const OFFLINE_GOAL_OVER_LB = 2;

/** te-direct in one cell beside the paper's direct column and the max-load model. */
export interface DirectComparison {
  readonly paper: number | null;
  readonly paperDerived: boolean;
  readonly mean: number;
  readonly sd: number;
  /** Sample standard error of our mean: sd / sqrt(K). */
  readonly se: number;
  /**
   * The standard error the test uses: max(se, model sd / sqrt(K)); null for K < 2 (one seed says nothing about the
   * noise).
   */
  readonly noiseSe: number | null;
  readonly min: number;
  readonly max: number;
  /** Our mean - the paper's value. */
  readonly diff: number | null;
  /** diff / noiseSe (null without the paper's value, for K < 2, or when noiseSe = 0). */
  readonly z: number | null;
  /** |diff| <= NOISE_Z * noiseSe (null without the paper's value or for K < 2). */
  readonly withinNoise: boolean | null;
  /** Where the paper's value lies among our seeds: below all, above all, or inside [min, max]. */
  readonly paperAmongSeeds: "below all" | "above all" | "inside" | null;
  readonly modelMean: number;
  readonly modelSd: number;
}

/** te-direct against the paper's direct column in one cell (null when the cell has no te-direct). */
export function compareDirect(c: TeTableCell): DirectComparison | null {
  const r = c.results["te-direct"];
  if (!r) return null;
  const paper = c.paper?.directRounds ?? null;
  const diff = paper === null ? null : r.meanRounds - paper;
  // a few seeds that happen to agree give a sample SE near 0: the model's sd per relation is the floor
  const k = r.rounds.length;
  const noiseSe = k < 2 ? null : Math.max(r.seRounds, c.directModel.sd / Math.sqrt(k));
  const z = diff === null || noiseSe === null || noiseSe === 0 ? null : diff / noiseSe;
  return {
    paper,
    paperDerived: c.paper?.derived.includes("directRounds") ?? false,
    mean: r.meanRounds,
    sd: r.sdRounds,
    se: r.seRounds,
    noiseSe,
    min: r.minRounds,
    max: r.maxRounds,
    diff,
    z,
    withinNoise: diff === null || noiseSe === null ? null : Math.abs(diff) <= NOISE_Z * noiseSe,
    paperAmongSeeds:
      paper === null ? null : paper < r.minRounds ? "below all" : paper > r.maxRounds ? "above all" : "inside",
    modelMean: c.directModel.mean,
    modelSd: c.directModel.sd,
  };
}

/** What te-offline achieved in one cell, against the paper's protocol and the bounds. */
export interface OfflineCheck {
  readonly paperOurs: number | null;
  readonly paperDerived: boolean;
  readonly worst: number;
  /** Worst seed below the paper's protocol (null: the paper's number is lost). */
  readonly belowPaper: boolean | null;
  readonly maxOverLowerBound: number;
  readonly withinGoal: boolean;
  /** Seeds on which te-offline equals the relay bound, and on which it equals the node bound. */
  readonly atRelayBound: number;
  readonly atLowerBoundEverySeed: boolean;
  readonly seeds: number;
}

/** te-offline's check in one cell (null when the cell has no te-offline). */
export function checkOffline(c: TeTableCell): OfflineCheck | null {
  const r = c.results["te-offline"];
  if (!r) return null;
  const paperOurs = c.paper?.oursRounds ?? null;
  return {
    paperOurs,
    paperDerived: c.paper?.derived.includes("oursRounds") ?? false,
    worst: r.maxRounds,
    belowPaper: paperOurs === null ? null : r.maxRounds < paperOurs,
    maxOverLowerBound: r.maxOverLowerBound,
    withinGoal: r.maxOverLowerBound <= OFFLINE_GOAL_OVER_LB,
    atRelayBound: r.atRelayBound,
    atLowerBoundEverySeed: r.maxOverLowerBound === 0,
    seeds: c.seeds,
  };
}

/**
 * The goals a table breaks (docs/algorithms/total-exchange.md): te-offline not below the paper's protocol, or above
 * lower bound + 2 (one line each).
 */
export function teTableViolations(cells: readonly TeTableCell[]): string[] {
  const out: string[] = [];
  for (const c of cells) {
    const o = checkOffline(c);
    if (!o) continue;
    if (o.belowPaper === false)
      out.push(
        `N = ${c.n}, h = ${c.hOverN}N: te-offline's worst seed takes ${o.worst} rounds, not below the paper's ${o.paperOurs}`,
      );
    if (!o.withinGoal)
      out.push(
        `N = ${c.n}, h = ${c.hOverN}N: te-offline needs lower bound + ${o.maxOverLowerBound} rounds on some seed (goal: + ${OFFLINE_GOAL_OVER_LB})`,
      );
  }
  return out;
}

const f = (v: number | null, d: number): string => (v === null ? "-" : v.toFixed(d));

/**
 * Rows (header first) of te-direct against the paper's direct column: mean, sd, SE (sample and used), range, difference
 * in SEs, the model.
 */
export function directCheckRows(cells: readonly TeTableCell[]): string[][] {
  const head = [
    "N",
    "h",
    "seeds",
    "paper direct",
    "te-direct mean",
    "sd",
    "sample SE",
    "SE used",
    "min..max",
    "mean - paper",
    "(mean - paper) / SE",
    `within ${NOISE_Z} SE`,
    "paper among seeds",
    "model mean (sd)",
    "paper - model",
  ];
  const rows = cells.flatMap((c) => {
    const d = compareDirect(c);
    if (!d) return [];
    return [
      [
        String(c.n),
        `${c.hOverN}N`,
        String(c.seeds),
        d.paper === null ? "-" : d.paper.toFixed(1) + (d.paperDerived ? "*" : ""),
        f(d.mean, 1),
        f(d.noiseSe === null ? null : d.sd, 2),
        f(d.noiseSe === null ? null : d.se, 2),
        f(d.noiseSe, 2),
        `${d.min}..${d.max}`,
        f(d.diff, 1),
        f(d.z, 1),
        d.withinNoise === null ? "-" : d.withinNoise ? "yes" : "NO",
        d.paperAmongSeeds ?? "-",
        `${d.modelMean.toFixed(1)} (${d.modelSd.toFixed(2)})`,
        d.paper === null ? "-" : f(d.paper - d.modelMean, 1),
      ],
    ];
  });
  return [head, ...rows];
}

/** Rows (header first) of te-offline against the paper's protocol and the lower bounds. */
export function offlineCheckRows(cells: readonly TeTableCell[]): string[][] {
  const head = [
    "N",
    "h",
    "seeds",
    "paper ours",
    "te-balanced",
    "te-offline",
    "te-offline worst seed",
    "worst < paper ours",
    "lower bound",
    "relay bound",
    "te-offline max - lower bound",
    "seeds at relay bound",
  ];
  const rows = cells.flatMap((c) => {
    const o = checkOffline(c);
    if (!o) return [];
    const bal = c.results["te-balanced"];
    const below =
      o.belowPaper === null
        ? o.atLowerBoundEverySeed
          ? "- (= lower bound on every seed)"
          : "-"
        : o.belowPaper
          ? "yes"
          : "NO";
    return [
      [
        String(c.n),
        `${c.hOverN}N`,
        String(o.seeds),
        o.paperOurs === null ? "-" : o.paperOurs.toFixed(1) + (o.paperDerived ? "*" : ""),
        bal ? bal.meanRounds.toFixed(1) : "-",
        c.results["te-offline"]!.meanRounds.toFixed(1),
        String(o.worst),
        below,
        c.meanLowerBound.toFixed(1),
        c.meanRelayBound.toFixed(1),
        String(o.maxOverLowerBound),
        `${o.atRelayBound}/${o.seeds}`,
      ],
    ];
  });
  return [head, ...rows];
}
