/**
 * FlowNetwork: flow-level link contention for the simulated machine (max-min fair bandwidth sharing, recomputed per
 * connected component).
 */
import { fail } from "../../model/errors.js";
import type { NetworkRoutes } from "../../model/network.js";
import { timeKey } from "./heap.js";

/** How the replay modes' event heap is reached: the flow network pushes completions and activations on it. */
interface Pusher {
  push(t: number, id: number): void;
}

/** Counters of the rate recomputations (to measure component-local against full recomputation). */
export interface FlowRecomputeStats {
  /** Rate recomputations (one per event time at which flows started or ended: they are batched). */
  readonly recomputes: number;
  /** Flows whose rates were recomputed, summed over recomputations. */
  readonly flowsTouched: number;
  /** Flows active at each recomputation, summed (what a full recomputation would touch). */
  readonly flowsActive: number;
}

const NO = -1;

/**
 * How a filling finds its next candidate (every choice gives the same order, so it changes speed
 * only; tests force each path and compare).
 */
export interface FillTuning {
  /** Up to how many candidates a filling sorts them once (insertion) rather than keep a heap. */
  readonly sortMax: number;
  /** Whether a network packs (key, link) into one number where that is exact (FlowNetwork's KL and KA). */
  readonly packKeys: boolean;
}

/** The fill tuning a network uses unless told otherwise. */
export const DEFAULT_FILL_TUNING: FillTuning = Object.freeze({ sortMax: 64, packKeys: true });

/** The options of a FlowNetwork beyond its network, heap and event ids. */
export interface FlowNetworkOptions {
  /** Recompute every active flow at each change (for measurement), not only the changed component. Default false. */
  readonly full?: boolean;
  /** How a filling finds its next candidate. Default DEFAULT_FILL_TUNING. */
  readonly fill?: FillTuning;
}

/**
 * The flows of a replay on a NetworkRoutes. A message begins (`begin`) after its send start-up;
 * it waits `delay` plus the sum of its route's link latencies, then becomes active on every link
 * of `route(src, dst)` and drains its bytes at a rate set by max-min fair sharing among the active
 * flows of every link (progressive filling). Flows that become active or end mark their links;
 * the replay calls `flush` before it moves on to a later event time, and the rates are recomputed
 * once for every flow start and end of that time (a shift step's P flows ending together cost one
 * recomputation, not P), for the connected component of flows sharing links with them only. No
 * time passes between events of one time key, so the batched rates are those of one-by-one
 * recomputation at the end of that time; remaining bytes are
 * integrated exactly between events, and a flow's completion (remaining / rate) is pushed on the
 * replay's heap with the mode's own event id. A rate change leaves the earlier completion event
 * in the heap: `isDue` tells the mode it is superseded. Flows live in slots (typed arrays reused
 * through a free list), links keep doubly linked lists of the slots' route entries.
 */
export class FlowNetwork {
  /** maxHops (at least 1): the longest route a slot holds. */
  private readonly H: number;
  /**
   * A slot's route entries start at slot << SH (2^SH >= H): a flow's slot is its entry's index >> SH, no division in
   * the hot loops.
   */
  private readonly SH: number;
  private readonly L: number;
  private readonly bw: Float64Array;
  private readonly lat: Float64Array;
  // per transfer
  private readonly slotOf: Int32Array;
  /** 1 once transfer x has been a flow: its events are checked against the flow's current completion. */
  private readonly wasFlow: Uint8Array;
  /** The completion event id of transfer x's flow. */
  private readonly doneOf: Int32Array;
  // per slot
  private cap = 0;
  private freeTop = 0;
  private free: Int32Array = new Int32Array(0);
  private xOf: Int32Array = new Int32Array(0);
  private rem: Float64Array = new Float64Array(0);
  private rate: Float64Array = new Float64Array(0);
  private upd: Float64Array = new Float64Array(0);
  private due: Float64Array = new Float64Array(0);
  private doneId: Int32Array = new Int32Array(0);
  private hops: Int32Array = new Int32Array(0);
  /**
   * The slot's first link by (bwKey, link): its one candidate in a filling when no other flow uses it (see
   * `component`).
   */
  private minLink: Int32Array = new Int32Array(0);
  private active: Uint8Array = new Uint8Array(0);
  /** 1 for a flow that ends the moment it starts (see `begin`). */
  private instant: Uint8Array = new Uint8Array(0);
  private seen: Int32Array = new Int32Array(0);
  private fixed: Int32Array = new Int32Array(0);
  // per route entry ((slot << SH) + hop)
  private link: Int32Array = new Int32Array(0);
  private eNext: Int32Array = new Int32Array(0);
  private ePrev: Int32Array = new Int32Array(0);
  // per link
  private readonly head: Int32Array;
  private readonly count: Int32Array;
  private readonly since: Float64Array;
  /**
   * A filling orders its candidates by (timeKey(share), link). Where every finite key times L plus
   * L stays below 2^53 (shares never exceed the bandwidth), (key, link) is packed exactly into
   * key * KL + link * KA with KL = L, KA = 1: one comparison orders two candidates, and two only
   * tie when both keys are infinite (then the link decides). Elsewhere KL = 1, KA = 0: the number
   * is the key and ties go to the link. Equal keys are common (links of one bandwidth, equal
   * counts) and comparing their links mispredicts branches.
   */
  private readonly KL: number;
  private readonly KA: number;
  /** The packed key of each link's bandwidth (what a one-flow link is listed with), computed once. */
  private readonly bwKey: Float64Array;
  private readonly capLeft: Float64Array;
  private readonly unfixed: Int32Array;
  private readonly linkSeen: Int32Array;
  /**
   * Links whose flows changed since the last flush (dirtyMark[l] = 1 while listed), and the latest time of a change.
   */
  private readonly dirtyLinks: Int32Array;
  private readonly dirtyMark: Uint8Array;
  private nDirty = 0;
  private dirtyAt = -Infinity;
  /** Bytes that crossed each link. */
  readonly bytes: Float64Array;
  /** Time each link had at least one active flow (us). */
  readonly busy: Float64Array;
  /** Most flows active at once on each link. */
  readonly peak: Int32Array;
  // scratch
  private readonly route: Int32Array;
  private readonly linkQueue: Int32Array;
  private compFlows: Int32Array = new Int32Array(16);
  /** The candidates of a filling (at most one per link of the component): key, share, link. */
  private readonly cKey: Float64Array;
  private readonly cVal: Float64Array;
  private readonly cId: Int32Array;
  private nCand = 0;
  private epoch = 0;
  private activeFlows = 0;
  private nRecomputes = 0;
  private nTouched = 0;
  private nActive = 0;
  /** Recompute every active flow at each change, not only the changed component. */
  private readonly full: boolean;
  /** FillTuning.sortMax of this network. */
  private readonly sortMax: number;

  constructor(
    readonly net: NetworkRoutes,
    transfers: number,
    private readonly heap: Pusher,
    /** Event ids [activateBase, activateBase + transfers): flow x's latency has elapsed. */
    readonly activateBase: number,
    /** Mode event ids per transfer: event id maps to transfer (id / idsPerTransfer) | 0. */
    private readonly idsPerTransfer: number,
    options: FlowNetworkOptions = {},
  ) {
    this.full = options.full ?? false;
    this.sortMax = (options.fill ?? DEFAULT_FILL_TUNING).sortMax;
    const packKeys = (options.fill ?? DEFAULT_FILL_TUNING).packKeys;
    this.H = Math.max(1, net.maxHops);
    this.SH = 32 - Math.clz32(this.H - 1);
    this.L = net.links;
    this.bw = net.bandwidth;
    this.lat = net.latency;
    this.slotOf = new Int32Array(transfers).fill(NO);
    this.wasFlow = new Uint8Array(transfers);
    this.doneOf = new Int32Array(transfers);
    const L = this.L;
    this.head = new Int32Array(L).fill(NO);
    this.count = new Int32Array(L);
    this.since = new Float64Array(L);
    let top = 0;
    for (let l = 0; l < L; l++) if (this.bw[l]! < Infinity) top = Math.max(top, timeKey(this.bw[l]!));
    const packed = packKeys && top * L + L <= 2 ** 53;
    this.KL = packed ? L : 1;
    this.KA = packed ? 1 : 0;
    this.bwKey = new Float64Array(L);
    for (let l = 0; l < L; l++) this.bwKey[l] = timeKey(this.bw[l]!) * this.KL + l * this.KA;
    this.capLeft = new Float64Array(L);
    this.unfixed = new Int32Array(L);
    this.linkSeen = new Int32Array(L);
    this.dirtyLinks = new Int32Array(L);
    this.dirtyMark = new Uint8Array(L);
    this.bytes = new Float64Array(L);
    this.busy = new Float64Array(L);
    this.peak = new Int32Array(L);
    this.route = new Int32Array(this.H);
    this.linkQueue = new Int32Array(Math.max(16, L));
    this.cKey = new Float64Array(Math.max(16, L));
    this.cVal = new Float64Array(Math.max(16, L));
    this.cId = new Int32Array(Math.max(16, L));
    this.grow(64);
  }

  /** The recomputation counters so far. */
  stats(): FlowRecomputeStats {
    return { recomputes: this.nRecomputes, flowsTouched: this.nTouched, flowsActive: this.nActive };
  }

  private grow(n: number): void {
    const S = 1 << this.SH,
      old = this.cap;
    const f64 = (a: Float64Array): Float64Array => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array, per: number): Int32Array => {
      const b = new Int32Array(n * per);
      b.set(a);
      return b;
    };
    this.xOf = i32(this.xOf, 1);
    this.doneId = i32(this.doneId, 1);
    this.hops = i32(this.hops, 1);
    this.minLink = i32(this.minLink, 1);
    this.seen = i32(this.seen, 1);
    this.fixed = i32(this.fixed, 1);
    this.link = i32(this.link, S);
    this.eNext = i32(this.eNext, S);
    this.ePrev = i32(this.ePrev, S);
    this.rem = f64(this.rem);
    this.rate = f64(this.rate);
    this.upd = f64(this.upd);
    this.due = f64(this.due);
    const act = new Uint8Array(n);
    act.set(this.active);
    this.active = act;
    const inst = new Uint8Array(n);
    inst.set(this.instant);
    this.instant = inst;
    const free = new Int32Array(n);
    free.set(this.free.subarray(0, this.freeTop));
    for (let s = n - 1; s >= old; s--) free[this.freeTop++] = s;
    this.free = free;
    this.cap = n;
    if (this.compFlows.length < n) this.compFlows = new Int32Array(n);
  }

  /**
   * Message x from host a to host b of `bytes` bytes begins at t: after `delay` plus its route's
   * latency it drains; its completion is pushed with id `doneId`.
   */
  begin(x: number, a: number, b: number, bytes: number, t: number, delay: number, doneId: number): void {
    this.wasFlow[x] = 1;
    this.doneOf[x] = doneId;
    if (this.freeTop === 0) this.grow(this.cap * 2);
    const s = this.free[--this.freeTop]!;
    const n = this.net.route(a, b, this.route);
    if (!(Number.isInteger(n) && n >= 0 && n <= this.H))
      throw fail(
        "simulate",
        "BAD_INPUT",
        `network ${this.net.name}: route ${a} -> ${b} has ${String(n)} links, not 0..${this.H} (maxHops)`,
        { field: "network" },
      );
    const { route, link, lat, bw, bwKey } = this;
    const base = s << this.SH;
    let latency = 0,
      slowest = Infinity,
      first = NO;
    for (let h = 0; h < n; h++) {
      const l = route[h]!;
      if (!(l >= 0 && l < this.L))
        throw fail(
          "simulate",
          "BAD_INPUT",
          `network ${this.net.name}: route ${a} -> ${b} names link ${l}, not in 0..${this.L - 1}`,
          { field: "network" },
        );
      link[base + h] = l;
      latency += lat[l]!;
      slowest = Math.min(slowest, bw[l]!);
      const k = bwKey[l]!;
      if (first === NO || k < bwKey[first]! || (k === bwKey[first] && l < first)) first = l;
    }
    this.minLink[s] = first;
    // a flow that drains at once (no bytes, or no finite link) ends at the time it starts: its rate
    // must be known before the other events of that time run, as if the events ran one by one
    this.instant[s] = bytes === 0 || slowest === Infinity ? 1 : 0;
    this.slotOf[x] = s;
    this.xOf[s] = x;
    this.hops[s] = n;
    this.rem[s] = bytes;
    this.rate[s] = -1;
    this.due[s] = Infinity;
    this.doneId[s] = doneId;
    this.active[s] = 0;
    const wait = delay + latency;
    if (wait > 0) this.heap.push(t + wait, this.activateBase + x);
    else this.activate(x, t);
  }

  /** Event `activateBase + x`: flow x's latency has elapsed at t; it joins its links. */
  activate(x: number, t: number): void {
    const s = this.slotOf[x]!;
    const { link, head, ePrev, eNext, count, peak, bytes, dirtyMark, dirtyLinks } = this;
    const n = this.hops[s]!,
      b = s << this.SH,
      size = this.rem[s]!,
      // a flow that drains at once marks its links after a flush of the batch so far (below)
      mark = this.instant[s] === 0;
    this.active[s] = 1;
    this.upd[s] = t;
    this.activeFlows++;
    for (let h = 0; h < n; h++) {
      const e = b + h,
        l = link[e]!;
      const first = head[l]!;
      ePrev[e] = NO;
      eNext[e] = first;
      if (first !== NO) ePrev[first] = e;
      head[l] = e;
      const c = ++count[l]!;
      if (c === 1) this.since[l] = t;
      if (c > peak[l]!) peak[l] = c;
      bytes[l] = bytes[l]! + size;
      // markLinks in the same pass (the same links in the same order)
      if (mark && dirtyMark[l] === 0) {
        dirtyMark[l] = 1;
        dirtyLinks[this.nDirty++] = l;
      }
    }
    // a flow on no link at all (a route of no hops) is not held back by anything
    if (n === 0) this.setRate(s, Infinity, t);
    else if (!mark) {
      // the batch so far at its own time, then this flow at t (as one by one)
      this.flush();
      this.markLinks(s, t);
      this.flush();
    } else if (t > this.dirtyAt) this.dirtyAt = t;
  }

  /** True when flows started or ended since the last `flush`: their rates (and completions) are not set yet. */
  get pending(): boolean {
    return this.nDirty > 0;
  }

  /**
   * Notes that the flows of slot s's links changed at t (the slot's route is read now: it may be reused before the
   * flush).
   */
  private markLinks(s: number, t: number): void {
    const SH = this.SH;
    for (let h = 0; h < this.hops[s]!; h++) {
      const l = this.link[(s << SH) + h]!;
      if (this.dirtyMark[l] === 0) {
        this.dirtyMark[l] = 1;
        this.dirtyLinks[this.nDirty++] = l;
      }
    }
    if (t > this.dirtyAt) this.dirtyAt = t;
  }

  /**
   * Recomputes the rates of every component that flows joined or left since the last flush (once per event time: the
   * replay calls it before it moves on to a later time).
   */
  flush(): void {
    if (this.nDirty === 0) return;
    this.recompute(this.dirtyAt);
    for (let i = 0; i < this.nDirty; i++) this.dirtyMark[this.dirtyLinks[i]!] = 0;
    this.nDirty = 0;
    this.dirtyAt = -Infinity;
  }

  /**
   * Whether mode event `id` popped at t stands: false for a flow's completion event superseded by a rate change (or
   * already handled).
   */
  live(id: number, t: number): boolean {
    const x = (id / this.idsPerTransfer) | 0;
    if (this.wasFlow[x] !== 1 || this.doneOf[x] !== id) return true;
    const s = this.slotOf[x]!;
    return s !== NO && this.active[s] === 1 && this.due[s] === t;
  }

  /** Flow x (whose completion is due at t) ends: it leaves its links and the rates of its component are recomputed. */
  finish(x: number, t: number): void {
    const s = this.slotOf[x]!;
    const { link, head, ePrev, eNext, count, dirtyMark, dirtyLinks } = this;
    const n = this.hops[s]!,
      b = s << this.SH;
    this.active[s] = 0;
    this.activeFlows--;
    for (let h = 0; h < n; h++) {
      const e = b + h,
        l = link[e]!;
      const p = ePrev[e]!,
        nx = eNext[e]!;
      if (p === NO) head[l] = nx;
      else eNext[p] = nx;
      if (nx !== NO) ePrev[nx] = p;
      const c = --count[l]!;
      if (c === 0) this.busy[l] = this.busy[l]! + (t - this.since[l]!);
      // markLinks in the same pass
      if (dirtyMark[l] === 0) {
        dirtyMark[l] = 1;
        dirtyLinks[this.nDirty++] = l;
      }
    }
    if (t > this.dirtyAt) this.dirtyAt = t;
    this.slotOf[x] = NO;
    this.free[this.freeTop++] = s;
  }

  /**
   * Collects the flows (into compFlows) and links (into linkQueue) of the components around the
   * dirty links, and readies them for the filling at t: a flow's remaining bytes are integrated up
   * to t, a link gets its whole bandwidth back and its flow count as unfixed, and the candidates of
   * the filling are listed (cKey, cVal, cId; their count in nCand). Returns the flow count. One
   * pass instead of a collection then a setup pass: every link and flow is read once while it is
   * at hand. Only the dirty links and the shared links (more than one flow) are queued and set up.
   */
  private component(t: number): number {
    const ep = ++this.epoch;
    const { linkSeen, seen, head, eNext, linkQueue, count, bw, bwKey, capLeft, unfixed } = this;
    const { link, hops, minLink, compFlows, rate, rem, upd, cKey, cVal, cId } = this;
    const SH = this.SH,
      full = this.full,
      KL = this.KL,
      KA = this.KA;
    let q = 0,
      nf = 0,
      m = 0;
    if (full) {
      for (let l = 0; l < this.L; l++)
        if (count[l]! > 0) {
          linkSeen[l] = ep;
          linkQueue[q++] = l;
        }
    } else
      for (let i = 0; i < this.nDirty; i++) {
        const l = this.dirtyLinks[i]!;
        if (linkSeen[l] !== ep) {
          linkSeen[l] = ep;
          linkQueue[q++] = l;
        }
      }
    for (let i = 0; i < q; i++) {
      const l = linkQueue[i]!;
      const c = count[l]!;
      capLeft[l] = bw[l]!;
      unfixed[l] = c;
      // a link shared by several flows offers each bw / c at first; a one-flow link is its flow's
      // private bound, listed with the flow below
      if (c > 1) {
        const v = bw[l]! / c;
        cVal[m] = v;
        cKey[m] = timeKey(v) * KL + l * KA;
        cId[m++] = l;
      }
      for (let e = head[l]!; e !== NO; e = eNext[e]!) {
        const f = e >> SH;
        if (seen[f] === ep) continue;
        seen[f] = ep;
        compFlows[nf++] = f;
        const r = rate[f]!;
        if (r > 0 && r < Infinity) {
          const left = rem[f]! - r * (t - upd[f]!);
          rem[f] = left > 0 ? left : 0;
        }
        upd[f] = t;
        // A link that carries this flow only leads to no other flow, and it offers the flow its
        // whole bandwidth till the flow is fixed: the first of the flow's such links to come off
        // the filling (smallest (key, id)) is the only one that can fix it, the others find it
        // fixed. So only that one is listed (fewer candidates, same order), and none is set up. Nor
        // is it when a shared link of the flow comes before it whatever happens: a share never
        // exceeds its link's bandwidth, so a link's entries never come after (bwKey, link), and a
        // link is not done before it has fixed all its flows. Both rules together: the one
        // candidate is the flow's first link by (bwKey, link) (fixed at `begin`), when no other
        // flow uses it.
        const pl = minLink[f]!;
        if (count[pl] === 1) {
          cVal[m] = bw[pl]!;
          cKey[m] = bwKey[pl]!;
          cId[m++] = pl;
        }
        // the flow's other shared links join the component (no closure here: a hot loop)
        if (!full)
          for (let h = 0, b = f << SH; h < hops[f]!; h++) {
            const l2 = link[b + h]!;
            if (count[l2]! > 1 && linkSeen[l2] !== ep) {
              linkSeen[l2] = ep;
              linkQueue[q++] = l2;
            }
          }
      }
    }
    this.nCand = m;
    return nf;
  }

  /**
   * Max-min rates (progressive filling) for the components around the dirty links, at time t.
   * Each candidate (link l, with the share it offered when listed) is taken in order of smallest
   * (timeKey(share), l); a link whose share has since grown (flows elsewhere were fixed below it)
   * goes back with its new share, otherwise its unfixed flows are fixed at its share. A link is
   * listed at most once at any time, so the order is a total one on distinct (key, id) pairs and
   * any exact minimum gives the same sequence: few candidates sorted once (no heap upkeep), the
   * heap for many.
   */
  private recompute(t: number): void {
    const nf = this.component(t);
    this.nRecomputes++;
    this.nTouched += nf;
    this.nActive += this.activeFlows;
    if (this.nCand <= this.sortMax) this.fillSorted(nf, t);
    else this.fillHeap(nf, t);
  }

  /**
   * The filling with its many candidates in a binary heap built in place (O(n), not n pushes):
   * the smallest is taken off the top; a link whose share has grown gets its new key at the top
   * and sinks (one sift, not a pop and a push).
   */
  private fillHeap(nf: number, t: number): void {
    const { capLeft, unfixed, count, bw, cKey, cVal, cId, KL, KA } = this;
    let m = this.nCand,
      left = nf;
    for (let i = (m >> 1) - 1; i >= 0; i--) this.sink(i, m);
    while (left > 0 && m > 0) {
      const l = cId[0]!;
      const one = count[l] === 1;
      const n = one ? 1 : unfixed[l]!;
      // a one-flow link (not set up: see component) offers its flow its bandwidth
      const share = one ? bw[l]! : n === 0 ? 0 : Math.max(0, capLeft[l]!) / n;
      if (!one && n !== 0 && share > cVal[0]!) {
        cVal[0] = share;
        cKey[0] = timeKey(share) * KL + l * KA;
        this.sink(0, m);
        continue;
      }
      m--;
      if (m > 0) {
        cKey[0] = cKey[m]!;
        cVal[0] = cVal[m]!;
        cId[0] = cId[m]!;
        this.sink(0, m);
      }
      if (n !== 0) left -= this.fixLink(l, share, t);
    }
  }

  /** Sinks candidate i of the heap cKey/cVal/cId[0 .. m) to its place (smallest (key, link) on top). */
  private sink(i: number, m: number): void {
    const { cKey, cVal, cId } = this;
    const k = cKey[i]!,
      v = cVal[i]!,
      id = cId[i]!;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= m) break;
      const r = c + 1;
      if (r < m && (cKey[r]! < cKey[c]! || (cKey[r] === cKey[c] && cId[r]! < cId[c]!))) c = r;
      const ck = cKey[c]!;
      if (k < ck || (k === ck && id < cId[c]!)) break;
      cKey[i] = ck;
      cVal[i] = cVal[c]!;
      cId[i] = cId[c]!;
      i = c;
    }
    cKey[i] = k;
    cVal[i] = v;
    cId[i] = id;
  }

  /**
   * The filling with its few candidates sorted by insertion once (nothing to keep in order after):
   * they are taken front to back; a link whose share has grown moves back among the rest.
   */
  private fillSorted(nf: number, t: number): void {
    const { capLeft, unfixed, count, bw, cKey, cVal, cId, KL, KA } = this;
    const m = this.nCand;
    for (let j = 1; j < m; j++) {
      const k = cKey[j]!,
        v = cVal[j]!,
        id = cId[j]!;
      let i = j;
      for (; i > 0 && (cKey[i - 1]! > k || (cKey[i - 1] === k && cId[i - 1]! > id)); i--) {
        cKey[i] = cKey[i - 1]!;
        cVal[i] = cVal[i - 1]!;
        cId[i] = cId[i - 1]!;
      }
      cKey[i] = k;
      cVal[i] = v;
      cId[i] = id;
    }
    let i = 0,
      left = nf;
    while (left > 0 && i < m) {
      const l = cId[i]!;
      const one = count[l] === 1;
      const n = one ? 1 : unfixed[l]!;
      // a one-flow link (not set up: see component) offers its flow its bandwidth
      const share = one ? bw[l]! : n === 0 ? 0 : Math.max(0, capLeft[l]!) / n;
      if (!one && n !== 0 && share > cVal[i]!) {
        // back among the rest with its grown share (its key has not shrunk)
        const k = timeKey(share) * KL + l * KA;
        let j = i;
        for (; j + 1 < m && (cKey[j + 1]! < k || (cKey[j + 1] === k && cId[j + 1]! < l)); j++) {
          cKey[j] = cKey[j + 1]!;
          cVal[j] = cVal[j + 1]!;
          cId[j] = cId[j + 1]!;
        }
        cKey[j] = k;
        cVal[j] = share;
        cId[j] = l;
        continue;
      }
      i++;
      if (n !== 0) left -= this.fixLink(l, share, t);
    }
  }

  /**
   * Fixes the unfixed flows of link l at `share` from t (their links lose that much capacity and
   * one unfixed flow each: on one-flow links, which are not set up, the figures are never read);
   * returns how many it fixed.
   */
  private fixLink(l: number, share: number, t: number): number {
    const { capLeft, unfixed, fixed, link, hops, eNext } = this;
    const SH = this.SH,
      ep = this.epoch;
    let k = 0;
    for (let e = this.head[l]!; e !== NO; e = eNext[e]!) {
      const f = e >> SH;
      if (fixed[f] === ep) continue;
      fixed[f] = ep;
      k++;
      this.setRate(f, share, t);
      if (share === Infinity) continue;
      for (let h = 0, b = f << SH; h < hops[f]!; h++) {
        const l2 = link[b + h]!;
        capLeft[l2] = capLeft[l2]! - share;
        unfixed[l2]!--;
      }
    }
    return k;
  }

  /** Flow f runs at rate r from t: a new completion is pushed when its rate changed. */
  private setRate(f: number, r: number, t: number): void {
    if (r === this.rate[f]) return;
    this.rate[f] = r;
    const d = r > 0 ? t + this.rem[f]! / r : Infinity;
    this.due[f] = d;
    if (d < Infinity) this.heap.push(d, this.doneId[f]!);
  }
}
