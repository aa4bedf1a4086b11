/**
 * MPI libraries' alltoallv selectors as SMPI 3.32 implements them (src/smpi/colls/smpi_*_selector.cpp): each picks one
 * algorithm from P alone (alltoallv's sizes differ per pair, so no selector reads them), and its plan is that
 * algorithm's, with the pick in the header's params (docs/mpi-algorithms.md).
 */
import type { CommMatrix } from "../../model/matrix.js";
import type { Schedule } from "../../model/schedule.js";
import { output } from "../../model/param-spec.js";
import { definePlanner, resolveParams } from "../plan-params.js";
import type { Planner, PlanOptions } from "../types.js";
import { mpiLinear, mpiPair, mpiRing, mpiScattered } from "./direct.js";
import { directMpiTraits } from "./rounds.js";

/**
 * Open MPI's fixed decision as SMPI 3.32 ports it (alltoallv__ompi): pairwise below 4 ranks, in 64..127 and in
 * 256..1023, basic linear otherwise.
 */
export function ompiAlltoallvChoice(p: number): Planner {
  if (p < 4 || (p >= 64 && p < 128) || (p >= 256 && p < 1024)) return mpiPair;
  return mpiLinear;
}

/** The plan of `chosen` for m, under the selector's name with the pick in its params (`algorithm`). */
function planAs(name: string, chosen: Planner, m: CommMatrix, opts: PlanOptions): Schedule {
  const params = resolveParams(chosen.name, chosen.specs, {});
  const s = chosen.plan(m, { ...opts, params, givenParams: {} });
  return { ...s, algorithm: name, params: { ...opts.givenParams, algorithm: chosen.name } };
}

const SELECTOR_PARAMS = { algorithm: output("the planner whose plan it is: the algorithm the library picks") };

/** A selector planner: name, what it mirrors, and its pick for P. */
function selector(name: string, title: string, source: string, does: string, pick: (p: number) => Planner): Planner {
  return definePlanner(
    {
      name,
      title,
      source,
      params: SELECTOR_PARAMS,
      traits: directMpiTraits({ does, isDefault: false, selector: true }),
      auto: { none: "a library's pick among mpi-linear, mpi-pair, mpi-ring and mpi-scattered, weighed by those names" },
    },
    (m, opts) => planAs(name, pick(m.p), m, opts),
  );
}

/** Open MPI's choice for alltoallv (SMPI's `ompi`). */
export const mpiOmpi: Planner = selector(
  "mpi-ompi",
  "what Open MPI's alltoallv picks for P: pairwise (P < 4, 64..127, 256..1023) or basic linear",
  "SMPI 3.32 smpi_openmpi_selector.cpp alltoallv__ompi",
  "Open MPI's choice",
  ompiAlltoallvChoice,
);

/** MPICH's choice for alltoallv (SMPI's `mpich`): always the scattered algorithm. */
export const mpiMpich: Planner = selector(
  "mpi-mpich",
  "what MPICH's alltoallv picks: the scattered algorithm, 4 messages per round as SMPI runs it",
  "SMPI 3.32 smpi_mpich_selector.cpp alltoallv__mpich",
  "MPICH's choice",
  () => mpiScattered,
);

/** MVAPICH2's choice for alltoallv (SMPI's `mvapich2`, buffers not in place): the ring. */
export const mpiMvapich2: Planner = selector(
  "mpi-mvapich2",
  "what MVAPICH2's alltoallv picks (buffers not in place): the ring",
  "SMPI 3.32 smpi_mvapich2_selector.cpp alltoallv__mvapich2",
  "MVAPICH2's choice",
  () => mpiRing,
);

/** Intel MPI's choice for alltoallv (SMPI's `impi`) with one rank per node: basic linear. */
export const mpiImpi: Planner = selector(
  "mpi-impi",
  "what Intel MPI's alltoallv picks with one rank per node: Isend / Irecv + Waitall (linear)",
  "SMPI 3.32 smpi_intel_mpi_selector.cpp intel_alltoallv_table (ppn 1)",
  "Intel MPI's choice (1 rank per node)",
  () => mpiLinear,
);
