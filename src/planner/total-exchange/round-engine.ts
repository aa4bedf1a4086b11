/** Round engine: unit packets moved in total-exchange rounds on the single-port OCPC (001 sec 2, Fact 1). */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { ScheduleBuilder, type ScheduleHeader } from "../../model/schedule.js";
import { progressTicker, type ProgressCallback, type ProgressTick } from "../../model/progress.js";

/** Most unit packets an explicit (schedule-building) plan may hold. */
export const MAX_EXPLICIT_PACKETS = 1 << 23;
/** Most unit packets a round-counting run may hold. */
export const MAX_COUNT_PACKETS = 2 ** 31 - 1;
/** Largest P of a round-counting run (the engine keeps a few P x P typed arrays). */
export const MAX_TE_P = 4096;
/**
 * Most protocol rounds an explicit plan may spend: every round is a stage, and a reader spends about 2 KiB a stage
 * (verify of 389,570 rounds: 7 s, 870 MB), so 2^19 rounds keep the plan's own re-read near 10 s and 1 GB.
 */
export const MAX_EXPLICIT_ROUNDS = 2 ** 19;
/**
 * Most pair visits (rounds x P^2: every round scans the P x P counters and builds its steps) an explicit plan may
 * spend: about 12 ns a visit (te-direct, P = 200, 100,000 rounds: 49 s), so 2^28 is about 3 s.
 */
export const MAX_EXPLICIT_ROUND_WORK = 2 ** 28;
/** Bytes an explicit plan holds per stage (stage and step records, measured: 300-400 per one-transfer round). */
const STAGE_BYTES = 400;
/** Bytes an explicit plan holds per packet: its transfer, and with payloads its chunk and its place in the queues. */
const PACKET_BYTES = 28;
const PAYLOAD_PACKET_BYTES = 28 + 24 + 16;
/** Bytes of the engine's P x P counters (six, two more with payloads), per pair. */
const PAIR_BYTES = 24;
const PAYLOAD_PAIR_BYTES = 32;

/** Off-diagonal packets: total, and the largest number one node sends or receives (the relation's h). */
export function relationLoad(m: CommMatrix): { total: number; t: number; maxPair: number } {
  const { p, data } = m;
  const col = new Float64Array(p);
  let total = 0,
    t = 0,
    maxPair = 0;
  for (let i = 0; i < p; i++) {
    let row = 0;
    for (let j = 0; j < p; j++) {
      if (i === j) continue;
      const v = data[i * p + j]!;
      row += v;
      col[j] = col[j]! + v;
      if (v > maxPair) maxPair = v;
    }
    total += row;
    if (row > t) t = row;
  }
  for (let j = 0; j < p; j++) if (col[j]! > t) t = col[j]!;
  return { total, t, maxPair };
}

/** Lower bound on total-exchange rounds: a node sends or receives at most P - 1 packets per round. */
export function roundLowerBound(p: number, t: number): number {
  return p <= 1 || t === 0 ? 0 : Math.ceil(t / (p - 1));
}

/**
 * Relay lower bound: the fewest rounds R >= the node bound with sum over pairs of (R - load)+ >= 2 *
 * sum of (load - R)+. In R rounds a pair carries at most R packets, so every packet beyond R on a
 * pair takes at least two hops; N (N - 1) R slots must hold sum(load) + sum((load - R)+). Never above
 * the max pair load (for P <= 2 nothing can be relayed: the max pair load).
 */
export function relayLowerBound(m: CommMatrix): number {
  const { p: n, data } = m;
  const { t, maxPair } = relationLoad(m);
  if (n <= 2) return maxPair;
  const fits = (r: number): boolean => {
    let spare = 0,
      excess = 0;
    for (let u = 0; u < n; u++) {
      for (let v = 0; v < n; v++) {
        if (u === v) continue;
        const x = data[u * n + v]!;
        if (x > r) excess += x - r;
        else spare += r - x;
      }
    }
    return spare >= 2 * excess;
  };
  // monotone in R: binary search between the node bound and the max pair load
  let lo = roundLowerBound(n, t),
    hi = maxPair;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (fits(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Causal lower bound: in round 1 only origins hold packets, so a node j receives at most d_j of its
 * packets (d_j = origins i != j with M[i][j] >= 1) and at most N - 1 in every later round; in the
 * last round a packet that leaves its origin must go straight to its destination, so node i sends
 * at most e_i of its own packets (e_i = destinations j != i with M[i][j] >= 1) then and at most
 * N - 1 in every earlier round. Hence R >= 1 + ceil((c_j - d_j) / (N - 1)) for every j with c_j > 0
 * packets to receive and R >= 1 + ceil((r_i - e_i) / (N - 1)) for every i with r_i > 0 to send.
 * Valid when a packet received in round r is forwarded in round r + 1 at the earliest (every te-*
 * protocol). Never below the node bound, never above the max pair load.
 */
export function causalLowerBound(m: CommMatrix): number {
  const { p: n, data } = m;
  if (n <= 1) return 0;
  const colSum = new Float64Array(n),
    colNz = new Int32Array(n);
  let best = 0;
  const bound = (load: number, partners: number): number => (load > 0 ? 1 + Math.ceil((load - partners) / (n - 1)) : 0);
  for (let i = 0; i < n; i++) {
    let rowSum = 0,
      rowNz = 0;
    for (let j = 0; j < n; j++) {
      const x = data[i * n + j]!;
      if (i === j || x === 0) continue;
      rowSum += x;
      rowNz++;
      colSum[j] = colSum[j]! + x;
      colNz[j]!++;
    }
    best = Math.max(best, bound(rowSum, rowNz));
  }
  for (let j = 0; j < n; j++) best = Math.max(best, bound(colSum[j]!, colNz[j]!));
  return best;
}

/** Checks that the matrix can be planned at packet level (every element is one unit packet). */
export function checkTeMatrix(algorithm: string, m: CommMatrix, explicit: boolean): number {
  if (m.p > MAX_TE_P)
    throw fail(
      "planner",
      "UNSUPPORTED",
      `${algorithm}: P = ${m.p} is larger than ${MAX_TE_P} (the round engine keeps six or more P x P arrays of 32-bit counters beside the dense matrix: at least ${((32 * m.p * m.p) / 2 ** 30).toFixed(1)} GiB here)`,
      { field: "p" },
    );
  const { total } = relationLoad(m);
  const cap = explicit ? MAX_EXPLICIT_PACKETS : MAX_COUNT_PACKETS;
  if (total > cap) {
    throw fail(
      "planner",
      "UNSUPPORTED",
      `${algorithm}: every element is a unit packet and the matrix has ${total} off-diagonal elements; at most ${cap} can be planned ${explicit ? "as an explicit schedule" : "in round-counting mode"}`,
      { field: "matrix" },
    );
  }
  return total;
}

/** The largest off-diagonal entry's place (first in row-major order): its row, column and value. */
function largestEntry(m: CommMatrix): { i: number; j: number; v: number } {
  const { p, data } = m;
  let best = { i: 0, j: 0, v: -1 };
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++) if (i !== j && data[i * p + j]! > best.v) best = { i, j, v: data[i * p + j]! };
  return best;
}

/**
 * Checks up front that an explicit plan's rounds fit. A round is a stage and a scan of the P x P counters, so a large
 * entry makes time and memory grow with its value, not with P or the number of messages: past MAX_EXPLICIT_ROUNDS
 * rounds or MAX_EXPLICIT_ROUND_WORK pair visits the plan is refused, naming the entry and the limit. The rounds are
 * the fewest the protocol can spend: the largest entry when it relays nothing (te-direct), relayLowerBound when it
 * relays (the node bound when the largest entry is within the limits). Returns them and the bytes the plan holds.
 */
export function checkTeRounds(
  algorithm: string,
  m: CommMatrix,
  relayed: boolean,
  payload: boolean,
): { rounds: number; bytes: number } {
  const { total, t, maxPair } = relationLoad(m);
  const p2 = m.p * m.p;
  const within = (r: number): boolean => r <= MAX_EXPLICIT_ROUNDS && r * p2 <= MAX_EXPLICIT_ROUND_WORK;
  const rounds = !relayed ? maxPair : within(maxPair) ? roundLowerBound(m.p, t) : relayLowerBound(m);
  const e = largestEntry(m);
  const entry = `the entry M[${e.i}][${e.j}] = ${e.v}`;
  const ways = "plan another algorithm, or count the rounds with te-table";
  if (rounds > MAX_EXPLICIT_ROUNDS)
    throw fail(
      "planner",
      "UNSUPPORTED",
      `${algorithm}: ${entry} makes at least ${rounds} rounds (one stage each; every element is a unit packet); an explicit plan holds at most ${MAX_EXPLICIT_ROUNDS}: ${ways}`,
      { field: "matrix" },
    );
  if (rounds * p2 > MAX_EXPLICIT_ROUND_WORK)
    throw fail(
      "planner",
      "UNSUPPORTED",
      `${algorithm}: ${entry} makes at least ${rounds} rounds, each a scan of P x P = ${p2} pairs (${rounds * p2} in all); an explicit plan spends at most ${MAX_EXPLICIT_ROUND_WORK}: ${ways}`,
      { field: "matrix" },
    );
  const bytes =
    p2 * (payload ? PAYLOAD_PAIR_BYTES : PAIR_BYTES) +
    rounds * STAGE_BYTES +
    total * (payload ? PAYLOAD_PACKET_BYTES : PACKET_BYTES);
  return { rounds, bytes };
}

/**
 * Packets held per (holder, destination) pair, moved round by round. A move in round r uses the
 * ordered pair (holder, next hop), at most one packet per pair per round; the packet arrives at the
 * end of the round (it can be forwarded in the next round at the earliest). With `build`, every
 * non-empty round becomes one stage of N - 1 shift steps i -> (i + j) mod N, j = 1..N-1, empty
 * steps dropped; with `payload`, packets keep their identity (origin, destination, index).
 */
export class RoundEngine {
  readonly n: number;
  /** count[u * n + w]: packets held at u destined to w (diagonal: delivered or self-addressed). */
  readonly count: Int32Array;
  /** Packets not yet at their destination. */
  pending = 0;
  /** Non-empty rounds so far. */
  rounds = 0;
  /** Packets moved (transfers) so far. */
  moves = 0;
  /** Rounds the protocol spent without moving a real packet (only copies or dummies travelled). */
  idleRounds = 0;
  private readonly slot: Int32Array;
  private readonly movU: Int32Array;
  private readonly movV: Int32Array;
  private readonly movW: Int32Array;
  private readonly movId: Int32Array;
  private nMoves = 0;
  private readonly builder: ScheduleBuilder | null;
  private readonly track: boolean;
  private readonly head: Int32Array | null = null;
  private readonly tail: Int32Array | null = null;
  private readonly next: Int32Array | null = null;
  private readonly pOrigin: Uint32Array | null = null;
  private readonly pIndex: Float64Array | null = null;

  /** Shifts per step: 1 (single-port OCPC, N - 1 steps a round) or k (k-port nodes, ceil((N - 1) / k) steps). */
  private readonly shiftsPerStep: number;
  /**
   * Off-diagonal packets in all: the progress counts total - pending - hiddenLeft delivered, once per round (not in the
   * move loop).
   */
  private readonly total: number;
  /** Packets hideAll set aside that are not revealed yet. */
  private hiddenLeft = 0;
  private readonly tick: ProgressTick;

  /** `progress`: packets delivered of the off-diagonal packets, reported as rounds end. */
  constructor(
    m: CommMatrix,
    header: ScheduleHeader | null,
    payload: boolean,
    ports = 1,
    progress: ProgressCallback | null = null,
  ) {
    this.shiftsPerStep = ports;
    const n = (this.n = m.p);
    this.count = new Int32Array(n * n);
    this.slot = new Int32Array(n * n).fill(-1);
    this.movU = new Int32Array(n * n);
    this.movV = new Int32Array(n * n);
    this.movW = new Int32Array(n * n);
    this.movId = new Int32Array(n * n);
    this.track = header !== null && payload;
    let total = 0;
    for (let k = 0; k < n * n; k++) {
      const v = m.data[k]!;
      this.count[k] = v;
      if (Math.floor(k / n) !== k % n) total += v;
    }
    this.pending = this.total = total;
    this.tick = progressTicker(progress, total);
    this.builder = header ? new ScheduleBuilder(header, payload, Math.max(16, total)) : null;
    if (this.track) {
      this.head = new Int32Array(n * n).fill(-1);
      this.tail = new Int32Array(n * n).fill(-1);
      this.next = new Int32Array(total).fill(-1);
      this.pOrigin = new Uint32Array(total);
      this.pIndex = new Float64Array(total);
      let id = 0;
      for (let u = 0; u < n; u++) {
        for (let w = 0; w < n; w++) {
          if (u === w) continue;
          const c = m.data[u * n + w]!;
          for (let x = 0; x < c; x++) {
            this.pOrigin[id] = u;
            this.pIndex[id] = x;
            this.push(u * n + w, id);
            id++;
          }
        }
      }
    }
  }

  private push(q: number, id: number): void {
    const tail = this.tail!,
      next = this.next!;
    next[id] = -1;
    if (tail[q]! < 0) this.head![q] = id;
    else next[tail[q]!] = id;
    tail[q] = id;
  }

  private pop(q: number): number {
    const head = this.head!;
    const id = head[q]!;
    head[q] = this.next![id]!;
    if (head[q]! < 0) this.tail![q] = -1;
    return id;
  }

  /** Packets set aside at their origin by hideAll, per pair (not in `count` or `pending` until revealed). */
  private hidden: Int32Array | null = null;

  /**
   * Sets every off-diagonal packet aside at its origin (before the first move), for protocols that route a relation in
   * parts.
   */
  hideAll(): void {
    if (this.rounds > 0 || this.nMoves > 0 || this.hidden)
      throw fail("planner", "BAD_INPUT", "total-exchange: internal error, hideAll after the first move");
    const n = this.n;
    this.hidden = new Int32Array(n * n);
    for (let q = 0; q < n * n; q++) {
      if (q % (n + 1) === 0) continue;
      this.hidden[q] = this.count[q]!;
      this.count[q] = 0;
    }
    this.hiddenLeft = this.pending;
    this.pending = 0;
  }

  /** Packets of pair q = u * n + w still set aside at u. */
  hiddenAt(q: number): number {
    return this.hidden ? this.hidden[q]! : 0;
  }

  /**
   * Brings back k packets of pair q = u * n + w that hideAll set aside (they are at u, interchangeable with u's others
   * for w).
   */
  reveal(q: number, k: number): void {
    const hid = this.hidden;
    if (!hid || k < 0 || k > hid[q]!)
      throw fail("planner", "BAD_INPUT", `total-exchange: internal error, reveal ${k} packets of pair ${q}`);
    hid[q] = hid[q]! - k;
    this.count[q] = this.count[q]! + k;
    this.pending += k;
    this.hiddenLeft -= k;
  }

  /** True when the ordered pair u -> v is still free in the current round. */
  free(u: number, v: number): boolean {
    return this.slot[u * this.n + v]! < 0;
  }

  /** Moves one packet held at u destined to w over the pair u -> v (v == w delivers it). */
  move(u: number, w: number, v: number): void {
    const n = this.n;
    if (u === v || u === w)
      throw fail("planner", "BAD_INPUT", `total-exchange: internal error, move ${u} -> ${v} of a packet for ${w}`);
    const q = u * n + w;
    if (this.count[q]! <= 0)
      throw fail("planner", "BAD_INPUT", `total-exchange: internal error, node ${u} holds no packet for ${w}`);
    if (this.slot[u * n + v]! >= 0)
      throw fail("planner", "BAD_INPUT", `total-exchange: internal error, pair ${u} -> ${v} used twice in a round`);
    this.count[q]!--;
    const id = this.track ? this.pop(q) : 0;
    const k = this.nMoves++;
    this.movU[k] = u;
    this.movV[k] = v;
    this.movW[k] = w;
    this.movId[k] = id;
    this.slot[u * n + v] = k;
    if (v === w) this.pending--;
  }

  /**
   * Ends the round: packets arrive, the round becomes a stage; returns the number of moves. A round
   * without moves makes no stage; with `spent` it still counts as an idle protocol round.
   */
  endRound(spent = false): number {
    const n = this.n,
      k0 = this.nMoves;
    if (this.builder) this.checkSpent();
    if (k0 === 0) {
      if (spent) this.idleRounds++;
      return 0;
    }
    for (let k = 0; k < k0; k++) {
      const v = this.movV[k]!,
        w = this.movW[k]!;
      this.count[v * n + w]!++;
      if (this.track && v !== w) this.push(v * n + w, this.movId[k]!);
    }
    const b = this.builder;
    if (b) {
      b.stage(`round ${this.rounds + 1}`, "none");
      const per = this.shiftsPerStep;
      for (let j0 = 1; j0 < n; j0 += per) {
        b.step();
        for (let j = j0; j < Math.min(n, j0 + per); j++) {
          for (let i = 0; i < n; i++) {
            const k = this.slot[i * n + ((i + j) % n)]!;
            if (k < 0) continue;
            b.transfer(i, (i + j) % n, 1);
            if (b.payload) b.chunk(this.pOrigin![this.movId[k]!]!, this.movW[k]!, this.pIndex![this.movId[k]!]!, 1);
          }
        }
        b.dropEmptyStep();
      }
    }
    for (let k = 0; k < k0; k++) this.slot[this.movU[k]! * n + this.movV[k]!] = -1;
    this.nMoves = 0;
    this.moves += k0;
    this.rounds++;
    this.tick(this.total - this.pending - this.hiddenLeft);
    return k0;
  }

  /**
   * Refuses an explicit plan whose protocol spends more rounds than MAX_EXPLICIT_ROUNDS or MAX_EXPLICIT_ROUND_WORK
   * allow (checkTeRounds bounds the rounds up front; a protocol can spend more than its lower bound).
   */
  private checkSpent(): void {
    const spent = this.rounds + this.idleRounds + 1,
      p2 = this.n * this.n;
    if (spent <= MAX_EXPLICIT_ROUNDS && spent * p2 <= MAX_EXPLICIT_ROUND_WORK) return;
    const limit =
      spent > MAX_EXPLICIT_ROUNDS
        ? `${MAX_EXPLICIT_ROUNDS} rounds`
        : `${MAX_EXPLICIT_ROUND_WORK} pair visits (rounds x P^2, P = ${this.n})`;
    throw fail(
      "planner",
      "UNSUPPORTED",
      `${this.builder!.header.algorithm}: the protocol passed ${spent - 1} rounds, past the ${limit} an explicit plan may spend (every element is a unit packet): plan another algorithm, or count the rounds with te-table`,
      { field: "matrix" },
    );
  }

  /** Delivers everything still pending by direct rounds (one packet per pair per round); returns the rounds used. */
  drainDirect(): number {
    const n = this.n;
    let used = 0;
    while (this.pending > 0) {
      for (let u = 0; u < n; u++)
        for (let w = 0; w < n; w++) if (u !== w && this.count[u * n + w]! > 0) this.move(u, w, w);
      this.endRound();
      used++;
    }
    return used;
  }

  /** The schedule (engines made with a header only). */
  build(params: ScheduleHeader["params"]): ReturnType<ScheduleBuilder["build"]> {
    if (!this.builder) throw fail("planner", "BAD_INPUT", "total-exchange: internal error, no schedule builder");
    this.tick(Infinity);
    return { ...this.builder.build(), params };
  }
}
