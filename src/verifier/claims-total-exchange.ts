/**
 * Claims of the total-exchange round protocols of 001: one stage per round, shift steps, one packet per ordered pair
 * per round.
 */
import type { CommMatrix } from "../model/matrix.js";
import type { MatrixStats } from "../model/matrix-stats.js";
import type { Schedule } from "../model/schedule.js";
import type { AlgorithmClaims } from "./types.js";
import { atLeast, atMost, check, type Check } from "./report.js";

/**
 * Per round (stage): at most P - 1 steps (001 Fact 1: the OCPC total exchange, shifts
 * i -> (i + j) mod P, j = 1..P-1; the j = 0 step is local) and at most one element per ordered
 * pair (u, v), u != v, in the whole round.
 */
export function checkTeRounds(s: Schedule): Check[] {
  const { p } = s;
  // per round, the round's network transfers are linked by source; one scratch row of P sums a
  // source's pairs (no P x P table: O(P + T) memory, O(T) time over all rounds)
  const head = new Int32Array(p).fill(-1),
    next = new Int32Array(s.transferCount),
    srcs = new Uint32Array(p);
  const onPair = new Float64Array(p);
  let pairWitness: string | null = null,
    stepWitness: string | null = null,
    mostSteps = 0,
    mostOnPair = 0;
  s.stages.forEach((st, k) => {
    if (st.stepCount > mostSteps) mostSteps = st.stepCount;
    if (st.stepCount > Math.max(0, p - 1)) stepWitness ??= `round ${k + 1} (${st.name}) has ${st.stepCount} steps`;
    let ns = 0;
    for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[st.firstStep + st.stepCount]!; x++) {
      const a = s.src[x]!;
      if (a === s.dst[x]) continue;
      if (head[a] === -1) srcs[ns++] = a;
      next[x] = head[a]!;
      head[a] = x;
    }
    for (let i = 0; i < ns; i++) {
      const a = srcs[i]!;
      for (let x = head[a]!; x !== -1; x = next[x]!) onPair[s.dst[x]!] = onPair[s.dst[x]!]! + s.size[x]!;
      for (let x = head[a]!; x !== -1; x = next[x]!) {
        const b = s.dst[x]!,
          total = onPair[b]!;
        if (total > mostOnPair) mostOnPair = total;
        if (total > 1) pairWitness ??= `round ${k + 1} (${st.name}) carries ${total} elements ${a} -> ${b}`;
      }
      for (let x = head[a]!; x !== -1; x = next[x]!) onPair[s.dst[x]!] = 0;
      head[a] = -1;
    }
  });
  return [
    atMost(
      "te-steps-per-round",
      "every round (stage) has at most P - 1 steps",
      "001 sec 2, Fact 1 (OCPC total exchange in N steps, one of them local)",
      mostSteps,
      Math.max(0, p - 1),
      stepWitness,
    ),
    atMost(
      "te-one-per-pair",
      "every round carries at most one packet per ordered pair",
      "001 sec 2 (a total-exchange round: one message per ordered pair)",
      mostOnPair,
      1,
      pairWitness,
    ),
  ];
}

/** ceil(max elements a node sends or receives, self excluded, / (P - 1)): no round moves more than P - 1 per node. */
export function teLowerBound(p: number, t: number): number {
  return p <= 1 || t === 0 ? 0 : Math.ceil(t / (p - 1));
}

/**
 * Relay bound: the fewest R with sum over pairs u != v of (R - M[u][v])+ >= 2 * sum of (M[u][v] - R)+.
 * In R rounds a pair carries at most R elements, so every element beyond R on a pair takes two hops
 * or more: P (P - 1) R transfers must hold sum(M) + sum((M - R)+). For P <= 2: the largest entry.
 */
export function teRelayBound(m: CommMatrix): number {
  const { p, data } = m;
  let most = 0;
  for (let u = 0; u < p; u++)
    for (let v = 0; v < p; v++) if (u !== v && data[u * p + v]! > most) most = data[u * p + v]!;
  if (p <= 2) return most;
  const fits = (r: number): boolean => {
    let spare = 0,
      over = 0;
    for (let u = 0; u < p; u++) {
      for (let v = 0; v < p; v++) {
        if (u === v) continue;
        const x = data[u * p + v]!;
        if (x > r) over += x - r;
        else spare += r - x;
      }
    }
    return spare >= 2 * over;
  };
  let lo = 0,
    hi = most;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (fits(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function roundChecks(m: CommMatrix, s: Schedule, stats: MatrixStats): Check[] {
  const lb = teLowerBound(m.p, stats.t),
    relay = Math.max(lb, teRelayBound(m));
  return [
    ...checkTeRounds(s),
    atLeast(
      "te-rounds-lower-bound",
      "rounds >= ceil(t / (P - 1))",
      "001 sec 3 (each node sends and receives at most N - 1 packets per round)",
      s.stages.length,
      lb,
      `${s.stages.length} rounds cannot move t = ${stats.t} packets of one node`,
    ),
    atLeast(
      "te-rounds-relay-bound",
      "rounds >= the relay bound (elements beyond R on a pair take two hops: sum (R - M)+ >= 2 sum (M - R)+)",
      "docs/algorithms/total-exchange.md (relay lower bound)",
      s.stages.length,
      relay,
      `${s.stages.length} rounds leave too few pair slots for the relayed elements`,
    ),
  ];
}

const TE_BASE = { direct: false, whole: false, shift: true } as const;

/** Claims by algorithm name, merged into CLAIMS. */
export const TOTAL_EXCHANGE_CLAIMS: { readonly [name: string]: AlgorithmClaims } = {
  "te-direct": {
    direct: true,
    whole: false,
    shift: true,
    extra: (m, s, stats) => [
      ...roundChecks(m, s, stats),
      check(
        "te-direct-rounds",
        "rounds == largest off-diagonal entry (max packets over origin-destination pairs)",
        "001 sec 4 (direct protocol)",
        s.stages.length === stats.mMaxOffDiagonal,
        s.stages.length,
        stats.mMaxOffDiagonal,
        `${s.stages.length} rounds, max pair load ${stats.mMaxOffDiagonal}`,
      ),
    ],
  },
  "te-valiant": { ...TE_BASE, extra: roundChecks },
  "te-simple": { ...TE_BASE, extra: roundChecks },
  "te-fast": { ...TE_BASE, extra: roundChecks },
  "te-balanced": { ...TE_BASE, extra: roundChecks },
  "te-offline": {
    ...TE_BASE,
    extra: (m, s, stats) => [
      ...roundChecks(m, s, stats),
      atMost(
        "te-offline-rounds",
        "rounds <= largest off-diagonal entry (never worse than the direct protocol)",
        "docs/algorithms/total-exchange.md (te-offline tries R from the lower bound up to the max pair load)",
        s.stages.length,
        stats.mMaxOffDiagonal,
        `${s.stages.length} rounds`,
      ),
    ],
  },
};
