/**
 * trafficLowerBound: a simple lower bound on the modelled time of any schedule of a matrix (the kit's own, from the
 * traffic alone).
 */
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";

/**
 * A lower bound (us) on the flat-model cost (src/machines/cost-model.ts, blocking or nonblocking) of
 * every schedule of `m` whose steps keep node contention: each element of row i leaves node i over
 * the network at least once, one of at most `ports` messages at a time, at t_d per byte; and a
 * schedule with traffic has a stage, which costs a barrier. So the bound is barrier + max over i of
 * (off-diagonal elements of row i) x elementBytes x t_d / ports, and 0 for a matrix without
 * off-diagonal traffic. (Deliberately simple: start-ups, copies and receives are left out.)
 */
export function trafficLowerBound(m: CommMatrix, machine: MachineModel): number {
  const { p, data } = m;
  let most = 0;
  for (let i = 0; i < p; i++) {
    let row = 0;
    for (let j = 0; j < p; j++) if (j !== i) row += data[i * p + j]!;
    if (row > most) most = row;
  }
  if (most === 0) return 0;
  return machine.barrier + (most * m.elementBytes * machine.td) / Math.max(1, machine.ports);
}
