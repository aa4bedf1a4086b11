/** One stage of rounds inside groups of n members priced by a FlatTally (two-stage, mesh-two-stage predictions). */
import { FlatTally } from "../flat-tally.js";
import { roundPartner as roundPartnerImported, stageRounds, type StageSchedule } from "./rounds.js";

// a local binding for the hot loop (a re-exported binding may be a getter under a loader)
const roundPartner = roundPartnerImported;

/**
 * One stage of rounds inside groups of n members: member x = floor(u / stride) mod n of node u's
 * group sends to member roundPartner(x), node u + (partner - x) stride, the message sizes[u n + partner].
 */
export function groupStage(
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

/** The stage schedule of an auto variant's params: linear-permutation when asked for, else shift (the default). */
export function variantStageSchedule(params: { readonly [k: string]: unknown }): StageSchedule {
  return params.schedule === "linear-permutation" ? "linear-permutation" : "shift";
}
