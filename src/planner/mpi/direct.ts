/**
 * MPI libraries' direct alltoallv algorithms as planners (SMPI 3.32's `--cfg=smpi/alltoallv:NAME`): linear, pairwise,
 * ring and posted in blocks (docs/mpi-algorithms.md).
 */
import { integer } from "../../model/param-spec.js";
import { definePlanner } from "../plan-params.js";
import type { Planner } from "../types.js";
import { directMpiTraits, linearRounds, pairRounds, planRounds, predictRounds, scatteredRounds } from "./rounds.js";

/** MPICH's posting window for alltoallv as SMPI 3.32 runs it (`bblock = 4` in alltoallv-bruck.cpp). */
export const SMPI_SCATTERED_BLOCK = 4;

/** Every message posted at once: SMPI's default alltoallv (and ompi_basic_linear): what MPI_Alltoallv does. */
export const mpiLinear: Planner = definePlanner(
  {
    name: "mpi-linear",
    title: "MPI's default alltoallv: every receive, then every send, posted at once; one round",
    source: "SMPI 3.32 alltoallv default (colls::ialltoallv) and ompi_basic_linear; Open MPI basic linear",
    params: {},
    traits: directMpiTraits({
      does: "SMPI default, Open MPI basic linear, Intel MPI 1",
      isDefault: true,
      selector: false,
      smpi: ["default", "ompi_basic_linear"],
    }),
    auto: {
      // the library default: auto answers "call MPI_Alltoallv" when nothing beats it (it wins ties)
      variants: [{ params: {}, priority: -2, alwaysFinal: true }],
      predict: (m, machine, mode) => predictRounds(m, machine, mode, linearRounds()),
      bound: "busiest-node",
    },
  },
  (m, opts) => planRounds(m, "mpi-linear", opts, linearRounds()),
);

/** Pairwise exchange, one partner per round (SMPI's pair and its barrier variants). */
export const mpiPair: Planner = definePlanner(
  {
    name: "mpi-pair",
    title: "MPI pairwise exchange: round r pairs i with i XOR r (P a power of two), else i + r / i - r; P - 1 rounds",
    source: "SMPI 3.32 alltoallv pair, pair_light_barrier, pair_mpi_barrier, pair_one_barrier; Open MPI pairwise",
    params: {},
    traits: directMpiTraits({
      does: "SMPI pair (and its barrier variants), Open MPI pairwise",
      isDefault: false,
      selector: false,
      // the barrier variants add synchronisation messages no plan has
      smpi: ["pair"],
    }),
    auto: { none: "its rounds are mpi-ring's for every P; auto weighs them under that name" },
  },
  (m, opts) => planRounds(m, "mpi-pair", opts, pairRounds(m.p)),
);

/** The ring: XOR partners when P is a power of two, else send to i + r and receive from i - r (SMPI's ring). */
export const mpiRing: Planner = definePlanner(
  {
    name: "mpi-ring",
    title: "MPI ring alltoallv: XOR partners when P is a power of two, else send to i + r, receive from i - r",
    source: "SMPI 3.32 alltoallv ring, ring_light_barrier, ring_mpi_barrier, ring_one_barrier; MVAPICH2's choice",
    params: {},
    traits: directMpiTraits({
      does: "SMPI ring (and its barrier variants), MVAPICH2",
      isDefault: false,
      selector: false,
      smpi: ["ring"],
    }),
    auto: {
      variants: [{ params: {} }],
      predict: (m, machine, mode) => predictRounds(m, machine, mode, pairRounds(m.p)),
      bound: "busiest-node",
    },
  },
  (m, opts) => planRounds(m, "mpi-ring", opts, pairRounds(m.p)),
);

const SCATTERED_PARAMS = {
  block: integer({
    description: "messages each rank posts per round (MPICH's MPIR_CVAR_ALLTOALL_THROTTLE; SMPI 3.32 runs 4)",
    min: 1,
    max: 1 << 20,
    default: SMPI_SCATTERED_BLOCK,
  }),
};

/** MPICH's scattered alltoallv: sends and receives posted `block` at a time, each block waited for. */
export const mpiScattered: Planner = definePlanner(
  {
    name: "mpi-scattered",
    title: "MPICH's alltoallv: block k posts receives from i + k.. and sends to i - k.., `block` at a time",
    source: "SMPI 3.32 alltoallv bruck (its mpich choice); MPICH alltoallv intra scattered",
    params: SCATTERED_PARAMS,
    traits: directMpiTraits({
      does: "MPICH scattered, SMPI bruck / mpich, Intel MPI 2",
      isDefault: false,
      selector: false,
      // SMPI's `bruck` alltoallv is MPICH's scattered algorithm (alltoallv-bruck.cpp), not Bruck's index algorithm
      smpi: ["bruck"],
    }),
    auto: {
      variants: [{ params: {} }],
      predict: (m, machine, mode, params) =>
        predictRounds(m, machine, mode, scatteredRounds(m.p, blockOf(params["block"]))),
      bound: "busiest-node",
    },
  },
  (m, opts) => planRounds(m, "mpi-scattered", opts, scatteredRounds(m.p, opts.params.block)),
);

/** The block of a variant's params (auto's variants give none: the default). */
function blockOf(v: unknown): number {
  return typeof v === "number" ? v : SMPI_SCATTERED_BLOCK;
}
