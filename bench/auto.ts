/** Auto bench: `--algorithm auto` against the best planner (every applicable one simulated) over a held-out set of matrices, P 8..1024, every machine preset. */
import { AUTO_ALWAYS_FINAL, AUTO_FINALISTS, planAuto } from "../src/auto/index.js";
import { AUTO_VARIANTS, planVariant, screenVariants, variantLabel, type AutoVariant } from "../src/auto/index.js";
import { scheduleLoad } from "../src/model/schedule-load.js";
import { TE_MAX_ELEMENTS } from "../src/planner/total-exchange/te-offline.js";
import { MACHINES } from "../src/machines/presets.js";
import { bestBound, lowerBounds } from "../src/bounds/index.js";
import { simulateSchedule, type SimRequest } from "../src/machines/sim/index.js";
import { blockingMakespanBound } from "../src/machines/sim/blocking-bound.js";
import type { CommMatrix } from "../src/model/matrix.js";
import type { MachineModel } from "../src/model/machine.js";
import { generatePattern, PATTERNS } from "../src/patterns/index.js";
import type { PatternInput } from "../src/patterns/types.js";
import { sparseFromCoordinates } from "../src/model/sparse-structure.js";
import { PLANNERS } from "../src/planner/index.js";
import { bestOfMs, machineInfo, mdTable, timeMs, writeResults } from "./lib.js";

/**
 * The patterns of the held-out set, with their options: add a pattern here (one line) and the bench
 * covers it at every sampled P and machine. A name not registered (yet) is skipped and listed.
 */
export const SET: readonly { readonly pattern: string; readonly options: { readonly [k: string]: number } }[] = [
  { pattern: "pattern1", options: { mmax: 1024 } },
  { pattern: "pattern2", options: { mmax: 1024 } },
  { pattern: "liu-pattern1", options: { lmax: 256 } },
  { pattern: "liu-pattern2", options: { lmax: 512 } },
  { pattern: "liu-pattern3", options: { lmax: 128 } },
  { pattern: "random", options: { density: 0.5, max: 100 } },
  { pattern: "random", options: { density: 0.1, max: 4000 } },
  { pattern: "ranka-kl", options: { k: 4, l: 0.25, t: 4096 } },
  { pattern: "wang-set1", options: { d: 4, unit: 64 } },
  { pattern: "wang-set2", options: { d: 6, unit: 16 } },
  { pattern: "h-relation", options: { h: 4, self: 0 } },
  { pattern: "uniform", options: { size: 64 } },
  { pattern: "moe", options: {} },
  { pattern: "halo", options: {} },
  { pattern: "shuffle", options: {} },
  { pattern: "spmv", options: {} },
];

/**
 * The sparse matrix of the spmv cases (no file in the repository): a 2-D 5-point stencil on a k x k
 * grid (k from the seed, 40..71) plus 2 seeded random long-range entries per row, as an unstructured
 * mesh's far couplings would be.
 */
export function spmvInput(seed: number): PatternInput {
  const k = 40 + (seed % 32),
    n = k * k;
  const rows: number[] = [],
    cols: number[] = [];
  let x = seed >>> 0 || 1;
  const rand = (m: number): number => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0), x % m);
  for (let r = 0; r < n; r++) {
    const a = Math.floor(r / k),
      b = r % k;
    for (const [da, db] of [
      [0, 0],
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const)
      if (a + da >= 0 && a + da < k && b + db >= 0 && b + db < k) {
        rows.push(r);
        cols.push((a + da) * k + b + db);
      }
    for (let e = 0; e < 2; e++) {
      rows.push(r);
      cols.push(rand(n));
    }
  }
  return { sparse: sparseFromCoordinates(n, n, Int32Array.from(rows), Int32Array.from(cols)) };
}

/** P of the ordinary cases (squares and non-powers of two included), cycled per pattern. */
const P_SAMPLE = [8, 16, 25, 32, 48, 64, 100, 128, 256];
/** Cases per pattern at the sampled P; then one large case (512 or 1,024) for every third pattern. */
const PER_PATTERN = 17;
const LARGE_P = [1024, 512];
/** Seeds of the held-out set (the tests use seeds below 1000). */
export const SEED_BASE = 1000;

interface Row {
  pattern: string;
  options: string;
  p: number;
  machine: string;
  seed: number;
  auto: string;
  autoMakespan: number;
  best: string;
  bestMakespan: number;
  shiftMakespan: number;
  ratioBest: number;
  ratioShift: number;
  /** auto's simulated makespan / the best simulated-machine lower bound valid for every schedule (src/bounds); null without traffic. */
  ratioBound: number | null;
  autoMs: number;
  winnerPlanMs: number;
  winnerPlanSimMs: number;
  /** Milliseconds auto spent simulating shift (always a finalist), or null when its bound spared the replay. */
  shiftSimMs: number | null;
  /** Milliseconds auto spent on the finalists' lower bounds (blocking-bound.ts). */
  boundMs: number;
  /** The winner's blocking bound / its makespan, and its replay's time / the bound's time (null on the OCPC, which has no bound). */
  boundRatio: number | null;
  boundSpeedup: number | null;
  oracleMs: number;
  /** Share of auto's time spent simulating finalists (the rest: planning and pricing the screen). */
  simShare: number;
  /** auto / best under each finalist policy of POLICIES (from the screen's predictions and the oracle's makespans), and its simulations. */
  policies: { ratio: number; sims: number }[];
  /** Replays auto ran (finalists). */
  sims: number;
  /** Finalists whose exact blocking bound gave their makespan without a replay. */
  exact: number;
  /** Variants ruled out unplanned by their simulated-machine bound. */
  ruled: number;
}

/** Finalist policies weighed offline: the k best predictions, and the variants (labels) always simulated. */
const MESH = "mesh-two-stage(schedule=shift)";
const POLICIES: readonly { readonly k: number; readonly always: readonly string[] }[] = [
  { k: 3, always: ["shift", "linear-permutation"] },
  { k: 3, always: ["shift"] },
  { k: 2, always: ["shift", "linear-permutation"] },
  { k: 3, always: ["shift", "linear-permutation", MESH, "hierarchical"] },
  { k: 2, always: ["shift", "linear-permutation", MESH, "hierarchical"] },
  { k: 3, always: ["shift", MESH, "hierarchical"] },
  { k: 2, always: ["shift", MESH, "hierarchical"] },
  { k: 1, always: ["shift", MESH, "hierarchical"] },
];

/** What a policy would have chosen: auto's finalist rule (k best predictions, the `always` labels, siblings within 5 %) over the screen's predictions, priced by the oracle's makespans. */
function policyOutcome(
  cands: readonly { algorithm: string; params: object; predicted: number | null }[],
  all: ReadonlyMap<string, number>,
  k: number,
  always: readonly string[],
): { makespan: number; sims: number } {
  const known = cands.filter((c) => c.predicted !== null && all.has(variantLabel(c as AutoVariant)));
  const chosen = new Set(
    [...known].sort((a, b) => a.predicted! - b.predicted! || cands.indexOf(a) - cands.indexOf(b)).slice(0, k),
  );
  for (const c of known) if (always.includes(variantLabel(c as AutoVariant))) chosen.add(c);
  for (const c of [...chosen])
    for (const q of known) if (q.algorithm === c.algorithm && q.predicted! <= c.predicted! * 1.05) chosen.add(q);
  let makespan = Infinity;
  for (const c of chosen) makespan = Math.min(makespan, all.get(variantLabel(c as AutoVariant))!);
  return { makespan, sims: chosen.size };
}

/** auto's makespan over the best blocking simulated-machine bound valid for every schedule (null when the matrix moves nothing). */
function boundRatio(m: CommMatrix, machine: MachineModel, makespan: number): number | null {
  const b = bestBound(lowerBounds(m, "sim-blocking", { machine }), { direct: false, contentionFree: false });
  return b === null || b.value <= 0 ? null : makespan / b.value;
}

/** Every planner the oracle simulates: auto's variants, then every other registered planner with its defaults. */
function oracleVariants(): AutoVariant[] {
  const named = new Set(AUTO_VARIANTS.map((v) => v.algorithm));
  return [
    ...AUTO_VARIANTS,
    ...PLANNERS.filter((p) => !named.has(p.name)).map((p) => ({ algorithm: p.name, params: {} })),
  ];
}

function offDiagonal(m: CommMatrix): number {
  let t = 0;
  for (let i = 0; i < m.p; i++) for (let j = 0; j < m.p; j++) if (i !== j) t += m.data[i * m.p + j]!;
  return t;
}

/**
 * The best simulated makespan over every applicable planner (total-exchange planners only up to
 * TE_MAX_ELEMENTS unit packets; plans that exceed the machine's ports left out), each simulated with `sim` (a
 * network's options, or none).
 */
export function oracle(
  m: CommMatrix,
  machine: MachineModel,
  sim: SimRequest = {},
): { best: string; makespan: number; shift: number; all: Map<string, number> } {
  const all = new Map<string, number>();
  let best = "",
    makespan = Infinity,
    shift = NaN;
  const big = offDiagonal(m) > TE_MAX_ELEMENTS;
  for (const v of oracleVariants()) {
    if (big && v.algorithm.startsWith("te-")) continue;
    const { schedule } = planVariant(m, v, machine, 1);
    // a plan with more messages of a node in a step than the machine has ports (MPI's linear and scattered plans)
    // is refused there by the verifier: no answer auto may give, so no best to hold it to
    if (!schedule || scheduleLoad(schedule).atOnce > machine.ports) continue;
    const t = simulateSchedule(schedule, machine, { ...sim, timeline: false }).makespan;
    if (v.algorithm === "shift") shift = t;
    all.set(variantLabel(v), t);
    if (t < makespan) [best, makespan] = [variantLabel(v), t];
  }
  return { best, makespan, shift, all };
}

function cases(): {
  pattern: string;
  options: { readonly [k: string]: number };
  p: number;
  machine: MachineModel;
  seed: number;
}[] {
  const out = [];
  for (let a = 0; a < SET.length; a++) {
    const { pattern, options } = SET[a]!;
    if (!PATTERNS.some((d) => d.name === pattern)) continue;
    const ps = P_SAMPLE.map((_, r) => P_SAMPLE[(a + r) % P_SAMPLE.length]!);
    for (let r = 0; r < PER_PATTERN; r++)
      out.push({
        pattern,
        options,
        p: ps[r % ps.length]!,
        machine: MACHINES[(a * 5 + r) % MACHINES.length]!,
        seed: SEED_BASE + a * 100 + r,
      });
    if (a % 3 === 0)
      out.push({
        pattern,
        options,
        p: LARGE_P[(a / 3) % 2]!,
        machine: MACHINES[(a * 7) % MACHINES.length]!,
        seed: SEED_BASE + a * 100 + 99,
      });
  }
  return out;
}

export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))]!;
}

/** Runs the bench; returns the markdown. */
export function autoBench(log: (s: string) => void): string {
  const rows: Row[] = [];
  const skipped: string[] = [];
  const missing = SET.filter((x) => !PATTERNS.some((d) => d.name === x.pattern)).map((x) => x.pattern);
  const t0 = Date.now();
  for (const c of cases()) {
    let m: CommMatrix;
    try {
      m = generatePattern(c.pattern, c.p, c.options, c.seed, c.pattern === "spmv" ? spmvInput(c.seed) : {});
    } catch (e) {
      skipped.push(`${c.pattern} P=${c.p}: ${(e as Error).message}`);
      continue;
    }
    const orc = timeMs(() => oracle(m, c.machine));
    const auto = bestOfMs(() => planAuto(m, c.machine), 2, 300);
    const w = auto.value.report.winner;
    const v = AUTO_VARIANTS.find(
      (x) => x.algorithm === w.algorithm && JSON.stringify(x.params) === JSON.stringify(w.params),
    )!;
    const alone = bestOfMs(() => planVariant(m, v, c.machine, 1).schedule!, 2, 300);
    const sim = timeMs(() => simulateSchedule(alone.value, c.machine, { timeline: false }));
    const topo = c.machine.fabric ?? "flat";
    const bound = topo === "ocpc" ? null : bestOfMs(() => blockingMakespanBound(alone.value, c.machine, topo), 2, 300);
    const replay =
      topo === "ocpc" ? null : bestOfMs(() => simulateSchedule(alone.value, c.machine, { timeline: false }), 2, 300);
    const winnerSim = auto.value.report.candidates.find((x) => x.note === "winner")!.simulated!;
    const sum = (x: Readonly<Record<string, number>>): number => Object.values(x).reduce((a, b) => a + b, 0);
    const simMs = sum(auto.value.ms.simulate);
    // the offline weighing of finalist rules prices every variant as the screen alone would (auto's
    // rule-out drops candidates that cannot beat its own always-simulated ones, which other rules lack)
    const predictions = screenVariants(m, c.machine, "blocking", 1, AUTO_FINALISTS).map((r) => ({
      algorithm: r.variant.algorithm,
      params: r.variant.params,
      predicted: r.predicted,
    }));
    rows.push({
      pattern: c.pattern,
      options: JSON.stringify(c.options),
      p: c.p,
      machine: c.machine.name,
      seed: c.seed,
      auto: variantLabel(v),
      autoMakespan: winnerSim,
      best: orc.value.best,
      bestMakespan: orc.value.makespan,
      shiftMakespan: orc.value.shift,
      ratioBest: winnerSim / orc.value.makespan,
      ratioShift: winnerSim / orc.value.shift,
      ratioBound: boundRatio(m, c.machine, winnerSim),
      autoMs: auto.ms,
      winnerPlanMs: alone.ms,
      winnerPlanSimMs: alone.ms + sim.ms,
      shiftSimMs: auto.value.ms.simulate["shift"] ?? null,
      boundMs: sum(auto.value.ms.bound),
      oracleMs: orc.ms,
      simShare: simMs / (simMs + sum(auto.value.ms.screen) + sum(auto.value.ms.bound)),
      policies: POLICIES.map(({ k, always }) => {
        const o = policyOutcome(predictions, orc.value.all, k, always);
        return { ratio: o.makespan / orc.value.makespan, sims: o.sims };
      }),
      sims: Object.keys(auto.value.ms.simulate).length,
      exact:
        auto.value.report.candidates.filter((x) => x.simulated !== null).length -
        Object.keys(auto.value.ms.simulate).length,
      ruled: auto.value.report.candidates.filter((x) =>
        x.note.startsWith("not planned: its simulated-machine lower bound"),
      ).length,
      boundRatio: bound && replay && replay.value.makespan > 0 ? bound.value / replay.value.makespan : null,
      boundSpeedup: bound && replay ? replay.ms / Math.max(bound.ms, 1e-6) : null,
    });
    if (rows.length % 20 === 0) log(`auto: ${rows.length} cases, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  return report(rows, skipped, missing);
}

/** The offline comparison of finalist policies (POLICIES), as a markdown table. */
function policyTable(rows: readonly Row[]): string {
  const f = (x: number, d = 3): string => x.toFixed(d);
  return mdTable(
    ["best predictions simulated", "always simulated", "within 5 %", "worst auto/best", "median simulations"],
    POLICIES.map(({ k, always }, x) => {
      const rs = rows.map((r) => r.policies[x]!);
      return [
        k,
        always.join(", "),
        `${f((100 * rs.filter((r) => r.ratio <= 1.05 + 1e-12).length) / rs.length, 1)} %`,
        f(Math.max(...rs.map((r) => r.ratio))),
        quantile(
          rs.map((r) => r.sims),
          0.5,
        ),
      ];
    }),
  );
}

/** Per P: cases, quality, median times and the winners, as a markdown table. */
function byPTable(rows: readonly Row[]): string {
  const f = (x: number, d = 3): string => x.toFixed(d);
  const byP = [...new Set(rows.map((r) => r.p))].sort((a, b) => a - b);
  return mdTable(
    ["P", "cases", "within 5 %", "worst auto/best", "auto ms", "winner plan ms", "auto / winner plan", "winners"],
    byP.map((p) => {
      const rs = rows.filter((r) => r.p === p);
      const wins = new Map<string, number>();
      for (const r of rs) wins.set(r.auto, (wins.get(r.auto) ?? 0) + 1);
      return [
        p,
        rs.length,
        `${rs.filter((r) => r.ratioBest <= 1.05).length}`,
        f(Math.max(...rs.map((r) => r.ratioBest))),
        f(
          quantile(
            rs.map((r) => r.autoMs),
            0.5,
          ),
          1,
        ),
        f(
          quantile(
            rs.map((r) => r.winnerPlanMs),
            0.5,
          ),
          1,
        ),
        f(
          quantile(
            rs.map((r) => r.autoMs / r.winnerPlanMs),
            0.5,
          ),
          1,
        ),
        [...wins].map(([k, n]) => `${k} ${n}`).join(", "),
      ];
    }),
  );
}

/** The rows of the summary table on replays, exact bounds, the rule-out and where the time went. */
function replayRows(
  rows: readonly Row[],
  summary: { boundRatioMedian: number; boundRatioMin: number; boundSpeedupMedian: number },
): string[][] {
  const f = (x: number, d = 3): string => x.toFixed(d);
  return [
    [
      "replays per run (median, max)",
      "",
      `${quantile(
        rows.map((r) => r.sims),
        0.5,
      )}, ${Math.max(...rows.map((r) => r.sims))}`,
    ],
    [
      "finalists given their makespan by an exact blocking bound, no replay (all runs; runs with one)",
      "",
      `${rows.reduce((a, r) => a + r.exact, 0)}; ${rows.filter((r) => r.exact > 0).length} of ${rows.length}`,
    ],
    [
      "variants ruled out unplanned by their simulated-machine bound (all runs; runs with one)",
      "",
      `${rows.reduce((a, r) => a + r.ruled, 0)}; ${rows.filter((r) => r.ruled > 0).length} of ${rows.length}`,
    ],
    [
      "the winner's blocking bound (blocking-bound.ts) / its makespan (median, least); its replay's time / the bound's (median)",
      "",
      `${f(summary.boundRatioMedian)}, ${f(summary.boundRatioMin)}; ${f(summary.boundSpeedupMedian, 1)}`,
    ],
    [
      "runs that did not replay shift (ruled out unplanned, its bound above the winner's makespan, or exact)",
      "",
      `${f((100 * rows.filter((r) => r.shiftSimMs === null).length) / rows.length, 1)} %`,
    ],
    [
      "share of auto's time simulating finalists (median; the rest: the screen and the bounds)",
      "",
      `${f(
        100 *
          quantile(
            rows.map((r) => r.simShare),
            0.5,
          ),
        0,
      )} %`,
    ],
  ];
}

function report(rows: readonly Row[], skipped: readonly string[], missing: readonly string[]): string {
  const rb = rows.map((r) => r.ratioBest);
  const within = rows.filter((r) => r.ratioBest <= 1.05).length / rows.length;
  const worst = rows.reduce((a, b) => (b.ratioBest > a.ratioBest ? b : a));
  const worstShift = rows.reduce((a, b) => (b.ratioShift > a.ratioShift ? b : a));
  const costRatio = rows.map((r) => r.autoMs / r.winnerPlanMs);
  const costliest = rows[costRatio.indexOf(Math.max(...costRatio))]!;
  const costRatioSim = rows.map((r) => r.autoMs / r.winnerPlanSimMs);
  // planning and simulating the winner, in units of planning it: no auto that checks its pick on the
  // simulated machine costs less
  const leastCost = rows.map((r) => r.winnerPlanSimMs / r.winnerPlanMs);
  const boundRatios = rows.flatMap((r) => (r.boundRatio === null ? [] : [r.boundRatio]));
  const boundSpeedups = rows.flatMap((r) => (r.boundSpeedup === null ? [] : [r.boundSpeedup]));
  const toBound = rows.flatMap((r) => (r.ratioBound === null ? [] : [r.ratioBound]));
  const byP = [...new Set(rows.map((r) => r.p))].sort((a, b) => a - b);
  const summary = {
    cases: rows.length,
    withinFivePercent: within,
    worstRatio: worst.ratioBest,
    medianRatio: quantile(rb, 0.5),
    medianRatioToBound: quantile(toBound, 0.5),
    worstRatioToBound: Math.max(...toBound),
    worstRatioToShift: worstShift.ratioShift,
    medianRatioToShift: quantile(
      rows.map((r) => r.ratioShift),
      0.5,
    ),
    costRatioMedian: quantile(costRatio, 0.5),
    costRatioMax: Math.max(...costRatio),
    costliest: `${costliest.pattern} P=${costliest.p} ${costliest.machine}, won by ${costliest.auto}`,
    costRatioPlanSimMedian: quantile(costRatioSim, 0.5),
    costRatioPlanSimMax: Math.max(...costRatioSim),
    leastCostMedian: quantile(leastCost, 0.5),
    leastCostP90: quantile(leastCost, 0.9),
    boundRatioMedian: quantile(boundRatios, 0.5),
    boundRatioMin: Math.min(...boundRatios),
    boundSpeedupMedian: quantile(boundSpeedups, 0.5),
  };
  const f = (x: number, d = 3): string => x.toFixed(d);
  const md =
    `## Auto (\`plan --algorithm auto\`, src/auto/plan-auto.ts)\n\n` +
    `${rows.length} held-out matrices (seeds ${SEED_BASE}+; ${SET.length - missing.length} pattern entries of bench/auto.ts SET, P ${byP.join(", ")}, every one of the ${MACHINES.length} machine presets), simulated machine in blocking mode. ` +
    `"best" simulates every applicable planner (auto's parameter variants and every other registered planner with its defaults; total-exchange planners only up to ${TE_MAX_ELEMENTS} unit packets, above which their lower bound of one start-up per packet already loses; rs-nh at every P).` +
    (missing.length > 0 ? ` Patterns in SET not registered on this branch (skipped): ${missing.join(", ")}.` : "") +
    "\n\n" +
    mdTable(
      ["measure", "target", "measured"],
      [
        ["auto within 5 % of the best planner", ">= 95 %", `${f(100 * within, 1)} %`],
        [
          "worst auto / best",
          "<= 1.20",
          `${f(worst.ratioBest)} (${worst.pattern} P=${worst.p} ${worst.machine}: ${worst.auto} vs ${worst.best})`,
        ],
        ["median auto / best", "", f(summary.medianRatio)],
        ["auto / lower bound (median, max)", "", `${f(summary.medianRatioToBound)}, ${f(summary.worstRatioToBound)}`],
        ["worst auto / shift", "<= 1.01", `${f(worstShift.ratioShift)}`],
        ["median auto / shift", "", f(summary.medianRatioToShift)],
        [
          "auto time / planning the winner alone (median, max)",
          "a few",
          `${f(summary.costRatioMedian, 1)}, ${f(summary.costRatioMax, 1)} (${costliest.pattern} P=${costliest.p} ${costliest.machine}, won by ${costliest.auto})`,
        ],
        [
          "auto time / (plan + simulate the winner) (median, max)",
          "",
          `${f(summary.costRatioPlanSimMedian, 1)}, ${f(summary.costRatioPlanSimMax, 1)}`,
        ],
        [
          "(plan + simulate the winner) / planning the winner (median, 90th percentile): the least an auto that checks its pick on the simulated machine costs, in the unit of the target",
          "",
          `${f(summary.leastCostMedian, 1)}, ${f(summary.leastCostP90, 1)}`,
        ],
        ...replayRows(rows, summary),
      ],
    ) +
    `\nFinalist policies, weighed offline from the screen's predictions and the oracle's simulated makespans (the default: the ${AUTO_FINALISTS} best predictions and ${AUTO_ALWAYS_FINAL.join(", ")}; the predictions of the lazy screen alone, screenVariants, without auto's rule-out):\n\n` +
    policyTable(rows) +
    `\nBy P (auto time and planning the winner alone in ms, medians):\n\n` +
    byPTable(rows) +
    `\nCases more than 5 % off the best:\n\n` +
    mdTable(
      ["pattern", "P", "machine", "auto", "best", "auto/best"],
      rows.filter((r) => r.ratioBest > 1.05).map((r) => [r.pattern, r.p, r.machine, r.auto, r.best, f(r.ratioBest)]),
    ) +
    (skipped.length > 0 ? `\nNot generated (the pattern refuses that P): ${skipped.length}.\n` : "");
  writeResults("auto", { machine: machineInfo(), summary, rows, skipped, missing }, md);
  return md;
}
