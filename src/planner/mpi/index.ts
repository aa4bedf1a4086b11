/** MPI libraries' alltoallv algorithms and selectors as planners (docs/mpi-algorithms.md). */
import type { Planner } from "../types.js";
import { mpiBruck } from "./bruck.js";
import { mpiLinear, mpiPair, mpiRing, mpiScattered } from "./direct.js";
import { mpiImpi, mpiMpich, mpiMvapich2, mpiOmpi } from "./selectors.js";

export { mpiBruck, bruckRoundCount, predictBruck } from "./bruck.js";
export { mpiLinear, mpiPair, mpiRing, mpiScattered, SMPI_SCATTERED_BLOCK } from "./direct.js";
export { impiAlltoallvChoice, mpiImpi, mpiMpich, mpiMvapich2, mpiOmpi, ompiAlltoallvChoice } from "./selectors.js";
export { isPowerOfTwo, linearRounds, pairRounds, scatteredRounds, type MpiRounds } from "./rounds.js";

/** The planners of this family, for the registry: the algorithms, then the libraries' selectors. */
export const MPI_PLANNERS: readonly Planner[] = [
  mpiLinear,
  mpiPair,
  mpiRing,
  mpiScattered,
  mpiBruck,
  mpiOmpi,
  mpiMpich,
  mpiMvapich2,
  mpiImpi,
];
