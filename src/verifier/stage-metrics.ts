/** Stage metrics: messages per node per stage and longest message per stage (004 Lemmas 1 and 3, Table 2). */
import type { Schedule } from "../model/schedule.js";

/** Per-stage maxima of a schedule (network messages only: src != dst). */
export interface StageMetrics {
  readonly name: string;
  readonly steps: number;
  /** Max messages one node sends in the stage. */
  readonly maxSent: number;
  /** Max messages one node receives in the stage. */
  readonly maxReceived: number;
  /** Longest network message (elements). */
  readonly longest: number;
  /** Node and step of the first maxima, for witnesses. */
  readonly maxSentNode: number;
  readonly maxReceivedNode: number;
}

/** Computes the per-stage maxima in one pass. */
export function stageMetrics(s: Schedule): StageMetrics[] {
  const { p } = s;
  const sent = new Uint32Array(p),
    recv = new Uint32Array(p);
  return s.stages.map((stage) => {
    sent.fill(0);
    recv.fill(0);
    let longest = 0;
    const a0 = s.stepStart[stage.firstStep]!,
      b0 = s.stepStart[stage.firstStep + stage.stepCount]!;
    const { src, dst, size } = s; // locals: the loop reads them 3 T times
    for (let x = a0; x < b0; x++) {
      const a = src[x]!,
        b = dst[x]!;
      if (a === b) continue;
      sent[a]!++;
      recv[b]!++;
      if (size[x]! > longest) longest = size[x]!;
    }
    let maxSent = 0,
      maxReceived = 0,
      maxSentNode = 0,
      maxReceivedNode = 0;
    for (let u = 0; u < p; u++) {
      if (sent[u]! > maxSent) {
        maxSent = sent[u]!;
        maxSentNode = u;
      }
      if (recv[u]! > maxReceived) {
        maxReceived = recv[u]!;
        maxReceivedNode = u;
      }
    }
    return { name: stage.name, steps: stage.stepCount, maxSent, maxReceived, longest, maxSentNode, maxReceivedNode };
  });
}
