/**
 * MPI libraries' alltoallv selectors as SMPI 3.32 implements them (src/smpi/colls/smpi_*_selector.cpp): each picks one
 * algorithm from P alone (alltoallv's sizes differ per pair, so no selector reads them), and its plan is that
 * algorithm's, with the pick in the header's params (docs/mpi-algorithms.md).
 */
import type { CommMatrix } from "../../model/matrix.js";
import type { Schedule } from "../../model/schedule.js";
import { integer, output } from "../../model/param-spec.js";
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

const SELECTOR_AUTO = {
  none: "a library's pick among mpi-linear, mpi-pair, mpi-ring and mpi-scattered, weighed by those names",
} as const;

/** A selector planner: name, what it mirrors (`smpi`: SMPI's name for it), and its pick for P. */
function selector(
  name: string,
  title: string,
  source: string,
  does: string,
  smpi: readonly string[],
  pick: (p: number) => Planner,
): Planner {
  return definePlanner(
    {
      name,
      title,
      source,
      params: SELECTOR_PARAMS,
      traits: directMpiTraits({ does, isDefault: false, selector: true, smpi }),
      auto: SELECTOR_AUTO,
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
  ["ompi"],
  ompiAlltoallvChoice,
);

/** MPICH's choice for alltoallv (SMPI's `mpich`): always the scattered algorithm. */
export const mpiMpich: Planner = selector(
  "mpi-mpich",
  "what MPICH's alltoallv picks: the scattered algorithm, 4 messages per round as SMPI runs it",
  "SMPI 3.32 smpi_mpich_selector.cpp alltoallv__mpich",
  "MPICH's choice",
  ["mpich"],
  () => mpiScattered,
);

/** MVAPICH2's choice for alltoallv (SMPI's `mvapich2`, buffers not in place): the ring. */
export const mpiMvapich2: Planner = selector(
  "mpi-mvapich2",
  "what MVAPICH2's alltoallv picks (buffers not in place): the ring",
  "SMPI 3.32 smpi_mvapich2_selector.cpp alltoallv__mvapich2",
  "MVAPICH2's choice",
  ["mvapich2"],
  () => mpiRing,
);

/** A threshold of Intel MPI's tables: below `maxSize` bytes, algorithm `algo` (1-based). */
type IntelSizeRule = readonly [maxSize: number, algo: number];

const INT_MAX = 2147483647;

/**
 * SMPI 3.32's `intel_alltoallv_table` (smpi_intel_mpi_selector.cpp), transcribed: per ranks per node, per bound on
 * the communicator size, the size thresholds and their algorithm (1: Isend / Irecv + Waitall, 2: Plum's, which SMPI
 * runs as its `bruck` alltoallv, MPICH's scattered algorithm).
 */
const INTEL_ALLTOALLV_TABLE: readonly {
  readonly ppn: number;
  readonly byP: readonly { readonly maxP: number; readonly bySize: readonly IntelSizeRule[] }[];
}[] = [
  { ppn: 1, byP: [{ maxP: INT_MAX, bySize: [[INT_MAX, 1]] }] },
  { ppn: 2, byP: [{ maxP: INT_MAX, bySize: [[INT_MAX, 1]] }] },
  {
    ppn: 4,
    byP: [
      { maxP: 8, bySize: [[INT_MAX, 1]] },
      {
        maxP: INT_MAX,
        bySize: [
          [4, 1],
          [INT_MAX, 2],
        ],
      },
    ],
  },
  {
    ppn: 8,
    byP: [
      { maxP: 16, bySize: [[INT_MAX, 1]] },
      {
        maxP: INT_MAX,
        bySize: [
          [0, 1],
          [INT_MAX, 2],
        ],
      },
    ],
  },
  {
    ppn: 16,
    byP: [
      { maxP: 8, bySize: [[INT_MAX, 1]] },
      {
        maxP: INT_MAX,
        bySize: [
          [4, 1],
          [INT_MAX, 2],
        ],
      },
    ],
  },
];

/**
 * Intel MPI's decision for alltoallv as SMPI 3.32 ports it (IMPI_COLL_SELECT): the table's row of `ppn` ranks per node
 * (the first row, ppn 1, when no row has it), the first communicator-size bound at or above P, then the first size
 * threshold above the message size, which SMPI fixes at 1 byte for alltoallv (SIZECOMP_alltoallv). So: the
 * scattered algorithm with 8 ranks per node and P > 16, linear otherwise.
 */
export function impiAlltoallvChoice(p: number, ppn: number): Planner {
  const row = INTEL_ALLTOALLV_TABLE.find((r) => r.ppn === ppn) ?? INTEL_ALLTOALLV_TABLE[0]!;
  const col = row.byP.find((c) => p <= c.maxP) ?? row.byP[row.byP.length - 1]!;
  const blockBytes = 1;
  const rule = col.bySize.find(([maxSize]) => blockBytes < maxSize) ?? col.bySize[col.bySize.length - 1]!;
  return rule[1] === 1 ? mpiLinear : mpiScattered;
}

const IMPI_PARAMS = {
  ppn: integer({
    description:
      "ranks per node, the column of Intel MPI's table (commplan places one rank per node; SMPI counts ranks per host)",
    min: 1,
    max: 1 << 20,
    default: 1,
  }),
  ...SELECTOR_PARAMS,
};

/**
 * Intel MPI's choice for alltoallv (SMPI's `impi`): linear, or the scattered algorithm with 8 ranks per node and
 * P > 16. SMPI's impi also runs its communicator set-up (`init_smp`: two ring allgathers and a broadcast) in the first
 * call on a communicator, which the plan does not have; every later call is the plan's.
 */
export const mpiImpi: Planner = definePlanner(
  {
    name: "mpi-impi",
    title: "what Intel MPI's alltoallv picks for P and ranks per node: linear, or scattered (8 per node, P > 16)",
    source: "SMPI 3.32 smpi_intel_mpi_selector.cpp intel_alltoallv_table, IMPI_COLL_SELECT",
    params: IMPI_PARAMS,
    traits: directMpiTraits({
      does: "Intel MPI's choice (SMPI impi after its first call on a communicator)",
      isDefault: false,
      selector: true,
      // the bench times one call, whose communicator set-up no plan has (docs/mpi-algorithms.md)
      smpi: [],
    }),
    auto: SELECTOR_AUTO,
  },
  (m, opts) => planAs("mpi-impi", impiAlltoallvChoice(m.p, opts.params.ppn), m, opts),
);
