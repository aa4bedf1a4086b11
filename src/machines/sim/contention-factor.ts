/** The measured aggregate node-contention factor f_nc of 004 eqs 3-4. */
import type { Schedule } from "../../model/schedule.js";

/**
 * f_nc = max_v (D_v + W_v) / max_v D_v, where D_v is node v's network time (the larger of
 * sum over its sends and sum over its receives of bytes x t_d of the pair, so the fat tree's
 * per-pair rates count) and W_v its contention wait. 1 when nothing waited or nothing crossed the
 * network. `wait` has one entry per node.
 */
export function contentionFactor(s: Schedule, td: (a: number, b: number) => number, wait: Float64Array): number {
  const p = s.p,
    eb = s.elementBytes;
  let anyWait = false;
  for (let v = 0; v < p; v++) if (wait[v]! > 0) anyWait = true;
  if (!anyWait) return 1;
  const sent = new Float64Array(p),
    recv = new Float64Array(p);
  for (let x = 0; x < s.transferCount; x++) {
    const a = s.src[x]!,
      b = s.dst[x]!;
    if (a === b) continue;
    const t = s.size[x]! * eb * td(a, b);
    sent[a] = sent[a]! + t;
    recv[b] = recv[b]! + t;
  }
  let worst = 0,
    denom = 0;
  for (let v = 0; v < p; v++) {
    const d = Math.max(sent[v]!, recv[v]!);
    if (d > denom) denom = d;
    if (d + wait[v]! > worst) worst = d + wait[v]!;
  }
  return denom > 0 ? worst / denom : 1;
}
