/**
 * LmmSystem: the flows on the links as SimGrid's lmm system shares them: weighted max-min (weight 1 / penalty, the
 * penalty of a CM02 flow being its route's latency), FATPIPE links that cap each flow rather than their sum, and
 * SimGrid's selective update: a solve recomputes only the flows of the links marked modified since the last one.
 */

/** The flows' routes (CSR of link ids by flow id), weights, and the links' bandwidths and sharing. */
export interface LmmNetwork {
  readonly links: number;
  readonly bandwidth: Float64Array;
  /** 1 for a FATPIPE link (each flow may use its whole bandwidth), 0 for a shared one. */
  readonly fatpipe: Uint8Array;
  readonly routeStart: Int32Array;
  readonly routeLinks: Int32Array;
  readonly weight: Float64Array;
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
  /** Link l's enabled flows: slotFlow[slotStart[l] .. slotStart[l] + count[l]), oldest first; slotW their weights. */
  private readonly slotStart: Int32Array;
  private readonly count: Int32Array;
  private readonly slotFlow: Int32Array;
  private readonly slotW: Float64Array;
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
  private readonly fixedAt: Int32Array;
  private epoch = 0;
  /** The links' heap: (key, link) pairs, each link at most once, ordered by key then link. */
  private readonly hKey: Float64Array;
  private readonly hLink: Int32Array;
  /** Whether anything changed since the last solve. */
  modified = false;

  constructor(
    private readonly net: LmmNetwork,
    private readonly selective: boolean,
  ) {
    const L = net.links,
      E = net.routeLinks.length,
      F = net.routeStart.length - 1;
    this.slotStart = new Int32Array(L + 1);
    for (let e = 0; e < E; e++) this.slotStart[net.routeLinks[e]! + 1]!++;
    for (let l = 0; l < L; l++) this.slotStart[l + 1]! += this.slotStart[l]!;
    this.count = new Int32Array(L);
    this.slotFlow = new Int32Array(E);
    this.slotW = new Float64Array(E);
    this.inM = new Uint8Array(L);
    this.mList = new Int32Array(L);
    this.visited = new Int32Array(F);
    this.stack = new Int32Array(L);
    this.remaining = new Float64Array(L);
    this.usage = new Float64Array(L);
    this.unfixed = new Int32Array(L);
    this.fixedAt = new Int32Array(F);
    this.hKey = new Float64Array(L);
    this.hLink = new Int32Array(L);
  }

  /** Flow f's latency has elapsed: it joins its links (newest in their lists) and marks them modified. */
  enable(f: number): void {
    const { routeStart, routeLinks, weight } = this.net;
    const { slotStart, count, slotFlow, slotW } = this;
    const w = weight[f]!;
    for (let e = routeStart[f]!; e < routeStart[f + 1]!; e++) {
      const l = routeLinks[e]!;
      const s = slotStart[l]! + count[l]!++;
      slotFlow[s] = f;
      slotW[s] = w;
    }
    this.modified = true;
    this.fromFlow(f);
  }

  /** Flow f ended: it marks its links modified (as SimGrid's var_free) and leaves them. */
  free(f: number): void {
    this.modified = true;
    this.fromFlow(f);
    const { routeStart, routeLinks } = this.net;
    const { slotStart, count, slotFlow, slotW } = this;
    for (let e = routeStart[f]!; e < routeStart[f + 1]!; e++) {
      const l = routeLinks[e]!;
      const a = slotStart[l]!,
        end = a + count[l]!;
      let s = end - 1;
      while (slotFlow[s] !== f) s--;
      slotFlow.copyWithin(s, s + 1, end);
      slotW.copyWithin(s, s + 1, end);
      count[l]!--;
    }
  }

  /** SimGrid's update_modified_cnst_set_from_variable: the closure from the flow's first link, if not marked. */
  private fromFlow(f: number): void {
    if (!this.selective) return;
    const { routeStart, routeLinks } = this.net;
    if (routeStart[f] === routeStart[f + 1]) return;
    const first = routeLinks[routeStart[f]!]!;
    const { inM, mList, stack, visited, slotStart, count, slotFlow } = this;
    if (inM[first]) return;
    const visit = this.visit;
    let nM = this.nM;
    inM[first] = 1;
    mList[nM++] = first;
    let top = 0;
    stack[top++] = first;
    while (top > 0) {
      const c = stack[--top]!;
      const end = slotStart[c]! + count[c]!;
      for (let s = slotStart[c]!; s < end; s++) {
        const g = slotFlow[s]!;
        if (visited[g] === visit) continue;
        visited[g] = visit;
        for (let k = routeStart[g]!, kEnd = routeStart[g + 1]!; k < kEnd; k++) {
          const c2 = routeLinks[k]!;
          if (inM[c2] === 0) {
            inM[c2] = 1;
            mList[nM++] = c2;
            stack[top++] = c2;
          }
        }
      }
    }
    this.nM = nM;
  }

  /**
   * Solves the marked links (every link of an enabled flow without selective update): the enabled flows on them get
   * their weighted max-min rates in `rate` (links not marked do not limit them), and their ids in `touched` (the
   * count is returned); other flows keep theirs.
   */
  solve(rate: Float64Array, touched: Int32Array): number {
    let nTouched = 0;
    const { bandwidth, fatpipe, weight, routeStart, routeLinks } = this.net;
    const { inM, mList, slotStart, count, slotFlow, slotW, remaining, usage, unfixed, fixedAt, hKey, hLink } = this;
    if (!this.selective) {
      for (let l = 0; l < this.net.links; l++)
        if (count[l]! > 0 && inM[l] === 0) {
          inM[l] = 1;
          mList[this.nM++] = l;
        }
    }
    const nM = this.nM;
    const ep = ++this.epoch;
    let n = 0;
    for (let i = 0; i < nM; i++) {
      const c = mList[i]!;
      const a = slotStart[c]!,
        k = count[c]!;
      remaining[c] = bandwidth[c]!;
      unfixed[c] = k;
      let u = 0;
      if (fatpipe[c]) for (let s = a + k - 1; s >= a; s--) u = Math.max(u, slotW[s]!);
      else for (let s = a + k - 1; s >= a; s--) u += slotW[s]!;
      usage[c] = u;
      if (k > 0) {
        hKey[n] = remaining[c]! / u;
        hLink[n++] = c;
      }
    }
    for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(hKey, hLink, n, i, hKey[i]!, hLink[i]!);
    while (n > 0) {
      const key = hKey[0]!,
        c = hLink[0]!;
      if (unfixed[c] === 0) {
        n--;
        if (n > 0) siftDown(hKey, hLink, n, 0, hKey[n]!, hLink[n]!);
        continue;
      }
      const share = fatpipe[c] ? key : usage[c]! > 0 ? remaining[c]! / usage[c]! : Infinity;
      if (share > key) {
        siftDown(hKey, hLink, n, 0, share, c);
        continue;
      }
      n--;
      if (n > 0) siftDown(hKey, hLink, n, 0, hKey[n]!, hLink[n]!);
      const a = slotStart[c]!;
      for (let s = a + count[c]! - 1; s >= a; s--) {
        const f = slotFlow[s]!;
        if (fixedAt[f] === ep) continue;
        fixedAt[f] = ep;
        const w = weight[f]!;
        const r = share * w;
        rate[f] = r;
        touched[nTouched++] = f;
        for (let k = routeStart[f]!, kEnd = routeStart[f + 1]!; k < kEnd; k++) {
          const c2 = routeLinks[k]!;
          if (inM[c2] === 0) continue;
          unfixed[c2]!--;
          if (fatpipe[c2] === 0) {
            remaining[c2] = Math.max(0, remaining[c2]! - r);
            usage[c2]! -= w;
          }
        }
      }
    }
    for (let i = 0; i < nM; i++) inM[mList[i]!] = 0;
    this.nM = 0;
    this.visit++;
    this.modified = false;
    return nTouched;
  }
}

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
