/**
 * transfersBySource: the transfers grouped by sending node (a CSR index), so per-pair sums need a row of P, not a P x P
 * table.
 */
import type { Schedule } from "../model/schedule.js";

/** Transfers grouped by source: those of node u are order[start[u] .. start[u + 1]), in schedule order. */
export interface BySource {
  readonly start: Uint32Array;
  readonly order: Uint32Array;
}

/** Groups the transfers by source (a stable counting sort); local copies (src == dst) only when `local`. O(P + T). */
export function transfersBySource(s: Schedule, local: boolean): BySource {
  const { p } = s;
  const T = s.transferCount;
  const start = new Uint32Array(p + 1);
  for (let x = 0; x < T; x++) if (local || s.src[x] !== s.dst[x]) start[s.src[x]! + 1]!++;
  for (let u = 0; u < p; u++) start[u + 1] = start[u + 1]! + start[u]!;
  const order = new Uint32Array(start[p]!);
  const at = start.slice(0, p);
  for (let x = 0; x < T; x++) if (local || s.src[x] !== s.dst[x]) order[at[s.src[x]!]!++] = x;
  return { start, order };
}
