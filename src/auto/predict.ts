/**
 * auto's screen bounds: the matrix's loads, and a lower bound on the flat time of a variant without a prediction, by
 * its planner's AutoBoundKind.
 */
import { matrixRows, type CommMatrix } from "../model/matrix.js";
import { stageBarrier, type MachineModel } from "../model/machine.js";
import type { CostMode } from "../machines/cost-model.js";
import { offDiagonalMessages } from "../planner/permutation/messages.js";
import { orderBySizeDesc, sumOfMaximaLowerBound } from "../planner/permutation/edge-coloring.js";
import type { AutoBoundKind } from "../planner/types.js";

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
  /**
   * A node's communication time in a one-stage direct plan, maximised over nodes (blocking: the sum of its messages'
   * costs, sent or received; nonblocking: the pipeline term).
   */
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
  const head = stageBarrier(machine, m.p) + load.mostSentBytes * machine.tm;
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

/**
 * A lower bound on the flat time of a variant whose planner's bound is `kind`, from the matrix alone:
 * `whole-messages` (coloring, rs-n: whole messages in partial permutations) wholeMessageBound, computed once
 * per matrix (`cache`); `busiest-node`, any one-stage contention-free direct plan (split-coloring, rs-nh,
 * which cut messages), needs the start-up and the bytes of every message of its busiest node, one after the
 * other (blocking) or pipelined (nonblocking), plus its rearrangement; `two-relays` and `four-stages` move each
 * byte of the busiest node at least twice / once (four-stage in four stages, a barrier each, the first of
 * which rearranges every byte a node sends); `unit-packets` plans need a round per element.
 */
export function boundOfKind(
  kind: AutoBoundKind,
  m: CommMatrix,
  machine: MachineModel,
  mode: CostMode,
  load: MatrixLoad,
  cache: { whole?: number },
): number {
  const { ts, tm } = machine;
  const barrier = stageBarrier(machine, m.p); // none at P = 1, as scheduleCost charges
  const per = m.elementBytes * (mode === "blocking" ? machine.tc + machine.td : Math.max(machine.tc, machine.td));
  switch (kind) {
    // a total exchange of nothing plans no stage at all
    case "unit-packets":
      return load.total === 0 ? 0 : barrier + load.most * (mode === "blocking" ? ts + per : per);
    case "two-relays":
      return 2 * barrier + ((2 * (m.p - 1)) / m.p) * load.most * per;
    // four-stage's first stage distributes every element a node sends to another into buckets, the own
    // column's by a local copy: its rearrangement handles the busiest sender's bytes
    case "four-stages":
      return 4 * barrier + load.mostSentBytes * tm + load.most * per;
    case "whole-messages":
      return (cache.whole ??= wholeMessageBound(m, machine, mode, load));
    case "busiest-node":
      return barrier + load.mostSentBytes * tm + load.direct;
  }
}
