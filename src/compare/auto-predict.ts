/** Flat-model times of auto's structured candidates computed from the matrix alone (no schedule built), and lower bounds for the others. */
import { matrixRows, type CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import type { CostMode } from "../machines/cost-model.js";
import { lpPartner as lpPartnerImported, lpRoundOf, lpRounds } from "../planner/linear-permutation.js";
import {
  defaultMeshRows,
  hierarchicalGpus,
  meshStageVolumes,
  packRailSteps,
  railOf as railOfImported,
  twoStageSplit,
} from "../planner/index.js";
import { offDiagonalMessages } from "../planner/permutation/messages.js";
import { messagesByStep } from "../planner/by-step.js";
import { orderBySizeDesc, sumOfMaximaLowerBound } from "../planner/permutation/edge-coloring.js";
import { roundPartner as roundPartnerImported, stageRounds, type StageSchedule } from "../planner/two-stage/rounds.js";

// local bindings for the hot loops (a re-exported binding may be a getter under a loader)
const lpPartner = lpPartnerImported;
const roundPartner = roundPartnerImported;
const railOf = railOfImported;

/**
 * Prices stages the way scheduleCost does (docs/cost-model.md) from the transfers a planner would
 * emit, fed one by one: per-step maxima (blocking) or per-node tallies (nonblocking), and the
 * per-node bytes of the rearrangement. Local copies are never fed (none of the priced planners makes one).
 */
class FlatTally {
  private readonly sentN: Uint32Array;
  private readonly recvN: Uint32Array;
  private readonly sentB: Float64Array;
  private readonly recvB: Float64Array;
  private readonly handled: Float64Array;
  private readonly eb: number;
  private readonly env: number;
  private readonly ts: number;
  private readonly tcd: number;
  private stepMax = 0;
  private communication = 0;
  /** Sum of the stage times so far (us). */
  total = 0;

  constructor(
    private readonly p: number,
    elementBytes: number,
    private readonly machine: MachineModel,
    private readonly blocking: boolean,
  ) {
    this.sentN = new Uint32Array(p);
    this.recvN = new Uint32Array(p);
    this.sentB = new Float64Array(p);
    this.recvB = new Float64Array(p);
    this.handled = new Float64Array(p);
    this.eb = elementBytes;
    this.env = machine.envelope ?? 0;
    this.ts = machine.ts;
    this.tcd = machine.tc + machine.td;
  }

  /** Ends the current step (blocking: adds its slowest transfer). */
  step(): void {
    this.communication += this.stepMax;
    this.stepMax = 0;
  }

  /** A network message of `elements` (> 0) elements from a to b (a != b) in the current step. */
  send(a: number, b: number, elements: number): void {
    const bytes = elements * this.eb;
    this.handled[a] = this.handled[a]! + bytes;
    if (this.blocking) {
      const t = this.ts + (bytes + this.env) * this.tcd;
      if (t > this.stepMax) this.stepMax = t;
      return;
    }
    this.sentN[a] = this.sentN[a]! + 1;
    this.recvN[b] = this.recvN[b]! + 1;
    this.sentB[a] = this.sentB[a]! + bytes + this.env;
    this.recvB[b] = this.recvB[b]! + bytes + this.env;
  }

  /** Ends the stage (its last step must have been ended): adds barrier + rearrangement + communication to `total`. */
  endStage(rearrange: boolean): void {
    const { ts, tc, td, tm, barrier } = this.machine;
    let maxHandled = 0,
      pipeline = 0;
    for (let v = 0; v < this.p; v++) {
      if (this.handled[v]! > maxHandled) maxHandled = this.handled[v]!;
      if (!this.blocking) {
        const n = Math.max(this.sentN[v]!, this.recvN[v]!);
        const b = Math.max(this.sentB[v]!, this.recvB[v]!);
        pipeline = Math.max(pipeline, n * ts, b * tc, b * td);
      }
    }
    const communication = this.blocking ? this.communication : pipeline;
    this.total += barrier + (rearrange ? maxHandled * tm : 0) + communication;
    this.communication = 0;
    this.stepMax = 0;
    for (const a of [this.sentN, this.recvN]) a.fill(0);
    for (const a of [this.sentB, this.recvB, this.handled]) a.fill(0);
  }
}

function tally(m: CommMatrix, machine: MachineModel, mode: CostMode): FlatTally {
  return new FlatTally(m.p, m.elementBytes, machine, mode === "blocking");
}

/** Feeds f the network messages of a sparse matrix step by step (messagesByStep: O(P + E + steps)); empty steps cost nothing, as in the planners, which drop them. */
function feedByStep(m: CommMatrix, f: FlatTally, steps: number, stepOf: (i: number, j: number) => number): void {
  const { col, val } = matrixRows(m);
  const { start, src, at } = messagesByStep(m, steps, stepOf);
  for (let s = 0; s < steps; s++) {
    if (start[s] === start[s + 1]) continue;
    for (let x = start[s]!; x < start[s + 1]!; x++) f.send(src[x]!, col[at[x]!]!, val[at[x]!]!);
    f.step();
  }
}

/** Flat time of the shift planner: step k pairs i with (i + k) mod P. */
export function predictShift(m: CommMatrix, machine: MachineModel, mode: CostMode): number {
  const p = m.p;
  const f = tally(m, machine, mode);
  if (m.sparse) {
    feedByStep(m, f, p, (i, j) => (j - i + p) % p);
    f.endStage(true);
    return f.total;
  }
  const data = m.data;
  for (let k = 1; k < p; k++) {
    for (let i = 0, j = k; i < p; i++, j = j + 1 === p ? 0 : j + 1) {
      const v = data[i * p + j]!;
      if (v !== 0) f.send(i, j, v);
    }
    f.step();
  }
  f.endStage(true);
  return f.total;
}

/** Flat time of the linear-permutation planner (its pairing, lpPartner). */
export function predictLinearPermutation(m: CommMatrix, machine: MachineModel, mode: CostMode): number {
  const p = m.p;
  const f = tally(m, machine, mode);
  const [first, last] = lpRounds(p);
  if (m.sparse) {
    feedByStep(m, f, last + 1, (i, j) => lpRoundOf(p, i, j));
    f.endStage(true);
    return f.total;
  }
  const data = m.data;
  const partner = new Int32Array(p);
  for (let r = first; r <= last; r++) {
    for (let i = 0; i < p; i++) partner[i] = lpPartner(p, r, i);
    for (let i = 0; i < p; i++) {
      const j = partner[i]!;
      if (j < 0 || j === i) continue;
      const v = data[i * p + j]!;
      if (v !== 0) f.send(i, j, v);
    }
    f.step();
  }
  f.endStage(true);
  return f.total;
}

/**
 * One stage of rounds inside groups of n members: member x = floor(u / stride) mod n of node u's
 * group sends to member roundPartner(x), node u + (partner - x) stride, the message sizes[u n + partner].
 */
function groupStage(
  f: FlatTally,
  p: number,
  schedule: StageSchedule,
  n: number,
  stride: number,
  sizes: Float64Array,
): void {
  const partner = new Int32Array(n);
  for (const round of stageRounds(schedule, n)) {
    for (let x = 0; x < n; x++) partner[x] = roundPartner(schedule, n, round, x);
    for (let u = 0; u < p; u++) {
      const me = n === p ? u : stride === 1 ? u % n : Math.floor(u / stride) % n;
      const x = partner[me]!;
      if (x < 0 || x === me) continue;
      const s = sizes[u * n + x]!;
      if (s !== 0) f.send(u, u + (x - me) * stride, s);
    }
    f.step();
  }
}

/** Flat time of two-stage (no reshuffle) with the given stage schedule, from its split (twoStageSplit). */
export function predictTwoStage(
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  schedule: StageSchedule,
  split: { readonly stage1: Float64Array; readonly stage2: Float64Array } = twoStageSplit(m, false, 1),
): number {
  const { p } = m;
  const f = tally(m, machine, mode);
  const { stage1, stage2 } = split;
  groupStage(f, p, schedule, p, 1, stage1);
  f.endStage(true);
  groupStage(f, p, schedule, p, 1, stage2);
  f.endStage(true);
  return f.total;
}

/** Flat time of mesh-two-stage on its R x C grid (default rows when `rows` is undefined; R must divide P). */
export function predictMeshTwoStage(
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  schedule: StageSchedule,
  rows?: number,
): number {
  const { p } = m;
  const R = rows ?? defaultMeshRows(p),
    C = p / R;
  const { s1, s2 } = meshStageVolumes(m, R, C);
  const f = tally(m, machine, mode);
  groupStage(f, p, schedule, C, 1, s1);
  f.endStage(true);
  groupStage(f, p, schedule, R, C, s2);
  f.endStage(true);
  return f.total;
}

/** Flat time of hierarchical with g ranks per node (default g when `gpus` is undefined; g must divide P). */
export function predictHierarchical(m: CommMatrix, machine: MachineModel, mode: CostMode, gpus?: number): number {
  const { p, data } = m;
  const g = hierarchicalGpus(p, gpus);
  const nodes = p / g;
  // toRail[u * g + i]: what rank u hands GPU i of its node in stage 1 (its messages to the nodes of rail i);
  // fromRail[d * g + i]: what GPU i of d's node hands d in stage 3; pair[n * nodes + n2]: stage 2
  const toRail = new Float64Array(p * g),
    fromRail = new Float64Array(p * g),
    pair = new Float64Array(nodes * nodes);
  for (let u = 0; u < p; u++) {
    const n = Math.floor(u / g);
    for (let n2 = 0; n2 < nodes; n2++) {
      if (n2 === n) continue;
      const rail = railOf(n, n2, g);
      let block = 0;
      for (let d = n2 * g; d < n2 * g + g; d++) {
        const v = data[u * p + d]!;
        block += v;
        fromRail[d * g + rail] = fromRail[d * g + rail]! + v;
      }
      toRail[u * g + rail] = toRail[u * g + rail]! + block;
      pair[n * nodes + n2] = pair[n * nodes + n2]! + block;
    }
  }
  const f = tally(m, machine, mode);
  for (let k = 1; k < g; k++) {
    for (let u = 0; u < p; u++) {
      const base = u - (u % g),
        i = ((u % g) + k) % g,
        v = base + i;
      const size = data[u * p + v]! + toRail[u * g + i]!;
      if (size !== 0) f.send(u, v, size);
    }
    f.step();
  }
  f.endStage(true);
  for (const st of packRailSteps(nodes, g)) {
    for (const e of st) {
      const n = Math.floor(e / nodes),
        n2 = e % nodes,
        rail = railOf(n, n2, g);
      const size = pair[e]!;
      if (size !== 0) f.send(n * g + rail, n2 * g + rail, size);
    }
    f.step();
  }
  f.endStage(true);
  for (let k = 1; k < g; k++) {
    for (let w = 0; w < p; w++) {
      const base = w - (w % g),
        rail = w % g,
        d = base + ((rail + k) % g);
      const size = fromRail[d * g + rail]!;
      if (size !== 0) f.send(w, d, size);
    }
    f.step();
  }
  f.endStage(true);
  return f.total;
}

/** What the lower bounds need, from one pass over the matrix. */
export interface MatrixLoad {
  /** Off-diagonal elements. */
  readonly total: number;
  /** Non-empty off-diagonal messages. */
  readonly messages: number;
  /** Most off-diagonal elements one node sends or receives (the h of an element-level h-relation). */
  readonly most: number;
  /** Most off-diagonal bytes one node sends (the rearrangement of a one-stage direct plan). */
  readonly mostSentBytes: number;
  /** A node's communication time in a one-stage direct plan, maximised over nodes (blocking: the sum of its messages' costs, sent or received; nonblocking: the pipeline term). */
  readonly direct: number;
}

/** One pass over m for the bounds, in the given cost mode. */
export function matrixLoad(m: CommMatrix, machine: MachineModel, mode: CostMode): MatrixLoad {
  const p = m.p;
  const { rowStart, col, val } = matrixRows(m);
  const { ts, tc, td } = machine;
  const env = machine.envelope ?? 0;
  const eb = m.elementBytes;
  const colN = new Float64Array(p),
    colE = new Float64Array(p);
  const nodeTime = (n: number, elements: number): number =>
    mode === "blocking"
      ? n * ts + (elements * eb + n * env) * (tc + td)
      : Math.max(n * ts, (elements * eb + n * env) * Math.max(tc, td));
  let total = 0,
    most = 0,
    direct = 0,
    messages = 0,
    mostSentBytes = 0;
  for (let i = 0; i < p; i++) {
    let row = 0,
      n = 0;
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const j = col[k]!,
        v = val[k]!;
      if (i === j) continue;
      row += v;
      n++;
      colN[j] = colN[j]! + 1;
      colE[j] = colE[j]! + v;
    }
    messages += n;
    total += row;
    most = Math.max(most, row);
    mostSentBytes = Math.max(mostSentBytes, row * eb);
    direct = Math.max(direct, nodeTime(n, row));
  }
  for (let j = 0; j < p; j++) {
    most = Math.max(most, colE[j]!);
    direct = Math.max(direct, nodeTime(colN[j]!, colE[j]!));
  }
  return { total, messages, most, mostSentBytes, direct };
}

/**
 * A lower bound on the flat time of any one-stage plan into partial permutations of whole messages
 * (coloring, rs-n): blocking, at least h = max(f, g) phases, each a start-up (and an envelope), and
 * the sum over phases of the longest message at least the threshold-degree bound
 * (sumOfMaximaLowerBound); nonblocking, the pipeline term is fixed by the messages (`direct`).
 */
export function wholeMessageBound(m: CommMatrix, machine: MachineModel, mode: CostMode, load: MatrixLoad): number {
  const head = machine.barrier + load.mostSentBytes * machine.tm;
  if (mode !== "blocking") return head + load.direct;
  const msgs = offDiagonalMessages(m);
  if (msgs.count === 0) return head;
  const colours = new Uint32Array(2 * m.p);
  for (let e = 0; e < msgs.count; e++) {
    colours[msgs.src[e]!]!++;
    colours[m.p + msgs.dst[e]!]!++;
  }
  const h = colours.reduce((a, b) => Math.max(a, b), 0); // not Math.max(...): 2P arguments pass the engine's limit
  const tcd = machine.tc + machine.td;
  const sum = sumOfMaximaLowerBound(m.p, msgs.src, msgs.dst, msgs.size, orderBySizeDesc(msgs.size));
  return head + Math.max(load.direct, h * (machine.ts + (machine.envelope ?? 0) * tcd) + sum * m.elementBytes * tcd);
}
