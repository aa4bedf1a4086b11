/**
 * Message-size sweep: the matrix scaled by factors, every planner's simulated time per size, and the crossovers (where
 * two planners swap order).
 */
import { fail } from "../model/errors.js";
import {
  checkMatrixArg,
  denseCopyBudget,
  matrixRows,
  sparseMatrix,
  toDense,
  type CommMatrix,
} from "../model/matrix.js";
import { describeValue } from "../model/option-checks.js";
import { matrixStats } from "../model/matrix-stats.js";
import { PLANNERS } from "../planner/registry.js";
import { runCandidates, type CandidateRequest } from "./candidates.js";
import { fastest } from "./compare.js";
import { hasMessages } from "../auto/index.js";
import { checkArg } from "../model/option-checks.js";

/** Most factors a sweep takes. */
export const MAX_SWEEP_FACTORS = 33;

const bad = (text: string): Error => fail("compare", "BAD_OPTION", text, { field: "sweep" });

/** A factor written as a decimal number or a fraction p/q, > 0. */
function factor(text: string, spec: string): number {
  const t = text.trim();
  const frac = /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(t);
  const v = frac ? Number(frac[1]) / Number(frac[2]) : /^\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i.test(t) ? Number(t) : NaN;
  if (!(v > 0) || !Number.isFinite(v))
    throw bad(`sweep: '${t}' in '${spec}' is not a factor > 0 (a number or a fraction such as 1/16)`);
  return v;
}

/**
 * The factors of a --sweep value: `a..b` (a, a*2, a*4, ... up to b; a and b numbers or fractions) or a
 * comma-separated list (sorted, duplicates dropped). At most MAX_SWEEP_FACTORS.
 */
export function parseSweep(spec: string): number[] {
  checkArg(
    "compare",
    "parseSweep",
    "spec",
    spec,
    typeof spec === "string",
    "a sweep spec (a string such as 1/4..4 or 1,2,4)",
    "BAD_OPTION",
  );
  let out: number[];
  const range = spec.split("..");
  if (range.length === 2) {
    const a = factor(range[0]!, spec),
      b = factor(range[1]!, spec);
    if (a > b) throw bad(`sweep: the range '${spec}' runs backwards (${a} > ${b})`);
    out = [];
    for (let k = 0; a * 2 ** k <= b * (1 + 1e-12) && out.length <= MAX_SWEEP_FACTORS; k++) out.push(a * 2 ** k);
  } else if (range.length === 1) {
    out = [...new Set(spec.split(",").map((t) => factor(t, spec)))].sort((x, y) => x - y);
  } else throw bad(`sweep: '${spec}' is neither a range a..b nor a list a,b,c`);
  if (out.length > MAX_SWEEP_FACTORS) throw bad(`sweep: '${spec}' gives more than ${MAX_SWEEP_FACTORS} factors`);
  return out;
}

/**
 * m with every non-zero entry multiplied by `f` and rounded, at least 1 (so the pattern of messages stays the same).
 */
export function scaleMatrix(m: CommMatrix, f: number): CommMatrix {
  checkMatrixArg("compare", m);
  if (!(typeof f === "number" && Number.isFinite(f) && f > 0))
    throw bad(`sweep: a factor must be a finite number > 0, got ${describeValue(f)}`);
  // over the non-zero entries, in the matrix's own storage
  const r = matrixRows(m);
  const val = new Float64Array(r.val.length);
  for (let i = 0; i < m.p; i++) {
    for (let k = r.rowStart[i]!; k < r.rowStart[i + 1]!; k++) {
      val[k] = Math.max(1, Math.round(r.val[k]! * f));
      if (val[k]! > Number.MAX_SAFE_INTEGER)
        throw bad(`sweep: factor ${f} makes entry ${i},${r.col[k]!} larger than 2^53`);
    }
  }
  const scaled = sparseMatrix(
    { p: m.p, rowStart: r.rowStart, col: r.col, val },
    { elementBytes: m.elementBytes, maxMemory: denseCopyBudget(m) },
  );
  return m.sparse ? scaled : toDense(scaled);
}

/** One size of the sweep. */
export interface SweepPoint {
  readonly factor: number;
  /** Mean bytes of a network message of the scaled matrix. */
  readonly meanMessageBytes: number;
  /**
   * Simulated makespan per algorithm (us), null when the planner was skipped at this size; in `SweepReport.algorithms`
   * order.
   */
  readonly times: readonly (number | null)[];
  /** The best bound valid for every schedule (us), null without traffic. */
  readonly bound: number | null;
  readonly best: string | null;
}

/** Two planners swap order between two sizes (log-log linear interpolation of the crossing). */
export interface Crossover {
  readonly algorithms: readonly [string, string];
  /** The faster of the two below the crossing, then the faster above it. */
  readonly before: string;
  readonly after: string;
  readonly meanMessageBytes: number;
  readonly timeUs: number;
  /** True when the fastest planner changes here (from `before` to `after`). */
  readonly leaderChange: boolean;
}

/** The sweep (in `commplan compare --json` as `sweep`). */
export interface SweepReport {
  readonly mode: string;
  readonly algorithms: readonly string[];
  readonly points: readonly SweepPoint[];
  readonly crossovers: readonly Crossover[];
}

/** Runs every applicable planner on m scaled by each factor; `progress(done, total)` counts planner runs. */
export function runSweep(
  m: CommMatrix,
  factors: readonly number[],
  req: CandidateRequest,
  progress: ((done: number, total: number) => void) | null = null,
): SweepReport {
  if (!Array.isArray(factors) || factors.length === 0)
    throw bad(`sweep: factors must be a non-empty array of numbers > 0, got ${describeValue(factors)}`);
  for (const f of factors as unknown[])
    if (!(typeof f === "number" && Number.isFinite(f) && f > 0))
      throw bad(`sweep: a factor must be a finite number > 0, got ${describeValue(f)}`);
  const names: string[] = [];
  const raw: {
    factor: number;
    bytes: number;
    times: Map<string, number>;
    bound: number | null;
    best: string | null;
  }[] = [];
  factors.forEach((f, k) => {
    const s = scaleMatrix(m, f);
    const run = runCandidates(s, {
      ...req,
      timeline: false,
      progress: (done, total) => progress?.(k * total + done, factors.length * total),
    });
    const times = new Map<string, number>();
    for (const c of run.candidates) {
      if (!names.includes(c.algorithm)) names.push(c.algorithm);
      times.set(c.algorithm, c.simulatedUs);
    }
    // none is the fastest where no plan moves anything (no messages between ranks), as in compareMatrix
    const b = hasMessages(s) ? fastest(run.candidates) : -1;
    raw.push({
      factor: f,
      bytes: meanMessageBytes(s),
      times,
      bound: run.bound?.value ?? null,
      best: b < 0 ? null : run.candidates[b]!.algorithm,
    });
  });
  const order = (req.planners ?? PLANNERS).map((p) => p.name);
  names.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const points: SweepPoint[] = raw.map((r) => ({
    factor: r.factor,
    meanMessageBytes: r.bytes,
    times: names.map((n) => r.times.get(n) ?? null),
    bound: r.bound,
    best: r.best,
  }));
  return { mode: req.mode ?? "blocking", algorithms: names, points, crossovers: crossovers(names, points) };
}

/** Mean bytes of the network messages of m (0 without any). */
function meanMessageBytes(m: CommMatrix): number {
  const s = matrixStats(m);
  return s.messages === 0 ? 0 : (s.networkTotal / s.messages) * m.elementBytes;
}

/** Every pair of planners whose order changes between consecutive points (log-log interpolated), by size. */
export function crossovers(names: readonly string[], points: readonly SweepPoint[]): Crossover[] {
  const out: Crossover[] = [];
  for (let k = 0; k + 1 < points.length; k++) {
    const p0 = points[k]!,
      p1 = points[k + 1]!;
    if (!(p0.meanMessageBytes > 0 && p1.meanMessageBytes > p0.meanMessageBytes)) continue;
    for (let a = 0; a < names.length; a++)
      for (let b = a + 1; b < names.length; b++) {
        const a0 = p0.times[a],
          a1 = p1.times[a],
          b0 = p0.times[b],
          b1 = p1.times[b];
        if (a0 == null || a1 == null || b0 == null || b1 == null || !(a0 > 0 && a1 > 0 && b0 > 0 && b1 > 0)) continue;
        const d0 = Math.log(a0 / b0),
          d1 = Math.log(a1 / b1);
        if (!(d0 * d1 < 0)) continue;
        const s = d0 / (d0 - d1);
        const lx = Math.log(p0.meanMessageBytes) + s * (Math.log(p1.meanMessageBytes) - Math.log(p0.meanMessageBytes));
        const ly = Math.log(a0) + s * (Math.log(a1) - Math.log(a0));
        const before = d0 < 0 ? names[a]! : names[b]!;
        const after = d0 < 0 ? names[b]! : names[a]!;
        out.push({
          algorithms: [names[a]!, names[b]!],
          before,
          after,
          meanMessageBytes: Math.exp(lx),
          timeUs: Math.exp(ly),
          leaderChange: p0.best === before && p1.best === after,
        });
      }
  }
  return out.sort((x, y) => x.meanMessageBytes - y.meanMessageBytes);
}
