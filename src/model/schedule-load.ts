/** The load a schedule puts on the nodes: messages of one node in one step and in all (auto, cost). */
import type { Schedule } from "./schedule.js";

/** What a plan asks of the nodes: most messages of one node in one step, most of one node in all, steps. */
export interface Load {
  readonly atOnce: number;
  readonly startups: number;
  readonly steps: number;
}

/** The load of a schedule (network messages only; O(transfers + P x steps touched)). */
export function scheduleLoad(s: Schedule): Load {
  const sent = new Uint32Array(s.p),
    got = new Uint32Array(s.p),
    stepSent = new Uint32Array(s.p),
    stepGot = new Uint32Array(s.p);
  let atOnce = 0;
  for (let st = 0; st < s.stepCount; st++) {
    const a = s.stepStart[st]!,
      b = s.stepStart[st + 1]!;
    for (let x = a; x < b; x++) {
      const u = s.src[x]!,
        v = s.dst[x]!;
      if (u === v) continue;
      sent[u]!++;
      got[v]!++;
      atOnce = Math.max(atOnce, ++stepSent[u]!, ++stepGot[v]!);
    }
    for (let x = a; x < b; x++) {
      stepSent[s.src[x]!] = 0;
      stepGot[s.dst[x]!] = 0;
    }
  }
  let startups = 0;
  for (let v = 0; v < s.p; v++) startups = Math.max(startups, sent[v]!, got[v]!);
  return { atOnce, startups, steps: s.stepCount };
}
