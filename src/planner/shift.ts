/** Shift schedule (A1): in step k node i sends to (i + k) mod P (004 sec 3.1.1; 002 sec 3.1). */
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import { feedByStep, tally } from "./flat-tally.js";
import { ScheduleBuilder } from "../model/schedule.js";
import { countMessages, planHeader, sendByStep, sendSize } from "./plan-header.js";
import { definePlanner } from "./plan-params.js";
import { stepProgress } from "./plan-progress.js";
import type { FlatMode, Planner, PlanOptions } from "./types.js";

/** Progress: the steps emitted, then the build (a sparse matrix's plan, O(P + E), reports only its end). */
function plan(m: CommMatrix, opts: PlanOptions): ReturnType<Planner["plan"]> {
  const { p } = m;
  const [reached, built] = stepProgress(opts, Math.max(0, p - 1));
  const b = new ScheduleBuilder(planHeader(m, "shift", opts, false), opts.payload, countMessages(m));
  b.stage("shift", "compose");
  // sparse: step k - 1 carries the pairs at offset k, only the non-empty ones (the same plan)
  if (m.sparse) sendByStep(b, m, p - 1, (i, j) => ((j - i + p) % p) - 1);
  else {
    const data = m.data;
    for (let k = 1; k < p; k++) {
      reached(k - 1);
      b.step();
      for (let i = 0, j = k; i < p; i++, j = j + 1 === p ? 0 : j + 1) sendSize(b, i, j, data[i * p + j]!);
      b.dropEmptyStep();
    }
  }
  const s = b.build();
  built();
  return s;
}

/** Flat time of the shift planner: step k pairs i with (i + k) mod P. */
export function predictShift(m: CommMatrix, machine: MachineModel, mode: FlatMode): number {
  const p = m.p;
  const f = tally(m, machine, mode);
  if (m.sparse) {
    feedByStep(m, f, p, (i, j) => (j - i + p) % p);
    f.endStage(true);
    return f.total;
  }
  const data = m.data;
  for (let k = 1; k < p; k++) {
    for (let i = 0, j = k; i < p; i++, j = j + 1 === p ? 0 : j + 1) {
      const v = data[i * p + j]!;
      if (v !== 0) f.send(i, j, v);
    }
    f.step();
  }
  f.endStage(true);
  return f.total;
}

/** The shift planner (A1). */
export const shift: Planner = definePlanner(
  {
    name: "shift",
    title: "A1: in step k every node i sends to (i + k) mod P",
    source: "004 sec 3.1.1; 002 sec 3.1",
    params: {},
    traits: { relayed: false, randomised: false, stages: 1, growth: "linear", claims: "verifier" },
    auto: {
      // the one-port ring: always simulated, and the reason's baseline (MPI_Alltoallv's default has auto's answer)
      variants: [{ params: {}, priority: -1, alwaysFinal: true, early: "exact", baseline: true }],
      predict: (m, machine, mode) => predictShift(m, machine, mode),
      bound: "busiest-node",
    },
  },
  plan,
);
