/**
 * Split-coloring: messages cut into chunks of at most s elements, the multigraph edge-coloured (Konig); or a
 * Birkhoff-von Neumann / preemptive open-shop decomposition (mode "bvn").
 */
import { bucketItems, bucketStarts } from "../../internal/buckets.js";
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import type { MachineModel } from "../../model/machine.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { progressPhases, progressTicker, type ProgressCallback } from "../../model/progress.js";
import { planHeader } from "../plan-header.js";
import { boolean, choice, integer, output, type Resolved } from "../../model/param-spec.js";
import { definePlanner } from "../plan-params.js";
import type { Planner, PlanOptions } from "../types.js";
import { colorBipartite, colorMaxima, improveSumOfMaxima, orderBySizeDesc } from "./edge-coloring.js";
import { COLORING_PROGRESS, improveBudget } from "./coloring.js";
import { offDiagonalMessages, type MessageList } from "./messages.js";

const NAME = "split-coloring";
/** Most pieces (transfers) the chunk mode may create. */
export const MAX_PIECES = 2 ** 24;
/** Pieces the automatic chunk size aims at most for (or 4 E if larger): s is raised above s* beyond it. */
export const AUTO_PIECES = 2 ** 14;
/** Most colour slots (P x colours) of the colouring tables. */
const MAX_SLOTS = 2 ** 27;
/** Most cells x P the bvn mode accepts (cells <= P^2; phases <= cells, each phase <= P transfers). */
export const MAX_BVN_WORK = 2 ** 24;

/**
 * The start-up (alpha, us) and per-byte time (us/byte) used when no machine is given: the figures of the
 * `ib-hdr-200` preset of src/machines/presets.ts (T_s = 0.6 us; t_c + t_d = 1 / 21307.34 MB/s, osu_bw on
 * ConnectX-6 HDR). Copied here because planners do not import src/machines.
 */
export const DEFAULT_SPLIT_MACHINE = { name: "ib-hdr-200", ts: 0.6, perByte: 1 / 21307.34 } as const;

/** The two modes. */
const MODES = ["chunk", "bvn"] as const;

/** The parameters of split-coloring: `mode`, `chunk`, `improve`, and the keys it writes into the header. */
const SPLIT_COLORING_PARAMS = {
  mode: choice(MODES, {
    description:
      "chunk: cut messages into pieces of at most `chunk` elements and edge-colour them; bvn: Birkhoff-von Neumann decomposition",
    default: "chunk",
  }),
  chunk: integer({
    description: "the largest piece (chunk mode; bvn ignores it)",
    min: 1,
    unit: "elements",
    derived: "s* = sqrt(alpha L / (beta h)) of the machine model, kept within the piece and colour-table limits",
  }),
  improve: boolean({
    description: "run the pass over colour pairs that lowers the sum of phase maxima (chunk mode)",
    default: true,
  }),
  chunkRule: output("how the chunk size was chosen"),
  machine: output("the machine of the cost model"),
  alpha: output("start-up time per message, in us"),
  beta: output("time per element, in us"),
  h: output("max(f, g): the most messages a node sends or receives"),
  L: output("the most elements a node sends or receives"),
  phases: output("the number of phases"),
  sumOfMaxima: output("the sum over phases of the longest transfer"),
  modelledTime: output("phases x alpha + beta x sumOfMaxima, in us"),
  lowerBoundTime: output("alpha h + beta L, in us"),
  boundTime: output("the chunk mode's guarantee alpha h + beta L + alpha L / s + beta h s, in us"),
  ratio: output("modelledTime / lowerBoundTime"),
  cells: output("bvn: non-zero cells of the padded matrix"),
};

/** Resolved parameters of split-coloring. */
export interface SplitColoringParams {
  readonly mode: "chunk" | "bvn";
  /** Fixed chunk size s (elements), or undefined to derive s* from the machine model. */
  readonly chunk: number | undefined;
  readonly improve: boolean;
}

/**
 * The mode, chunk (chunk mode only) and improve of resolved params (`resolvePlanOptions` checked them against
 * SPLIT_COLORING_PARAMS).
 */
export function splitColoringParams(params: Resolved<typeof SPLIT_COLORING_PARAMS>): SplitColoringParams {
  return { mode: params.mode, chunk: params.mode === "bvn" ? undefined : params.chunk, improve: params.improve };
}

/**
 * alpha (us per message) and beta (us per element) of the flat blocking model: step time = alpha + beta x longest
 * message.
 */
export function splitCostModel(
  machine: MachineModel | null,
  elementBytes: number,
): { name: string; alpha: number; beta: number } {
  if (machine === null)
    return {
      name: DEFAULT_SPLIT_MACHINE.name,
      alpha: DEFAULT_SPLIT_MACHINE.ts,
      beta: DEFAULT_SPLIT_MACHINE.perByte * elementBytes,
    };
  return { name: machine.name, alpha: machine.ts, beta: (machine.tc + machine.td) * elementBytes };
}

/** Traffic (L = t, network elements) and h = max(f, g) of a message list. */
function loads(msgs: MessageList): { h: number; L: number; mMax: number } {
  const { p, src, dst, size } = msgs;
  const r = new Float64Array(p),
    c = new Float64Array(p),
    f = new Uint32Array(p),
    g = new Uint32Array(p);
  let h = 0,
    L = 0,
    mMax = 0;
  for (let k = 0; k < msgs.count; k++) {
    const i = src[k]!,
      j = dst[k]!,
      s = size[k]!;
    r[i] = r[i]! + s;
    c[j] = c[j]! + s;
    f[i] = f[i]! + 1;
    g[j] = g[j]! + 1;
    if (s > mMax) mMax = s;
  }
  for (let x = 0; x < p; x++) {
    h = Math.max(h, f[x]!, g[x]!);
    L = Math.max(L, r[x]!, c[x]!);
  }
  return { h, L, mMax };
}

/**
 * Max over nodes of sum of ceil(m / s) over its messages (the degree of the chunk multigraph) and the number of pieces.
 */
export function chunkDegree(msgs: MessageList, s: number): { degree: number; pieces: number } {
  const { p, src, dst, size } = msgs;
  const out = new Float64Array(p),
    inn = new Float64Array(p);
  let pieces = 0,
    degree = 0;
  for (let k = 0; k < msgs.count; k++) {
    const n = Math.ceil(size[k]! / s);
    pieces += n;
    out[src[k]!] = out[src[k]!]! + n;
    inn[dst[k]!] = inn[dst[k]!]! + n;
  }
  for (let x = 0; x < p; x++) degree = Math.max(degree, out[x]!, inn[x]!);
  return { degree, pieces };
}

/**
 * The chunk size of the chunk mode. With T(s) <= (h + L/s)(alpha + beta s) = alpha h + beta L + alpha L / s + beta h s,
 * the real minimiser is s* = sqrt(alpha L / (beta h)), where the two extra terms are equal and their sum
 * 2 sqrt(alpha beta h L) <= alpha h + beta L. The extra terms are <= alpha h + beta L exactly when s lies between
 * alpha / beta and L / h (s* is their geometric mean), so s is round(s*) clamped into the integers of that
 * interval ("interval"); when the interval holds no integer, the better of floor(s*) and ceil(s*) by the
 * exact degree ("nearest"). Then s is raised, if needed, to keep pieces <= max(AUTO_PIECES, 4 E) (capped by MAX_PIECES)
 * and P x colours <= MAX_SLOTS.
 */
export function chooseChunk(msgs: MessageList, alpha: number, beta: number): { s: number; rule: string } {
  const { h, L, mMax } = loads(msgs);
  if (h === 0) return { s: 1, rule: "empty" };
  let s: number, rule: string;
  if (beta <= 0) {
    s = mMax;
    rule = "no per-element cost: whole messages";
  } else if (alpha <= 0) {
    s = 1;
    rule = "no start-up cost: unit chunks";
  } else {
    const star = Math.sqrt((alpha * L) / (beta * h));
    const a = alpha / beta,
      b = L / h;
    const lo = Math.max(1, Math.ceil(Math.min(a, b))),
      hi = Math.floor(Math.max(a, b));
    if (lo <= hi) {
      s = Math.min(hi, Math.max(lo, Math.round(star)));
      rule = "interval";
    } else {
      const c1 = Math.max(1, Math.floor(star)),
        c2 = Math.max(1, Math.ceil(star));
      const t1 = chunkDegree(msgs, c1).degree * (alpha + beta * Math.min(c1, mMax));
      const t2 = chunkDegree(msgs, c2).degree * (alpha + beta * Math.min(c2, mMax));
      s = t2 < t1 ? c2 : c1;
      rule = "nearest";
    }
  }
  s = Math.max(1, Math.min(s, mMax));
  // automatic s keeps the plan small: at most max(2^14, 4 E) pieces (any s in the interval keeps the 2x bound)
  const limit = Math.min(MAX_PIECES, Math.max(AUTO_PIECES, 4 * msgs.count));
  const total = msgs.size.reduce((x, y) => x + y, 0);
  if (chunkDegree(msgs, s).pieces > limit) {
    const need = Math.ceil(total / Math.max(1, limit - msgs.count));
    if (s < need) {
      s = Math.min(need, mMax);
      rule += ", raised to the piece limit";
    }
  }
  const slotsNeed = Math.ceil(L / Math.max(1, Math.floor(MAX_SLOTS / msgs.p) - h));
  if (s < slotsNeed) {
    s = slotsNeed;
    rule += ", raised to the colour-table limit";
  }
  return { s, rule };
}

/**
 * Plans the chunk mode: balanced pieces of at most s elements, coloured with Delta_s colours (Konig); progress as
 * coloring's.
 */
function planChunk(m: CommMatrix, opts: PlanOptions, prm: SplitColoringParams): Schedule {
  const { phase: phaseProgress, end: endProgress } = progressPhases(opts.progress, COLORING_PROGRESS);
  const msgs = offDiagonalMessages(m, phaseProgress(0));
  const { p } = msgs;
  const { name: machineName, alpha, beta } = splitCostModel(opts.machine, m.elementBytes);
  const { h, L } = loads(msgs);
  let s: number, rule: string;
  if (prm.chunk !== undefined) {
    s = prm.chunk;
    rule = "fixed";
  } else ({ s, rule } = chooseChunk(msgs, alpha, beta));
  const { degree, pieces } = chunkDegree(msgs, s);
  if (pieces > MAX_PIECES)
    throw fail(
      "planner",
      "BAD_OPTION",
      `${NAME}: chunk ${s} would cut the messages into ${pieces} transfers (limit ${MAX_PIECES}); choose a larger chunk`,
      { field: "params.chunk" },
    );
  if (p * degree > MAX_SLOTS)
    throw fail(
      "planner",
      "BAD_OPTION",
      `${NAME}: chunk ${s} gives ${degree} phases on ${p} nodes (colour table limit ${MAX_SLOTS} slots); choose a larger chunk`,
      { field: "params.chunk" },
    );
  // balanced pieces: message k of size m becomes n = ceil(m / s) pieces of floor(m / n) or floor(m / n) + 1
  const pSrc = new Uint32Array(pieces),
    pDst = new Uint32Array(pieces),
    pSize = new Float64Array(pieces),
    pMsg = new Uint32Array(pieces);
  let x = 0;
  for (let k = 0; k < msgs.count; k++) {
    const size = msgs.size[k]!,
      n = Math.ceil(size / s),
      q = Math.floor(size / n),
      extra = size - q * n;
    for (let y = 0; y < n; y++, x++) {
      pSrc[x] = msgs.src[k]!;
      pDst[x] = msgs.dst[k]!;
      pSize[x] = y < extra ? q + 1 : q;
      pMsg[x] = k;
    }
  }
  const order = orderBySizeDesc(pSize);
  const col = colorBipartite(p, pSrc, pDst, pSize, order, phaseProgress(1));
  const D = col.colors;
  const max = prm.improve
    ? improveSumOfMaxima(p, col, pSrc, pDst, pSize, improveBudget(p, pieces, D), phaseProgress(2))
    : colorMaxima(p, col, pSize);
  const phases = Array.from({ length: D }, (_, c) => c).sort((a, b) => max[b]! - max[a]! || a - b);
  let sumOfMaxima = 0;
  for (let c = 0; c < D; c++) sumOfMaxima += max[c]!;
  const modelledTime = D * alpha + beta * sumOfMaxima;
  const lowerBoundTime = alpha * h + beta * L;
  const boundTime = lowerBoundTime + (h > 0 ? (alpha * L) / s + beta * h * s : 0);
  const params = {
    ...opts.givenParams,
    mode: "chunk",
    chunk: s,
    chunkRule: rule,
    machine: machineName,
    alpha,
    beta,
    h,
    L,
    phases: D,
    sumOfMaxima,
    modelledTime,
    lowerBoundTime,
    boundTime,
    ratio: lowerBoundTime > 0 ? modelledTime / lowerBoundTime : 1,
  };
  const b = new ScheduleBuilder({ ...planHeader(m, NAME, opts, false), seed: null, params }, opts.payload, pieces);
  b.stage("phases", "compose");
  const sent = new Float64Array(msgs.count);
  const emitted = progressTicker(phaseProgress(3), D);
  let emittedMark = emitted(0);
  for (let x = 0; x < D; x++) {
    const c = phases[x]!;
    if (x >= emittedMark) emittedMark = emitted(x);
    b.step();
    for (let u = 0; u < p; u++) {
      const e = col.sendAt[u * D + c]!;
      if (e < 0) continue;
      const v = pDst[e]!,
        size = pSize[e]!,
        k = pMsg[e]!;
      b.transfer(u, v, size);
      if (b.payload) b.chunk(u, v, sent[k]!, size);
      sent[k] = sent[k]! + size;
    }
  }
  const schedule = b.build();
  endProgress();
  return schedule;
}

/** The cells of the padded matrix: real messages first (cell k = message k), then dummy-only cells. */
interface BvnCells {
  readonly count: number;
  readonly row: Uint32Array;
  readonly col: Uint32Array;
  readonly real: Float64Array;
  readonly dummy: Float64Array;
}

/**
 * Pads the off-diagonal messages to row and column sums L with dummy amounts (north-west corner rule on the deficits).
 */
function bvnCells(msgs: MessageList, L: number): BvnCells {
  const { p } = msgs;
  const r = new Float64Array(p),
    c = new Float64Array(p);
  for (let k = 0; k < msgs.count; k++) {
    r[msgs.src[k]!] = r[msgs.src[k]!]! + msgs.size[k]!;
    c[msgs.dst[k]!] = c[msgs.dst[k]!]! + msgs.size[k]!;
  }
  const cellOf = new Int32Array(p * p).fill(-1);
  const cap = msgs.count + 2 * p;
  const cRow = new Uint32Array(cap),
    cCol = new Uint32Array(cap),
    real = new Float64Array(cap),
    dummy = new Float64Array(cap);
  for (let k = 0; k < msgs.count; k++) {
    cRow[k] = msgs.src[k]!;
    cCol[k] = msgs.dst[k]!;
    real[k] = msgs.size[k]!;
    cellOf[msgs.src[k]! * p + msgs.dst[k]!] = k;
  }
  let cells = msgs.count;
  if (L > 0) {
    let i = 0,
      j = 0,
      ai = L - r[0]!,
      bj = L - c[0]!;
    while (i < p && j < p) {
      if (ai === 0) {
        i++;
        if (i < p) ai = L - r[i]!;
        continue;
      }
      if (bj === 0) {
        j++;
        if (j < p) bj = L - c[j]!;
        continue;
      }
      const x = Math.min(ai, bj);
      let cell = cellOf[i * p + j]!;
      if (cell < 0) {
        cell = cells++;
        cRow[cell] = i;
        cCol[cell] = j;
        cellOf[i * p + j] = cell;
      }
      dummy[cell] = dummy[cell]! + x;
      ai -= x;
      bj -= x;
    }
  }
  return { count: cells, row: cRow, col: cCol, real, dummy };
}

/** A perfect matching of rows to columns over the alive cells, kept by augmenting paths as cells die. */
class BvnMatching {
  readonly matchRow: Int32Array;
  readonly matchCol: Int32Array;
  readonly alive: Uint8Array;
  private readonly rowStart: Uint32Array;
  private readonly adj: Uint32Array;
  private readonly queue: Int32Array;
  private readonly via: Int32Array;
  private readonly seen: Int32Array;
  private search = 0;

  /** Starts greedy, heaviest cells first (no row is matched yet when `augmentAll` has not run). */
  constructor(
    p: number,
    private readonly cells: BvnCells,
  ) {
    const { count, row, col } = cells;
    // CSR of cells by row
    this.rowStart = bucketStarts(row, p, 0, count, new Uint32Array(p + 1));
    this.adj = bucketItems(row, this.rowStart, null, 0, count, new Uint32Array(count));
    this.alive = new Uint8Array(count).fill(1);
    const matchRow = (this.matchRow = new Int32Array(p).fill(-1)),
      matchCol = (this.matchCol = new Int32Array(p).fill(-1));
    const byWeight = Array.from({ length: count }, (_, e) => e).sort(
      (a, b) => this.weight(b) - this.weight(a) || a - b,
    );
    for (const e of byWeight)
      if (matchRow[row[e]!]! < 0 && matchCol[col[e]!]! < 0) {
        matchRow[row[e]!] = e;
        matchCol[col[e]!] = e;
      }
    this.queue = new Int32Array(p);
    this.via = new Int32Array(p);
    this.seen = new Int32Array(p).fill(-1);
  }

  /** What is left on cell e, real and dummy. */
  weight(e: number): number {
    return this.cells.real[e]! + this.cells.dummy[e]!;
  }

  /** Augments from free row r0 along alive cells (BFS over rows; via[row] = the cell that reached it). */
  augment(r0: number): void {
    const { rowStart, adj, alive, queue, via, seen, matchRow, matchCol } = this;
    const { row: cRow, col: cCol } = this.cells;
    const search = ++this.search;
    let head = 0,
      tail = 0;
    queue[tail++] = r0;
    via[r0] = -1;
    while (head < tail) {
      const i = queue[head++]!;
      for (let x = rowStart[i]!; x < rowStart[i + 1]!; x++) {
        const e = adj[x]!;
        if (alive[e] === 0) continue;
        const j = cCol[e]!;
        if (seen[j] === search) continue;
        seen[j] = search;
        const f = matchCol[j]!;
        if (f < 0) {
          // flip the path back to r0
          let cell = e;
          for (;;) {
            const row = cRow[cell]!;
            matchRow[row] = cell;
            matchCol[cCol[cell]!] = cell;
            if (row === r0) return;
            cell = via[row]!;
          }
        }
        const row = cRow[f]!;
        via[row] = e;
        queue[tail++] = row;
      }
    }
    throw new Error(`${NAME}: internal error: no perfect matching (row ${r0})`);
  }
}

/**
 * The phases: each takes the matching, delta = its smallest cell, moves delta from every matched cell
 * (real elements first, then dummy) as one step, drops the cells that empty and repairs the matching.
 * `progress`: L - remaining of L, once per phase.
 */
function bvnPhases(
  b: ScheduleBuilder,
  p: number,
  realCount: number,
  cells: BvnCells,
  mt: BvnMatching,
  L: number,
  progress: ProgressCallback | null,
): { phases: number; sumOfMaxima: number } {
  const { col: cCol, real, dummy } = cells;
  const { matchRow, matchCol, alive } = mt;
  const sumReal = new Float64Array(realCount);
  const freed: number[] = [];
  let phases = 0,
    sumOfMaxima = 0;
  let remaining = L;
  const tick = progressTicker(progress, L);
  let tickMark = tick(0);
  while (remaining > 0) {
    if (L - remaining >= tickMark) tickMark = tick(L - remaining);
    let delta = Infinity;
    for (let i = 0; i < p; i++) delta = Math.min(delta, mt.weight(matchRow[i]!));
    b.step();
    let phaseMax = 0;
    for (let i = 0; i < p; i++) {
      const e = matchRow[i]!;
      const take = Math.min(delta, real[e]!);
      if (take > 0) {
        b.transfer(i, cCol[e]!, take);
        if (b.payload) b.chunk(i, cCol[e]!, sumReal[e]!, take);
        sumReal[e] = sumReal[e]! + take;
        real[e] = real[e]! - take;
        if (take > phaseMax) phaseMax = take;
      }
      dummy[e] = dummy[e]! - (delta - take);
    }
    b.dropEmptyStep();
    if (phaseMax > 0) {
      phases++;
      sumOfMaxima += phaseMax;
    }
    remaining -= delta;
    freed.length = 0;
    for (let i = 0; i < p; i++) {
      const e = matchRow[i]!;
      if (mt.weight(e) === 0) {
        alive[e] = 0;
        matchRow[i] = -1;
        matchCol[cCol[e]!] = -1;
        freed.push(i);
      }
    }
    if (remaining > 0) for (const i of freed) if (matchRow[i]! < 0) mt.augment(i);
  }
  tick(Infinity);
  return { phases, sumOfMaxima };
}

/**
 * Plans the bvn mode (preemptive open shop, Gonzalez and Sahni 1976; Birkhoff-von Neumann). The off-diagonal
 * matrix is padded to one whose every row and column sums to L = t (dummy amounts placed by the north-west
 * corner rule on the deficits, at most 2P - 1 cells); its support then always has a perfect matching. Each phase
 * takes a perfect matching, delta = its smallest cell, and moves delta from every matched cell (real
 * elements first, then dummy); cells that reach 0 leave the support and the matching is repaired by
 * augmenting paths (BFS) from the freed rows. The node with traffic L has no dummy, so every phase moves
 * exactly delta real elements there: the per-phase maxima sum to L exactly. Every phase empties a cell, so
 * phases <= cells - P + 1 (the last phase empties P); matchings start greedy by weight to make deltas large.
 * Progress: the message list (a tenth), then the phases.
 */
function planBvn(m: CommMatrix, opts: PlanOptions): Schedule {
  const { phase: phaseProgress, end: endProgress } = progressPhases(opts.progress, [100, 900]);
  const msgs = offDiagonalMessages(m, phaseProgress(0));
  const { p } = msgs;
  const { name: machineName, alpha, beta } = splitCostModel(opts.machine, m.elementBytes);
  const { h, L } = loads(msgs);
  const cellList = bvnCells(msgs, L);
  const cells = cellList.count;
  if (cells * p > MAX_BVN_WORK) {
    throw fail(
      "planner",
      "UNSUPPORTED",
      `${NAME}: mode "bvn" on ${cells} cells and ${p} nodes could need ${cells} phases of up to ${p} transfers (limit cells x P <= ${MAX_BVN_WORK}); use mode "chunk"`,
      { field: "params.mode" },
    );
  }
  const mt = new BvnMatching(p, cellList);
  for (let i = 0; i < p && L > 0; i++) if (mt.matchRow[i]! < 0) mt.augment(i);
  const b = new ScheduleBuilder(
    { ...planHeader(m, NAME, opts, false), seed: null, params: {} },
    opts.payload,
    msgs.count * 2,
  );
  b.stage("phases", "compose");
  const { phases, sumOfMaxima } = bvnPhases(b, p, msgs.count, cellList, mt, L, phaseProgress(1));
  const lowerBoundTime = alpha * h + beta * L;
  const modelledTime = phases * alpha + beta * sumOfMaxima;
  const params = {
    ...opts.givenParams,
    mode: "bvn",
    machine: machineName,
    alpha,
    beta,
    h,
    L,
    cells,
    phases,
    sumOfMaxima,
    modelledTime,
    lowerBoundTime,
    ratio: lowerBoundTime > 0 ? modelledTime / lowerBoundTime : 1,
  };
  const s = b.build();
  endProgress();
  return { ...s, params };
}

function plan(m: CommMatrix, opts: PlanOptions<Resolved<typeof SPLIT_COLORING_PARAMS>>): Schedule {
  const prm = splitColoringParams(opts.params);
  return prm.mode === "bvn" ? planBvn(m, opts) : planChunk(m, opts, prm);
}

/**
 * Split colouring: chunks of at most s* = sqrt(alpha L / (beta h)) elements, coloured exactly; or mode "bvn" with
 * bandwidth term exactly beta L.
 */
export const splitColoring: Planner = definePlanner(
  {
    name: NAME,
    title:
      "split colouring: messages cut into chunks of at most s elements and edge-coloured (s* from the machine), or a BvN decomposition (mode bvn)",
    source:
      "003 sec 3.3 (RS_NH's cutoff made exact); Konig's edge-colouring theorem; Gonzalez-Sahni preemptive open shop / Birkhoff-von Neumann",
    params: SPLIT_COLORING_PARAMS,
    traits: { relayed: false, randomised: false, stages: 1, growth: "linear", claims: "verifier" },
    auto: { variants: [{ params: {} }], bound: "busiest-node" },
  },
  plan,
);
