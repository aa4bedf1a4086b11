/**
 * FlatTally: the flat cost model's time of a plan fed transfer by transfer, without building it (the planners'
 * predictions, docs/cost-model.md).
 */
import { matrixRows, type CommMatrix } from "../model/matrix.js";
import { stageBarrier, type MachineModel } from "../model/machine.js";
import { messagesByStep } from "./by-step.js";
import type { FlatMode } from "./types.js";

/**
 * Prices stages the way scheduleCost does (docs/cost-model.md) from the transfers a planner would
 * emit, fed one by one: per-step maxima (blocking) or per-node tallies (nonblocking), and the
 * per-node bytes of the rearrangement. Local copies are never fed (none of the priced planners makes one).
 */
export class FlatTally {
  private readonly sentN: Uint32Array;
  private readonly recvN: Uint32Array;
  private readonly sentB: Float64Array;
  private readonly recvB: Float64Array;
  private readonly handled: Float64Array;
  private readonly eb: number;
  private readonly env: number;
  private readonly ts: number;
  private readonly tcd: number;
  private stepMax = 0;
  private communication = 0;
  /** Sum of the stage times so far (us). */
  total = 0;

  constructor(
    private readonly p: number,
    elementBytes: number,
    private readonly machine: MachineModel,
    private readonly blocking: boolean,
  ) {
    this.sentN = new Uint32Array(p);
    this.recvN = new Uint32Array(p);
    this.sentB = new Float64Array(p);
    this.recvB = new Float64Array(p);
    this.handled = new Float64Array(p);
    this.eb = elementBytes;
    this.env = machine.envelope ?? 0;
    this.ts = machine.ts;
    this.tcd = machine.tc + machine.td;
  }

  /** Ends the current step (blocking: adds its slowest transfer). */
  step(): void {
    this.communication += this.stepMax;
    this.stepMax = 0;
  }

  /** A network message of `elements` (> 0) elements from a to b (a != b) in the current step. */
  send(a: number, b: number, elements: number): void {
    const bytes = elements * this.eb;
    this.handled[a] = this.handled[a]! + bytes;
    if (this.blocking) {
      const t = this.ts + (bytes + this.env) * this.tcd;
      if (t > this.stepMax) this.stepMax = t;
      return;
    }
    this.sentN[a] = this.sentN[a]! + 1;
    this.recvN[b] = this.recvN[b]! + 1;
    this.sentB[a] = this.sentB[a]! + bytes + this.env;
    this.recvB[b] = this.recvB[b]! + bytes + this.env;
  }

  /** Ends the stage (its last step must have been ended): adds barrier + rearrangement + communication to `total`. */
  endStage(rearrange: boolean): void {
    const { ts, tc, td, tm } = this.machine;
    let maxHandled = 0,
      pipeline = 0;
    for (let v = 0; v < this.p; v++) {
      if (this.handled[v]! > maxHandled) maxHandled = this.handled[v]!;
      if (!this.blocking) {
        const n = Math.max(this.sentN[v]!, this.recvN[v]!);
        const b = Math.max(this.sentB[v]!, this.recvB[v]!);
        pipeline = Math.max(pipeline, n * ts, b * tc, b * td);
      }
    }
    const communication = this.blocking ? this.communication : pipeline;
    this.total += stageBarrier(this.machine, this.p) + (rearrange ? maxHandled * tm : 0) + communication;
    this.communication = 0;
    this.stepMax = 0;
    for (const a of [this.sentN, this.recvN]) a.fill(0);
    for (const a of [this.sentB, this.recvB, this.handled]) a.fill(0);
  }
}

/** A FlatTally for m on machine in the given mode. */
export function tally(m: CommMatrix, machine: MachineModel, mode: FlatMode): FlatTally {
  return new FlatTally(m.p, m.elementBytes, machine, mode === "blocking");
}

/**
 * Feeds f the network messages of a sparse matrix step by step (messagesByStep: O(P + E + steps)); empty steps cost
 * nothing, as in the planners, which drop them.
 */
export function feedByStep(m: CommMatrix, f: FlatTally, steps: number, stepOf: (i: number, j: number) => number): void {
  const { col, val } = matrixRows(m);
  const { start, src, at } = messagesByStep(m, steps, stepOf);
  for (let s = 0; s < steps; s++) {
    if (start[s] === start[s + 1]) continue;
    for (let x = start[s]!; x < start[s + 1]!; x++) f.send(src[x]!, col[at[x]!]!, val[at[x]!]!);
    f.step();
  }
}
