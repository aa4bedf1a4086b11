/**
 * relayPeak: the most relayed elements each rank holds at once (lowerSchedule's scratchPeak), from a payload plan's
 * chunks alone.
 */
import type { Schedule } from "../model/schedule.js";

/**
 * Per rank, the peak of simultaneously live relayed elements: what `lowerSchedule(m, s).scratchPeak`
 * gives for a valid payload plan, without following element ranges or building the program (O(P +
 * transfers + chunks)). A relayed element is live at a rank from the round it arrives there (not
 * its destination) to the round it leaves, both included (docs/lowering.md, scratch), so the live
 * count in round r is what arrived in rounds <= r less what left in rounds < r. A rank sends an
 * element it relays exactly when it is neither the element's origin nor its destination; that
 * fails once an element comes back to its origin as a relay (four-stage's local copies, some
 * total-exchange routes), where only the element tracking can tell its send buffer from its
 * scratch: then, and for a plan without chunks, null (lower the plan instead). The plan is taken as
 * valid (verified); an invalid one gives a number, where lowerSchedule refuses it.
 */
export function relayPeak(s: Schedule): Float64Array | null {
  const chunks = s.chunks;
  if (chunks === null) return null;
  const { p, src, dst, stepStart, stepCount } = s;
  const { origin, dest, count, start } = chunks;
  const live = new Float64Array(p),
    peak = new Float64Array(p),
    arrived = new Float64Array(p),
    left = new Float64Array(p);
  const touched = new Uint32Array(p),
    mark = new Int32Array(p).fill(-1);
  for (let st = 0; st < stepCount; st++) {
    let nt = 0;
    for (let x = stepStart[st]!; x < stepStart[st + 1]!; x++) {
      const u = src[x]!,
        v = dst[x]!;
      for (let c = start[x]!; c < start[x + 1]!; c++) {
        const o = origin[c]!,
          d = dest[c]!,
          n = count[c]!;
        if (v !== d) {
          if (v === o) return null;
          arrived[v] = arrived[v]! + n;
          if (mark[v] !== st) {
            mark[v] = st;
            touched[nt++] = v;
          }
        }
        if (u !== o && u !== d) {
          left[u] = left[u]! + n;
          if (mark[u] !== st) {
            mark[u] = st;
            touched[nt++] = u;
          }
        }
      }
    }
    for (let i = 0; i < nt; i++) {
      const w = touched[i]!;
      live[w] = live[w]! + arrived[w]!;
      if (live[w]! > peak[w]!) peak[w] = live[w]!;
      live[w] = live[w]! - left[w]!;
      arrived[w] = 0;
      left[w] = 0;
    }
  }
  return peak;
}
