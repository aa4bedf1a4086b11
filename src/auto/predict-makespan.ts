/**
 * The one place auto predicts a finalist's time: today the simulated machine (src/machines/sim); a model of today's
 * networks replaying lowered programs as SMPI runs them can take its place here without touching the rest of auto.
 */
import type { MachineModel } from "../model/machine.js";
import type { Schedule } from "../model/schedule.js";
import { simulateSchedule, type SimMode } from "../machines/sim/index.js";
import type { networkOptions } from "../machines/sim/network-options.js";

/** How a finalist is run. */
export interface MakespanRequest {
  /** auto's mode (the lowered program's variant). */
  readonly mode: SimMode;
  readonly seed: number;
  /** Send and receive ports per node on the simulated machine; default the machine's. */
  readonly ports?: number;
  /** The network and its port sharing, when auto has one. */
  readonly simNet: ReturnType<typeof networkOptions>;
  /**
   * A plan of what an MPI library does (Planner.traits.mpi): run as the library runs it, every round's messages
   * posted at once and waited for (nonblocking), whatever auto's mode.
   */
  readonly asLibrary: boolean;
  readonly progress: ((done: number) => void) | null;
}

/** The mode a finalist is simulated in: nonblocking for a library's plan (MakespanRequest.asLibrary), else auto's. */
export function makespanMode(r: Pick<MakespanRequest, "mode" | "asLibrary">): SimMode {
  return r.asLibrary ? "nonblocking" : r.mode;
}

/** The predicted makespan (us) of a finalist's plan on `machine`. */
export function predictMakespan(s: Schedule, machine: MachineModel, r: MakespanRequest): number {
  return simulateSchedule(s, machine, {
    mode: makespanMode(r),
    seed: r.seed,
    ...(r.ports === undefined ? {} : { ports: r.ports }),
    timeline: false,
    progress: r.progress,
    ...r.simNet,
  }).makespan;
}
