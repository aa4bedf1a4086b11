/** A four-stage plan made of the planner's own stage rules and emitters with one stage left out: its holders keep their elements for the next stage. */
import { matrixDigest, type CommMatrix } from "../../src/model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../src/model/schedule.js";
import {
  emitStage,
  fourStageRules,
  nodeArray,
  routeCounts,
  routePieces,
  type Pieces,
  type StageMessages,
} from "../../src/planner/four-stage/index.js";

/** The plan `plan(m, "four-stage", { payload })` would make, but stage `skip` (0..3) sends nothing. */
export function fourStageWithout(m: CommMatrix, skip: number, payload: boolean): Schedule {
  const { p } = m;
  const a = nodeArray(p);
  const b = new ScheduleBuilder(
    {
      p,
      algorithm: "four-stage",
      params: { arrived: "hold" },
      seed: null,
      elementBytes: m.elementBytes,
      matrixDigest: matrixDigest(m),
    },
    payload,
  );
  let counts: Float64Array = m.data.slice();
  for (let i = 0; i < p; i++) counts[i * p + i] = 0;
  let pieces: Pieces | null = null;
  if (payload) {
    const holder: number[] = [],
      dest: number[] = [],
      count: number[] = [];
    for (let k = 0; k < p * p; k++)
      if (counts[k]! > 0) {
        holder.push(Math.floor(k / p));
        dest.push(k % p);
        count.push(counts[k]!);
      }
    pieces = {
      holder: Uint32Array.from(holder),
      origin: Uint32Array.from(holder),
      dest: Uint32Array.from(dest),
      offset: new Float64Array(holder.length),
      count: Float64Array.from(count),
    };
  }
  fourStageRules(a).forEach((rule, k) => {
    let msgs: StageMessages = { buckets: rule.buckets, size: new Float64Array(p * rule.buckets) };
    if (k !== skip && pieces) ({ next: pieces, msgs } = routePieces(p, pieces, rule));
    else if (k !== skip) ({ next: counts, msgs } = routeCounts(p, counts, rule));
    emitStage(b, a, k, msgs, rule, "figure");
  });
  return b.build();
}
