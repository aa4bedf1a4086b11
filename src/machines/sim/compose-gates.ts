/**
 * ComposeGates: the stage composes of a blocking run without stage barriers (stageBarriers false), each node composing
 * when it reaches the stage.
 */
import type { MachineModel } from "../../model/machine.js";
import { stepOfTransfer, type Schedule } from "../../model/schedule.js";

/**
 * Without stage barriers a node composes for a rearranging stage when it is about to issue its first
 * transfer of that stage and the send rule lets it (it has received everything of earlier steps):
 * for t_m times the bytes it sends in the stage, local copies included (what stage-driver.ts charges
 * every node after the barrier). While composing it neither sends nor receives, as after a barrier.
 */
export class ComposeGates {
  /** The stage of each transfer. */
  readonly stageOf: Int32Array;
  /** Compose time (us) of node v in stage k at k * p + v (0 where the stage does not rearrange). */
  readonly cost: Float64Array;
  /** The stage each node is in (ReplayDriver.run starts every node in stage 0). */
  readonly at: Int32Array;

  private constructor(s: Schedule, tm: number) {
    const { p, src, size, stages } = s;
    const eb = s.elementBytes;
    const step = stepOfTransfer(s);
    const stageOfStep = new Int32Array(s.stepCount);
    stages.forEach((st, k) => stageOfStep.fill(k, st.firstStep, st.firstStep + st.stepCount));
    this.stageOf = new Int32Array(s.transferCount);
    this.cost = new Float64Array(stages.length * p);
    for (let x = 0; x < s.transferCount; x++) {
      const k = stageOfStep[step[x]!]!;
      this.stageOf[x] = k;
      if (stages[k]!.rearrange !== "none") this.cost[k * p + src[x]!] = this.cost[k * p + src[x]!]! + size[x]! * eb;
    }
    for (let i = 0; i < this.cost.length; i++) this.cost[i] = this.cost[i]! * tm;
    this.at = new Int32Array(p);
  }

  /** The gates of `s` on `machine`, or null when no stage composes at a cost (nothing to gate). */
  static of(s: Schedule, machine: MachineModel): ComposeGates | null {
    if (machine.tm === 0 || s.stages.every((st) => st.rearrange === "none")) return null;
    return new ComposeGates(s, machine.tm);
  }
}
