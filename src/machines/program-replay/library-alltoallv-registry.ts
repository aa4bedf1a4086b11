/**
 * The library mirrors by SMPI 3.32 algorithm name (`--cfg=smpi/alltoallv:NAME`): each name's operations as the
 * library runs them, selectors resolved by P as SMPI's selectors pick.
 */
import { didYouMean } from "../../internal/did-you-mean.js";
import { fail } from "../../model/errors.js";
import { describeValue } from "../../model/option-checks.js";
import type { CommMatrix } from "../../model/matrix.js";
import { linearAlltoallvOps } from "./library-alltoallv.js";
import { blocksAlltoallvOps } from "./library-alltoallv-blocks.js";
import { impiAlltoallvOps } from "./library-alltoallv-impi.js";
import { roundsAlltoallvOps, isPowerOfTwo } from "./library-alltoallv-rounds.js";
import type { ReplayOps } from "./replay-ops.js";
import { replayOpsOn, type ProgramReplayOptions } from "./replay-program.js";
import type { ProgramReplayResult } from "./replay-engine.js";

/** An algorithm the mirrors run (a selector resolves to one of them). */
type Mirror = (m: CommMatrix) => ReplayOps;

const ALGORITHMS: Readonly<Record<string, Mirror>> = {
  default: linearAlltoallvOps,
  ompi_basic_linear: linearAlltoallvOps,
  bruck: (m) => blocksAlltoallvOps(m),
  pair: (m) => roundsAlltoallvOps(m, "xor", "none"),
  pair_light_barrier: (m) => roundsAlltoallvOps(m, "xor", "light"),
  pair_mpi_barrier: (m) => roundsAlltoallvOps(m, "xor", "mpi"),
  pair_one_barrier: (m) => roundsAlltoallvOps(m, "xor", "one"),
  ring: (m) => roundsAlltoallvOps(m, isPowerOfTwo(m.p) ? "xor" : "ring", "none"),
  ring_light_barrier: (m) => roundsAlltoallvOps(m, "ring", "light"),
  ring_mpi_barrier: (m) => roundsAlltoallvOps(m, "ring", "mpi"),
  ring_one_barrier: (m) => roundsAlltoallvOps(m, "ring", "one"),
  impi: impiAlltoallvOps,
};

/**
 * The algorithm SMPI 3.32 runs for `name` at P ranks: a selector's pick (smpi_openmpi_selector.cpp: pair below 4 ranks
 * and in [64, 128) and [256, 1024), basic linear otherwise; mpich: bruck; mvapich2: ring), else the name itself (impi
 * runs init_smp before its pick, so its operations are its own). P is a positive integer (else a one-line BAD_OPTION
 * error on field p).
 */
export function libraryAlltoallvPick(name: string, p: number): string {
  if (!(typeof p === "number" && Number.isSafeInteger(p) && p >= 1))
    throw fail("machines", "BAD_OPTION", `library alltoallv: P must be a positive integer, got ${describeValue(p)}`, {
      field: "p",
    });
  if (name === "mpich") return "bruck";
  if (name === "mvapich2") return "ring";
  if (name !== "ompi") return name;
  const pair = p < 4 || (p >= 64 && p < 128) || (p >= 256 && p < 1024);
  return pair ? "pair" : "ompi_basic_linear";
}

/**
 * The SMPI 3.32 alltoallv names with a library mirror (`impi` as its first call on a communicator runs it: SMPI's
 * init_smp, then Intel MPI's pick for one process per node).
 */
export const LIBRARY_ALLTOALLV: readonly string[] = Object.freeze([
  "default",
  "ompi",
  "mpich",
  "mvapich2",
  "bruck",
  "pair",
  "pair_light_barrier",
  "pair_mpi_barrier",
  "pair_one_barrier",
  "ring",
  "ring_light_barrier",
  "ring_mpi_barrier",
  "ring_one_barrier",
  "ompi_basic_linear",
  "impi",
]);

/** An unknown name's one-line error: the nearest known names, then every known one. */
export function libraryAlltoallvUnknown(name: string): string {
  return `unknown algorithm '${name}'${didYouMean(name, LIBRARY_ALLTOALLV)} (known: ${LIBRARY_ALLTOALLV.join(", ")})`;
}

/** The operations of MPI_Alltoallv on `m` under SMPI's algorithm `name`; a one-line error for an unknown name. */
export function libraryAlltoallvOps(name: string, m: CommMatrix): ReplayOps {
  const run = LIBRARY_ALLTOALLV.includes(name) ? ALGORITHMS[libraryAlltoallvPick(name, m.p)] : undefined;
  if (run === undefined) throw fail("machines", "BAD_OPTION", `library alltoallv: ${libraryAlltoallvUnknown(name)}`);
  return run(m);
}

/** Replays MPI_Alltoallv on `m` under SMPI's algorithm `name` (libraryAlltoallvOps) as replayProgram replays. */
export function replayLibraryAlltoallvAs(name: string, m: CommMatrix, opts: ProgramReplayOptions): ProgramReplayResult {
  return replayOpsOn(libraryAlltoallvOps(name, m), opts);
}
