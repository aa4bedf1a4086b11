/**
 * Linear permutation: pairwise exchange with partner i XOR k (000 sec 4, fig. 3; 003 sec 3.2, fig. 3), extended to any
 * P.
 */
import type { CommMatrix } from "../model/matrix.js";
import type { MachineModel } from "../model/machine.js";
import { feedByStep, tally } from "./flat-tally.js";
import { ScheduleBuilder } from "../model/schedule.js";
import { countMessages, planHeader, sendByStep, sendSize } from "./plan-header.js";
import { definePlanner } from "./plan-params.js";
import { stepProgress } from "./plan-progress.js";
import type { FlatMode, Planner, PlanOptions } from "./types.js";

/**
 * The partner of node i in round r of a pairwise-exchange schedule of P nodes, or -1 when i idles.
 * P a power of two: round r = 1..P-1 pairs i with i XOR r (the paper). Other P: the circle method
 * (round-robin tournament), rounds r = 0..R-1 with R = P - 1 (P even) or P (P odd, one node idles).
 */
export function lpPartner(p: number, r: number, i: number): number {
  if ((p & (p - 1)) === 0) return i ^ r;
  const n = p % 2 === 0 ? p : p + 1; // even number of seats, seat p is a dummy when P is odd
  const q = n - 1; // seats 0..q-1 rotate, seat q is fixed
  let partner: number;
  if (i === q) partner = r % q;
  else if (i === r % q) partner = q;
  else partner = (((2 * r - i) % q) + q) % q;
  return partner >= p ? -1 : partner;
}

/**
 * The round of lpPartner in which i and j (i != j) exchange: i XOR j when P is a power of two; in
 * the circle method (n seats, q = n - 1 rotating, seat q fixed) i = q pairs with r mod q, and two
 * rotating seats pair when 2r = i + j (mod q), q odd, so r = (i + j)(q + 1)/2 mod q.
 */
export function lpRoundOf(p: number, i: number, j: number): number {
  if ((p & (p - 1)) === 0) return i ^ j;
  const q = (p % 2 === 0 ? p : p + 1) - 1;
  if (i === q) return j;
  if (j === q) return i;
  return (((i + j) % q) * ((q + 1) / 2)) % q;
}

/** The rounds of the pairwise-exchange schedule: [first, last]. */
export function lpRounds(p: number): [number, number] {
  if (p <= 1) return [1, 0];
  if ((p & (p - 1)) === 0) return [1, p - 1];
  return [0, p % 2 === 0 ? p - 2 : p - 1];
}

/** Progress: the rounds emitted, then the build (a sparse matrix's plan, O(P + E), reports only its end). */
function plan(m: CommMatrix, opts: PlanOptions): ReturnType<Planner["plan"]> {
  const { p } = m;
  const b = new ScheduleBuilder(planHeader(m, "linear-permutation", opts, false), opts.payload, countMessages(m));
  b.stage("exchange", "compose");
  const [first, last] = lpRounds(p);
  const [reached, built] = stepProgress(opts, Math.max(0, last - first + 1));
  // sparse: the pairs grouped by the round in which they exchange, only the non-empty rounds (the same plan)
  if (m.sparse) sendByStep(b, m, last + 1, (i, j) => lpRoundOf(p, i, j));
  else {
    const data = m.data;
    const pow2 = (p & (p - 1)) === 0;
    for (let r = first; r <= last; r++) {
      reached(r - first);
      b.step();
      for (let i = 0; i < p; i++) {
        const j = pow2 ? i ^ r : lpPartner(p, r, i);
        if (j >= 0 && j !== i) sendSize(b, i, j, data[i * p + j]!);
      }
      b.dropEmptyStep();
    }
  }
  const s = b.build();
  built();
  return s;
}

/** Flat time of the linear-permutation planner (its pairing, lpPartner). */
export function predictLinearPermutation(m: CommMatrix, machine: MachineModel, mode: FlatMode): number {
  const p = m.p;
  const f = tally(m, machine, mode);
  const [first, last] = lpRounds(p);
  if (m.sparse) {
    feedByStep(m, f, last + 1, (i, j) => lpRoundOf(p, i, j));
    f.endStage(true);
    return f.total;
  }
  const data = m.data;
  const partner = new Int32Array(p);
  for (let r = first; r <= last; r++) {
    for (let i = 0; i < p; i++) partner[i] = lpPartner(p, r, i);
    for (let i = 0; i < p; i++) {
      const j = partner[i]!;
      if (j < 0 || j === i) continue;
      const v = data[i * p + j]!;
      if (v !== 0) f.send(i, j, v);
    }
    f.step();
  }
  f.endStage(true);
  return f.total;
}

/** The linear permutation planner. */
export const linearPermutation: Planner = definePlanner(
  {
    name: "linear-permutation",
    title: "pairwise exchange with partner i XOR k; circle method when P is not a power of two",
    source: "000 sec 4 fig. 3; 003 sec 3.2 fig. 3",
    params: {},
    traits: { relayed: false, randomised: false, stages: 1, growth: "linear", claims: "verifier" },
    auto: {
      variants: [{ params: {}, alwaysFinal: true, early: "exact" }],
      predict: (m, machine, mode) => predictLinearPermutation(m, machine, mode),
      bound: "busiest-node",
    },
  },
  plan,
);
