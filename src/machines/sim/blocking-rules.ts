/**
 * The blocking mode's cost rules, shared by the replay engine and blockingMakespanBound: what a transfer takes, and
 * what a node composes for a stage.
 */
import type { MachineModel } from "../../model/machine.js";
import type { Schedule } from "../../model/schedule.js";

/**
 * Time of transfer x in blocking mode (004 sec 2.2): m t_m for a local copy, else
 * T_s + (m + envelope) tcd(a, b), with tcd the per-byte cost of the pair (copy plus network; on a
 * flow network the copy alone, the links adding theirs).
 */
export function blockingDuration(
  s: Schedule,
  machine: MachineModel,
  tcd: (a: number, b: number) => number,
): (x: number) => number {
  const { src, dst, size } = s;
  const eb = s.elementBytes;
  const { ts, tm } = machine;
  const env = machine.envelope ?? 0;
  return (x: number): number => {
    const a = src[x]!,
      b = dst[x]!;
    const bytes = size[x]! * eb;
    return a === b ? bytes * tm : ts + (bytes + env) * tcd(a, b);
  };
}

/**
 * Adds to `handled[v]` the bytes node v sends in transfers [first, last) (local copies included),
 * in transfer order, as cost-model.ts sums them: a rearranging stage composes for handled[v] t_m.
 */
export function addHandledBytes(s: Schedule, first: number, last: number, handled: Float64Array): void {
  const { src, size } = s;
  const eb = s.elementBytes;
  for (let x = first; x < last; x++) handled[src[x]!] = handled[src[x]!]! + size[x]! * eb;
}
