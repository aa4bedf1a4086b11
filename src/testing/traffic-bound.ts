/**
 * trafficLowerBound: a simple lower bound on the modelled time of any schedule of a matrix (the kit's own, from the
 * traffic alone).
 */
import { fail } from "../model/errors.js";
import { matrixRows, type CommMatrix } from "../model/matrix.js";
import { machineProblem, type MachineModel } from "../model/machine.js";
import { findMachine } from "../machines/presets.js";
import { checkMatrixArg } from "../model/matrix.js";

/**
 * The machine a kit function was given: a preset by name (`commplan machines`; an unknown name is refused naming the
 * known ones) or a MachineModel, checked (a one-line error of `fn`'s machine argument).
 */
export function kitMachine(machine: MachineModel | string, fn: string): MachineModel {
  if (typeof machine === "string") return findMachine(machine);
  const problem = machineProblem(machine);
  if (problem !== null)
    throw fail("testing", "BAD_OPTION", `${fn}: machine must be a MachineModel or a preset name: ${problem}`, {
      field: "machine",
    });
  return machine;
}

/** The largest off-diagonal row sum of m, over its non-zero entries (matrixRows: no dense copy, O(P + E)). */
function largestOffDiagonalRow(m: CommMatrix): number {
  const { rowStart, col, val } = matrixRows(m);
  let most = 0;
  for (let i = 0; i < m.p; i++) {
    let row = 0;
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) if (col[k] !== i) row += val[k]!;
    if (row > most) most = row;
  }
  return most;
}

/**
 * A lower bound (us) on the flat-model cost (src/machines/cost-model.ts, blocking or nonblocking) of
 * every schedule of `m` whose steps keep node contention: each element of row i leaves node i over
 * the network at least once, one of at most `ports` messages at a time, at t_d per byte; and a
 * schedule with traffic has a stage, which costs a barrier. So the bound is barrier + max over i of
 * (off-diagonal elements of row i) x elementBytes x t_d / ports, and 0 for a matrix without
 * off-diagonal traffic. (Deliberately simple: start-ups, copies and receives are left out.) `machine` is a
 * MachineModel or the name of a preset, as in the kit's time bound.
 */
export function trafficLowerBound(m: CommMatrix, machine: MachineModel | string): number {
  checkMatrixArg("testing", m, "trafficLowerBound");
  const model = kitMachine(machine, "trafficLowerBound");
  const most = largestOffDiagonalRow(m);
  if (most === 0) return 0;
  return model.barrier + (most * m.elementBytes * model.td) / Math.max(1, model.ports);
}
