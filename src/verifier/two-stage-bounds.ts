/**
 * Two-stage bounds: 000 sec 6.1-6.3 (ceil(t/p), t/p + p, t + p^2) for two-stage, 004 sec 3.1.3 and Tables 3-4 for the
 * mesh two-stage A3.
 */
import type { CommMatrix } from "../model/matrix.js";
import type { MatrixStats } from "../model/matrix-stats.js";
import type { Schedule } from "../model/schedule.js";
import { atMost, check, PerItemBound, type Check } from "./report.js";

/**
 * Per-stage network traffic between node pairs, summed over the stage's transfers (a pair may appear more than once).
 */
interface PairVolumes {
  /** Volume of src -> dst, keyed src * p + dst (src != dst). */
  readonly volume: Map<number, number>;
  /** Messages (transfers) each node sends / receives in the stage. */
  readonly sent: Uint32Array;
  readonly received: Uint32Array;
  /** Elements each node receives in the stage. */
  readonly receivedElements: Float64Array;
}

function pairVolumes(s: Schedule, stage: number): PairVolumes {
  const { p } = s;
  const st = s.stages[stage]!;
  const volume = new Map<number, number>();
  const sent = new Uint32Array(p),
    received = new Uint32Array(p),
    receivedElements = new Float64Array(p);
  for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[st.firstStep + st.stepCount]!; x++) {
    const a = s.src[x]!,
      b = s.dst[x]!;
    if (a === b) continue;
    const key = a * p + b;
    volume.set(key, (volume.get(key) ?? 0) + s.size[x]!);
    sent[a]!++;
    received[b]!++;
    receivedElements[b] = receivedElements[b]! + s.size[x]!;
  }
  return { volume, sent, received, receivedElements };
}

function maxOf(a: ArrayLike<number>): { value: number; at: number } {
  let value = 0,
    at = 0;
  for (let k = 0; k < a.length; k++)
    if (a[k]! > value) {
      value = a[k]!;
      at = k;
    }
  return { value, at };
}

const SRC6 = "000 sec 6";

/**
 * The checks of a two-stage plan (docs/algorithms/two-stage.md derives each). t, r_i, c_j are
 * 000's traffic figures without the diagonal (diagonal elements stay put):
 *  - stage 1, every message <= ceil(t/p) (round-robin residuals, 000 sec 6.1), and <= ceil(r_i/p)
 *    for source i; in the equal-traffic case (every r_i = c_j = t) every message between two
 *    distinct nodes >= floor(t/p);
 *  - stage 2, every message <= t/p + p (000 sec 6.1-6.2), exactly <= sum_i ceil(M[i][j]/p) for
 *    destination j (the first step of 000's inequality chain); equal traffic: >= t/p - p;
 *  - stage 2, elements received per destination <= t + p^2 (000 sec 6.2);
 *  - messages per node per stage <= p - 1 (000 sec 6.1, footnote 1), steps <= 2P (004 Table 3: 2P start-ups);
 *  - peak elements held <= L_max + sum_i ceil(r_i/p) (004 Table 4 gives L_max + L_max for A2;
 *    the p-way split adds at most one element per source).
 * The reshuffle of 000 sec 6.3 permutes stage-1 messages within groups of equal size, so every
 * bound holds with and without it.
 */
export function checkTwoStage(m: CommMatrix, s: Schedule, stats: MatrixStats, peak: number): Check[] {
  const { p } = m;
  if (s.stages.length !== 2)
    return [
      check(
        "two-stage-stages",
        "a two-stage plan has 2 stages",
        SRC6,
        false,
        s.stages.length,
        2,
        `${s.stages.length} stages`,
      ),
    ];
  const t = stats.t;
  let equal = t > 0;
  for (let u = 0; u < p && equal; u++) if (stats.rowTraffic[u] !== t || stats.colTraffic[u] !== t) equal = false;
  const one = pairVolumes(s, 0),
    two = pairVolumes(s, 1);
  return [
    ...stageOneChecks(p, stats, one),
    stageOneShortest(p, t, one, equal),
    ...stageTwoChecks(m, t, two),
    stageTwoShortest(p, t, two, equal),
    stageTwoReceived(p, t, two),
    ...twoStageCountChecks(s, p, stats, one, two, peak),
  ];
}

/** Stage 1: the longest message against ceil(t/p), and each message against ceil(r_i/p) of its source. */
function stageOneChecks(p: number, stats: MatrixStats, one: PairVolumes): [Check, Check] {
  const t = stats.t;
  let longest1 = 0,
    witness1: string | null = null;
  const perSource = new PerItemBound();
  for (const [key, v] of one.volume) {
    const i = Math.floor(key / p),
      k = key - i * p;
    if (v > longest1) {
      longest1 = v;
      witness1 = `source ${i} sends ${v} elements to intermediate ${k}`;
    }
    const bound = Math.ceil(stats.rowTraffic[i]! / p);
    if (perSource.add(v, bound))
      perSource.witness = `source ${i} (r_i = ${stats.rowTraffic[i]}) sends ${v} elements to intermediate ${k}, bound ${bound}`;
  }
  const c1 = Math.ceil(t / p);
  return [
    atMost(
      "two-stage-1-longest",
      `stage 1: every message <= ceil(t/p) = ${c1} (round-robin residuals)`,
      `${SRC6}.1`,
      longest1,
      c1,
      witness1,
    ),
    perSource.row(
      "two-stage-1-per-source",
      "stage 1: a message from source i <= ceil(r_i/p)",
      `${SRC6}.1 (round robin over the residuals of one source); docs/algorithms/two-stage.md`,
    ),
  ];
}

/**
 * Stage 1, equal traffic: every message between two distinct nodes >= floor(t/p) (else a row saying it does not apply).
 */
function stageOneShortest(p: number, t: number, one: PairVolumes, equal: boolean): Check {
  if (equal) {
    let shortest1 = Infinity;
    let w: string | null = null;
    for (let i = 0; i < p && w === null; i++)
      for (let k = 0; k < p; k++) {
        if (i === k) continue;
        const v = one.volume.get(i * p + k) ?? 0;
        if (v < shortest1) shortest1 = v;
        if (v < Math.floor(t / p)) {
          w = `source ${i} sends ${v} elements to intermediate ${k}`;
          break;
        }
      }
    return check(
      "two-stage-1-shortest",
      `stage 1, equal traffic: every message >= floor(t/p) = ${Math.floor(t / p)}`,
      `${SRC6}.1`,
      w === null,
      p > 1 ? shortest1 : null,
      Math.floor(t / p),
      w,
    );
  } else {
    return check(
      "two-stage-1-shortest",
      "stage 1: messages >= floor(t/p) (not applicable: not the equal-traffic case)",
      `${SRC6}.1`,
      true,
    );
  }
}

/** Stage 2: the longest message against t/p + p, and each message against sum_i ceil(M[i][j]/p) of its destination. */
function stageTwoChecks(m: CommMatrix, t: number, two: PairVolumes): [Check, Check] {
  const { p, data } = m;
  const ceilSum = new Float64Array(p); // sum_i ceil(M[i][j] / p), i != j
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++) if (i !== j) ceilSum[j] = ceilSum[j]! + Math.ceil(data[i * p + j]! / p);
  let longest2 = 0,
    witness2: string | null = null;
  const perDestination = new PerItemBound();
  for (const [key, v] of two.volume) {
    const k = Math.floor(key / p),
      j = key - k * p;
    if (v > longest2) {
      longest2 = v;
      witness2 = `intermediate ${k} sends ${v} elements to destination ${j}`;
    }
    if (perDestination.add(v, ceilSum[j]!))
      perDestination.witness = `intermediate ${k} sends ${v} elements to destination ${j}, sum_i ceil(M[i][${j}]/p) = ${ceilSum[j]}`;
  }
  const b2 = t / p + p;
  return [
    atMost("two-stage-2-longest", `stage 2: every message <= t/p + p = ${b2}`, `${SRC6}.1-6.2`, longest2, b2, witness2),
    perDestination.row(
      "two-stage-2-per-destination",
      "stage 2: a message to destination j <= sum_i ceil(M[i][j]/p)",
      `${SRC6}.1 (first inequality of the chain)`,
    ),
  ];
}

/**
 * Stage 2, equal traffic: every message between two distinct nodes >= t/p - p (else a row saying it does not apply).
 */
function stageTwoShortest(p: number, t: number, two: PairVolumes, equal: boolean): Check {
  if (equal && p > 1) {
    let shortest2 = Infinity,
      w: string | null = null;
    const lb = t / p - p;
    for (let k = 0; k < p && w === null; k++)
      for (let j = 0; j < p; j++) {
        if (k === j) continue;
        const v = two.volume.get(k * p + j) ?? 0;
        if (v < shortest2) shortest2 = v;
        if (v < lb) {
          w = `intermediate ${k} sends ${v} elements to destination ${j}`;
          break;
        }
      }
    return check(
      "two-stage-2-shortest",
      `stage 2, equal traffic: every message >= t/p - p = ${lb}`,
      `${SRC6}.2`,
      w === null,
      shortest2,
      lb,
      w,
    );
  } else {
    return check(
      "two-stage-2-shortest",
      "stage 2: messages >= t/p - p (not applicable: not the equal-traffic case)",
      `${SRC6}.2`,
      true,
    );
  }
}

/** Stage 2: elements received per destination <= t + p^2. */
function stageTwoReceived(p: number, t: number, two: PairVolumes): Check {
  const recv2 = maxOf(two.receivedElements);
  return atMost(
    "two-stage-2-received",
    `stage 2: elements received per destination <= t + p^2 = ${t + p * p}`,
    `${SRC6}.2`,
    recv2.value,
    t + p * p,
    `destination ${recv2.at} receives ${recv2.value} elements`,
  );
}

/** Messages per node per stage, steps (start-ups) and the peak buffer. */
function twoStageCountChecks(
  s: Schedule,
  p: number,
  stats: MatrixStats,
  one: PairVolumes,
  two: PairVolumes,
  peak: number,
): Check[] {
  const checks: Check[] = [];
  let worstMsgs = 0,
    msgWitness: string | null = null;
  for (const [k, pv] of [one, two].entries()) {
    for (let u = 0; u < p; u++) {
      const n = Math.max(pv.sent[u]!, pv.received[u]!);
      if (n > worstMsgs) {
        worstMsgs = n;
        msgWitness = `node ${u} sends ${pv.sent[u]} and receives ${pv.received[u]} messages in stage ${k + 1}`;
      }
    }
  }
  checks.push(
    atMost(
      "two-stage-messages",
      "per stage, messages a node sends or receives <= p - 1",
      `${SRC6}.1 footnote 1 (p messages, one of them to itself); 002 sec 3.2, Table 2 (A2: 2 (P - 1) start-ups)`,
      worstMsgs,
      Math.max(0, p - 1),
      msgWitness,
    ),
  );
  checks.push(
    atMost(
      "two-stage-start-ups",
      `steps (start-ups) in both stages <= 2P = ${2 * p}`,
      "004 sec 3.3, Table 3 (A2: 2P start-ups)",
      s.stepCount,
      2 * p,
      `${s.stepCount} steps`,
    ),
  );
  let split = 0;
  for (let i = 0; i < p; i++) split += Math.ceil(stats.rowTraffic[i]! / p);
  const bufBound = stats.lMax + split;
  checks.push(
    atMost(
      "two-stage-buffer",
      "peak elements held by a node <= L_max + sum_i ceil(r_i/p)",
      "004 Table 4 (A2: sBUF L_max, rBUF L_max); docs/algorithms/two-stage.md",
      peak,
      bufBound,
      `a node holds ${peak} elements`,
    ),
  );
  return checks;
}

const SRC_A3 = "004 sec 3.1.3";

/** sqrt(p) when p is a perfect square, else -1. */
export function exactSqrt(p: number): number {
  let q = Math.floor(Math.sqrt(p));
  while (q * q > p) q--;
  while ((q + 1) * (q + 1) <= p) q++;
  return q * q === p ? q : -1;
}

/**
 * The plan's grid: rows R and columns C from its header (R x C = P), or sqrt(P) x sqrt(P) for a header without them;
 * null when neither fits.
 */
function meshGridOf(s: Schedule): { rows: number; cols: number } | null {
  const r = s.params["rows"],
    c = s.params["columns"];
  if (typeof r === "number" && typeof c === "number")
    return Number.isInteger(r) && Number.isInteger(c) && r >= 1 && c >= 1 && r * c === s.p
      ? { rows: r, cols: c }
      : null;
  const q = exactSqrt(s.p);
  return q < 0 ? null : { rows: q, cols: q };
}

/**
 * The checks of a mesh two-stage (A3) plan over its R x C grid (q x q, q = sqrt P, in 004), node
 * u = a C + b (docs/algorithms/mesh-two-stage.md):
 *  - stage 1 moves only within a row, stage 2 only within a column (004 sec 3.1.3);
 *  - messages sent per node over both stages <= (C - 1) + (R - 1) (Table 3: 2 sqrt(P) start-ups,
 *    two of them the local copies); steps <= R + C (Table 3; the pairwise exchange of an odd group
 *    needs as many rounds as members);
 *  - a stage-1 message <= R M_max (it combines the R messages of one node to one column), a stage-2
 *    message <= C M_max (the C messages of one row to one node);
 *  - stage-1 elements received per node <= P M_max (Table 4: rBUF M_max P, the hot spot);
 *  - peak elements held <= max_u (max(Lout_u, Lin_u) + X_u) <= L_max + P M_max, with X_u the
 *    traffic from u's row to u's column (Table 4: sBUF + rBUF = 2 M_max P).
 */
export function checkMeshTwoStage(m: CommMatrix, s: Schedule, stats: MatrixStats, peak: number): Check[] {
  const { p } = m;
  const grid = meshGridOf(s);
  if (grid === null)
    return [
      check(
        "mesh-two-stage-grid",
        "the header's grid rows x columns is P (or P is a perfect square)",
        SRC_A3,
        false,
        p,
        null,
        `rows = ${String(s.params["rows"])}, columns = ${String(s.params["columns"])} for P = ${p}`,
      ),
    ];
  if (s.stages.length !== 2)
    return [
      check(
        "mesh-two-stage-stages",
        "a mesh two-stage plan has 2 stages",
        SRC_A3,
        false,
        s.stages.length,
        2,
        `${s.stages.length} stages`,
      ),
    ];
  const one = pairVolumes(s, 0),
    two = pairVolumes(s, 1);
  const mMax = stats.mMaxOffDiagonal;
  return [
    meshLinesCheck(p, grid.cols, one, two),
    ...meshStartUpChecks(s, p, grid, one, two),
    ...meshVolumeChecks(p, grid, mMax, one, two),
    meshBufferCheck(m, grid.cols, peak),
  ];
}

/** Stage 1 stays within a mesh row, stage 2 within a mesh column. */
function meshLinesCheck(p: number, q: number, one: PairVolumes, two: PairVolumes): Check {
  // q: the columns C of the grid (node u is in row floor(u / C), column u % C)
  let lineWitness: string | null = null;
  for (const [key] of one.volume) {
    const u = Math.floor(key / p),
      v = key - u * p;
    if (Math.floor(u / q) !== Math.floor(v / q)) {
      lineWitness ??= `stage 1: ${u} -> ${v} leaves row ${Math.floor(u / q)}`;
    }
  }
  for (const [key] of two.volume) {
    const u = Math.floor(key / p),
      v = key - u * p;
    if (u % q !== v % q) {
      lineWitness ??= `stage 2: ${u} -> ${v} leaves column ${u % q}`;
    }
  }
  return check(
    "mesh-two-stage-lines",
    "stage 1 stays within a mesh row, stage 2 within a mesh column",
    SRC_A3,
    lineWitness === null,
    null,
    null,
    lineWitness,
  );
}

/** Messages a node sends over both stages <= (C - 1) + (R - 1), and steps <= R + C. */
function meshStartUpChecks(
  s: Schedule,
  p: number,
  grid: { rows: number; cols: number },
  one: PairVolumes,
  two: PairVolumes,
): [Check, Check] {
  const most = grid.rows + grid.cols - 2;
  let worstSent = 0,
    sentNode = 0;
  for (let u = 0; u < p; u++) {
    const n = one.sent[u]! + two.sent[u]!;
    if (n > worstSent) {
      worstSent = n;
      sentNode = u;
    }
  }
  return [
    atMost(
      "mesh-two-stage-start-ups",
      `messages a node sends in both stages <= (C - 1) + (R - 1) = ${most}`,
      "002 sec 3.3, Table 2 (A3: 2 (sqrt P - 1) start-ups); 004 Table 3 (2 sqrt P, counting the two local copies)",
      worstSent,
      most,
      `node ${sentNode} sends ${worstSent} messages`,
    ),
    atMost(
      "mesh-two-stage-steps",
      `steps <= R + C = ${grid.rows + grid.cols}`,
      "004 Table 3 (A3: 2 sqrt P start-ups; a pairwise exchange needs sqrt P rounds per stage when sqrt P is odd, a shift sqrt P - 1)",
      s.stepCount,
      grid.rows + grid.cols,
      `${s.stepCount} steps`,
    ),
  ];
}

/**
 * A stage-1 message <= R M_max, a stage-2 message <= C M_max, and stage-1 elements received by an intermediate <= P
 * M_max.
 */
function meshVolumeChecks(
  p: number,
  grid: { rows: number; cols: number },
  mMax: number,
  one: PairVolumes,
  two: PairVolumes,
): [Check, Check] {
  // The excess of each message over its stage's bound; the worst one is reported.
  let excess = -Infinity,
    longest = 0,
    bound = 0,
    longWitness: string | null = null;
  for (const [pv, k, stage] of [
    [one, grid.rows, 1],
    [two, grid.cols, 2],
  ] as const)
    for (const [key, v] of pv.volume)
      if (v - k * mMax > excess) {
        excess = v - k * mMax;
        longest = v;
        bound = k * mMax;
        longWitness = `stage ${stage}: ${Math.floor(key / p)} -> ${key % p} carries ${v} elements`;
      }
  const hot = maxOf(one.receivedElements);
  return [
    atMost(
      "mesh-two-stage-longest",
      `every message <= R M_max (stage 1) or C M_max (stage 2); sqrt(P) M_max = ${Math.max(grid.rows, grid.cols) * mMax} on the square mesh`,
      `${SRC_A3} (a message combines sqrt P messages); Table 4`,
      longest,
      bound,
      longWitness,
    ),
    atMost(
      "mesh-two-stage-hot-spot",
      `stage 1: elements received by an intermediate <= P M_max = ${p * mMax}`,
      "004 Table 4 (A3: rBUF M_max P); sec 3.1.3 (hot spots)",
      hot.value,
      p * mMax,
      `intermediate ${hot.at} receives ${hot.value} elements`,
    ),
  ];
}

/** Peak elements held <= max_u (max(Lout_u, Lin_u) + X_u), X_u the traffic from u's row to u's column. */
function meshBufferCheck(m: CommMatrix, q: number, peak: number): Check {
  const { p, data } = m;
  // X_u: traffic from u's row to u's column; Lout / Lin with the diagonal
  const toCol = new Float64Array(p * q); // toCol[o * q + c] = sum over d in column c of M[o][d]
  const lout = new Float64Array(p),
    lin = new Float64Array(p);
  for (let o = 0; o < p; o++)
    for (let d = 0; d < p; d++) {
      const v = data[o * p + d]!;
      toCol[o * q + (d % q)] = toCol[o * q + (d % q)]! + v;
      lout[o] = lout[o]! + v;
      lin[d] = lin[d]! + v;
    }
  let bound = 0;
  for (let u = 0; u < p; u++) {
    const a = Math.floor(u / q),
      c = u % q;
    let x = 0;
    for (let b = 0; b < q; b++) x += toCol[(a * q + b) * q + c]!;
    bound = Math.max(bound, Math.max(lout[u]!, lin[u]!) + x);
  }
  return atMost(
    "mesh-two-stage-buffer",
    "peak elements held by a node <= max_u (max(Lout_u, Lin_u) + row-to-column traffic X_u) <= L_max + P M_max",
    "004 Table 4 (A3: sBUF and rBUF M_max P); docs/algorithms/mesh-two-stage.md",
    peak,
    bound,
    `a node holds ${peak} elements`,
  );
}
