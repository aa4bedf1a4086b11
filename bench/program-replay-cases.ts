/**
 * The program-replay bench's cases, shared by the process that runs smpirun (bench/program-replay.ts) and the one that
 * times the replays (bench/program-replay-child.ts): the networks and schedules per P, the programs, the warm-up.
 */
import { lowerSchedule } from "../src/lower/index.js";
import { replayProgram } from "../src/machines/program-replay/replay-program.js";
import { findRuntimeModel } from "../src/machines/runtime/runtime-model.js";
import type { MachineModel } from "../src/model/machine.js";
import type { Program } from "../src/model/program.js";
import { compileRoutes } from "../src/topology/compile-routes.js";
import { buildTopology } from "../src/topology/registry.js";
import { FIDELITY_RUNTIMES, fidelityMatrix, scheduleOf } from "../runtimes/test/program-replay.js";

/**
 * The networks per P: the flat cluster, a fat tree at 4:1 (k = 8 holds 128 hosts; 256 ranks need k = 12), a dragonfly.
 */
export function networksOf(p: number): string[] {
  return ["flat", p <= 128 ? "fat-tree:k=8,oversub=4" : "fat-tree:k=12,oversub=4", "dragonfly"];
}
/** The schedules per P ("linear": every message in one round, as MPI_Alltoallv's basic linear algorithm). */
export function plannersOf(p: number): string[] {
  return p <= 64
    ? ["linear", "shift", "two-stage", "coloring", "linear-permutation"]
    : ["linear", "shift", "two-stage"];
}
export const PS: readonly number[] = [16, 64, 256];
export const VARIANTS = ["nonblocking", "blocking"] as const;

/** One case: the program of `schedule` in `variant` at `p` ranks, on `network`, with the runtime preset `runtime`. */
export interface ReplayCase {
  readonly label: string;
  readonly p: number;
  readonly network: string;
  readonly runtime: string;
  readonly schedule: string;
  readonly variant: (typeof VARIANTS)[number];
}

/** The program of a case (003's test set 2 with 256-byte elements, seed 7): the same bytes in every process. */
export function caseProgram(p: number, schedule: string, variant: ReplayCase["variant"]): Program {
  const m = fidelityMatrix(p, 256);
  return lowerSchedule(m, scheduleOf(m, schedule), { variant }).program;
}

/**
 * Replays before the first measured case, so that no case runs before the JIT has compiled the replay for it: in a
 * fresh process the first replay of the P = 16 "linear" program took 25-30 ms of CPU, the next ten 2-25 ms, the later
 * ones 0.8-1.2 ms, so one warm-up replay is not enough; and a network or a runtime not replayed before costs its first
 * replays again (the first fat-tree case after a flat-only warm-up measured the compiling: 6.5x where the others
 * measured 28x and more, bench/results/program-replay.md).
 * A schedule not replayed before costs its first replays too (its rounds and tags, the solves that replay steps reach
 * code "linear" does not): after a warm-up on "linear" alone, the bench's cases in order without smpirun gave the first
 * P = 64 two-stage replay 49.7 ms of CPU, the next two 10.4 and 9.6, and the bench of 2026-12-02 01:55 recorded 33.7 ms
 * for P = 64 two-stage blocking on the flat cluster, whose replay takes 7.4 ms once warm (least of 150, load 14).
 * So the program of every schedule at the first P, both variants, is replayed WARM_UP_REPLAYS times on every network
 * and runtime of the bench; the programs at larger P are replayed first in their own case.
 */
export const WARM_UP_REPLAYS = 20;
export function warmUp(machine: MachineModel, replay: typeof replayProgram = replayProgram): void {
  const p = PS[0]!;
  const programs = plannersOf(p).flatMap((schedule) => VARIANTS.map((variant) => caseProgram(p, schedule, variant)));
  for (const network of networksOf(p)) {
    const on = network === "flat" ? {} : { network: compileRoutes(buildTopology(network, p, machine)) };
    for (const runtime of FIDELITY_RUNTIMES)
      for (const program of programs)
        for (let i = 0; i < WARM_UP_REPLAYS; i++)
          replay(program, { machine, runtime: findRuntimeModel(runtime), ...on });
  }
}
