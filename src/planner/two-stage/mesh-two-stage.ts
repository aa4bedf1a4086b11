/**
 * Mesh two-stage algorithm A3: along the rows to the intermediate in the destination's column, then along the columns
 * (004 sec 3.1.3; 002 sec 3.3), on any R x C grid.
 */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { planHeader } from "../plan-header.js";
import { refuseDenseWorkOnSparse } from "../plan-memory.js";
import { integer, output, type Resolved } from "../../model/param-spec.js";
import { definePlanner } from "../plan-params.js";
import { stepProgress } from "../plan-progress.js";
import type { MachineModel } from "../../model/machine.js";
import { tally } from "../flat-tally.js";
import type { FlatMode, Planner, PlanOptions } from "../types.js";
import { groupStage, variantStageSchedule } from "./group-stage-time.js";
import { roundPartner, SCHEDULE_PARAM, stageRounds, type StageSchedule } from "./rounds.js";

/** The parameters of mesh-two-stage: `schedule` and the grid's `rows` (its `columns` are written to the header). */
const MESH_PARAMS = {
  schedule: SCHEDULE_PARAM,
  rows: integer({
    description:
      "rows R of the R x C grid (R must divide P): stage 1 runs inside a row of C nodes, stage 2 inside a column of R nodes; on a cluster of nodes of g GPUs, R = P / g puts stage 1 on each node's fast links and stage 2 on the rails",
    min: 1,
    derived: "sqrt(P) when P is a perfect square, else the divisor of P nearest below sqrt(P)",
  }),
  columns: output("C = P / R, the nodes of a row"),
};

/** The default grid's rows: sqrt(P) for a perfect square, else the largest divisor of P below sqrt(P). */
export function defaultMeshRows(p: number): number {
  let r = Math.floor(Math.sqrt(p));
  while (r > 1 && p % r !== 0) r--;
  return Math.max(1, r);
}

/** The grid (rows R, columns C) for P and the requested rows; throws UNSUPPORTED when R does not divide P. */
export function meshGrid(p: number, rows: number | undefined): { rows: number; cols: number } {
  const r = rows ?? defaultMeshRows(p);
  if (p % r !== 0)
    throw fail("planner", "BAD_OPTION", `mesh-two-stage: rows = ${r} does not divide P = ${p}`, { field: "rows" });
  return { rows: r, cols: p / r };
}

/**
 * The elements of every message of both stages on the R x C grid: s1[u * C + c], what u sends the
 * node of its row in column c (M[u][(a2, c)] for all rows a2); s2[w * R + a2], what w = (a1, c)
 * sends (a2, c) (M[(a1, b1)][(a2, c)] for all columns b1). Shared with auto's predictor.
 */
export function meshStageVolumes(m: CommMatrix, R: number, C: number): { s1: Float64Array; s2: Float64Array } {
  const { p, data } = m;
  const s1 = new Float64Array(p * C);
  const s2 = new Float64Array(p * R);
  for (let o = 0; o < p; o++) {
    const a1 = Math.floor(o / C);
    for (let d = 0; d < p; d++) {
      const v = data[o * p + d]!;
      if (v === 0 || o === d) continue;
      const a2 = Math.floor(d / C),
        c = d % C;
      s1[o * C + c] = s1[o * C + c]! + v;
      const w = a1 * C + c;
      s2[w * R + a2] = s2[w * R + a2]! + v;
    }
  }
  return { s1, s2 };
}

/**
 * Node u = a C + b sits in row a, column b of the R x C grid (row-major, as 004 fig. 5, where
 * R = C = sqrt P). The element (o, d) travels o -> (row(o), col(d)) in stage 1 and on to d in stage
 * 2; messages are combined, never split, so each chunk is a whole M[o][d]. Progress: the steps, then the build.
 */
function plan(m: CommMatrix, opts: PlanOptions<Resolved<typeof MESH_PARAMS>>): Schedule {
  const schedule: StageSchedule = opts.params.schedule;
  // the dense copy and the stage volumes (P x C and P x R doubles)
  refuseDenseWorkOnSparse("mesh-two-stage", m, 8 * m.p * m.p + 32 * m.p * Math.ceil(Math.sqrt(m.p)));
  const { p, data } = m;
  const { rows: R, cols: C } = meshGrid(p, opts.params.rows);
  const { s1, s2 } = meshStageVolumes(m, R, C);
  const header = { ...planHeader(m, "mesh-two-stage", opts, false), params: { schedule, rows: R, columns: C } };
  const b = new ScheduleBuilder(header, opts.payload, p * Math.max(1, R + C - 2));
  const rounds1 = stageRounds(schedule, C),
    rounds2 = stageRounds(schedule, R);
  const [reached, built] = stepProgress(opts, rounds1.length + rounds2.length);
  let steps = 0;
  b.stage("1: along rows to the destination column", "compose");
  for (const round of rounds1) {
    reached(steps++);
    b.step();
    for (let u = 0; u < p; u++) {
      const a = Math.floor(u / C),
        col = u % C;
      const c = roundPartner(schedule, C, round, col);
      if (c < 0 || c === col) continue;
      const size = s1[u * C + c]!;
      if (size === 0) continue;
      b.transfer(u, a * C + c, size);
      if (!b.payload) continue;
      for (let a2 = 0; a2 < R; a2++) {
        const d = a2 * C + c,
          v = data[u * p + d]!;
        if (v > 0) b.chunk(u, d, 0, v);
      }
    }
    b.dropEmptyStep();
  }
  b.stage("2: along columns to the destination", "collect");
  for (const round of rounds2) {
    reached(steps++);
    b.step();
    for (let w = 0; w < p; w++) {
      const a1 = Math.floor(w / C),
        c = w % C;
      const a2 = roundPartner(schedule, R, round, a1);
      if (a2 < 0 || a2 === a1) continue;
      const size = s2[w * R + a2]!;
      if (size === 0) continue;
      const d = a2 * C + c;
      b.transfer(w, d, size);
      if (!b.payload) continue;
      for (let b1 = 0; b1 < C; b1++) {
        const o = a1 * C + b1,
          v = data[o * p + d]!;
        if (v > 0) b.chunk(o, d, 0, v);
      }
    }
    b.dropEmptyStep();
  }
  const s = b.build();
  built();
  return s;
}

/** Flat time of mesh-two-stage on its R x C grid (default rows when `rows` is undefined; R must divide P). */
export function predictMeshTwoStage(
  m: CommMatrix,
  machine: MachineModel,
  mode: FlatMode,
  schedule: StageSchedule,
  rows?: number,
): number {
  const { p } = m;
  const R = rows ?? defaultMeshRows(p),
    C = p / R;
  const { s1, s2 } = meshStageVolumes(m, R, C);
  const f = tally(m, machine, mode);
  groupStage(f, p, schedule, C, 1, s1);
  f.endStage(true);
  groupStage(f, p, schedule, R, C, s2);
  f.endStage(true);
  return f.total;
}

/** The mesh two-stage planner (A3 of 004): a sqrt(P) x sqrt(P) mesh, or any R x C grid (`rows`). */
export const meshTwoStage: Planner = definePlanner(
  {
    name: "mesh-two-stage",
    title: "A3: R x C grid (sqrt(P) x sqrt(P) by default), combine along rows then columns",
    source: "004 sec 3.1.3, Tables 3-4; 002 sec 3.3",
    params: MESH_PARAMS,
    traits: { relayed: true, randomised: false, stages: 2, growth: "superlinear", claims: "verifier" },
    auto: {
      // few transfers (about 2 P sqrt(P)): cheap to plan and replay, and the flat model misjudges it
      variants: [
        { params: { schedule: "shift" }, alwaysFinal: true, early: "first" },
        { params: { schedule: "linear-permutation" } },
      ],
      predict: (m, machine, mode, params) => predictMeshTwoStage(m, machine, mode, variantStageSchedule(params)),
    },
  },
  plan,
);
