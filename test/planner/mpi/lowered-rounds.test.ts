/**
 * The lowered nonblocking program of each MPI planner runs the messages of the MPI algorithm in its rounds: the
 * reference here follows SMPI 3.32's loops (src/smpi/colls/alltoallv/*.cpp) rank by rank, independently of the planner.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { entry, type CommMatrix } from "../../../src/model/matrix.js";
import { plan } from "../../../src/planner/index.js";
import { lowerSchedule } from "../../../src/lower/lower-schedule.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

/** Per round, per rank: the sends as "peer:elements", sorted; rounds without any message left out. */
type Rounds = string[][][];

function compact(rounds: Rounds): Rounds {
  return rounds.map((r) => r.map((x) => [...x].sort())).filter((r) => r.some((x) => x.length > 0));
}

/** Rank i's loop over steps k, sending to dst(i, k) in round round(k), for k in 0..steps-1. */
function loops(
  m: CommMatrix,
  steps: number,
  dst: (i: number, k: number) => number,
  round: (k: number) => number,
): Rounds {
  const { p } = m;
  const out: Rounds = [];
  for (let i = 0; i < p; i++)
    for (let k = 0; k < steps; k++) {
      const j = dst(i, k);
      const r = round(k);
      while (out.length <= r) out.push(Array.from({ length: p }, () => []));
      if (j !== i && entry(m, i, j) > 0) out[r]![i]!.push(`${j}:${entry(m, i, j)}`);
    }
  return compact(out);
}

/** Bruck: each rank holds (origin, dest, count); round b sends what is 2^b ahead in its remaining distance. */
function bruck(m: CommMatrix): Rounds {
  const { p } = m;
  let held: [number, number, number][][] = Array.from({ length: p }, (_, i) =>
    Array.from({ length: p }, (_, j) => [i, j, entry(m, i, j)] as [number, number, number]).filter(
      ([o, d, c]) => o !== d && c > 0,
    ),
  );
  const out: Rounds = [];
  for (let bit = 1; bit < p; bit *= 2) {
    const next: [number, number, number][][] = held.map(() => []);
    const round: string[][] = Array.from({ length: p }, () => []);
    for (let h = 0; h < p; h++) {
      let total = 0;
      for (const e of held[h]!)
        if ((((e[1] - h + p) % p) & bit) !== 0) {
          next[(h + bit) % p]!.push(e);
          total += e[2];
        } else next[h]!.push(e);
      if (total > 0) round[h]!.push(`${(h + bit) % p}:${total}`);
    }
    held = next;
    out.push(round);
  }
  for (let h = 0; h < p; h++) for (const e of held[h]!) expect(e[1]).toBe(h); // every element arrived
  return compact(out);
}

/** What SMPI 3.32 runs for each planner. */
function reference(algorithm: string, m: CommMatrix): Rounds {
  const { p } = m;
  const pow2 = (p & (p - 1)) === 0;
  switch (algorithm) {
    case "mpi-linear": // colls::ialltoallv: every isend posted, one waitall
      return loops(
        m,
        p,
        (_i, j) => j,
        () => 0,
      );
    case "mpi-pair":
    case "mpi-ring": // for i in 0..P-1: sendrecv with rank ^ i (P a power of two), else to rank + i
      return loops(
        m,
        p,
        (i, k) => (pow2 ? i ^ k : (i + k) % p),
        (k) => k,
      );
    case "mpi-scattered": // blocks of 4: send to rank - i - ii, waitall per block
      return loops(
        m,
        p,
        (i, k) => (i - k + p) % p,
        (k) => Math.floor(k / 4),
      );
    case "mpi-bruck":
      return bruck(m);
    default:
      throw new Error(algorithm);
  }
}

/** The program's sends per round and rank. */
function programRounds(m: CommMatrix, algorithm: string, payload: boolean): Rounds {
  const s = plan(m, algorithm, { payload });
  const { program } = lowerSchedule(m, s, { variant: "nonblocking" });
  const { ops } = program;
  const out: Rounds = Array.from({ length: program.rounds }, () => Array.from({ length: m.p }, () => []));
  for (let x = 0; x < ops.rank.length; x++)
    if (ops.kind[x] === 0) out[ops.round[x]!]![ops.rank[x]!]!.push(`${ops.peer[x]}:${ops.count[x]}`);
  return compact(out);
}

describe.each(["mpi-linear", "mpi-pair", "mpi-ring", "mpi-scattered", "mpi-bruck"])("%s lowered", (algorithm) => {
  it("runs the MPI algorithm's messages in its rounds (messages per round and rank)", () => {
    fc.assert(
      fc.property(matrixRecipe({ maxP: 20, kinds: ["dense", "sparse", "empty-rows", "spike", "permutation"] }), (r) => {
        const m = buildMatrix(r);
        if (algorithm === "mpi-pair" && (m.p & (m.p - 1)) !== 0) return; // SMPI's pair refuses such P
        const relayed = algorithm === "mpi-bruck";
        expect(programRounds(m, algorithm, relayed)).toEqual(reference(algorithm, m));
      }),
      { numRuns: 60 },
    );
  });
});

describe("round counts on a full matrix", () => {
  it("linear 1, pair and ring P - 1, scattered ceil(P / 4), bruck ceil(log2 P)", () => {
    for (const p of [2, 5, 8, 13, 16]) {
      const m = buildMatrix({ p, kind: "dense", seed: 2, maxEntry: 1 });
      const rounds = (a: string) => lowerSchedule(m, plan(m, a, { payload: true })).program.rounds;
      expect(rounds("mpi-linear")).toBe(1);
      expect(rounds("mpi-ring")).toBe(p - 1);
      expect(rounds("mpi-scattered")).toBe(Math.ceil(p / 4));
      expect(rounds("mpi-bruck")).toBe(Math.ceil(Math.log2(p)));
    }
  });
});
