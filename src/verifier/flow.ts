/** Flow: element counts per node (sizes add up, never send more than held) and the peak buffer per node. */
import { entry, type CommMatrix } from "../model/matrix.js";
import type { MatrixStats } from "../model/matrix-stats.js";
import type { Schedule } from "../model/schedule.js";
import { check, type Check } from "./report.js";

/** What the flow pass measures. */
export interface FlowResult {
  readonly conservation: Check;
  /** Peak elements held by any node at a step boundary (start, or end of a step). */
  readonly peakBuffer: number;
  /** The first node that reaches peakBuffer. */
  readonly peakNode: number;
  /** Peak elements held by each node at a step boundary (its row sum at the start, at least). */
  readonly peakPerNode: Float64Array;
}

/**
 * Message-level accounting: node u starts with its row (diagonal included), a step may send at
 * most what u holds at its start, received elements count from the end of the step, and at the
 * end u holds exactly its column. Works without payloads; linear in the schedule.
 */
export function checkFlow(m: CommMatrix, s: Schedule, stats?: MatrixStats): FlowResult {
  const { p } = s;
  const hold = new Float64Array(p);
  const final = new Float64Array(p);
  const sp = m.sparse;
  if (stats) {
    // row and column sums from the statistics (off the diagonal) and the diagonal: O(P) (integers, exact)
    for (let i = 0; i < p; i++) {
      const d = entry(m, i, i);
      hold[i] = stats.rowTraffic[i]! + d;
      final[i] = stats.colTraffic[i]! + d;
    }
  } else if (sp) {
    for (let i = 0; i < p; i++)
      for (let k = sp.rowStart[i]!; k < sp.rowStart[i + 1]!; k++) {
        hold[i] = hold[i]! + sp.val[k]!;
        final[sp.col[k]!] = final[sp.col[k]!]! + sp.val[k]!;
      }
  } else {
    const data = m.data;
    for (let i = 0; i < p; i++) {
      let r = 0;
      const base = i * p;
      for (let j = 0; j < p; j++) {
        const v = data[base + j]!;
        r += v;
        final[j] = final[j]! + v;
      }
      hold[i] = r;
    }
  }
  let peak = 0,
    peakNode = 0;
  for (let i = 0; i < p; i++)
    if (hold[i]! > peak) {
      peak = hold[i]!;
      peakNode = i;
    }
  const peakPerNode = hold.slice();
  const sent = new Float64Array(p),
    recv = new Float64Array(p);
  const touched = new Uint32Array(p); // each node is listed at most once per step
  const mark = new Int32Array(p).fill(-1);
  let witness: string | null = null;
  let bad = 0;
  const { src, dst, size, stepStart } = s; // locals for the loop over every transfer
  for (let st = 0; st < s.stepCount; st++) {
    let nt = 0;
    for (let x = stepStart[st]!; x < stepStart[st + 1]!; x++) {
      const a = src[x]!,
        b = dst[x]!,
        z = size[x]!;
      if (a === b) continue;
      if (mark[a] !== st) {
        mark[a] = st;
        sent[a] = 0;
        recv[a] = 0;
        touched[nt++] = a;
      }
      if (mark[b] !== st) {
        mark[b] = st;
        sent[b] = 0;
        recv[b] = 0;
        touched[nt++] = b;
      }
      sent[a] = sent[a]! + z;
      recv[b] = recv[b]! + z;
    }
    for (let k = 0; k < nt; k++) {
      const u = touched[k]!;
      if (sent[u]! > hold[u]!) {
        bad++;
        witness ??= `step ${st}: node ${u} sends ${sent[u]} elements but holds only ${hold[u]}`;
      }
      const h = (hold[u] = hold[u]! - sent[u]! + recv[u]!);
      if (h > peakPerNode[u]!) peakPerNode[u] = h;
      if (h > peak) {
        peak = h;
        peakNode = u;
      }
    }
  }
  for (let u = 0; u < p; u++) {
    if (hold[u] !== final[u]) {
      bad++;
      witness ??= `node ${u} ends with ${hold[u]} elements, its column (diagonal included) sums to ${final[u]}`;
    }
  }
  return {
    conservation: check(
      "sizes-add-up",
      "per node, sent <= held at each step and the final count equals its column sum",
      "docs/verifier.md, sizes-add-up (message level)",
      bad === 0,
      bad,
      0,
      witness,
    ),
    peakBuffer: peak,
    peakNode,
    peakPerNode,
  };
}
