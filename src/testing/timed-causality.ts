/** checkTimedCausality: in a realised payload schedule, no element leaves a relay before it has arrived there. */
import type { Schedule } from "../model/schedule.js";
import type { CheckFailure } from "./schedule-check.js";
import { checkScheduleArg } from "../model/schedule-check.js";

/** Earlier arrivals of one message's elements at one node: [offset, count, step, end] per chunk. */
type Arrivals = number[];

/**
 * For every chunk a node u sends that it did not originate, the elements must have reached u by a
 * transfer of an earlier step that ended no later than this transfer starts. Null when every relay
 * waits for its data (or the schedule has no payloads or no times).
 */
export function checkTimedCausality(s: Schedule): CheckFailure | null {
  checkScheduleArg("testing", s, "checkTimedCausality");
  const c = s.chunks,
    t = s.times;
  if (c === null || t === null) return null;
  const stepOf = new Uint32Array(s.transferCount);
  for (let st = 0; st < s.stepCount; st++) for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) stepOf[x] = st;
  const arrivals = new Map<string, Arrivals>();
  for (let x = 0; x < s.transferCount; x++) {
    for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
      const key = `${s.dst[x]}:${c.origin[k]}:${c.dest[k]}`;
      let a = arrivals.get(key);
      if (a === undefined) arrivals.set(key, (a = []));
      a.push(c.offset[k]!, c.count[k]!, stepOf[x]!, t.end[x]!);
    }
  }
  for (let x = 0; x < s.transferCount; x++) {
    const u = s.src[x]!;
    for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
      if (c.origin[k] === u) continue;
      const lo = c.offset[k]!,
        hi = lo + c.count[k]!;
      const a = arrivals.get(`${u}:${c.origin[k]}:${c.dest[k]}`) ?? [];
      for (let i = 0; i < a.length; i += 4) {
        const overlaps = a[i]! < hi && lo < a[i]! + a[i + 1]! && a[i + 2]! < stepOf[x]!;
        if (overlaps && a[i + 3]! > t.start[x]!)
          return {
            check: "timed-causality",
            title: "a relay forwards elements only after they have arrived (realised times)",
            witness: `transfer ${x} (${u} -> ${s.dst[x]}, step ${stepOf[x]}) starts at ${t.start[x]} us forwarding elements of message ${c.origin[k]} -> ${c.dest[k]} that arrive at node ${u} only at ${a[i + 3]} us`,
          };
      }
    }
  }
  return null;
}
