/**
 * Bruck's log-round alltoall for small messages (the index algorithm that MPICH's and Open MPI's alltoall run for
 * short messages), applied to alltoallv: in round b each rank h sends rank h + 2^b every element it holds whose
 * remaining distance has bit b set; ceil(log2 P) rounds, payload forwarded (docs/mpi-algorithms.md).
 */
import { matrixRows, type CommMatrix } from "../../model/matrix.js";
import type { MachineModel } from "../../model/machine.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { tally } from "../flat-tally.js";
import { planHeader } from "../plan-header.js";
import { definePlanner } from "../plan-params.js";
import { stepProgress } from "../plan-progress.js";
import type { FlatMode, Planner, PlanOptions } from "../types.js";

/** ceil(log2 p): Bruck's rounds on p ranks (0 for p = 1). */
export function bruckRoundCount(p: number): number {
  let r = 0;
  while (1 << r < p) r++;
  return r;
}

/** The off-diagonal non-zero entries of m: origin, destination, elements, and distance (d - o) mod P. */
interface Entries {
  readonly origin: Uint32Array;
  readonly dest: Uint32Array;
  readonly size: Float64Array;
  readonly dist: Uint32Array;
}

function entriesOf(m: CommMatrix): Entries {
  const { p } = m;
  const { rowStart, col, val } = matrixRows(m);
  let n = 0;
  for (let i = 0; i < p; i++) for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) if (col[k] !== i) n++;
  const e = {
    origin: new Uint32Array(n),
    dest: new Uint32Array(n),
    size: new Float64Array(n),
    dist: new Uint32Array(n),
  };
  let x = 0;
  for (let i = 0; i < p; i++)
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const j = col[k]!;
      if (j === i) continue;
      e.origin[x] = i;
      e.dest[x] = j;
      e.size[x] = val[k]!;
      e.dist[x] = (j - i + p) % p;
      x++;
    }
  return e;
}

/**
 * The entries moving in round b, grouped by the rank holding them (o + (dist mod 2^b)): entries of holder h are
 * at[start[h] .. start[h + 1] - 1], in entry order.
 */
function roundGroups(e: Entries, p: number, b: number): { start: Uint32Array; at: Uint32Array } {
  const bit = 1 << b;
  const low = bit - 1;
  const start = new Uint32Array(p + 1);
  const n = e.dist.length;
  for (let x = 0; x < n; x++) if ((e.dist[x]! & bit) !== 0) start[((e.origin[x]! + (e.dist[x]! & low)) % p) + 1]!++;
  for (let h = 0; h < p; h++) start[h + 1]! += start[h]!;
  const fill = start.slice(0, p);
  const at = new Uint32Array(start[p]!);
  for (let x = 0; x < n; x++) if ((e.dist[x]! & bit) !== 0) at[fill[(e.origin[x]! + (e.dist[x]! & low)) % p]!++] = x;
  return { start, at };
}

/**
 * One stage per round (traits.stages "rounds"): a rank forwards in round b + 1 what it received in round b, and a plan
 * forwards only across stages (the nonblocking replay's send rule relies on it). Progress: the rounds, then the build.
 */
function plan(m: CommMatrix, opts: PlanOptions): Schedule {
  const { p } = m;
  const rounds = bruckRoundCount(p);
  const [reached, built] = stepProgress(opts, rounds);
  const e = entriesOf(m);
  const b = new ScheduleBuilder(planHeader(m, "mpi-bruck", opts, false), opts.payload, p * rounds);
  for (let r = 0; r < rounds; r++) {
    reached(r);
    const { start, at } = roundGroups(e, p, r);
    if (start[p] === 0) continue;
    b.stage(`round ${r + 1}`, "compose").step();
    for (let h = 0; h < p; h++) {
      if (start[h] === start[h + 1]) continue;
      let total = 0;
      for (let k = start[h]!; k < start[h + 1]!; k++) total += e.size[at[k]!]!;
      b.transfer(h, (h + (1 << r)) % p, total);
      if (b.payload)
        for (let k = start[h]!; k < start[h + 1]!; k++) b.chunk(e.origin[at[k]!]!, e.dest[at[k]!]!, 0, e.size[at[k]!]!);
    }
  }
  const s = b.build();
  built();
  return s;
}

/** The exact flat time of the Bruck plan. */
export function predictBruck(m: CommMatrix, machine: MachineModel, mode: FlatMode): number {
  const { p } = m;
  const f = tally(m, machine, mode);
  const e = entriesOf(m);
  for (let r = 0; r < bruckRoundCount(p); r++) {
    const { start, at } = roundGroups(e, p, r);
    if (start[p] === 0) continue;
    for (let h = 0; h < p; h++) {
      if (start[h] === start[h + 1]) continue;
      let total = 0;
      for (let k = start[h]!; k < start[h + 1]!; k++) total += e.size[at[k]!]!;
      f.send(h, (h + (1 << r)) % p, total);
    }
    f.step();
    f.endStage(true);
  }
  return f.total;
}

/** Bruck's log-round plan (relayed). */
export const mpiBruck: Planner = definePlanner(
  {
    name: "mpi-bruck",
    title: "Bruck's index alltoall for small messages: ceil(log2 P) rounds to i + 2^b, payload forwarded",
    source: "Bruck et al. 1997; MPICH / Open MPI alltoall bruck (short messages); SMPI 3.32 alltoall bruck",
    params: {},
    traits: {
      relayed: true,
      randomised: false,
      stages: "rounds",
      growth: "linear",
      claims: "none",
      mpi: {
        does: "MPICH and Open MPI alltoall for short messages (Bruck)",
        isDefault: false,
        selector: false,
        // SMPI has no Bruck alltoallv: its `bruck` is the scattered algorithm (mpi-scattered)
        smpi: [],
      },
    },
    auto: {
      variants: [{ params: {} }],
      predict: (m, machine, mode) => predictBruck(m, machine, mode),
    },
  },
  plan,
);
