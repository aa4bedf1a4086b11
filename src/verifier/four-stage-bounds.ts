/**
 * Four-stage bounds: 004 Lemma 1, Lemma 3 / Table 2, Theorems 1 and 2, exact when P divides every M[i][j], with
 * residuals otherwise.
 */
import type { CommMatrix } from "../model/matrix.js";
import type { MatrixStats } from "../model/matrix-stats.js";
import type { Schedule } from "../model/schedule.js";
import { checkDistribution } from "./four-stage-distribute.js";
import { check, PerItemBound, type Check } from "./report.js";
import type { PaperArray } from "./types.js";

/** C = ceil(sqrt P), R = ceil(P / C), r = P mod C; C = floor(sqrt P) when r > R - 1 (004 sec 3.2.2 A). */
export function paperArray(p: number): PaperArray {
  let f = Math.floor(Math.sqrt(p));
  while (f * f > p) f--;
  while ((f + 1) * (f + 1) <= p) f++;
  const s = f * f === p ? f : f + 1;
  let C = s,
    R = Math.ceil(p / C),
    r = p % C;
  if (r > 0 && r > R - 1) {
    C = f;
    R = Math.ceil(p / C);
    r = p % C;
  }
  return { C, R, r, s };
}

const SRC = "004 sec 3.2.4";

/**
 * The bounds checked for a four-stage plan (docs/algorithms/four-stage.md derives them). With
 * w = R (complete column) or R - 1 (incomplete), N_b the size of column b, L = L_max, f and g the
 * largest fan-out and fan-in:
 *  - received messages per node (local copy included), Lemma 1: stages I, III: C (complete column),
 *    C + 1 (incomplete); stages II, IV: R (complete), R - 1 (incomplete).
 *  - longest message received, Lemma 3 / Table 2 when P divides every entry:
 *    I: w L/P; II: C L/P | (C + 1) L/P; III: w L/P; IV: C L/P | (C + 1) L/P.
 *    General matrices add the rounding of R-Distribute (< 3 elements per non-zero entry) and
 *    C-Distribute (< 1 per destination): I: + 3f; II: + 3 f n1 / N + P;
 *    III: + w (3g / N_min + R); IV: + n (3g / N_min + R), n = C or C + 1.
 *  - steps, Theorem 2: I, III <= C + 1 (C when r = 0); II, IV <= R; all four <= 4 ceil(sqrt P) + 2.
 *  - time, Theorem 2: sum over steps of the step's longest message <= 4 (ceil(sqrt P) + 1) ceil(sqrt P) L/P
 *    (general: sum over stages of step bound x longest bound); traffic, Table 3: elements one node
 *    sends <= 4 ceil(sqrt P)^2 L/P (general: L + the received-volume bounds of stages I-III).
 *  - Stages I and II exactly as fig. 11 and C-Distribute count them, against holdings derived
 *    from M (per message; with payloads per destination too; four-stage-distribute.ts).
 *  - peak elements held by a node, Theorem 1: <= 2 ceil(sqrt P)^2 L/P + the largest diagonal entry
 *    (diagonal elements stay put); general matrices use the sum of two consecutive stages'
 *    received-volume bounds instead.
 */
export function checkFourStage(m: CommMatrix, s: Schedule, stats: MatrixStats, peak: number): Check[] {
  const { p } = m;
  const a = paperArray(p);
  if (s.stages.length !== 4) {
    return [
      check(
        "four-stage-stages",
        "a four-stage plan has 4 stages",
        SRC,
        false,
        s.stages.length,
        4,
        `${s.stages.length} stages`,
      ),
    ];
  }
  const { divisible, diagMax } = matrixShape(m);
  const fs: FourStage = {
    p,
    a,
    L: stats.lMax,
    divisible,
    tag: divisible ? "P divides every M[i][j]" : "general matrix, with rounding residuals",
    bounds: stageBounds(a, p, stats, divisible),
  };
  const checks: Check[] = [];
  const totals = checkStages(s, fs, checks);
  checkTotals(s, fs, totals, checks);
  for (const c of checkDistribution(m, s, a, s.params["arrived"] === "hold")) checks.push(c);
  checks.push(checkBuffer(fs, diagMax, totals.received, peak));
  return checks;
}

/**
 * What the four-stage bounds read off M: whether P divides every off-diagonal entry, and the largest diagonal entry.
 */
function matrixShape(m: CommMatrix): { divisible: boolean; diagMax: number } {
  const { p } = m;
  let divisible = true;
  let diagMax = 0;
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < p; j++) {
      const v = m.data[i * p + j]!;
      if (i === j) diagMax = Math.max(diagMax, v);
      else if (v % p !== 0) divisible = false;
    }
  }
  return { divisible, diagMax };
}

/** Per-stage bounds of stage k for a node of a complete (inc false) or incomplete column. */
interface StageBounds {
  /** Lemma 1: messages received per node. */
  readonly recv: (k: number, inc: boolean) => number;
  /** Lemma 3 / Table 2 (with rounding residuals for a general matrix): longest message received. */
  readonly long: (k: number, inc: boolean) => number;
}

/** Lemma 1's and Lemma 3 / Table 2's bounds for the paper array a (see `checkFourStage`). */
function stageBounds(a: PaperArray, p: number, stats: MatrixStats, divisible: boolean): StageBounds {
  const { C, R, r } = a;
  const L = stats.lMax,
    f = stats.f,
    g = stats.g;
  const nMin = r > 0 ? R - 1 : R;
  const recv = (k: number, inc: boolean): number => (k % 2 === 0 ? (inc ? C + 1 : C) : inc ? R - 1 : R);
  const long = (k: number, inc: boolean): number => {
    const w = inc ? R - 1 : R;
    const n1 = inc ? C + 1 : C;
    switch (k) {
      case 0:
        return (w * L) / p + (divisible ? 0 : 3 * f);
      case 1:
        return (n1 * L) / p + (divisible ? 0 : (3 * f * n1) / Math.max(1, w) + p);
      case 2:
        return (w * L) / p + (divisible ? 0 : w * ((3 * g) / Math.max(1, nMin) + R));
      default:
        return (n1 * L) / p + (divisible ? 0 : n1 * ((3 * g) / Math.max(1, nMin) + R));
    }
  };
  return { recv, long };
}

/**
 * What every four-stage row needs: P, the paper array, L_max, whether P divides M, the stage bounds and the title tag.
 */
interface FourStage {
  readonly p: number;
  readonly a: PaperArray;
  readonly L: number;
  readonly divisible: boolean;
  readonly tag: string;
  readonly bounds: StageBounds;
}

/** What the per-stage checks add up for the whole-plan checks. */
interface StageTotals {
  totalSteps: number;
  /** Sum over steps of the step's longest message. */
  stepLongestSum: number;
  /** Sum over stages of step bound x longest-message bound (the general-matrix time bound). */
  derivedTime: number;
  /** [L, then per stage the largest received-volume bound]. */
  readonly received: number[];
}

/**
 * Per stage: messages received and longest message per node (Lemmas 1 and 3), and steps (Theorem 2); pushes the rows
 * onto checks.
 */
function checkStages(s: Schedule, fs: FourStage, checks: Check[]): StageTotals {
  const { C, R, r } = fs.a,
    { bounds } = fs;
  const totals: StageTotals = { totalSteps: 0, stepLongestSum: 0, derivedTime: 0, received: [fs.L] };
  const recv = new Uint32Array(fs.p),
    longest = new Float64Array(fs.p);
  s.stages.forEach((stage, k) => {
    const roman = ["I", "II", "III", "IV"][k]!;
    for (const c of stageNodeRows(s, fs, k, roman, recv, longest)) checks.push(c);
    const stepBound = k % 2 === 0 ? C + (r > 0 ? 1 : 0) : R;
    totals.derivedTime += stepBound * Math.max(bounds.long(k, false), r > 0 ? bounds.long(k, true) : 0);
    for (let step = stage.firstStep; step < stage.firstStep + stage.stepCount; step++) {
      let mx = 0;
      for (let x = s.stepStart[step]!; x < s.stepStart[step + 1]!; x++) if (s.size[x]! > mx) mx = s.size[x]!;
      totals.stepLongestSum += mx;
    }
    checks.push(
      check(
        `four-stage-${roman}-steps`,
        `stage ${roman}: steps <= ${stepBound}`,
        `${SRC} Theorem 2; sec 3.2.2 B`,
        stage.stepCount <= stepBound,
        stage.stepCount,
        stepBound,
        `${stage.stepCount} steps`,
      ),
    );
    totals.totalSteps += stage.stepCount;
    totals.received.push(
      Math.max(bounds.recv(k, false) * bounds.long(k, false), r > 0 ? bounds.recv(k, true) * bounds.long(k, true) : 0),
    );
  });
  return totals;
}

/** Stage k's received and longest rows, per node against its own column's bound (recv, longest: scratch of P). */
function stageNodeRows(
  s: Schedule,
  fs: FourStage,
  k: number,
  roman: string,
  recv: Uint32Array,
  longest: Float64Array,
): [Check, Check] {
  const { C, R, r } = fs.a,
    { bounds } = fs;
  const stage = s.stages[k]!;
  recv.fill(0);
  longest.fill(0);
  for (let x = s.stepStart[stage.firstStep]!; x < s.stepStart[stage.firstStep + stage.stepCount]!; x++) {
    const d = s.dst[x]!;
    recv[d]!++;
    if (s.size[x]! > longest[d]!) longest[d] = s.size[x]!;
  }
  // per node, against its own column's bound: a failing row shows the failing node's figures
  const rc = new PerItemBound(),
    lg = new PerItemBound(1e-9);
  for (let u = 0; u < fs.p; u++) {
    const inc = r > 0 && u % C >= r;
    if (rc.add(recv[u]!, bounds.recv(k, inc)))
      rc.witness = `node ${u} (${inc ? "incomplete" : "complete"} column) receives ${recv[u]} messages, bound ${bounds.recv(k, inc)}`;
    if (lg.add(longest[u]!, bounds.long(k, inc)))
      lg.witness = `node ${u} (${inc ? "incomplete" : "complete"} column) receives a message of ${longest[u]} elements, bound ${bounds.long(k, inc)}`;
  }
  return [
    rc.row(
      `four-stage-${roman}-received`,
      `stage ${roman}: messages received per node <= Lemma 1 (C = ${C}, R = ${R}, r = ${r})`,
      `${SRC} Lemma 1`,
    ),
    lg.row(
      `four-stage-${roman}-longest`,
      `stage ${roman}: longest message received <= Lemma 3 / Table 2 (${fs.tag})`,
      `${SRC} Lemma 3, Table 2`,
    ),
  ];
}

/** The whole-plan rows: start-ups and time (Theorem 2), traffic (Table 3); pushes them onto checks. */
function checkTotals(s: Schedule, fs: FourStage, totals: StageTotals, checks: Check[]): void {
  const { p, L, divisible } = fs,
    cs = fs.a.s;
  const { totalSteps, stepLongestSum, derivedTime, received } = totals;
  checks.push(
    check(
      "four-stage-start-ups",
      "steps (start-ups) in all four stages <= 4 ceil(sqrt P) + 2",
      `${SRC} Theorem 2, Table 3`,
      totalSteps <= 4 * cs + 2,
      totalSteps,
      4 * cs + 2,
      `${totalSteps} steps`,
    ),
  );
  const timeBound = divisible ? (4 * (cs + 1) * cs * L) / p : derivedTime;
  checks.push(
    check(
      "four-stage-time",
      divisible
        ? "traffic term of the blocking time (sum over steps of the step's longest message) <= Theorem 2's 4 (ceil(sqrt P) + 1) ceil(sqrt P) L_max / P"
        : "traffic term of the blocking time (sum over steps of the step's longest message) <= sum over stages of steps x longest-message bound (general matrix)",
      `${SRC} Theorem 2 (Table 3's 4 ceil(sqrt P)^2 L_max / P is exceeded: docs/algorithms/four-stage.md)`,
      stepLongestSum <= timeBound + 1e-9,
      stepLongestSum,
      timeBound,
      `the steps' longest messages add up to ${stepLongestSum} elements`,
    ),
  );
  // Table 3's "total traffic": elements a node sends over the four stages (local copies included);
  // a node sends in stage k what it received in stage k - 1 (stage I: its row, <= L)
  const sent = new Float64Array(p);
  for (let x = 0; x < s.transferCount; x++) sent[s.src[x]!] = sent[s.src[x]!]! + s.size[x]!;
  let traffic = 0,
    trafficNode = 0;
  for (let u = 0; u < p; u++)
    if (sent[u]! > traffic) {
      traffic = sent[u]!;
      trafficNode = u;
    }
  const trafficBound = divisible ? (4 * cs * cs * L) / p : received[0]! + received[1]! + received[2]! + received[3]!;
  checks.push(
    check(
      "four-stage-traffic",
      divisible
        ? "elements one node sends over the four stages <= Table 3's 4 ceil(sqrt P)^2 L_max / P"
        : "elements one node sends over the four stages <= its row plus the received-volume bounds of stages I-III (general matrix)",
      `${SRC} Table 3 (total traffic); Theorem 1's per-stage volume`,
      traffic <= trafficBound + 1e-9,
      traffic,
      trafficBound,
      `node ${trafficNode} sends ${traffic} elements`,
    ),
  );
}

/**
 * Theorem 1: peak elements held by a node (general matrices: the sum of two consecutive stages' received-volume
 * bounds).
 */
function checkBuffer(fs: FourStage, diagMax: number, received: readonly number[], peak: number): Check {
  const { p, L, divisible, tag } = fs,
    cs = fs.a.s;
  let peakBound = 2 * cs * cs * (L / p) + diagMax;
  if (!divisible) {
    let worst = 0;
    for (let k = 1; k < received.length; k++) worst = Math.max(worst, received[k - 1]! + received[k]!);
    peakBound = Math.max(peakBound, worst + diagMax);
  }
  return check(
    "four-stage-buffer",
    `peak elements held by a node <= Theorem 1 (${tag})`,
    `${SRC} Theorem 1, Table 4`,
    peak <= peakBound + 1e-9,
    peak,
    peakBound,
    `a node holds ${peak} elements`,
  );
}
