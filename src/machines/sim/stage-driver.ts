/** The stage loop both replays share: barrier, compose (t_m per byte handled), then the steps, lock-step or not. */
import type { MachineModel } from "../../model/machine.js";
import type { Schedule } from "../../model/schedule.js";
import type { NodeAccounts } from "./node-accounts.js";
import { K, NONE, type TimelineRecorder } from "./timeline.js";
import { addHandledBytes } from "./blocking-rules.js";

/** What a replay engine plugs into the stage loop. */
export interface StageEngine {
  /** Sets the absolute time of the stage-local clock's zero. */
  setBase(t: number): void;
  /**
   * Runs the transfers of steps [stepLo, stepHi) from local time t0; nodes start at t0 + ready[v] when `useReady`;
   * returns the last end.
   */
  runRange(stepLo: number, stepHi: number, t0: number, useReady: boolean): number;
  /** Runs one lock-step step from local time t0 (default: runRange(step, step + 1, t0, false)). */
  runStep?(step: number, t0: number): number;
}

/**
 * Drives the stages of `s`: per stage a barrier (machine.barrier), then `ready[v]` = the compose time
 * of node v (t_m times the bytes it sends in the stage, when the stage rearranges, summed in
 * transfer order exactly as cost-model.ts does), then the steps. With `lockstep` every node waits
 * for the slowest composer and the steps run between free barriers; stalls of the schedule count
 * as stalled time for their step. Returns the makespan (the sum of the stage durations).
 */
export function driveStages(
  s: Schedule,
  machine: MachineModel,
  lockstep: boolean,
  acc: NodeAccounts,
  tl: TimelineRecorder,
  ready: Float64Array,
  engine: StageEngine,
): number {
  const { p, src, stepStart } = s;
  const tm = machine.tm;
  const handled = new Float64Array(p);
  const runStep = engine.runStep ?? ((step: number, t0: number) => engine.runRange(step, step + 1, t0, false));
  let makespan = 0;
  for (const st of s.stages) {
    const first = stepStart[st.firstStep]!;
    const last = stepStart[st.firstStep + st.stepCount]!;
    addHandledBytes(s, first, last, handled);
    let maxHandled = 0;
    for (let v = 0; v < p; v++) if (handled[v]! > maxHandled) maxHandled = handled[v]!;
    const rearrange = st.rearrange === "none" ? 0 : maxHandled * tm;
    for (let v = 0; v < p; v++) {
      tl.add(v, K.barrier, makespan, makespan + machine.barrier, NONE, 0, NONE);
      ready[v] = st.rearrange === "none" ? 0 : handled[v]! * tm;
    }
    let duration: number;
    if (lockstep) {
      const composeAt = makespan + machine.barrier;
      for (let v = 0; v < p; v++) {
        if (ready[v]! > 0) {
          acc.busy[v] = acc.busy[v]! + ready[v]!;
          tl.add(v, K.compose, composeAt, composeAt + ready[v]!, NONE, 0, NONE);
        }
      }
      const base = makespan + (machine.barrier + rearrange);
      engine.setBase(base);
      let c = 0;
      for (let step = st.firstStep; step < st.firstStep + st.stepCount; step++) {
        const end = runStep(step, c);
        for (let q = s.stallStart[step]!; q < s.stallStart[step + 1]!; q++) {
          const v = s.stallNode[q]!;
          acc.stalled[v] = acc.stalled[v]! + (end - c);
          tl.add(v, K.stall, base + c, base + end, NONE, 0, NONE);
        }
        c = end;
      }
      duration = machine.barrier + rearrange + c;
    } else {
      engine.setBase(makespan + machine.barrier);
      duration = machine.barrier + engine.runRange(st.firstStep, st.firstStep + st.stepCount, 0, true);
    }
    for (let x = first; x < last; x++) handled[src[x]!] = 0;
    makespan += duration;
  }
  return makespan;
}
