/** Flat cost model: the analytic time of a Schedule (004 section 2, eqs 1-4 with f_nc = 1; 002 eq. 1 with f_nc = 1). */
import { checkMachine, stageBarrier } from "../model/machine.js";
import { fail } from "../model/errors.js";
import { describeValue } from "../model/option-checks.js";
import type { MachineModel } from "../model/machine.js";
import type { Schedule } from "../model/schedule.js";
import { checkSchedule } from "../model/schedule-check.js";

/** Blocking (lock-step, 004 eqs 1 and 3) or nonblocking (pipelined, 004 eqs 2 and 4) message passing. */
export type CostMode = "blocking" | "nonblocking";
/** Every CostMode value, in order. */
export const COST_MODES: readonly CostMode[] = Object.freeze(["blocking", "nonblocking"]);

/** The cost of one step (blocking mode only). */
export interface StepCost {
  /** Index of the step in the schedule's step columns. */
  readonly step: number;
  /** Number of the stage the step belongs to, 1-based (stage I is 1; `ScheduleCost.stages[stage - 1]`). */
  readonly stage: number;
  /** Time of the step (us): the slowest transfer in it. */
  readonly time: number;
  /** Longest network message of the step (elements); 0 when it has none. */
  readonly longest: number;
  /** Network messages (src != dst) in the step. */
  readonly messages: number;
}

/** The cost of one stage, split into its parts. */
export interface StageCost {
  /** Stage number, 1-based (stage I is 1), as `show --stage` and the verifier's ids count. */
  readonly stage: number;
  readonly name: string;
  /** machine.barrier: every stage, the first included; 0 at P = 1, where no node waits for another (us). */
  readonly barrier: number;
  /** Local rearrangement: t_m times the most bytes one node sends in the stage, local copies included (us). */
  readonly rearrange: number;
  /** Blocking: sum of step times; nonblocking: max over nodes of max(n_i T_s, b_i t_c, b_i t_d) (us). */
  readonly communication: number;
  /** barrier + rearrange + communication (us). */
  readonly time: number;
  /** Most network messages sent by one node in the stage. */
  readonly startups: number;
}

/** The analytic cost of a schedule on a machine. */
export interface ScheduleCost {
  readonly mode: CostMode;
  readonly machine: string;
  /** Sum of the stage times (us). */
  readonly total: number;
  readonly stages: readonly StageCost[];
  /** One entry per step in blocking mode; empty in nonblocking mode. */
  readonly steps: readonly StepCost[];
  /** Sum over stages of StageCost.startups. */
  readonly startups: number;
  /** Most network bytes (src != dst) sent by one node over the whole schedule. */
  readonly bytes: number;
}

/**
 * The flat-model cost of `s` on `machine` (docs/cost-model.md is the contract).
 * Linear in the schedule size: two typed-array passes over each stage's transfers.
 */
export function scheduleCost(s: Schedule, machine: MachineModel, mode: CostMode): ScheduleCost {
  checkMachine(machine, "machines");
  checkSchedule(s, "machines");
  if (mode !== "blocking" && mode !== "nonblocking") {
    // a string that is no mode is quoted as itself; a missing mode or another type is named as what it is
    const what =
      typeof mode === "string"
        ? `unknown cost mode '${mode}'`
        : `the cost mode must be a string, got ${describeValue(mode)}`;
    throw fail("machines", "BAD_OPTION", `${what}; known: ${COST_MODES.join(", ")}`, { field: "mode" });
  }
  const blocking = mode === "blocking";
  const tally = new StageTally(s, machine);
  const barrier = stageBarrier(machine, s.p); // none at P = 1: a single node has no one to synchronise with
  const stages: StageCost[] = [];
  const steps: StepCost[] = [];
  let total = 0;
  let startups = 0;
  for (let k = 0; k < s.stages.length; k++) {
    const st = s.stages[k]!;
    // Pass 1: step times (blocking) and per-node tallies.
    let communication = 0;
    for (let step = st.firstStep; step < st.firstStep + st.stepCount; step++) {
      const c = tally.step(step, k + 1);
      if (blocking) {
        steps.push(c);
        communication += c.time;
      }
    }
    const { maxHandled, maxSent, pipeline } = tally.close(st.firstStep, st.firstStep + st.stepCount, blocking);
    if (!blocking) communication = pipeline;
    const rearrange = st.rearrange === "none" ? 0 : maxHandled * machine.tm;
    const time = barrier + rearrange + communication;
    stages.push({
      stage: k + 1,
      name: st.name,
      barrier,
      rearrange,
      communication,
      time,
      startups: maxSent,
    });
    total += time;
    startups += maxSent;
  }
  return { mode, machine: machine.name, total, stages, steps, startups, bytes: tally.mostSent() };
}

/** Per-node tallies of the current stage; only entries of nodes the stage touches are non-zero. */
class StageTally {
  private readonly sentMsgs: Uint32Array;
  private readonly recvMsgs: Uint32Array;
  private readonly sentBytes: Float64Array;
  private readonly recvBytes: Float64Array;
  /** Bytes sent including local copies (rearrangement). */
  private readonly handled: Float64Array;
  /** Network bytes sent over the whole schedule. */
  private readonly sentTotal: Float64Array;

  constructor(
    private readonly s: Schedule,
    private readonly machine: MachineModel,
  ) {
    const p = s.p;
    this.sentMsgs = new Uint32Array(p);
    this.recvMsgs = new Uint32Array(p);
    this.sentBytes = new Float64Array(p);
    this.recvBytes = new Float64Array(p);
    this.handled = new Float64Array(p);
    this.sentTotal = new Float64Array(p);
  }

  /**
   * Tallies the transfers of `step` (of stage number `stage`, 1-based); returns its blocking cost (the slowest
   * transfer).
   */
  step(step: number, stage: number): StepCost {
    const { p, src, dst, size, stepStart } = this.s;
    const eb = this.s.elementBytes;
    const { ts, tc, td, tm } = this.machine;
    const tcd = tc + td;
    const env = this.machine.envelope ?? 0;
    let stepTime = 0;
    let longest = 0;
    let messages = 0;
    const end = stepStart[step + 1]!;
    for (let x = stepStart[step]!; x < end; x++) {
      const a = src[x]!;
      const b = dst[x]!;
      if (a >= p || b >= p)
        throw fail("machines", "BAD_INPUT", `transfer ${x} (${a} -> ${b}) names a node outside 0..${p - 1}`, {
          field: `transfers[${x}]`,
        });
      const elements = size[x]!;
      const bytes = elements * eb;
      this.handled[a] = this.handled[a]! + bytes;
      if (a === b) {
        const t = bytes * tm;
        if (t > stepTime) stepTime = t;
        continue;
      }
      this.sentMsgs[a] = this.sentMsgs[a]! + 1;
      this.recvMsgs[b] = this.recvMsgs[b]! + 1;
      this.sentBytes[a] = this.sentBytes[a]! + bytes + env;
      this.recvBytes[b] = this.recvBytes[b]! + bytes + env;
      this.sentTotal[a] = this.sentTotal[a]! + bytes;
      messages++;
      if (elements > longest) longest = elements;
      const t = ts + (bytes + env) * tcd;
      if (t > stepTime) stepTime = t;
    }
    return { step, stage, time: stepTime, longest, messages };
  }

  /**
   * The stage of steps [stepLo, stepHi) is tallied: its maxima over the nodes it touches (untouched
   * nodes contribute 0; `pipeline` only when not `blocking`), then its entries are cleared for the next stage.
   */
  close(stepLo: number, stepHi: number, blocking: boolean): { maxHandled: number; maxSent: number; pipeline: number } {
    const { src, dst, stepStart } = this.s;
    const { ts, tc, td } = this.machine;
    const first = stepStart[stepLo]!;
    const last = stepStart[stepHi]!;
    let maxHandled = 0;
    let maxSent = 0;
    let pipeline = 0;
    const visit = (v: number): void => {
      if (this.handled[v]! > maxHandled) maxHandled = this.handled[v]!;
      if (this.sentMsgs[v]! > maxSent) maxSent = this.sentMsgs[v]!;
      if (!blocking) {
        const n = Math.max(this.sentMsgs[v]!, this.recvMsgs[v]!);
        const b = Math.max(this.sentBytes[v]!, this.recvBytes[v]!);
        pipeline = Math.max(pipeline, n * ts, b * tc, b * td);
      }
    };
    for (let x = first; x < last; x++) {
      visit(src[x]!);
      visit(dst[x]!);
    }
    for (let x = first; x < last; x++) {
      this.clear(src[x]!);
      this.clear(dst[x]!);
    }
    return { maxHandled, maxSent, pipeline };
  }

  private clear(v: number): void {
    this.sentMsgs[v] = 0;
    this.recvMsgs[v] = 0;
    this.sentBytes[v] = 0;
    this.recvBytes[v] = 0;
    this.handled[v] = 0;
  }

  /** Most network bytes one node sent over the whole schedule. */
  mostSent(): number {
    let bytes = 0;
    for (let v = 0; v < this.s.p; v++) if (this.sentTotal[v]! > bytes) bytes = this.sentTotal[v]!;
    return bytes;
  }
}

/** 004 eq. (1), literally: T_block = P [T_s + m (t_c + t_m + t_d)] for an all-to-all of m-byte messages in P steps. */
export function flatFormulaBlocking(P: number, m: number, machine: MachineModel): number {
  return P * (machine.ts + m * (machine.tc + machine.tm + machine.td));
}

/** 004 eq. (2), literally: T_nonblock = P m t_m + P Max(T_s, m t_c, m t_d) for an all-to-all of m-byte messages. */
export function flatFormulaNonblocking(P: number, m: number, machine: MachineModel): number {
  return P * m * machine.tm + P * Math.max(machine.ts, m * machine.tc, m * machine.td);
}
