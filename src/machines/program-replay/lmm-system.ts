/**
 * LmmSystem: the flows on the links as SimGrid's lmm system shares them: weighted max-min (weight 1 / penalty, the
 * penalty of a CM02 flow being its route's latency), FATPIPE links that cap each flow rather than their sum, and
 * SimGrid's selective update: a solve recomputes only the flows of the links marked modified since the last one.
 */
import { sortPrefix } from "../../internal/sort-prefix.js";
import { fail } from "../../model/errors.js";

/** The flows' routes (CSR of link ids by flow id), weights, and the links' bandwidths and sharing. */
export interface LmmNetwork {
  readonly links: number;
  readonly bandwidth: Float64Array;
  /** 1 for a FATPIPE link (each flow may use its whole bandwidth), 0 for a shared one. */
  readonly fatpipe: Uint8Array;
  readonly routeStart: Int32Array;
  readonly routeLinks: Int32Array;
  readonly weight: Float64Array;
  /** The most flows the system will see (created or enabled); default one per entry of routeStart but the last. */
  readonly flows?: number;
}

/**
 * The enabled flows on each link and the modified links, with typed arrays only. A flow is enabled once its latency
 * has elapsed and leaves when it ends. As in SimGrid (src/kernel/lmm/System.cpp), enabling or freeing a flow marks
 * the links reachable from its FIRST link through enabled flows, and nothing when that link is already marked: a
 * flow enabled at the same instant as another one from the same host may be solved without its other links until
 * the next change near it. `selective = false` solves every enabled flow at each change (exact max-min).
 *
 * Each link keeps its enabled flows in one slice of a link-major array (CSR by link, sized by the routes), in the
 * order they were enabled; a solve reads it newest first, the order SimGrid's lists give. The solve is progressive
 * filling: the unfixed link of least share (ties: the lower link id) saturates and fixes its unfixed flows, found
 * with a heap of lower bounds (a share only grows as flows elsewhere are fixed).
 */
export class LmmSystem {
  /**
   * The flows numbered in the order the system first sees them (created or enabled), so that the flows in progress
   * together sit together in memory: localOf[op] (-1 before), opOf[local]; their routes (CSR) and weights copied.
   */
  private readonly localOf: Int32Array;
  private readonly opOf: Int32Array;
  private readonly routeStart: Int32Array;
  private readonly routeLinks: Int32Array;
  private readonly weight: Float64Array;
  private nLocal = 0;
  /**
   * Link l's enabled flows: slotFlow[slotStart[l] .. slotStart[l] + count[l]), oldest first; slotW their weights. The
   * slices sit in one pool, each of slotCap[l] places, a few at first: a full one moves to the pool's end with twice
   * the places, so that the slices in use stay together in memory (sized by the routes, they spread over megabytes).
   */
  private readonly slotStart: Int32Array;
  private readonly slotCap: Int32Array;
  private poolEnd = 0;
  private readonly count: Int32Array;
  private slotFlow: Int32Array;
  private slotW: Float64Array;
  private readonly inM: Uint8Array;
  private readonly mList: Int32Array;
  private nM = 0;
  private readonly visited: Int32Array;
  private visit = 1;
  private readonly stack: Int32Array;
  // solve scratch
  private readonly remaining: Float64Array;
  private readonly usage: Float64Array;
  private readonly unfixed: Int32Array;
  /**
   * fixBase + a flow's place in this solve's fix order (nextFlow) once fixed in it: a flow is fixed when its fixOrd is
   * at least fixBase, which grows past every place of the solve before. The scratch of a link's fixes put in order.
   */
  private readonly fixOrd: Float64Array;
  /** The share of the step that made this solve's fix at each place of its order. */
  private readonly fixShare: Float64Array;
  private fixBase = 1;
  private readonly order: Int32Array;
  /** Per flow, the solve in which it crossed a dirty link (the replayed steps pass its other flows by). */
  private readonly nearDirty: Int32Array;
  /**
   * The dirty links' heap of (key, link) pairs, ordered by key then link: a link's live entry is the one whose key is
   * its storedKey, never above its share (a share that falls below it, by rounding, is pushed again).
   */
  private readonly hKey: Float64Array;
  private readonly hLink: Int32Array;
  private readonly storedKey: Float64Array;
  private hSize = 0;
  /**
   * A solve keeps its dirty links in a plain list first, scanned for the least (share, link): the heap's top is that
   * link too, its key never being above its share. A solve mostly saturates a few links, its other links' flows all
   * fixed by them; a list longer than scanMax turns into the heap once it has been scanned log2(length) times.
   */
  private readonly dList: Int32Array;
  private nD = 0;
  private useHeap = false;
  /** The scans of the list in this solve. */
  private scans = 0;
  /** The last scan's link (-1: none), still the least while no listed link changed since (replayed steps). */
  private scanned = -1;
  private scanValid = false;
  /** The key and share of the link dirtyTop found. */
  private topKey = 0;
  private topShare = 0;
  /** Per link: the solve whose flows it changed before, its usage at its start (last marked: solvedIn). */
  private readonly changedAt: Int32Array;
  private readonly cleanAt: Int32Array;
  private readonly initUsage: Float64Array;
  /** Per link: its share at a solve's start (bandwidth / initUsage), kept with initUsage. */
  private readonly initShare: Float64Array;
  /** Per link: the solve that summed its initUsage (valid while its flows are unchanged), its share now. */
  private readonly sumAt: Int32Array;
  private readonly shareOf: Float64Array;
  /** The number of the next solve. */
  private gen = 1;
  /**
   * Per link, the last solve that solved it; per flow, the last solve that fixed it. Each closure marks its links as
   * one range of mList (rangeStart; rangeOf[link] the range's number, unique over the run): a range whose links were
   * all solved last by one solve S, unchanged since, whose flows S fixed last and cross links of the range only, is
   * the component S solved, and would get S's rates again: the solve leaves it out (dropRepeats).
   */
  private readonly solvedIn: Int32Array;
  private readonly fixedIn: Int32Array;
  private readonly rangeStart: Int32Array;
  /** Per range, the solve S its closure found it repeats, if its links do not change before the solve (0: none). */
  private readonly rangeSolve: Int32Array;
  private nRanges = 0;
  /** The links a closure marked while they had no flow (not in mList). */
  private readonly bare: Int32Array;
  private nBare = 0;
  private readonly rangeOf: Int32Array;
  private rangeId = 0;
  /** The previous solve's steps: the link saturated, its heap key and share, its flows (CSR, in fix order). */
  private logLink: Int32Array;
  private logKey: Float64Array;
  private logShare: Float64Array;
  private logFixStart: Int32Array;
  private logFlow: Int32Array;
  private logSteps = 0;
  private logValid = false;
  /** This solve's steps and fixed flows so far (written to the next* arrays). */
  private nSteps = 0;
  private nFix = 0;
  private nextLink: Int32Array;
  private nextKey: Float64Array;
  private nextShare: Float64Array;
  private nextFixStart: Int32Array;
  private nextFlow: Int32Array;
  /** Whether a link's bandwidth is not finite (checkShares then checks every flow, not only those of odd weight). */
  private readonly oddBandwidth: boolean;
  /** Whether anything changed since the last solve. */
  modified = false;
  /** The solves made by solveIsolated (every marked link holding one flow at most). */
  isolatedSolves = 0;
  /**
   * The links with enabled flows (a dense set: live[0 .. nLive), livePos by link) and the number of (flow, link) pairs
   * on them. `connected`: they form one component (flows linking links), so that the first closure of a solve, from
   * any of them, marks them all without a search. It is set by that closure's search, kept through an enable that
   * joins a live link, and checked after a free by a bounded search between the freed flow's links left live.
   */
  private readonly live: Int32Array;
  private readonly livePos: Int32Array;
  private nLive = 0;
  private nPairs = 0;
  private connected = true;
  /** The bidirectional search's scratch: per link, the stamp of the side that reached it; its two queues. */
  private readonly side: Int32Array;
  private stamp = 0;
  private readonly queue: Int32Array;

  constructor(
    private readonly net: LmmNetwork,
    private readonly selective: boolean,
    private readonly incremental = true,
    private readonly scanMax = SCAN_MAX,
    private readonly shortcut = true,
    private readonly leaveOutRepeats = true,
    private readonly isolatedFast = true,
  ) {
    const L = net.links,
      E = net.routeLinks.length,
      ops = net.routeStart.length - 1,
      // the per-flow tables are indexed by the system's own flow numbers (local)
      F = Math.max(1, Math.min(ops, net.flows ?? ops));
    this.localOf = new Int32Array(ops).fill(-1);
    this.opOf = new Int32Array(F);
    this.routeStart = new Int32Array(F + 1);
    this.routeLinks = new Int32Array(E);
    this.weight = new Float64Array(F);
    // each link's first slice: SLOT_PLACES places
    this.slotStart = new Int32Array(L);
    this.slotCap = new Int32Array(L).fill(SLOT_PLACES);
    for (let l = 0; l < L; l++) this.slotStart[l] = l * SLOT_PLACES;
    this.poolEnd = L * SLOT_PLACES;
    this.count = new Int32Array(L);
    // room for the routes' places, as the slices sized by the routes had: pages never written cost nothing, and a
    // program whose flows all run at once (every link's slice moved several times) moves the pool once at most
    const pool = Math.max(2 * this.poolEnd, E) + 16;
    this.slotFlow = new Int32Array(pool);
    this.slotW = new Float64Array(pool);
    this.inM = new Uint8Array(L);
    this.mList = new Int32Array(L);
    this.visited = new Int32Array(F);
    this.stack = new Int32Array(L);
    this.remaining = new Float64Array(L);
    this.usage = new Float64Array(L);
    this.unfixed = new Int32Array(L);
    this.fixOrd = new Float64Array(F);
    this.fixShare = new Float64Array(F);
    this.nearDirty = new Int32Array(F);
    this.order = new Int32Array(F);
    this.hKey = new Float64Array(2 * L + E);
    this.hLink = new Int32Array(2 * L + E);
    this.storedKey = new Float64Array(L);
    this.dList = new Int32Array(L);
    this.changedAt = new Int32Array(L);
    this.cleanAt = new Int32Array(L);
    this.initUsage = new Float64Array(L);
    this.initShare = new Float64Array(L);
    this.sumAt = new Int32Array(L).fill(-1);
    this.solvedIn = new Int32Array(L);
    this.fixedIn = new Int32Array(F);
    this.rangeStart = new Int32Array(L + 1);
    this.rangeSolve = new Int32Array(L + 1);
    this.bare = new Int32Array(L);
    this.rangeOf = new Int32Array(L);
    this.shareOf = new Float64Array(L);
    this.logLink = new Int32Array(L);
    this.logKey = new Float64Array(L);
    this.logShare = new Float64Array(L);
    this.logFixStart = new Int32Array(L + 1);
    this.logFlow = new Int32Array(F);
    this.nextLink = new Int32Array(L);
    this.nextKey = new Float64Array(L);
    this.nextShare = new Float64Array(L);
    this.nextFixStart = new Int32Array(L + 1);
    this.nextFlow = new Int32Array(F);
    this.live = new Int32Array(L);
    this.livePos = new Int32Array(L);
    this.side = new Int32Array(L);
    this.queue = new Int32Array(L);
    this.oddBandwidth = !net.bandwidth.every((b) => Number.isFinite(b));
  }

  /** Flow `op`'s number in this system, given (its route and weight copied) when first seen. */
  private local(op: number): number {
    const x = this.localOf[op]!;
    if (x >= 0) return x;
    const { routeStart, routeLinks } = this.net;
    const y = this.nLocal++,
      a = this.routeStart[y]!;
    let e = a;
    for (let k = routeStart[op]!; k < routeStart[op + 1]!; k++) this.routeLinks[e++] = routeLinks[k]!;
    const w = this.net.weight[op]!;
    // a weight that is not positive and finite gives a NaN or negative rate (0 x an infinite share, -1 x a share);
    // with one, only an infinite (or NaN) bandwidth can give no share: checked when there is one
    if (!(w > 0 && w < Infinity))
      throw fail(
        "machines",
        "BAD_INPUT",
        `max-min system: flow ${op} has weight ${w}: a weight must be positive and finite`,
      );
    if (this.oddBandwidth) checkShares(this.net, op);
    this.routeStart[y + 1] = e;
    this.weight[y] = this.net.weight[op]!;
    this.localOf[op] = y;
    this.opOf[y] = op;
    return y;
  }

  /** Flow op's latency has elapsed: it joins its links (newest in their lists) and marks them modified. */
  enable(op: number): void {
    const f = this.local(op);
    const { routeStart, routeLinks, weight } = this;
    const { slotStart, slotCap, count } = this;
    const w = weight[f]!;
    let joins = this.nLive === 0;
    for (let e = routeStart[f]!; e < routeStart[f + 1]!; e++) {
      const l = routeLinks[e]!;
      this.changedAt[l] = this.gen;
      if (count[l] === 0) {
        this.livePos[l] = this.nLive;
        this.live[this.nLive++] = l;
      } else joins = true;
      if (count[l] === slotCap[l]) this.growSlice(l);
      const s = slotStart[l]! + count[l]!++;
      this.slotFlow[s] = f;
      this.slotW[s] = w;
    }
    this.nPairs += routeStart[f + 1]! - routeStart[f]!;
    if (!joins) this.connected = false;
    this.modified = true;
    this.fromFlow(f);
  }

  /** Link l's slice is full: it moves to the pool's end with twice the places (the pool grows when full). */
  private growSlice(l: number): void {
    const cap = Math.max(SLOT_PLACES, 2 * this.slotCap[l]!),
      at = this.poolEnd,
      a = this.slotStart[l]!,
      k = this.count[l]!;
    if (at + cap > this.slotFlow.length) {
      const size = Math.max(2 * this.slotFlow.length, at + cap);
      const flow = new Int32Array(size),
        w = new Float64Array(size);
      flow.set(this.slotFlow.subarray(0, at));
      w.set(this.slotW.subarray(0, at));
      this.slotFlow = flow;
      this.slotW = w;
    }
    const { slotFlow, slotW } = this;
    for (let i = 0; i < k; i++) {
      slotFlow[at + i] = slotFlow[a + i]!;
      slotW[at + i] = slotW[a + i]!;
    }
    this.slotStart[l] = at;
    this.slotCap[l] = cap;
    this.poolEnd = at + cap;
  }

  /** Flow op ended: it marks its links modified (as SimGrid's var_free) and leaves them. */
  free(op: number): void {
    const f = this.localOf[op]!;
    this.modified = true;
    this.fromFlow(f);
    const { routeStart, routeLinks } = this;
    const { slotStart, count, slotFlow, slotW } = this;
    for (let e = routeStart[f]!; e < routeStart[f + 1]!; e++) {
      const l = routeLinks[e]!;
      this.changedAt[l] = this.gen;
      const a = slotStart[l]!,
        end = a + count[l]!;
      let s = end - 1;
      while (slotFlow[s] !== f) s--;
      // the lists are short: a loop beats copyWithin's call
      for (; s < end - 1; s++) {
        slotFlow[s] = slotFlow[s + 1]!;
        slotW[s] = slotW[s + 1]!;
      }
      if (--count[l]! === 0) {
        const i = this.livePos[l]!,
          last = this.live[--this.nLive]!;
        this.live[i] = last;
        this.livePos[last] = i;
      }
    }
    this.nPairs -= routeStart[f + 1]! - routeStart[f]!;
    if (this.connected && this.selective && this.shortcut) this.connected = this.stillConnected(f);
  }

  /**
   * Whether the live links stay one component once flow f (connected before) left them: a path through f entered and
   * left it by two of its links still live, so they must all be linked without it; a search from both sides at once
   * (the smaller queue grows first) gives up, answering false, past a quarter of the pairs.
   */
  private stillConnected(f: number): boolean {
    const { routeStart, routeLinks } = this;
    const { count } = this;
    let a = -1;
    for (let e = routeStart[f]!; e < routeStart[f + 1]!; e++) {
      const l = routeLinks[e]!;
      if (count[l] === 0 || l === a) continue;
      if (a < 0) a = l;
      else if (!this.linked(a, l)) return false;
    }
    return true;
  }

  /** Whether live links a and b are linked by flows: breadth-first from both, within the budget. */
  private linked(a: number, b: number): boolean {
    const { routeStart, routeLinks } = this;
    const { side, queue, slotStart, count, slotFlow } = this;
    if (this.stamp > 1 << 30) {
      side.fill(0);
      this.stamp = 0;
    }
    const sa = (this.stamp += 2),
      sb = sa + 1;
    side[a] = sa;
    side[b] = sb;
    // side a's queue grows up from 0, side b's down from the end
    const L = queue.length;
    let ha = 0,
      ta = 0,
      hb = L - 1,
      tb = L - 1;
    queue[ta++] = a;
    queue[tb--] = b;
    let budget = this.nPairs >> 2;
    while (ha < ta && hb > tb) {
      const fromA = ta - ha <= hb - tb;
      const c = fromA ? queue[ha++]! : queue[hb--]!;
      const mine = fromA ? sa : sb,
        other = fromA ? sb : sa;
      const end = slotStart[c]! + count[c]!;
      for (let s = slotStart[c]!; s < end; s++) {
        const g = slotFlow[s]!;
        const kEnd = routeStart[g + 1]!;
        budget -= kEnd - routeStart[g]!;
        for (let k = routeStart[g]!; k < kEnd; k++) {
          const c2 = routeLinks[k]!;
          const sd = side[c2]!;
          if (sd === other) return true;
          if (sd === mine) continue;
          side[c2] = mine;
          if (fromA) queue[ta++] = c2;
          else queue[tb--] = c2;
        }
      }
      if (budget < 0) return false;
    }
    return false;
  }

  /**
   * Flow f was created, its latency still to elapse (SimGrid's variable of penalty 0, expanded over its route): each
   * of its links is marked modified in route order, with the closure of the flows enabled on it (System::expand), and
   * the next solve re-solves them although the flow itself does not join them yet.
   */
  created(op: number): void {
    this.modified = true;
    if (!this.selective) return;
    const f = this.local(op);
    const { routeStart, routeLinks } = this;
    for (let e = routeStart[f]!; e < routeStart[f + 1]!; e++) this.closure(routeLinks[e]!);
  }

  /** SimGrid's update_modified_cnst_set_from_variable: the closure from the flow's first link, if not marked. */
  private fromFlow(f: number): void {
    if (!this.selective) return;
    const { routeStart, routeLinks } = this;
    if (routeStart[f] === routeStart[f + 1]) return;
    this.closure(routeLinks[routeStart[f]!]!);
  }

  /** SimGrid's update_modified_cnst_set: marks link `first` and, through flows not yet visited, what they cross. */
  private closure(first: number): void {
    const { routeStart, routeLinks } = this;
    const { inM, mList, stack, visited, slotStart, count, slotFlow } = this;
    if (inM[first]) return;
    if (count[first] === 0) {
      // a link without flows marks itself only; a solve never reads it, the mark only stops later closures
      inM[first] = 1;
      this.bare[this.nBare++] = first;
      return;
    }
    let nM = this.nM;
    const { rangeOf, solvedIn, fixedIn } = this;
    const id = this.newRange(nM);
    const fresh = nM === 0 && this.nBare === 0 && this.shortcut;
    if (fresh && this.connected) {
      const { live } = this;
      for (let i = 0; i < this.nLive; i++) {
        const c = live[i]!;
        inM[c] = 1;
        rangeOf[c] = id;
        mList[i] = c;
      }
      this.nM = this.nLive;
      this.rangeSolve[this.nRanges - 1] = 0;
      return;
    }
    const visit = this.visit;
    inM[first] = 1;
    rangeOf[first] = id;
    mList[nM++] = first;
    // whether the range is the component one solve S solved, its flows fixed last by S (see repeats)
    const S = solvedIn[first]!;
    let same = S > 0;
    let top = 0;
    stack[top++] = first;
    while (top > 0) {
      const c = stack[--top]!;
      const end = slotStart[c]! + count[c]!;
      for (let s = slotStart[c]!; s < end; s++) {
        const g = slotFlow[s]!;
        if (visited[g] === visit) continue;
        visited[g] = visit;
        // once the range is known not to repeat, its links are only marked
        if (same && fixedIn[g] !== S) same = false;
        for (let k = routeStart[g]!, kEnd = routeStart[g + 1]!; k < kEnd; k++) {
          const c2 = routeLinks[k]!;
          if (inM[c2] === 0) {
            inM[c2] = 1;
            rangeOf[c2] = id;
            mList[nM++] = c2;
            // a link whose one flow is g (every link g crosses holds it) leads nowhere else: it is only marked
            if (count[c2]! > 1) stack[top++] = c2;
            if (same && solvedIn[c2] !== S) same = false;
          } else if (same && rangeOf[c2] !== id) same = false;
        }
      }
    }
    this.nM = nM;
    this.rangeSolve[this.nRanges - 1] = same ? S : 0;
    // the search from a live link with nothing marked before reached every link of its component
    if (fresh) this.connected = nM === this.nLive;
  }

  /**
   * Solves the marked links (every link of an enabled flow without selective update): the enabled flows on them get
   * their weighted max-min rates in `rate`, links not marked do not limit them, and other flows keep theirs. The ids
   * of the flows whose rate may have changed go to `touched` (the count is returned): the others keep the rate the
   * previous solve gave them, bit for bit.
   *
   * Incremental: the previous solve's steps (saturated link, its key and share, the flows it fixed) are replayed for
   * the links that are clean (marked both times, their flows unchanged, no fix out of the previous order): such a
   * link's state equals the previous solve's at the same step, so the previous order holds among clean links. A link
   * becomes dirty when its flows changed or a fix reaches it out of that order (a step skipped, a flow fixed by a
   * dirty link); dirty links are solved anew with the heap and merged with the replayed steps by (key, link).
   */
  solve(rate: Float64Array, touched: Int32Array): number {
    this.unbare();
    if (this.selective && this.leaveOutRepeats && this.dropRepeats()) {
      this.clearMarks();
      return 0;
    }
    if (this.selective && this.isolatedFast && this.allPrivate()) return this.solveIsolated(rate, touched);
    const nOld = this.startSolve();
    const g = this.gen;
    const { cleanAt } = this;
    const oLink = this.logLink,
      oKey = this.logKey;
    let nTouched = 0,
      step = 0;
    for (;;) {
      // previous steps whose link is no longer clean are skipped: the links their flows reach become dirty
      while (step < nOld && cleanAt[oLink[step]!] !== g) this.skipStep(step++);
      const dl = this.dirtyTop();
      if (dl < 0 && step >= nOld) break;
      if (step < nOld && (dl < 0 || oKey[step]! < this.topKey || (oKey[step] === this.topKey && oLink[step]! < dl)))
        this.replayStep(step++);
      else nTouched = this.saturate(dl, rate, touched, nTouched);
    }
    this.endSolve();
    return nTouched;
  }

  /** Whether every marked link holds one flow at most: each flow on them is then alone on all its marked links. */
  private allPrivate(): boolean {
    const { mList, count } = this;
    for (let i = 0; i < this.nM; i++) if (count[mList[i]!]! > 1) return false;
    return true;
  }

  /**
   * The solve of marked links that each hold one flow at most, without the progressive filling's scans: a flow alone
   * on its marked links is fixed by the one of least (start share, link), as the filling fixes it (a link of one flow
   * keeps its start share until that flow is fixed, then drops out), and the filling's steps are those links in
   * (share, link) order, one flow each; they are logged as its steps are, for the next solve to replay. Each flow's
   * rate is computed as the filling computes it (share * weight, the share bandwidth / usage, the usage 0 + weight),
   * so the rates are the same bit for bit (test/machines/program-replay-lmm.test.ts, against isolatedFast false).
   */
  private solveIsolated(rate: Float64Array, touched: Int32Array): number {
    const { bandwidth, fatpipe } = this.net;
    const { mList, count, slotStart, slotFlow, slotW, fixOrd, weight, opOf, fixedIn, initUsage, initShare, sumAt } =
      this;
    const g = this.gen;
    // per entry k (a flow): its flow (order), least share (fixShare) and the link of it (stack), free in a solve
    const flowAt = this.order,
      shareAt = this.fixShare,
      linkAt = this.stack;
    const base = this.fixBase;
    let n = 0;
    for (let i = 0; i < this.nM; i++) {
      const c = mList[i]!;
      if (count[c] === 0) continue;
      const s = slotStart[c]!,
        f = slotFlow[s]!;
      // the usage startLink sums over the link's one flow: 0 + its weight (FATPIPE: max(0, weight))
      const u = fatpipe[c] ? Math.max(0, slotW[s]!) : 0 + slotW[s]!;
      const sh = shareOfState(bandwidth[c]!, u, fatpipe[c]!);
      // its start state kept as startLink keeps it: a later solve may find the link clean and settle it from there
      initUsage[c] = u;
      initShare[c] = sh;
      sumAt[c] = g;
      if (fixOrd[f]! < base) {
        fixOrd[f] = base + n;
        flowAt[n] = f;
        shareAt[n] = sh;
        linkAt[n++] = c;
        continue;
      }
      const k = fixOrd[f]! - base;
      if (sh < shareAt[k]! || (sh === shareAt[k] && c < linkAt[k]!)) {
        shareAt[k] = sh;
        linkAt[k] = c;
      }
    }
    // the entries in (share, link) order: dList (free in a solve) holds their permutation
    const idx = this.dList;
    for (let k = 0; k < n; k++) idx[k] = k;
    const before = (a: number, b: number): boolean =>
      shareAt[a]! < shareAt[b]! || (shareAt[a] === shareAt[b] && linkAt[a]! < linkAt[b]!);
    if (n <= 16)
      for (let k = 1; k < n; k++) {
        const x = idx[k]!;
        let j = k - 1;
        for (; j >= 0 && before(x, idx[j]!); j--) idx[j + 1] = idx[j]!;
        idx[j + 1] = x;
      }
    else idx.subarray(0, n).sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    const { nextLink, nextKey, nextShare, nextFixStart, nextFlow } = this;
    for (let i = 0; i < n; i++) {
      const k = idx[i]!,
        f = flowAt[k]!,
        sh = shareAt[k]!;
      nextLink[i] = linkAt[k]!;
      nextKey[i] = sh;
      nextShare[i] = sh;
      nextFixStart[i] = i;
      nextFlow[i] = f;
      fixedIn[f] = g;
      const op = opOf[f]!;
      rate[op] = sh * weight[f]!;
      touched[i] = op;
    }
    this.nSteps = n;
    this.nFix = n;
    this.isolatedSolves++;
    this.endSolve();
    return n;
  }

  /** A link marked without flows that has one now (its closure stopped at the mark) is solved: a range of its own. */
  private unbare(): void {
    const { bare, count } = this;
    for (let i = 0; i < this.nBare; i++) {
      const c = bare[i]!;
      if (count[c] === 0) continue;
      bare[i--] = bare[--this.nBare]!;
      this.rangeOf[c] = this.newRange(this.nM);
      this.rangeSolve[this.nRanges - 1] = 0;
      this.mList[this.nM++] = c;
    }
  }

  /** A closure's range of mList starts at `at`: its number. */
  private newRange(at: number): number {
    if (this.rangeId >= 0x7fffffff) {
      this.rangeOf.fill(0);
      this.rangeId = 0;
    }
    this.rangeStart[this.nRanges++] = at;
    return ++this.rangeId;
  }

  /**
   * Leaves out of this solve every range that would get the rates its last solve S gave it, none changed since: its
   * closure found its links all solved last by S, every flow on them fixed last by S and crossing links of the range
   * only, so the range is the component S solved (a link S reached through one of its flows would be in the range),
   * with the same flows in the same order; max-min gives a component the same steps whatever else a solve holds.
   * Whether its links' flows changed since is known only now. True when no link is left.
   */
  private dropRepeats(): boolean {
    const { mList, inM, rangeStart, rangeSolve, changedAt } = this;
    const nR = this.nRanges;
    rangeStart[nR] = this.nM;
    let w = 0;
    for (let r = 0; r < nR; r++) {
      const a = rangeStart[r]!,
        b = rangeStart[r + 1]!,
        S = rangeSolve[r]!;
      let repeats = S > 0;
      for (let i = a; i < b && repeats; i++) repeats = changedAt[mList[i]!]! <= S;
      if (repeats) for (let i = a; i < b; i++) inM[mList[i]!] = 0;
      else if (w === a) w = b;
      else for (let i = a; i < b; i++) mList[w++] = mList[i]!;
    }
    this.nM = w;
    this.nRanges = 0;
    return w === 0;
  }

  /** The marks of the links marked without flows are cleared. */
  private clearBare(): void {
    for (let i = 0; i < this.nBare; i++) this.inM[this.bare[i]!] = 0;
    this.nBare = 0;
  }

  /** The marks of a solve left with no link (dropRepeats): the state stays that of the last solve made. */
  private clearMarks(): void {
    for (let i = 0; i < this.nM; i++) this.inM[this.mList[i]!] = 0;
    this.nM = 0;
    this.clearBare();
    this.visit++;
    this.modified = false;
  }

  /**
   * Marks every link of an enabled flow without selective update, finds the clean links (marked in the previous solve
   * too, their flows unchanged), sets every other marked link's state to its start and lists it as dirty, with the
   * least share found on the way (the list's first scan); returns the number of the previous solve's steps to replay
   * (0: a solve from scratch, every link then dirty). A clean link's state is set when it turns dirty (settle).
   */
  private startSolve(): number {
    const { inM, mList, count, dList, cleanAt, solvedIn, changedAt, slotStart, slotFlow, nearDirty } = this;
    if (!this.selective) {
      for (let l = 0; l < this.net.links; l++)
        if (count[l]! > 0 && inM[l] === 0) {
          inM[l] = 1;
          mList[this.nM++] = l;
        }
    }
    const nM = this.nM;
    const g = this.gen;
    const logged = this.incremental && this.logValid;
    // the clean links wait in `stack` (free during a solve) until the solve knows whether it replays
    const clean = this.stack;
    let nClean = 0,
      n = 0,
      best = -1,
      bestShare = Infinity;
    for (let i = 0; i < nM; i++) {
      const c = mList[i]!;
      // a link without flows is never read
      if (count[c] === 0) continue;
      if (logged && solvedIn[c] === g - 1 && changedAt[c] !== g) {
        cleanAt[c] = g;
        clean[nClean++] = c;
        continue;
      }
      const sh = this.startLink(c, g);
      dList[n++] = c;
      if (best < 0 || sh < bestShare || (sh === bestShare && c < best)) {
        best = c;
        bestShare = sh;
      }
    }
    // replaying pays when at least half the links are clean
    const replay = nClean > 0 && nClean >= n;
    if (replay)
      for (let i = 0; i < n; i++) {
        const c = dList[i]!,
          a = slotStart[c]!;
        for (let s = a; s < a + count[c]!; s++) nearDirty[slotFlow[s]!] = g;
      }
    else
      for (let i = 0; i < nClean; i++) {
        const c = clean[i]!;
        cleanAt[c] = 0;
        const sh = this.startLink(c, g);
        dList[n++] = c;
        if (best < 0 || sh < bestShare || (sh === bestShare && c < best)) {
          best = c;
          bestShare = sh;
        }
      }
    this.nD = n;
    this.hSize = 0;
    this.useHeap = false;
    // the list was scanned once: its least share is known until a listed link changes
    this.scans = 1;
    this.scanValid = true;
    this.scanned = best;
    this.topKey = this.topShare = bestShare;
    this.nSteps = 0;
    this.nFix = 0;
    return replay ? this.logSteps : 0;
  }

  /**
   * Dirty link c's state at the start of solve g (its usage and share computed again only when its flows changed);
   * its share.
   */
  private startLink(c: number, g: number): number {
    const { bandwidth, fatpipe } = this.net;
    const { slotW, initUsage, sumAt } = this;
    const a = this.slotStart[c]!,
      k = this.count[c]!;
    this.remaining[c] = bandwidth[c]!;
    this.unfixed[c] = k;
    // the sum over the same flows in the same order is the same, and so is the share it gives
    if (this.changedAt[c]! > sumAt[c]!) {
      let u = 0;
      if (fatpipe[c]) for (let s = a + k - 1; s >= a; s--) u = Math.max(u, slotW[s]!);
      else for (let s = a + k - 1; s >= a; s--) u += slotW[s]!;
      initUsage[c] = u;
      this.initShare[c] = shareOfState(bandwidth[c]!, u, fatpipe[c]!);
      sumAt[c] = g;
    }
    this.usage[c] = initUsage[c]!;
    return (this.shareOf[c] = this.initShare[c]!);
  }

  /** This solve's log becomes the previous one; the marks are cleared. */
  private endSolve(): void {
    this.nextFixStart[this.nSteps] = this.nFix;
    const link = this.logLink,
      key = this.logKey,
      share = this.logShare,
      fix = this.logFixStart,
      flow = this.logFlow;
    this.logLink = this.nextLink;
    this.logKey = this.nextKey;
    this.logShare = this.nextShare;
    this.logFixStart = this.nextFixStart;
    this.logFlow = this.nextFlow;
    this.nextLink = link;
    this.nextKey = key;
    this.nextShare = share;
    this.nextFixStart = fix;
    this.nextFlow = flow;
    this.logSteps = this.nSteps;
    this.logValid = true;
    this.fixBase += this.nFix + 1;
    const g = this.gen;
    for (let i = 0; i < this.nM; i++) {
      const c = this.mList[i]!;
      this.inM[c] = 0;
      this.solvedIn[c] = g;
    }
    this.nRanges = 0;
    this.clearBare();
    this.gen = g + 1;
    this.nM = 0;
    this.visit++;
    this.modified = false;
  }

  /** Dirty link e's entry (key, e) joins the heap. */
  private push(key: number, e: number): void {
    const { hKey, hLink } = this;
    this.storedKey[e] = key;
    let i = this.hSize++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (hKey[up]! < key || (hKey[up] === key && hLink[up]! < e)) break;
      hKey[i] = hKey[up]!;
      hLink[i] = hLink[up]!;
      i = up;
    }
    hKey[i] = key;
    hLink[i] = e;
  }

  /**
   * Clean link e's state now (a replayed step leaves it as it was): its bandwidth and usage at the start less its
   * flows fixed so far (but `skip`, being fixed), one by one in the order they were fixed, as the replayed steps would
   * have left them; its flows fixed so far were all replayed, a fix out of the previous order making it dirty.
   */
  private settle(e: number, skip: number): void {
    const { bandwidth, fatpipe } = this.net;
    const { weight } = this;
    const { slotStart, count, slotFlow, fixOrd, fixShare, order, nextFlow } = this;
    const base = this.fixBase,
      a = slotStart[e]!,
      k = count[e]!;
    let n = 0;
    for (let s = a; s < a + k; s++) {
      const f = slotFlow[s]!;
      if (fixOrd[f]! >= base && f !== skip) order[n++] = fixOrd[f]! - base;
    }
    sortPrefix(order, n);
    let rem = bandwidth[e]!,
      u = this.initUsage[e]!;
    const pipe = fatpipe[e] === 1;
    for (let i = 0; i < n && !pipe; i++) {
      const x = order[i]!,
        f = nextFlow[x]!;
      rem = Math.max(0, rem - fixShare[x]! * weight[f]!);
      u -= weight[f]!;
    }
    this.remaining[e] = rem;
    this.usage[e] = u;
    this.shareOf[e] = shareOfState(rem, u, fatpipe[e]!);
    this.unfixed[e] = k - n;
  }

  /** Clean link e (settled) leaves the replayed order: it joins the heap with its current share. */
  private makeDirty(e: number): void {
    this.cleanAt[e] = 0;
    if (this.unfixed[e] === 0) return;
    const a = this.slotStart[e]!,
      g = this.gen;
    for (let s = a; s < a + this.count[e]!; s++) this.nearDirty[this.slotFlow[s]!] = g;
    if (this.useHeap) this.push(this.share(e), e);
    else {
      this.dList[this.nD++] = e;
      this.scanValid = false;
    }
  }

  /** Link e's share now: its remaining bandwidth per unit of weight (Infinity without weight left). */
  private share(e: number): number {
    return this.shareOf[e]!;
  }

  /** The listed dirty links with unfixed flows become the heap, each keyed by its share. */
  private toHeap(): void {
    const { hKey, hLink, dList, unfixed, storedKey } = this;
    let n = 0;
    for (let i = 0; i < this.nD; i++) {
      const c = dList[i]!;
      if (unfixed[c] === 0) continue;
      hKey[n] = storedKey[c] = this.share(c);
      hLink[n++] = c;
    }
    for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(hKey, hLink, n, i, hKey[i]!, hLink[i]!);
    this.hSize = n;
    this.nD = 0;
    this.useHeap = true;
  }

  /** The listed dirty link of least (share, link), links without unfixed flows dropped; -1 when none is left. */
  private scanTop(): number {
    const { dList, unfixed } = this;
    let n = this.nD,
      best = -1,
      bestShare = Infinity;
    for (let i = 0; i < n;) {
      const c = dList[i]!;
      if (unfixed[c] === 0) {
        dList[i] = dList[--n]!;
        continue;
      }
      const sh = this.share(c);
      if (best < 0 || sh < bestShare || (sh === bestShare && c < best)) {
        best = c;
        bestShare = sh;
      }
      i++;
    }
    this.nD = n;
    this.topKey = this.topShare = bestShare;
    return best;
  }

  /** The previous solve's step is skipped: every clean link its flows reach becomes dirty. */
  private skipStep(step: number): void {
    const { routeStart, routeLinks } = this;
    const { cleanAt, inM, logFlow, logFixStart } = this;
    const g = this.gen;
    for (let x = logFixStart[step]!; x < logFixStart[step + 1]!; x++) {
      const f = logFlow[x]!;
      for (let k = routeStart[f]!, kEnd = routeStart[f + 1]!; k < kEnd; k++) {
        const e = routeLinks[k]!;
        if (cleanAt[e] === g && inM[e] === 1) {
          this.settle(e, -1);
          this.makeDirty(e);
        }
      }
    }
  }

  /**
   * The dirty link of least (key, link) whose share is its key (stale keys refreshed, links without unfixed flows and
   * replaced entries dropped), its key and share in topKey and topShare; -1 when none is left.
   */
  private dirtyTop(): number {
    if (!this.useHeap) {
      // a scan costs the list's length, the heap about its log per link: past scanMax links, log2(n) scans switch
      if (this.scanValid) return this.scanned;
      if (this.nD <= this.scanMax || this.scans < 31 - Math.clz32(this.nD)) {
        this.scans++;
        this.scanValid = true;
        return (this.scanned = this.scanTop());
      }
      this.toHeap();
    }
    const { fatpipe } = this.net;
    const { hKey, hLink, unfixed, storedKey, usage, remaining } = this;
    let n = this.hSize;
    let dl = -1;
    while (n > 0) {
      const key = hKey[0]!,
        c = hLink[0]!;
      if (unfixed[c] === 0 || key !== storedKey[c]) {
        n--;
        if (n > 0) siftDown(hKey, hLink, n, 0, hKey[n]!, hLink[n]!);
        continue;
      }
      const share = fatpipe[c] ? key : usage[c]! > 0 ? remaining[c]! / usage[c]! : Infinity;
      if (share > key) {
        storedKey[c] = share;
        siftDown(hKey, hLink, n, 0, share, c);
        continue;
      }
      dl = c;
      this.topKey = key;
      this.topShare = share;
      break;
    }
    this.hSize = n;
    return dl;
  }

  /**
   * A clean link saturates as in the previous solve: the same flows, fixed at the same rates; their dirty links lose
   * them (a clean one is left as it is, to settle when it turns dirty).
   */
  private replayStep(step: number): void {
    const { weight, routeStart, routeLinks } = this;
    const { fixOrd, fixShare, nextFlow, cleanAt, inM, nearDirty, fixedIn, logFlow } = this;
    const g = this.gen,
      base = this.fixBase;
    const share = this.logShare[step]!;
    this.logStep(this.logLink[step]!, this.logKey[step]!, share);
    let nFix = this.nFix;
    for (let x = this.logFixStart[step]!, end = this.logFixStart[step + 1]!; x < end; x++) {
      const f = logFlow[x]!;
      fixedIn[f] = g;
      fixOrd[f] = base + nFix;
      fixShare[nFix] = share;
      nextFlow[nFix++] = f;
      if (nearDirty[f] !== g) continue;
      for (let k = routeStart[f]!, kEnd = routeStart[f + 1]!; k < kEnd; k++) {
        const c2 = routeLinks[k]!;
        if (cleanAt[c2] !== g && inM[c2] === 1) this.lose(c2, share * weight[f]!, weight[f]!, false);
      }
    }
    this.nFix = nFix;
  }

  /** Dirty link dl (the heap's top) saturates: its unfixed flows get their rates; the links they reach are dirty. */
  private saturate(dl: number, rate: Float64Array, touched: Int32Array, nTouched: number): number {
    const { weight, opOf } = this;
    const { fixOrd, slotStart, count, slotFlow, nextFlow } = this;
    const base = this.fixBase;
    const { hKey, hLink } = this;
    if (this.useHeap) {
      const n = --this.hSize;
      if (n > 0) siftDown(hKey, hLink, n, 0, hKey[n]!, hLink[n]!);
    }
    const share = this.topShare;
    this.logStep(dl, this.topKey, share);
    let nFix = this.nFix;
    const a = slotStart[dl]!;
    for (let s = a + count[dl]! - 1; s >= a; s--) {
      const f = slotFlow[s]!;
      if (fixOrd[f]! >= base) continue;
      this.fixedIn[f] = this.gen;
      fixOrd[f] = base + nFix;
      this.fixShare[nFix] = share;
      nextFlow[nFix++] = f;
      const r = share * weight[f]!;
      const op = opOf[f]!;
      rate[op] = r;
      touched[nTouched++] = op;
      this.release(f, r);
    }
    this.nFix = nFix;
    return nTouched;
  }

  /**
   * Flow f is fixed at rate r out of the previous order: each marked link of its route loses it, a clean one settled
   * first and then dirty.
   */
  private release(f: number, r: number): void {
    const { weight, routeStart, routeLinks } = this;
    const { inM, cleanAt } = this;
    const g = this.gen,
      w = weight[f]!;
    for (let k = routeStart[f]!, kEnd = routeStart[f + 1]!; k < kEnd; k++) {
      const c2 = routeLinks[k]!;
      if (inM[c2] === 0) continue;
      const clean = cleanAt[c2] === g;
      if (clean) this.settle(c2, f);
      this.lose(c2, r, w, clean);
    }
  }

  /**
   * Marked link c loses a flow of weight w fixed at rate r (its remaining bandwidth and usage, unless FATPIPE): a
   * clean link (settled) becomes dirty, a dirty one whose share fell below its key is pushed again.
   */
  private lose(c: number, r: number, w: number, clean: boolean): void {
    const { fatpipe } = this.net;
    const { remaining, usage, unfixed } = this;
    // a link left without unfixed flows is done with in this solve: its state is set again before it is read
    // (startLink, settle), so it is not updated
    if (--unfixed[c]! === 0) {
      if (clean) this.cleanAt[c] = 0;
      else if (!this.useHeap) this.scanValid = false;
      return;
    }
    let sh = this.shareOf[c]!;
    if (fatpipe[c] === 0) {
      const rem = (remaining[c] = Math.max(0, remaining[c]! - r)),
        u = (usage[c]! -= w);
      sh = this.shareOf[c] = u > 0 ? rem / u : Infinity;
    }
    if (clean) this.makeDirty(c);
    else if (!this.useHeap) this.scanValid = false;
    else if (fatpipe[c] === 0 && unfixed[c]! > 0 && sh < this.storedKey[c]!) this.push(sh, c);
  }

  /** A step of this solve's log: the link saturated, its key and share; its flows follow in nextFlow. */
  private logStep(link: number, key: number, share: number): void {
    const i = this.nSteps++;
    this.nextLink[i] = link;
    this.nextKey[i] = key;
    this.nextShare[i] = share;
    this.nextFixStart[i] = this.nFix;
  }
}

/** A link's share: its remaining bandwidth per unit of weight (Infinity without weight left, unless FATPIPE). */
function shareOfState(remaining: number, usage: number, fatpipe: number): number {
  return usage > 0 || fatpipe ? remaining / usage : Infinity;
}

/**
 * Refuses a flow (of a positive finite weight) with a link where it alone would have no share (NaN: a link of NaN
 * bandwidth, or an infinite one): solveIsolated orders the links by share, and NaN orders nothing, so its rates could
 * differ from the filling's. The replay's weights are 1 / latency, positive and finite, and its bandwidths positive:
 * it never makes one.
 */
function checkShares(net: LmmNetwork, op: number): void {
  const { bandwidth, fatpipe, routeStart, routeLinks } = net;
  const w = net.weight[op]!;
  for (let k = routeStart[op]!; k < routeStart[op + 1]!; k++) {
    const l = routeLinks[k]!;
    if (Number.isNaN(shareOfState(bandwidth[l]!, w, fatpipe[l]!)))
      throw fail(
        "machines",
        "BAD_INPUT",
        `max-min system: flow ${op} of weight ${w} has no share on link ${l} ` +
          `(bandwidth ${bandwidth[l]}${fatpipe[l] ? ", FATPIPE" : ""}): its share there would be NaN`,
      );
  }
}

/** A link's first slice of places for its flows. */
const SLOT_PLACES = 8;

/** The dirty links a solve scans for the least share however many steps it takes. */
const SCAN_MAX = 32;

/** Places (key, link) at heap position i of a heap of n entries, moving it down past smaller children. */
function siftDown(hKey: Float64Array, hLink: Int32Array, n: number, i: number, key: number, link: number): void {
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    let kc = hKey[c]!;
    if (c + 1 < n) {
      const kd = hKey[c + 1]!;
      if (kd < kc || (kd === kc && hLink[c + 1]! < hLink[c]!)) {
        c++;
        kc = kd;
      }
    }
    if (key < kc || (key === kc && link < hLink[c]!)) break;
    hKey[i] = kc;
    hLink[i] = hLink[c]!;
    i = c;
  }
  hKey[i] = key;
  hLink[i] = link;
}
