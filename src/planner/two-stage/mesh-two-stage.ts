/** Mesh two-stage algorithm A3: along the rows to the intermediate in the destination's column, then along the columns (004 sec 3.1.3; 002 sec 3.3). */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { planHeader } from "../plan-header.js";
import type { Resolved } from "../../model/param-spec.js";
import { definePlanner } from "../plan-params.js";
import type { Planner, PlanOptions } from "../types.js";
import { roundPartner, SCHEDULE_PARAM, stageRounds, type StageSchedule } from "./rounds.js";

/** The parameters of mesh-two-stage: only `schedule`. */
const MESH_PARAMS = { schedule: SCHEDULE_PARAM };

/** The integer square root of p when p is a perfect square; otherwise throws UNSUPPORTED naming the nearest squares. */
export function meshSide(p: number): number {
  let q = Math.floor(Math.sqrt(p));
  while (q * q > p) q--;
  while ((q + 1) * (q + 1) <= p) q++;
  if (q * q !== p) {
    throw fail(
      "planner",
      "UNSUPPORTED",
      `mesh-two-stage needs P a perfect square; P = ${p} lies between ${q * q} and ${(q + 1) * (q + 1)} (use four-stage for any P)`,
      { field: "p" },
    );
  }
  return q;
}

/**
 * Node u = a q + b sits in row a, column b of the q x q mesh (row-major, as 004 fig. 5). The
 * element (o, d) travels o -> (row(o), col(d)) in stage 1 and on to d in stage 2; messages are
 * combined, never split, so each chunk is a whole M[o][d].
 */
function plan(m: CommMatrix, opts: PlanOptions<Resolved<typeof MESH_PARAMS>>): Schedule {
  const schedule: StageSchedule = opts.params.schedule;
  const { p, data } = m;
  const q = meshSide(p);
  // stage 1: u -> (row u, column c) carries M[u][(a2, c)] for all rows a2
  const s1 = new Float64Array(p * q);
  // stage 2: w = (a1, c) -> (a2, c) carries M[(a1, b1)][(a2, c)] for all columns b1
  const s2 = new Float64Array(p * q);
  for (let o = 0; o < p; o++) {
    const a1 = Math.floor(o / q);
    for (let d = 0; d < p; d++) {
      const v = data[o * p + d]!;
      if (v === 0 || o === d) continue;
      const a2 = Math.floor(d / q),
        c = d % q;
      s1[o * q + c] = s1[o * q + c]! + v;
      const w = a1 * q + c;
      s2[w * q + a2] = s2[w * q + a2]! + v;
    }
  }
  const header = { ...planHeader(m, "mesh-two-stage", opts, false), params: { schedule } };
  const b = new ScheduleBuilder(header, opts.payload, 2 * p * Math.max(1, q - 1));
  const rounds = stageRounds(schedule, q);
  b.stage("1: along rows to the destination column", "compose");
  for (const round of rounds) {
    b.step();
    for (let u = 0; u < p; u++) {
      const a = Math.floor(u / q),
        col = u % q;
      const c = roundPartner(schedule, q, round, col);
      if (c < 0 || c === col) continue;
      const size = s1[u * q + c]!;
      if (size === 0) continue;
      b.transfer(u, a * q + c, size);
      if (!b.payload) continue;
      for (let a2 = 0; a2 < q; a2++) {
        const d = a2 * q + c,
          v = data[u * p + d]!;
        if (v > 0) b.chunk(u, d, 0, v);
      }
    }
    b.dropEmptyStep();
  }
  b.stage("2: along columns to the destination", "collect");
  for (const round of rounds) {
    b.step();
    for (let w = 0; w < p; w++) {
      const a1 = Math.floor(w / q),
        c = w % q;
      const a2 = roundPartner(schedule, q, round, a1);
      if (a2 < 0 || a2 === a1) continue;
      const size = s2[w * q + a2]!;
      if (size === 0) continue;
      const d = a2 * q + c;
      b.transfer(w, d, size);
      if (!b.payload) continue;
      for (let b1 = 0; b1 < q; b1++) {
        const o = a1 * q + b1,
          v = data[o * p + d]!;
        if (v > 0) b.chunk(o, d, 0, v);
      }
    }
    b.dropEmptyStep();
  }
  return b.build();
}

/** The mesh two-stage planner (A3 of 004; P a perfect square). */
export const meshTwoStage: Planner = definePlanner(
  {
    name: "mesh-two-stage",
    title: "A3: sqrt(P) x sqrt(P) mesh, combine along rows then columns (P a perfect square)",
    source: "004 sec 3.1.3, Tables 3-4; 002 sec 3.3",
    params: MESH_PARAMS,
  },
  plan,
);
