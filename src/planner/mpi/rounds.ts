/**
 * The rounds of MPI libraries' direct alltoallv algorithms (SMPI 3.32, src/smpi/colls/alltoallv): each pair's message
 * goes whole in one round, so an algorithm is its number of rounds and the round of each pair (docs/mpi-algorithms.md).
 */
import { matrixRows, type CommMatrix } from "../../model/matrix.js";
import type { MachineModel } from "../../model/machine.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { feedByStep, tally } from "../flat-tally.js";
import { countMessages, planHeader, sendSize } from "../plan-header.js";
import { messagesByStep } from "../by-step.js";
import { stepProgress } from "../plan-progress.js";
import type { FlatMode, MpiLibraryTrait, PlanOptions, PlannerTraits } from "../types.js";

/** A direct MPI algorithm on P ranks: `rounds` rounds, the message i -> j (i != j) in round `roundOf(i, j)`. */
export interface MpiRounds {
  readonly rounds: number;
  readonly roundOf: (i: number, j: number) => number;
}

/** Whether p is a power of two (p >= 1). */
export function isPowerOfTwo(p: number): boolean {
  return p >= 1 && (p & (p - 1)) === 0;
}

/** Every message posted at once, one round (SMPI's default alltoallv, ompi_basic_linear, Intel MPI's algorithm 1). */
export function linearRounds(): MpiRounds {
  return { rounds: 1, roundOf: () => 0 };
}

/**
 * Pairwise exchange: P a power of two, round r - 1 pairs i with i XOR r (r = 1..P-1; SMPI's pair and ring); other P,
 * round r - 1 sends to i + r and receives from i - r (SMPI's ring; Open MPI's own pairwise).
 */
export function pairRounds(p: number): MpiRounds {
  const rounds = Math.max(0, p - 1);
  if (isPowerOfTwo(p)) return { rounds, roundOf: (i, j) => (i ^ j) - 1 };
  return { rounds, roundOf: (i, j) => ((j - i + p) % p) - 1 };
}

/**
 * Posted in blocks (MPICH's scattered alltoallv, SMPI's `bruck` and `mpich`): block b posts the receives from i + k and
 * the sends to i - k for k = b * block .. b * block + block - 1, then waits for all of them.
 */
export function scatteredRounds(p: number, block: number): MpiRounds {
  return { rounds: Math.ceil(p / block), roundOf: (i, j) => Math.floor(((i - j + p) % p) / block) };
}

/**
 * The plan of a direct MPI algorithm: one stage, one step per non-empty round, messages whole, in row order. The stage
 * composes (t_m per byte sent) as every direct plan of commplan's does, so that the same messages in the same rounds
 * cost the same whichever planner made them.
 */
export function planRounds(m: CommMatrix, algorithm: string, opts: PlanOptions, r: MpiRounds): Schedule {
  const b = new ScheduleBuilder(planHeader(m, algorithm, opts, false), opts.payload, countMessages(m));
  b.stage("alltoallv", "compose");
  const { col, val } = matrixRows(m);
  const { start, src, at } = messagesByStep(m, r.rounds, r.roundOf);
  // progress over the messages emitted (a linear plan is one round), then the build
  const [reached, built] = stepProgress(opts, start[r.rounds]!);
  for (let s = 0; s < r.rounds; s++) {
    if (start[s] === start[s + 1]) continue;
    b.step();
    for (let x = start[s]!; x < start[s + 1]!; x++) {
      reached(x);
      sendSize(b, src[x]!, col[at[x]!]!, val[at[x]!]!);
    }
  }
  const s = b.build();
  built();
  return s;
}

/** The exact flat time of planRounds's plan. */
export function predictRounds(m: CommMatrix, machine: MachineModel, mode: FlatMode, r: MpiRounds): number {
  const f = tally(m, machine, mode);
  feedByStep(m, f, r.rounds, r.roundOf);
  f.endStage(true);
  return f.total;
}

/** The traits of a direct one-stage MPI plan (every planner of direct.ts and selectors.ts): what the library does. */
export function directMpiTraits(mpi: MpiLibraryTrait): PlannerTraits {
  return { relayed: false, randomised: false, stages: 1, growth: "linear", claims: "none", mpi };
}
