/**
 * The vs-MPI bench's configuration: SMPI's alltoallv algorithms, the platforms, the workloads' message sizes and the
 * SMPI configurations. Extend a list here; everything else (planners, lowering variants, the program replay, machine
 * presets with an SMPI configuration) is discovered from the CLI (bench/vs-mpi-discover.ts).
 */
import { SMPI_FLAGS } from "../src/export/simgrid-platform.js";
import { libraryAlltoallvPick } from "../src/machines/program-replay/library-alltoallv-registry.js";

/** SMPI 3.32's MPI_Alltoallv algorithms (`--cfg=smpi/alltoallv:NAME`), `default` first. */
export const SMPI_ALLTOALLV = [
  "default",
  "ompi",
  "mpich",
  "mvapich2",
  "impi",
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
] as const;

/**
 * The algorithm whose run gives `algorithm`'s time at P ranks, or null when `algorithm` is measured itself. The
 * selectors run another algorithm's function (libraryAlltoallvPick, from SimGrid 3.32's selector sources: mpich calls
 * bruck, mvapich2 ring, ompi pair or basic linear by P): the 394 cases measured with both ran each such pair to the
 * same simulated time, bit for bit. `ompi_basic_linear` is timed by `default`'s run: the two are different code
 * (`alltoallv__ompi_basic_linear` against `colls::ialltoallv` waited on at once) with the same posts in the same
 * order (every receive from rank 0 up but the own, then every send, after the local copy; one wait for them all),
 * and the 492 cases measured with both (P = 16, 64 and 256, both configurations) timed them the same, bit for bit.
 * At P = 256 one such run takes minutes; the test over the cached cases keeps the claim checked.
 */
export function smpiSameAlgorithm(algorithm: string, p: number): string | null {
  if (algorithm === "ompi_basic_linear") return "default";
  const pick = libraryAlltoallvPick(algorithm, p);
  return pick === algorithm ? null : pick;
}

/** One smpirun of a case's MPI_Alltoallv runs: the algorithm, and whether auto's program runs beside it. */
export interface AlltoallvRun {
  readonly algorithm: string;
  readonly withProgram: boolean;
}

/**
 * A case's MPI_Alltoallv runs at P: every algorithm but one whose time another run among `algorithms` gives
 * (smpiSameAlgorithm, followed while its target is itself left out), auto's program (deterministic under SMPI,
 * whatever the alltoallv algorithm) beside the first and the last of them, for its spread; and each algorithm left
 * out with the run whose time it is given.
 */
export function alltoallvRuns(
  algorithms: readonly string[],
  p: number,
): { runs: AlltoallvRun[]; sameAs: [string, string][] } {
  const target = (a: string): string | null => {
    let t = a;
    for (let same = smpiSameAlgorithm(t, p); same !== null && algorithms.includes(same); same = smpiSameAlgorithm(t, p))
      t = same;
    return t === a ? null : t;
  };
  const sameAs: [string, string][] = [];
  const run = algorithms.filter((a) => {
    const same = target(a);
    if (same === null) return true;
    sameAs.push([a, same]);
    return false;
  });
  const runs = run.map((algorithm, i) => ({ algorithm, withProgram: i === 0 || i === run.length - 1 }));
  return { runs, sameAs };
}

/** One platform of the bench: a flat cluster of a preset (the simgrid export's platform.xml) or a `commplan platform` network. */
export interface VsMpiPlatform {
  readonly name: string;
  /** The machine preset auto plans for (and whose bandwidth the network's links take). */
  readonly machine: string;
  /** A topology generator spec for `commplan platform` and `plan --network`; null: the preset's flat cluster. */
  readonly network: string | null;
  /** The largest P the platform hosts (a k-ary fat tree has k^3 / 4 hosts); none: any. */
  readonly maxP?: number;
  /** The smallest P measured on it (a bigger tree takes over where a smaller one is full); none: any. */
  readonly minP?: number;
}

/** The platforms, in table order. */
export const VS_MPI_PLATFORMS: readonly VsMpiPlatform[] = [
  { name: "flat-ib-hdr-200", machine: "ib-hdr-200", network: null },
  { name: "flat-t3d-004", machine: "t3d-004", network: null },
  { name: "fat-tree-k8-4to1", machine: "ib-hdr-200", network: "fat-tree:k=8,oversub=4", maxP: 128 },
  { name: "fat-tree-k12-4to1", machine: "ib-hdr-200", network: "fat-tree:k=12,oversub=4", minP: 129, maxP: 432 },
  { name: "dragonfly", machine: "ib-hdr-200", network: "dragonfly" },
];

/** Message size classes: the mean off-diagonal message the generator's elementBytes is scaled to (bytes). */
export const VS_MPI_SIZES = { small: 1024, large: 65536 } as const;
/** A size class. */
export type VsMpiSize = keyof typeof VS_MPI_SIZES;

/** Generators left out: fixed-P fixtures and the empty matrix. */
export const VS_MPI_EXCLUDED_PATTERNS: readonly string[] = ["ranka-fig1", "wang-table1", "zero"];

/**
 * Per-generator options that keep the element counts small enough for elementBytes to reach the size targets (a
 * generator not listed runs with its defaults; elementBytes is then scaled, at least 1).
 */
export const VS_MPI_PATTERN_OPTIONS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  moe: { hidden: 1, tokens: 1024 },
  halo: { nx: 8, ny: 8, nz: 8 },
  shuffle: { rows: 4096 },
  "h-relation": { self: 0 },
  random: { max: 64 },
};

/**
 * The plain SMPI configuration: docs/runtimes.md's flags, the application's own computation not simulated (so a
 * plan's copies cost nothing, as in the predictions: `--free-copies`), and `smpi/test:0`: SimGrid 3.32 charges every
 * MPI_Test 1e-4 s by default, which would charge the dataflow executor's MPI_Waitsome per pending request.
 */
export const SMPI_PLAIN: readonly string[] = [...SMPI_FLAGS, "--cfg=smpi/simulate-computation:no", "--cfg=smpi/test:0"];

/**
 * Per-message software overheads used when no machine preset provides an SMPI configuration (bench/vs-mpi-discover.ts
 * looks for one in `commplan machines --json` first). Values: an assumption, not a calibration. On InfiniBand HDR the
 * adapter's latency is about 0.6 us (the ib-hdr-200 preset's T_s, NVIDIA's ConnectX-6 figure) and osu_latency with
 * an MPI library over it is about 1 us, so the MPI software adds about 0.4 us per message: 0.2 us on the send side
 * (smpi/os, smpi/ois) and 0.2 us on the receive side (smpi/or), independent of the size. Format:
 * `size:seconds:seconds_per_byte` (SimGrid's documentation, "Configuring SimGrid", smpi/os).
 */
export const SMPI_OVERHEAD_FALLBACK = {
  name: "ib-hdr-200 with 0.2 us per-message send and receive overheads (assumed; see bench/vs-mpi-config.ts)",
  flags: ["--cfg=smpi/os:0:2e-07:0", "--cfg=smpi/ois:0:2e-07:0", "--cfg=smpi/or:0:2e-07:0"],
  runtime: null,
} as const;

/** The SMPI configurations: plain, and with per-message overheads. */
export const VS_MPI_CONFIGS = ["plain", "overheads"] as const;
/** A configuration name. */
export type VsMpiConfig = (typeof VS_MPI_CONFIGS)[number];

/** Seconds one smpirun may take before `timeout` kills it, up to P = 64 (smpirunTimeoutS scales it). */
export const SMPIRUN_TIMEOUT_S = 900;

/**
 * Seconds one smpirun of P ranks may take by default: SMPIRUN_TIMEOUT_S up to P = 64, times (P / 64)^2 above (the
 * algorithms that post every message at once cost SimGrid about the square of the messages in flight: at P = 256 runs
 * of the default did not end within 900 or 2,400 s; docs/runtimes.md, "Not measured yet").
 */
export function smpirunTimeoutS(p: number): number {
  return SMPIRUN_TIMEOUT_S * Math.max(1, (p / 64) ** 2);
}

/**
 * The data buffers (bytes, summed over ranks) above which a case's every smpirun passes the executor
 * `--shared-buffers`: SMPI runs all ranks in one process, so every rank's buffers are the machine's memory.
 */
export const SHARED_BUFFERS_BYTES = 2 ** 30;

/**
 * Whether a case's smpiruns share their data buffers (the executor's `--shared-buffers`): its send and receive buffers
 * summed over ranks, twice the matrix's `totalElements` (the diagonal included, as the program's layout holds it) of
 * `elementBytes`, above SHARED_BUFFERS_BYTES. A relaying program's scratch and staging come on top.
 */
export function sharedBuffersNeeded(totalElements: number, elementBytes: number): boolean {
  return 2 * totalElements * elementBytes > SHARED_BUFFERS_BYTES;
}
