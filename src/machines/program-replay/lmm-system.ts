/**
 * LmmSystem: the flows on the links as SimGrid's lmm system shares them: weighted max-min (weight 1 / penalty, the
 * penalty of a CM02 flow being its route's latency), FATPIPE links that cap each flow rather than their sum, and
 * SimGrid's selective update: a solve recomputes only the flows of the links marked modified since the last one.
 */

const NONE = -1;

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
 */
export class LmmSystem {
  private readonly head: Int32Array;
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly entryFlow: Int32Array;
  private readonly enabled: Uint8Array;
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
  private hKey: Float64Array = new Float64Array(64);
  private hLink: Int32Array = new Int32Array(64);
  private hSize = 0;
  /** Whether anything changed since the last solve. */
  modified = false;

  constructor(
    private readonly net: LmmNetwork,
    private readonly selective: boolean,
  ) {
    const L = net.links,
      E = net.routeLinks.length,
      F = net.routeStart.length - 1;
    this.head = new Int32Array(L).fill(NONE);
    this.next = new Int32Array(E).fill(NONE);
    this.prev = new Int32Array(E).fill(NONE);
    this.entryFlow = new Int32Array(E);
    for (let f = 0; f < F; f++) for (let e = net.routeStart[f]!; e < net.routeStart[f + 1]!; e++) this.entryFlow[e] = f;
    this.enabled = new Uint8Array(F);
    this.inM = new Uint8Array(L);
    this.mList = new Int32Array(L);
    this.visited = new Int32Array(F);
    this.stack = new Int32Array(L);
    this.remaining = new Float64Array(L);
    this.usage = new Float64Array(L);
    this.unfixed = new Int32Array(L);
    this.fixedAt = new Int32Array(F);
  }

  /** Flow f's latency has elapsed: it joins its links (first in their lists) and marks them modified. */
  enable(f: number): void {
    const { routeStart } = this.net;
    for (let e = routeStart[f]!; e < routeStart[f + 1]!; e++) {
      const l = this.net.routeLinks[e]!;
      const h = this.head[l]!;
      this.next[e] = h;
      this.prev[e] = NONE;
      if (h !== NONE) this.prev[h] = e;
      this.head[l] = e;
    }
    this.enabled[f] = 1;
    this.modified = true;
    this.fromFlow(f);
  }

  /** Flow f ended: it marks its links modified (as SimGrid's var_free) and leaves them. */
  free(f: number): void {
    this.modified = true;
    this.fromFlow(f);
    const { routeStart } = this.net;
    for (let e = routeStart[f]!; e < routeStart[f + 1]!; e++) {
      const l = this.net.routeLinks[e]!;
      const p = this.prev[e]!,
        n = this.next[e]!;
      if (p !== NONE) this.next[p] = n;
      else this.head[l] = n;
      if (n !== NONE) this.prev[n] = p;
    }
    this.enabled[f] = 0;
  }

  /** SimGrid's update_modified_cnst_set_from_variable: the closure from the flow's first link, if not marked. */
  private fromFlow(f: number): void {
    if (!this.selective) return;
    const { routeStart, routeLinks } = this.net;
    if (routeStart[f] === routeStart[f + 1]) return;
    const first = routeLinks[routeStart[f]!]!;
    if (this.inM[first]) return;
    this.mark(first);
    let top = 0;
    this.stack[top++] = first;
    while (top > 0) {
      const c = this.stack[--top]!;
      for (let e = this.head[c]!; e !== NONE; e = this.next[e]!) {
        const g = this.entryFlow[e]!;
        if (this.visited[g] === this.visit) continue;
        this.visited[g] = this.visit;
        for (let k = routeStart[g]!; k < routeStart[g + 1]!; k++) {
          const c2 = routeLinks[k]!;
          if (!this.inM[c2]) {
            this.mark(c2);
            this.stack[top++] = c2;
          }
        }
      }
    }
  }

  private mark(l: number): void {
    this.inM[l] = 1;
    this.mList[this.nM++] = l;
  }

  /**
   * Solves the marked links (every link of an enabled flow without selective update): the enabled flows on them get
   * their weighted max-min rates in `rate` (links not marked do not limit them), and their ids in `touched` (the
   * count is returned); other flows keep theirs.
   */
  solve(rate: Float64Array, touched: Int32Array): number {
    let nTouched = 0;
    const { bandwidth, fatpipe, weight, routeStart, routeLinks } = this.net;
    if (!this.selective) {
      for (let l = 0; l < this.net.links; l++) if (this.head[l] !== NONE && !this.inM[l]) this.mark(l);
    }
    const ep = ++this.epoch;
    const { remaining, usage, unfixed } = this;
    this.hSize = 0;
    for (let i = 0; i < this.nM; i++) {
      const c = this.mList[i]!;
      remaining[c] = bandwidth[c]!;
      usage[c] = 0;
      unfixed[c] = 0;
      for (let e = this.head[c]!; e !== NONE; e = this.next[e]!) {
        const f = this.entryFlow[e]!;
        unfixed[c]!++;
        if (fatpipe[c]) usage[c] = Math.max(usage[c]!, weight[f]!);
        else usage[c]! += weight[f]!;
      }
      if (unfixed[c]! > 0) this.push(remaining[c]! / usage[c]!, c);
    }
    // A link's share only grows as flows elsewhere are fixed, so its heap entry is a lower bound: a popped link whose
    // share grew goes back with its current share (fewer pushes than one per fixed flow and link).
    while (this.hSize > 0) {
      const key = this.hKey[0]!,
        c = this.hLink[0]!;
      this.pop();
      if (unfixed[c]! === 0) continue;
      const share = fatpipe[c] ? key : usage[c]! > 0 ? remaining[c]! / usage[c]! : Infinity;
      if (share > key) {
        this.push(share, c);
        continue;
      }
      for (let e = this.head[c]!; e !== NONE; e = this.next[e]!) {
        const f = this.entryFlow[e]!;
        if (this.fixedAt[f] === ep) continue;
        this.fixedAt[f] = ep;
        const r = share * weight[f]!;
        rate[f] = r;
        touched[nTouched++] = f;
        for (let k = routeStart[f]!; k < routeStart[f + 1]!; k++) {
          const c2 = routeLinks[k]!;
          if (!this.inM[c2]) continue;
          unfixed[c2]!--;
          if (!fatpipe[c2]) {
            remaining[c2] = Math.max(0, remaining[c2]! - r);
            usage[c2]! -= weight[f]!;
          }
        }
      }
    }
    for (let i = 0; i < this.nM; i++) this.inM[this.mList[i]!] = 0;
    this.nM = 0;
    this.visit++;
    this.modified = false;
    return nTouched;
  }

  private push(key: number, link: number): void {
    if (this.hSize === this.hKey.length) {
      const n = this.hKey.length * 2;
      const k = new Float64Array(n),
        l = new Int32Array(n);
      k.set(this.hKey);
      l.set(this.hLink);
      this.hKey = k;
      this.hLink = l;
    }
    let i = this.hSize++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (this.hKey[up]! < key || (this.hKey[up] === key && this.hLink[up]! <= link)) break;
      this.hKey[i] = this.hKey[up]!;
      this.hLink[i] = this.hLink[up]!;
      i = up;
    }
    this.hKey[i] = key;
    this.hLink[i] = link;
  }

  private pop(): void {
    const n = --this.hSize;
    if (n === 0) return;
    const key = this.hKey[n]!,
      link = this.hLink[n]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      const kc = this.hKey[c]!,
        kd = this.hKey[c + 1]!;
      if (c + 1 < n && (kd < kc || (kd === kc && this.hLink[c + 1]! < this.hLink[c]!))) c++;
      if (key < this.hKey[c]! || (key === this.hKey[c] && link <= this.hLink[c]!)) break;
      this.hKey[i] = this.hKey[c]!;
      this.hLink[i] = this.hLink[c]!;
      i = c;
    }
    this.hKey[i] = key;
    this.hLink[i] = link;
  }
}
