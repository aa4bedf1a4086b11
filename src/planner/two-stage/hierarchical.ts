/**
 * Hierarchical all-to-all for clusters of nodes of g ranks: combine inside the node, one message per node pair over a
 * rail, scatter inside the destination node.
 */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { refuseDenseWorkOnSparse } from "../plan-memory.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { integer, output, type Resolved } from "../../model/param-spec.js";
import { planHeader } from "../plan-header.js";
import { definePlanner } from "../plan-params.js";
import { stepProgress } from "../plan-progress.js";
import type { MachineModel } from "../../model/machine.js";
import { tally } from "../flat-tally.js";
import type { FlatMode, Planner, PlanOptions } from "../types.js";

/** The parameters: `gpus` per node (its `nodes` and the stage-2 `railSteps` go to the header). */
const HIERARCHICAL_PARAMS = {
  gpus: integer({
    description:
      "ranks per node g (g must divide P; ranks are numbered node-major: rank n g + i is GPU i of node n); stages 1 and 3 run inside a node, stage 2 between nodes, rank (n, i) talking only to GPU i of other nodes (rail i)",
    min: 1,
    derived: "8 when 8 divides P and P > 8, else the largest divisor of P at most sqrt(P)",
  }),
  nodes: output("N = P / g"),
  railSteps: output(
    "steps of stage 2 (one message per node pair, packed so that a rank sends and receives at most once per step)",
  ),
};

/** g: the given ranks per node, or the default (8 GPUs when they fit, else a divisor near sqrt P). */
export function hierarchicalGpus(p: number, gpus: number | undefined): number {
  if (gpus !== undefined) {
    if (p % gpus !== 0)
      throw fail("planner", "BAD_OPTION", `hierarchical: gpus = ${gpus} does not divide P = ${p}`, { field: "gpus" });
    return gpus;
  }
  if (p > 8 && p % 8 === 0) return 8;
  let g = Math.floor(Math.sqrt(p));
  while (g > 1 && p % g !== 0) g--;
  return Math.max(1, g);
}

/**
 * The rail (GPU index) that carries node n's data for node n2: (n + n2) mod g, so that every rank sends and receives
 * about (N - 1) / g of the node pairs.
 */
export const railOf = (n: number, n2: number, g: number): number => (n + n2) % g;

/**
 * The node pairs (n -> n2, n != n2) packed into steps, first fit in shift order: the pair's rail
 * rank of n sends, the same rail of n2 receives, and no rank sends or receives twice in a step.
 * Returns per step its pairs as n * nodes + n2 (the planner and auto's predictor share it).
 */
export function packRailSteps(nodes: number, g: number): Int32Array[] {
  const steps: number[][] = [];
  const sendBusy: Uint8Array[] = [],
    recvBusy: Uint8Array[] = [];
  for (let k = 1; k < nodes; k++) {
    for (let n = 0; n < nodes; n++) {
      const n2 = (n + k) % nodes;
      const rail = railOf(n, n2, g);
      const s = n * g + rail,
        r = n2 * g + rail;
      let t = 0;
      while (t < steps.length && (sendBusy[t]![s] === 1 || recvBusy[t]![r] === 1)) t++;
      if (t === steps.length) {
        steps.push([]);
        sendBusy.push(new Uint8Array(nodes * g));
        recvBusy.push(new Uint8Array(nodes * g));
      }
      steps[t]!.push(n * nodes + n2);
      sendBusy[t]![s] = 1;
      recvBusy[t]![r] = 1;
    }
  }
  return steps.map((x) => Int32Array.from(x));
}

/**
 * Stage 1 (inside node n, shift over its g ranks): rank (n, j) sends rank (n, i) its own messages
 * to GPU i of node n, and its messages to every other node n2 whose rail is i (railOf). Stage 2
 * (between nodes): rank (n, rail) sends rank (n2, rail) everything node n has for node n2, one
 * message per node pair. Stage 3 (inside node n2, shift): rank (n2, rail) hands each rank of its
 * node what stage 2 brought for it. Messages are combined, never split: each chunk is a whole M[o][d].
 * Progress: the steps of the three stages, then the build.
 */
function plan(m: CommMatrix, opts: PlanOptions<Resolved<typeof HIERARCHICAL_PARAMS>>): Schedule {
  refuseDenseWorkOnSparse("hierarchical", m, 8 * m.p * m.p); // the dense copy it reads
  const { p, data } = m;
  const g = hierarchicalGpus(p, opts.params.gpus);
  const nodes = p / g;
  const packed = packRailSteps(nodes, g);
  const header = {
    ...planHeader(m, "hierarchical", opts, false),
    params: { gpus: g, nodes, railSteps: packed.length },
  };
  const b = new ScheduleBuilder(header, opts.payload, 2 * p * Math.max(1, g - 1) + nodes * nodes);
  const node = (u: number): number => Math.floor(u / g);
  const [reached, built] = stepProgress(opts, 2 * (g - 1) + packed.length);
  let steps = 0;
  // stage 1: (n, j) -> (n, i)
  b.stage("1: inside the node, to the rail of each destination node", "compose");
  for (let k = 1; k < g; k++) {
    reached(steps++);
    b.step();
    for (let u = 0; u < p; u++) {
      const n = node(u),
        i = (u - n * g + k) % g,
        v = n * g + i;
      let size = data[u * p + v]!;
      for (let n2 = 0; n2 < nodes; n2++) {
        if (n2 === n || railOf(n, n2, g) !== i) continue;
        for (let x = n2 * g; x < n2 * g + g; x++) size += data[u * p + x]!;
      }
      if (size === 0) continue;
      b.transfer(u, v, size);
      if (!b.payload) continue;
      const own = data[u * p + v]!;
      if (own > 0) b.chunk(u, v, 0, own);
      for (let n2 = 0; n2 < nodes; n2++) {
        if (n2 === n || railOf(n, n2, g) !== i) continue;
        for (let x = n2 * g; x < n2 * g + g; x++) if (data[u * p + x]! > 0) b.chunk(u, x, 0, data[u * p + x]!);
      }
    }
    b.dropEmptyStep();
  }
  // stage 2: (n, rail) -> (n2, rail), all of node n's data for node n2. "collect": the rail rank
  // assembles each message from what stage 1 brought and its own blocks, which no stage has moved
  // (with g = 1 that is all of them): t_m per byte, as two-stage's second stage
  b.stage("2: between nodes, one message per node pair on its rail", "collect");
  for (const st of packed) {
    reached(steps++);
    b.step();
    for (const pair of st) {
      const n = Math.floor(pair / nodes),
        n2 = pair - n * nodes,
        rail = railOf(n, n2, g);
      let size = 0;
      for (let o = n * g; o < n * g + g; o++) for (let d = n2 * g; d < n2 * g + g; d++) size += data[o * p + d]!;
      if (size === 0) continue;
      b.transfer(n * g + rail, n2 * g + rail, size);
      if (!b.payload) continue;
      for (let o = n * g; o < n * g + g; o++)
        for (let d = n2 * g; d < n2 * g + g; d++) if (data[o * p + d]! > 0) b.chunk(o, d, 0, data[o * p + d]!);
    }
    b.dropEmptyStep();
  }
  // stage 3: (n2, rail) -> (n2, i), what came from the nodes whose rail to n2 is `rail`
  b.stage("3: inside the destination node, to each rank", "collect");
  for (let k = 1; k < g; k++) {
    reached(steps++);
    b.step();
    for (let w = 0; w < p; w++) {
      const n2 = node(w),
        rail = w - n2 * g,
        d = n2 * g + ((rail + k) % g);
      let size = 0;
      for (let n = 0; n < nodes; n++) {
        if (n === n2 || railOf(n, n2, g) !== rail) continue;
        for (let o = n * g; o < n * g + g; o++) size += data[o * p + d]!;
      }
      if (size === 0) continue;
      b.transfer(w, d, size);
      if (!b.payload) continue;
      for (let n = 0; n < nodes; n++) {
        if (n === n2 || railOf(n, n2, g) !== rail) continue;
        for (let o = n * g; o < n * g + g; o++) if (data[o * p + d]! > 0) b.chunk(o, d, 0, data[o * p + d]!);
      }
    }
    b.dropEmptyStep();
  }
  const s = b.build();
  built();
  return s;
}

/** Flat time of hierarchical with g ranks per node (default g when `gpus` is undefined; g must divide P). */
export function predictHierarchical(m: CommMatrix, machine: MachineModel, mode: FlatMode, gpus?: number): number {
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

/** The hierarchical planner: three stages for a cluster of nodes of g ranks (MoE-style hierarchical all-to-all). */
export const hierarchical: Planner = definePlanner(
  {
    name: "hierarchical",
    title: "hierarchical all-to-all for nodes of g ranks: combine in the node, one message per node pair, scatter",
    source: "docs/algorithms/hierarchical.md (004 sec 3.1.3's combining, applied to node-structured clusters)",
    params: HIERARCHICAL_PARAMS,
    traits: { relayed: true, randomised: false, stages: 3, growth: "superlinear", claims: "verifier" },
    auto: {
      // few transfers (2 P g + (P / g)^2): cheap to plan and replay, and the flat model misjudges it
      variants: [{ params: {}, alwaysFinal: true, early: "first" }],
      predict: (m, machine, mode) => predictHierarchical(m, machine, mode),
    },
  },
  plan,
);
