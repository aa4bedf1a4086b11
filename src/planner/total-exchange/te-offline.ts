/**
 * te-offline (ours): an offline router for total-exchange rounds that knows the whole relation (idle slots carry excess
 * packets, 001 sec 4 idea).
 */
import { integer } from "../../model/param-spec.js";
import { groupByKey } from "../../internal/buckets.js";
import { matrixDigest, type CommMatrix } from "../../model/matrix.js";
import { digestSeed } from "../../model/matrix-digest.js";
import { createRng, type Rng } from "../../model/rng.js";
import { progressTicker, type ProgressCallback } from "../../model/progress.js";
import { teOutputs, defineTeProtocol } from "./protocol.js";
import { causalLowerBound, relationLoad, relayLowerBound, roundLowerBound, type RoundEngine } from "./round-engine.js";

/** An offline plan: R rounds; relayed packets i -> k -> j with their hop-1 and hop-2 rounds. */
export interface OfflinePlan {
  readonly rounds: number;
  readonly lowerBound: number;
  /** R - lower bound: the round counts below R, each below the search's start or rejected by it (past the first
   * MAX_GREEDY_TRIES values the gallop skips some). */
  readonly attempts: number;
  /** The relay lower bound (relayLowerBound): no total-exchange router needs fewer rounds. */
  readonly relayBound: number;
  /** The causal lower bound (causalLowerBound); the search starts at max(relayBound, causalBound). */
  readonly causalBound: number;
  /** Orders tried at the R that succeeded (0: settled for the max pair load). */
  readonly orderTries: number;
  /** Greedy passes that failed (strict and relaxed rule counted apart), over every R tried. */
  readonly failedTries: number;
  /**
   * Work spent: score evaluations (one per intermediate looked at) over every pass; the most one repair took; the
   * longest ejection chain.
   */
  readonly work: { readonly scores: number; readonly maxRepair: number; readonly maxChain: number };
  readonly relayI: Int32Array;
  readonly relayK: Int32Array;
  readonly relayJ: Int32Array;
  readonly hop1Round: Int32Array;
  readonly hop2Round: Int32Array;
}

/** Open pairs (spare slots > 0) by row and by column, with O(1) open and close. */
class OpenPairs {
  readonly out: Int32Array;
  readonly outLen: Int32Array;
  readonly inn: Int32Array;
  readonly inLen: Int32Array;
  private readonly outPos: Int32Array;
  private readonly inPos: Int32Array;
  constructor(readonly n: number) {
    this.out = new Int32Array(n * n);
    this.inn = new Int32Array(n * n);
    this.outPos = new Int32Array(n * n);
    this.inPos = new Int32Array(n * n);
    this.outLen = new Int32Array(n);
    this.inLen = new Int32Array(n);
  }
  open(u: number, v: number): void {
    const n = this.n;
    this.outPos[u * n + v] = this.outLen[u]!;
    this.out[u * n + this.outLen[u]!++] = v;
    this.inPos[u * n + v] = this.inLen[v]!;
    this.inn[v * n + this.inLen[v]!++] = u;
  }
  close(u: number, v: number): void {
    const n = this.n;
    let pos = this.outPos[u * n + v]!,
      last = this.out[u * n + --this.outLen[u]!]!;
    this.out[u * n + pos] = last;
    this.outPos[u * n + last] = pos;
    pos = this.inPos[u * n + v]!;
    last = this.inn[v * n + --this.inLen[v]!]!;
    this.inn[v * n + pos] = last;
    this.inPos[last * n + v] = pos;
  }
}

/**
 * Score evaluations one repair may spend, per node (checked between relay moves; the repairs that succeed on the table
 * sizes take at most 7 N).
 */
export const REPAIR_WORK_PER_NODE = 16;
/** Steps one ejection chain may take (the chains that succeed on N = 64, h = 50N, seeds 1..30 take at most 167). */
export const EJECT_CHAIN = 256;

/** Work counters of planOffline, summed over its passes. */
interface Work {
  scores: number;
  maxRepair: number;
  maxChain: number;
}

type Relays = Pick<OfflinePlan, "relayI" | "relayK" | "relayJ" | "hop1Round" | "hop2Round">;

/** The greedy relay assignment of one tryRounds pass: spare slots per pair, relays by pair, and the moves on them. */
class RelayRouter {
  readonly cap: Int32Array;
  readonly h1: Int32Array;
  readonly h2: Int32Array;
  readonly open: OpenPairs;
  readonly excess: number;
  readonly relayI: Int32Array;
  readonly relayK: Int32Array;
  readonly relayJ: Int32Array;
  // relays by first-hop pair and by second-hop pair (singly linked lists), and assignment stamps
  readonly head1: Int32Array;
  readonly next1: Int32Array;
  readonly head2: Int32Array;
  readonly next2: Int32Array;
  // each relay's predecessor in its two lists (-1: the head), so that a release unlinks it in O(1)
  private readonly prev1: Int32Array;
  private readonly prev2: Int32Array;
  readonly stamp1: Int32Array;
  readonly stamp2: Int32Array;
  clock = 0;
  private readonly n: number;
  private readonly victims: Int32Array;
  private budget: number;

  constructor(
    m: CommMatrix,
    private readonly R: number,
    private readonly rng: Rng,
    private readonly candidates: number,
    private readonly strict: boolean,
    private readonly work: Work,
  ) {
    const n = (this.n = m.p),
      d = m.data;
    this.cap = new Int32Array(n * n);
    this.h1 = new Int32Array(n * n);
    this.h2 = new Int32Array(n * n);
    this.open = new OpenPairs(n);
    let excess = 0;
    for (let u = 0; u < n; u++) {
      for (let v = 0; v < n; v++) {
        if (u === v) continue;
        const x = d[u * n + v]!;
        if (x > R) excess += x - R;
        else if (x < R) {
          this.cap[u * n + v] = R - x;
          this.open.open(u, v);
        }
      }
    }
    this.excess = excess;
    this.relayI = new Int32Array(excess);
    this.relayK = new Int32Array(excess).fill(-1);
    this.relayJ = new Int32Array(excess);
    this.head1 = new Int32Array(n * n).fill(-1);
    this.next1 = new Int32Array(excess).fill(-1);
    this.head2 = new Int32Array(n * n).fill(-1);
    this.next2 = new Int32Array(excess).fill(-1);
    this.prev1 = new Int32Array(excess).fill(-1);
    this.prev2 = new Int32Array(excess).fill(-1);
    this.stamp1 = new Int32Array(excess);
    this.stamp2 = new Int32Array(excess);
    this.victims = new Int32Array(Math.max(1, R));
    this.budget = Math.max(1024, 4 * excess);
  }

  /** The excess packets (one entry i * n + j per packet beyond R on pair i -> j) in a random order. */
  shuffledExcess(d: ArrayLike<number>): Int32Array {
    const n = this.n,
      R = this.R,
      excess = this.excess;
    const list = new Int32Array(excess);
    let e = 0;
    for (let q = 0; q < n * n; q++) for (let c = d[q]! - R; c > 0 && q % (n + 1) !== 0; c--) list[e++] = q;
    for (let a = excess - 1; a > 0; a--) {
      const b = this.rng.int(a + 1);
      const t = list[a]!;
      list[a] = list[b]!;
      list[b] = t;
    }
    return list;
  }

  /**
   * Places relay x (packet i * n + j = q): the best intermediate, else a repair, else an ejection chain; false when all
   * fail.
   */
  place(x: number, q: number): boolean {
    const n = this.n,
      work = this.work;
    this.relayI[x] = Math.floor(q / n);
    this.relayJ[x] = q % n;
    const k = this.bestK(this.relayI[x]!, this.relayJ[x]!, -1);
    if (k >= 0) {
      this.assign(x, k);
      return true;
    }
    const w0 = work.scores,
      fixed = this.repair(x);
    if (work.scores - w0 > work.maxRepair) work.maxRepair = work.scores - w0;
    return fixed || this.eject(x);
  }

  /** Puts x at the head of list q. */
  private link(head: Int32Array, next: Int32Array, prev: Int32Array, q: number, x: number): void {
    const h = head[q]!;
    next[x] = h;
    prev[x] = -1;
    if (h >= 0) prev[h] = x;
    head[q] = x;
  }

  /** Takes x out of list q, the others keeping their order. */
  private unlink(head: Int32Array, next: Int32Array, prev: Int32Array, q: number, x: number): void {
    const a = prev[x]!,
      b = next[x]!;
    if (a < 0) head[q] = b;
    else next[a] = b;
    if (b >= 0) prev[b] = a;
  }

  private score(i: number, k: number, j: number): number {
    this.work.scores++;
    if (k === i || k === j || k < 0) return 0;
    const n = this.n,
      a = i * n + k,
      b = k * n + j;
    const ca = this.cap[a]!,
      cb = this.cap[b]!;
    // strict: first-hop position + second-hop count <= R - 2 keeps every relay schedulable
    if (ca <= 0 || cb <= 0 || this.h1[a]! + (this.strict ? this.h2[b]! : 0) > this.R - 2) return 0;
    return ca < cb ? ca : cb;
  }

  private assign(x: number, k: number): void {
    const n = this.n,
      i = this.relayI[x]!,
      j = this.relayJ[x]!,
      a = i * n + k,
      b = k * n + j;
    this.relayK[x] = k;
    this.h1[a]!++;
    this.h2[b]!++;
    if (--this.cap[a]! === 0) this.open.close(i, k);
    if (--this.cap[b]! === 0) this.open.close(k, j);
    this.link(this.head1, this.next1, this.prev1, a, x);
    this.stamp1[x] = this.clock++;
    this.link(this.head2, this.next2, this.prev2, b, x);
    this.stamp2[x] = this.clock++;
  }

  private release(x: number): void {
    const n = this.n,
      i = this.relayI[x]!,
      k = this.relayK[x]!,
      j = this.relayJ[x]!,
      a = i * n + k,
      b = k * n + j;
    this.h1[a]!--;
    this.h2[b]!--;
    if (this.cap[a]!++ === 0) this.open.open(i, k);
    if (this.cap[b]!++ === 0) this.open.open(k, j);
    this.unlink(this.head1, this.next1, this.prev1, a, x);
    this.unlink(this.head2, this.next2, this.prev2, b, x);
    this.relayK[x] = -1;
  }

  /** Best intermediate for i -> j: random candidates from the shorter open list, else a scan of it. */
  private bestK(i: number, j: number, avoid: number): number {
    const open = this.open,
      n = this.n,
      candidates = this.candidates;
    const useOut = open.outLen[i]! <= open.inLen[j]!;
    const len = useOut ? open.outLen[i]! : open.inLen[j]!;
    const base = useOut ? i * n : j * n,
      pool = useOut ? open.out : open.inn;
    let best = -1,
      bestScore = 0;
    if (len > 2 * candidates) {
      // up to 8 * candidates random tries, stopping after `candidates` usable ones
      for (let t = 0, found = 0; t < 8 * candidates && found < candidates; t++) {
        const k = pool[base + this.rng.int(len)]!;
        const s = k === avoid ? 0 : this.score(i, k, j);
        if (s > 0) found++;
        if (s > bestScore) {
          bestScore = s;
          best = k;
        }
      }
    }
    if (best < 0) {
      for (let y = 0; y < len; y++) {
        const k = pool[base + y]!;
        const s = k === avoid ? 0 : this.score(i, k, j);
        if (s > bestScore) {
          bestScore = s;
          best = k;
        }
      }
    }
    return best;
  }

  /**
   * Depth-1 repair: frees a slot on i -> k or k -> j by moving one relay that uses it elsewhere;
   * at most REPAIR_WORK_PER_NODE * n score evaluations (checked between relay moves).
   */
  private repair(x: number): boolean {
    const open = this.open,
      n = this.n,
      work = this.work;
    const i = this.relayI[x]!,
      j = this.relayJ[x]!,
      stop = work.scores + REPAIR_WORK_PER_NODE * n;
    for (let y = 0; y < open.outLen[i]! && work.scores < stop; y++) {
      const k = open.out[i * n + y]!;
      if (k === j) continue;
      if (this.moveOne(x, i, k, j, true, stop)) return true;
    }
    for (let y = 0; y < open.inLen[j]! && work.scores < stop; y++) {
      const k = open.inn[j * n + y]!;
      if (k === i) continue;
      if (this.moveOne(x, i, k, j, false, stop)) return true;
    }
    return false;
  }

  /**
   * Tries to move one of the relays that use k -> j (`secondHop`) or i -> k (the first R of that pair's list, in its
   * order) to another intermediate so that x can go through k; true when x is placed. The list is walked as it was
   * when the move began: a relay tried is unlinked and either leaves the list or goes back to its head, and neither
   * changes the relays after it (the walk keeps its successor), so no copy of the list is needed; a repair used to
   * copy up to R relays per intermediate, most never tried once the work budget ran out.
   */
  private moveOne(x: number, i: number, k: number, j: number, secondHop: boolean, stop: number): boolean {
    const n = this.n;
    const head = secondHop ? this.head2 : this.head1,
      next = secondHop ? this.next2 : this.next1;
    const cap = Math.max(1, this.R);
    for (let z = 0, r = head[secondHop ? k * n + j : i * n + k]!; r >= 0 && z < cap; z++) {
      if (this.work.scores >= stop) break;
      const after = next[r]!;
      this.release(r);
      const k2 = secondHop ? this.bestK(this.relayI[r]!, j, k) : this.bestK(i, this.relayJ[r]!, k);
      if (k2 >= 0 && this.score(i, k, j) > 0) {
        this.assign(r, k2);
        this.assign(x, k);
        return true;
      }
      if (k2 >= 0) this.assign(r, k2);
      else this.assign(r, k);
      r = after;
    }
    return false;
  }

  /**
   * Ejection chain (when the repair fails): puts x on an intermediate k with a spare slot on one of
   * its two pairs, evicting a random relay from the other (full) pair; the evicted relay looks for a
   * place in the same way: at most EJECT_CHAIN steps per chain and `budget` steps in all.
   */
  private eject(x0: number): boolean {
    const open = this.open,
      n = this.n,
      work = this.work,
      victims = this.victims;
    let x = x0,
      last = -1;
    for (let step = 1; step <= EJECT_CHAIN && this.budget-- > 0; step++) {
      if (step > work.maxChain) work.maxChain = step;
      const i = this.relayI[x]!,
        j = this.relayJ[x]!;
      const k0 = this.bestK(i, j, -1);
      if (k0 >= 0) {
        this.assign(x, k0);
        return true;
      }
      const lo = open.outLen[i]!,
        li = open.inLen[j]!;
      if (lo + li === 0) return false;
      const r = this.rng.int(lo + li);
      const k = r < lo ? open.out[i * n + r]! : open.inn[j * n + r - lo]!;
      const b = r < lo ? k * n + j : i * n + k; // the full pair
      if (k === i || k === j || this.cap[b]! > 0) continue;
      let cnt = 0;
      for (let y = this.head1[b]!; y >= 0 && cnt < victims.length; y = this.next1[y]!)
        if (y !== last) victims[cnt++] = y;
      for (let y = this.head2[b]!; y >= 0 && cnt < victims.length; y = this.next2[y]!)
        if (y !== last) victims[cnt++] = y;
      if (cnt === 0) continue;
      const y = victims[this.rng.int(cnt)]!;
      this.release(y);
      this.assign(x, k);
      last = x;
      x = y;
    }
    return false;
  }

  /**
   * Rounds: a pair's first-hop relays take its first rounds 0, 1, ... in the order they were
   * assigned to the pair; its second-hop relays, sorted by arrival (first-hop round + 1), take the
   * earliest rounds after both the arrival and the pair's first-hop rounds (earliest release first,
   * optimal for unit slots); the direct packets fill the remaining rounds. Null when a relay misses R.
   */
  rounds(): Relays | null {
    const n = this.n,
      R = this.R,
      excess = this.excess,
      clock = this.clock;
    const { relayI, relayK, stamp1, head2, next2, h1 } = this;
    const byStamp = new Int32Array(clock).fill(-1);
    for (let x = 0; x < excess; x++) byStamp[stamp1[x]!] = x;
    const pos1 = new Int32Array(n * n);
    const hop1Round = new Int32Array(excess),
      hop2Round = new Int32Array(excess);
    for (let c = 0; c < clock; c++) {
      const x = byStamp[c]!;
      if (x < 0 || stamp1[x] !== c) continue;
      hop1Round[x] = pos1[relayI[x]! * n + relayK[x]!]!++;
    }
    let buf = new Int32Array(64);
    for (let q = 0; q < n * n; q++) {
      if (head2[q]! < 0) continue;
      let cnt = 0;
      for (let r = head2[q]!; r >= 0; r = next2[r]!) {
        if (cnt === buf.length) {
          const b2 = new Int32Array(cnt * 2);
          b2.set(buf);
          buf = b2;
        }
        buf[cnt++] = r;
      }
      const part = buf.subarray(0, cnt).sort((x, y) => hop1Round[x]! - hop1Round[y]!);
      let t = h1[q]!;
      for (const r of part) {
        t = Math.max(t, hop1Round[r]! + 1);
        if (t >= R) return null;
        hop2Round[r] = t++;
      }
    }
    return { relayI, relayK, relayJ: this.relayJ, hop1Round, hop2Round };
  }
}

/** One greedy pass at R rounds (strict or relaxed rule): the relays and their rounds, or null when it fails. */
function tryRounds(m: CommMatrix, R: number, rng: Rng, candidates: number, strict: boolean, work: Work): Relays | null {
  const router = new RelayRouter(m, R, rng, candidates, strict, work);
  const list = router.shuffledExcess(m.data);
  for (let x = 0; x < router.excess; x++) if (!router.place(x, list[x]!)) return null;
  return router.rounds();
}

/** A seed for te-offline's internal random stream: the matrix digest (the user's seed plays no part). */
function matrixSeed(m: CommMatrix): number {
  return digestSeed(matrixDigest(m));
}

/**
 * Plans the fewest rounds R (from max(relay bound, causal bound) up) for which a greedy assignment
 * routes every packet beyond R on a pair through an intermediate k with spare slots on i -> k and
 * k -> j: a pair's first-hop relays take its first rounds, its second-hop relays the earliest rounds
 * after their arrival, its direct packets the rest. Each R gets `orders` random orders of the excess
 * packets (strict rule, then relaxed). R goes up one at a time for MAX_GREEDY_TRIES values; past
 * them it gallops (gaps 1, 2, 4, ... after the last R that failed, below the max pair load) and
 * bisects back between the last failure and the first success, so a skewed matrix whose bound is
 * out of the greedy's reach gets an R near it rather than the max pair load. Deterministic: the
 * random stream is seeded by the matrix digest. R = max pair load always succeeds (nothing to
 * relay). `progress`: greedy passes of the most it may try (the rest skipped when one succeeds).
 */
export function planOffline(
  m: CommMatrix,
  candidates = 4,
  orders = DEFAULT_ORDERS,
  progress: ProgressCallback | null = null,
): OfflinePlan {
  const key: object = m.sparse ?? m.data;
  const last = offlinePlans.get(key);
  if (last !== undefined && last.p === m.p && last.candidates === candidates && last.orders === orders) {
    progress?.(1, 1);
    return last.plan;
  }
  const plan = searchOffline(m, candidates, orders, progress);
  offlinePlans.set(key, { p: m.p, candidates, orders, plan });
  return plan;
}

/**
 * The offline plan last made for each matrix storage (and P and params). auto counts a relation's rounds, plans it,
 * and plans it again with payload chunks for the lowering; the plan is the same each time (its random stream is seeded
 * by the matrix, and a matrix never changes once made: matrix-digest.ts keeps one digest per storage on the same
 * ground), so it is searched once. Held only as long as the matrix's storage.
 */
const offlinePlans = new WeakMap<
  object,
  { readonly p: number; readonly candidates: number; readonly orders: number; readonly plan: OfflinePlan }
>();

/** planOffline's search, made once per matrix and params. */
function searchOffline(
  m: CommMatrix,
  candidates: number,
  orders: number,
  progress: ProgressCallback | null,
): OfflinePlan {
  const n = m.p;
  const { t, maxPair } = relationLoad(m);
  const lowerBound = roundLowerBound(n, t);
  const relayBound = relayLowerBound(m),
    causalBound = causalLowerBound(m);
  const work: Work = { scores: 0, maxRepair: 0, maxChain: 0 };
  let failedTries = 0;
  const rng = createRng(matrixSeed(m));
  const R0 = Math.max(relayBound, causalBound);
  const span = Math.max(0, maxPair - R0);
  // at most MAX_GREEDY_TRIES values one by one, then a gallop and a bisection of about log2(span) values each
  const rValues = Math.min(MAX_GREEDY_TRIES, span) + 2 * Math.ceil(Math.log2(span + 1));
  const tick = progressTicker(progress, rValues * orders * 2);
  /** The orders at R, strict rule then relaxed: the relays and the orders tried, or null when every pass fails. */
  const tryAt = (R: number): { got: Relays; orderTries: number } | null => {
    for (let a = 0; a < orders; a++) {
      for (const strict of [true, false]) {
        tick(failedTries);
        const got = tryRounds(m, R, rng, candidates, strict, work);
        if (got) return { got, orderTries: a + 1 };
        failedTries++;
      }
    }
    return null;
  };
  const planned = (R: number, x: { got: Relays; orderTries: number }): OfflinePlan => {
    tick(Infinity);
    const { orderTries, got } = x;
    return {
      ...got,
      rounds: R,
      lowerBound,
      attempts: R - lowerBound,
      relayBound,
      causalBound,
      orderTries,
      failedTries,
      work,
    };
  };
  let lo = R0 - 1; // the largest R that failed
  for (let R = R0; R < maxPair && R < R0 + MAX_GREEDY_TRIES; R++) {
    const x = tryAt(R);
    if (x) return planned(R, x);
    lo = R;
  }
  let hi = maxPair,
    best: { got: Relays; orderTries: number } | null = null;
  for (let gap = 1; lo + gap < maxPair && best === null; gap *= 2) {
    const x = tryAt(lo + gap);
    if (x) [hi, best] = [lo + gap, x];
    else lo += gap;
  }
  while (best !== null && hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2),
      x = tryAt(mid);
    if (x) [hi, best] = [mid, x];
    else lo = mid;
  }
  if (best !== null) return planned(hi, best);
  const none = new Int32Array(0);
  tick(Infinity);
  return {
    rounds: maxPair,
    lowerBound,
    attempts: maxPair - lowerBound,
    relayBound,
    causalBound,
    orderTries: 0,
    failedTries,
    work,
    relayI: none,
    relayK: none,
    relayJ: none,
    hop1Round: none,
    hop2Round: none,
  };
}

/** Random orders of the excess packets tried at each R before R + 1. */
export const DEFAULT_ORDERS = 4;

/** Values of R tried one by one (R, R + 1, ...) before te-offline gallops towards the max pair load. */
const MAX_GREEDY_TRIES = 8;

/** Executes an offline plan in the engine, round by round. */
export function runOffline(m: CommMatrix, eng: RoundEngine, p: OfflinePlan): void {
  const n = m.p,
    R = p.rounds;
  const by1 = groupByKey(p.hop1Round, R),
    by2 = groupByKey(p.hop2Round, R);
  const directLeft = new Float64Array(n * n);
  for (let q = 0; q < n * n; q++) if (q % (n + 1) !== 0) directLeft[q] = Math.min(R, m.data[q]!);
  for (let r = 0; r < R; r++) {
    for (let y = by1.start[r]!; y < by1.start[r + 1]!; y++) {
      const x = by1.items[y]!;
      eng.move(p.relayI[x]!, p.relayJ[x]!, p.relayK[x]!);
    }
    for (let y = by2.start[r]!; y < by2.start[r + 1]!; y++) {
      const x = by2.items[y]!;
      eng.move(p.relayK[x]!, p.relayJ[x]!, p.relayJ[x]!);
    }
    // direct packets in the slots the relays left free (they always fit: relays + direct <= R per pair)
    for (let u = 0; u < n; u++) {
      for (let v = 0; v < n; v++) {
        const q = u * n + v;
        if (directLeft[q]! > 0 && eng.free(u, v)) {
          eng.move(u, v, v);
          directLeft[q]!--;
        }
      }
    }
    eng.endRound(true);
  }
}

/**
 * auto's screen plans te-offline only up to this many off-diagonal elements (unit packets, one transfer
 * each). A limit of auto's alone: compare runs every te-* planner up to its own, looser
 * MAX_ELEMENT_PLANNER_ELEMENTS (20,000 network elements), the planner's `traits.elementLimit`.
 */
export const TE_MAX_ELEMENTS = 1 << 14;

/** te-offline: deterministic (the seed plays no part); aims at the lower bound ceil(max packets per node / (N - 1)). */
export const teOffline = defineTeProtocol({
  name: "te-offline",
  title: "Total-exchange rounds, offline (ours): direct where a pair has room, excess relayed on slots that would idle",
  source: "ours (docs/algorithms/total-exchange.md); idea of 001 sec 4",
  relayed: true,
  // it seeds its own stream from the matrix: the same plan for every seed
  randomised: false,
  inPaperTable: true,
  // the best of the family (docs/algorithms/total-exchange.md), it stands for it in auto
  auto: { variants: [{ params: {} }], bound: "unit-packets", maxElements: TE_MAX_ELEMENTS },
  params: {
    candidates: integer({
      description: "random intermediates tried per relayed packet before a full scan",
      min: 1,
      max: 4096,
      default: 4,
    }),
    orders: integer({
      description: "random orders of the excess packets tried at each round count R before R + 1",
      min: 1,
      max: 1000,
      default: DEFAULT_ORDERS,
    }),
  },
  outputs: teOutputs({
    plannedRounds: "rounds of the offline plan",
    relayed: "packets relayed through an intermediate",
    attempts: "plannedRounds - lowerBound",
    relayBound: "the relay lower bound (no total-exchange router needs fewer rounds)",
    causalBound: "the causal lower bound (round 1 only origins send, the last round only delivers directly)",
    orderTries: "orders of the excess packets tried at the planned R (0: settled for the max pair load)",
    failedTries: "greedy passes that failed, over every R tried",
  }),
  searchShare: 0.5,
  run(m, eng, _rng, params, search) {
    const p = planOffline(m, params.candidates, params.orders, search);
    runOffline(m, eng, p);
    return { plannedRounds: p.rounds, ...offlineInfo(p) };
  },
  count(m, _rng, params) {
    const p = planOffline(m, params.candidates, params.orders);
    return { rounds: p.rounds, info: offlineInfo(p) };
  },
});

function offlineInfo(p: OfflinePlan): {
  relayed: number;
  attempts: number;
  relayBound: number;
  causalBound: number;
  orderTries: number;
  failedTries: number;
} {
  return {
    relayed: p.relayI.length,
    attempts: p.attempts,
    relayBound: p.relayBound,
    causalBound: p.causalBound,
    orderTries: p.orderTries,
    failedTries: p.failedTries,
  };
}
