/** Flat cost model: the analytic time of a Schedule (004 section 2, eqs 1-4 with f_nc = 1; 002 eq. 1 with f_nc = 1). */
import { fail } from "../model/errors.js";
import type { MachineModel } from "../model/machine.js";
import type { Schedule } from "../model/schedule.js";

/** Blocking (lock-step, 004 eqs 1 and 3) or nonblocking (pipelined, 004 eqs 2 and 4) message passing. */
export type CostMode = "blocking" | "nonblocking";
/** Every CostMode value, in order. */
export const COST_MODES: readonly CostMode[] = ["blocking", "nonblocking"];

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
  /** machine.barrier: every stage, the first included (us). */
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
  if (mode !== "blocking" && mode !== "nonblocking") {
    throw fail("machines", "BAD_OPTION", `unknown cost mode '${String(mode)}'; known: ${COST_MODES.join(", ")}`, { field: "mode" });
  }
  const blocking = mode === "blocking";
  const p = s.p;
  const eb = s.elementBytes;
  const { ts, tc, td, tm } = machine;
  const tcd = tc + td;
  const { src, dst, size, stepStart } = s;

  // Per-node tallies of the current stage; only entries of nodes the stage touches are non-zero.
  const sentMsgs = new Uint32Array(p);
  const recvMsgs = new Uint32Array(p);
  const sentBytes = new Float64Array(p);
  const recvBytes = new Float64Array(p);
  const handled = new Float64Array(p); // bytes sent including local copies (rearrangement)
  const sentTotal = new Float64Array(p); // network bytes sent over the whole schedule

  let maxHandled = 0;
  let maxSent = 0;
  let pipeline = 0;
  const visit = (v: number): void => {
    if (handled[v]! > maxHandled) maxHandled = handled[v]!;
    if (sentMsgs[v]! > maxSent) maxSent = sentMsgs[v]!;
    if (!blocking) {
      const n = Math.max(sentMsgs[v]!, recvMsgs[v]!);
      const b = Math.max(sentBytes[v]!, recvBytes[v]!);
      pipeline = Math.max(pipeline, n * ts, b * tc, b * td);
    }
  };
  const clear = (v: number): void => {
    sentMsgs[v] = 0;
    recvMsgs[v] = 0;
    sentBytes[v] = 0;
    recvBytes[v] = 0;
    handled[v] = 0;
  };

  const stages: StageCost[] = [];
  const steps: StepCost[] = [];
  let total = 0;
  let startups = 0;

  for (let k = 0; k < s.stages.length; k++) {
    const st = s.stages[k]!;
    const first = stepStart[st.firstStep]!;
    const last = stepStart[st.firstStep + st.stepCount]!;

    // Pass 1: step times (blocking) and per-node tallies.
    let communication = 0;
    for (let step = st.firstStep; step < st.firstStep + st.stepCount; step++) {
      let stepTime = 0;
      let longest = 0;
      let messages = 0;
      const end = stepStart[step + 1]!;
      for (let x = stepStart[step]!; x < end; x++) {
        const a = src[x]!;
        const b = dst[x]!;
        if (a >= p || b >= p) throw fail("machines", "BAD_INPUT", `transfer ${x} (${a} -> ${b}) names a node outside 0..${p - 1}`, { field: `transfers[${x}]` });
        const elements = size[x]!;
        const bytes = elements * eb;
        handled[a] = handled[a]! + bytes;
        if (a === b) {
          const t = bytes * tm;
          if (t > stepTime) stepTime = t;
          continue;
        }
        sentMsgs[a] = sentMsgs[a]! + 1;
        recvMsgs[b] = recvMsgs[b]! + 1;
        sentBytes[a] = sentBytes[a]! + bytes;
        recvBytes[b] = recvBytes[b]! + bytes;
        sentTotal[a] = sentTotal[a]! + bytes;
        messages++;
        if (elements > longest) longest = elements;
        const t = ts + bytes * tcd;
        if (t > stepTime) stepTime = t;
      }
      if (blocking) {
        steps.push({ step, stage: k + 1, time: stepTime, longest, messages });
        communication += stepTime;
      }
    }

    // Pass 2: maxima over the nodes the stage touches (untouched nodes contribute 0).
    maxHandled = 0;
    maxSent = 0;
    pipeline = 0;
    for (let x = first; x < last; x++) {
      visit(src[x]!);
      visit(dst[x]!);
    }
    // Pass 3: reset the touched entries for the next stage.
    for (let x = first; x < last; x++) {
      clear(src[x]!);
      clear(dst[x]!);
    }

    if (!blocking) communication = pipeline;
    const rearrange = st.rearrange === "none" ? 0 : maxHandled * tm;
    const time = machine.barrier + rearrange + communication;
    stages.push({ stage: k + 1, name: st.name, barrier: machine.barrier, rearrange, communication, time, startups: maxSent });
    total += time;
    startups += maxSent;
  }

  let bytes = 0;
  for (let v = 0; v < p; v++) if (sentTotal[v]! > bytes) bytes = sentTotal[v]!;
  return { mode, machine: machine.name, total, stages, steps, startups, bytes };
}

/** 004 eq. (1), literally: T_block = P [T_s + m (t_c + t_m + t_d)] for an all-to-all of m-byte messages in P steps. */
export function flatFormulaBlocking(P: number, m: number, machine: MachineModel): number {
  return P * (machine.ts + m * (machine.tc + machine.tm + machine.td));
}

/** 004 eq. (2), literally: T_nonblock = P m t_m + P Max(T_s, m t_c, m t_d) for an all-to-all of m-byte messages. */
export function flatFormulaNonblocking(P: number, m: number, machine: MachineModel): number {
  return P * m * machine.tm + P * Math.max(machine.ts, m * machine.tc, m * machine.td);
}
