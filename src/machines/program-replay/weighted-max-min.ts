/**
 * Weighted max-min fair rates (SimGrid's lmm solver): every flow f has a weight w_f; the most loaded link (smallest
 * remaining capacity per unit of weight) is saturated first, its flows get rate share * w_f, and so on.
 */

/** Flows on links: routes as a CSR of link ids, a weight per flow, a bandwidth per link. */
export interface MaxMinInput {
  /** The active flows (ids into routeStart / weight / rate). */
  readonly flows: Int32Array;
  readonly nFlows: number;
  readonly routeStart: Int32Array;
  readonly routeLinks: Int32Array;
  readonly weight: Float64Array;
  readonly bandwidth: Float64Array;
}

/** A reusable solver for a network of `links` links (typed scratch arrays, no objects per flow). */
export class MaxMinSolver {
  private readonly cap: Float64Array;
  private readonly usage: Float64Array;
  private readonly left: Int32Array;
  private readonly stamp: Int32Array;
  private readonly ver: Int32Array;
  /** Flows listed on each used link (its CSR segment ends at fill[l] once filled). */
  private readonly listed: Int32Array;
  private readonly fill: Int32Array;
  private used: Int32Array;
  private linkFlows: Int32Array = new Int32Array(64);
  private fixed: Uint8Array = new Uint8Array(64);
  private hKey: Float64Array = new Float64Array(64);
  private hLink: Int32Array = new Int32Array(64);
  private hVer: Int32Array = new Int32Array(64);
  private hSize = 0;
  private epoch = 0;

  constructor(links: number) {
    this.cap = new Float64Array(links);
    this.usage = new Float64Array(links);
    this.left = new Int32Array(links);
    this.stamp = new Int32Array(links);
    this.ver = new Int32Array(links);
    this.listed = new Int32Array(links);
    this.fill = new Int32Array(links);
    this.used = new Int32Array(links);
  }

  /** Writes every active flow's rate (bytes per us) into `rate`. */
  solve(inp: MaxMinInput, rate: Float64Array): void {
    const { flows, nFlows, routeStart, routeLinks, weight, bandwidth } = inp;
    const { cap, usage, left, stamp } = this;
    const ep = ++this.epoch;
    let nUsed = 0,
      entries = 0;
    let maxFlow = 0;
    for (let i = 0; i < nFlows; i++) {
      const f = flows[i]!;
      if (f > maxFlow) maxFlow = f;
      for (let k = routeStart[f]!; k < routeStart[f + 1]!; k++) {
        const l = routeLinks[k]!;
        if (stamp[l] !== ep) {
          stamp[l] = ep;
          cap[l] = bandwidth[l]!;
          usage[l] = 0;
          left[l] = 0;
          this.used[nUsed++] = l;
        }
        usage[l]! += weight[f]!;
        left[l]!++;
        entries++;
      }
    }
    if (this.linkFlows.length < entries) this.linkFlows = new Int32Array(entries * 2);
    if (this.fixed.length <= maxFlow) this.fixed = new Uint8Array((maxFlow + 1) * 2);
    // CSR of flows per used link: fStart indexed by the link's position in `used` (fill[l] = its write cursor)
    let acc = 0;
    for (let u = 0; u < nUsed; u++) {
      const l = this.used[u]!;
      this.fill[l] = acc;
      this.listed[l] = left[l]!;
      acc += left[l]!;
    }
    for (let i = 0; i < nFlows; i++) {
      const f = flows[i]!;
      this.fixed[f] = 0;
      for (let k = routeStart[f]!; k < routeStart[f + 1]!; k++) this.linkFlows[this.fill[routeLinks[k]!]!++] = f;
    }
    this.hSize = 0;
    if (this.hKey.length < nUsed * 4 + 16) {
      this.hKey = new Float64Array(nUsed * 4 + 16);
      this.hLink = new Int32Array(nUsed * 4 + 16);
      this.hVer = new Int32Array(nUsed * 4 + 16);
    }
    for (let u = 0; u < nUsed; u++) {
      const l = this.used[u]!;
      this.ver[l] = 0;
      this.push(cap[l]! / usage[l]!, l, 0);
    }
    while (this.hSize > 0) {
      const share = this.hKey[0]!,
        l = this.hLink[0]!,
        v = this.hVer[0]!;
      this.pop();
      if (v !== this.ver[l] || left[l]! === 0) continue;
      const end = this.fill[l]!,
        start = end - this.listed[l]!;
      for (let j = start; j < end; j++) {
        const f = this.linkFlows[j]!;
        if (this.fixed[f]) continue;
        this.fixed[f] = 1;
        const r = share * weight[f]!;
        rate[f] = r;
        for (let k = routeStart[f]!; k < routeStart[f + 1]!; k++) {
          const l2 = routeLinks[k]!;
          left[l2]!--;
          cap[l2] = Math.max(0, cap[l2]! - r);
          usage[l2]! -= weight[f]!;
          if (l2 !== l && left[l2]! > 0) {
            this.ver[l2]!++;
            this.push(usage[l2]! > 0 ? cap[l2]! / usage[l2]! : Infinity, l2, this.ver[l2]!);
          }
        }
      }
    }
  }

  private push(key: number, link: number, ver: number): void {
    if (this.hSize === this.hKey.length) {
      const grow = <T extends Float64Array | Int32Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.hKey = grow(this.hKey, (n) => new Float64Array(n));
      this.hLink = grow(this.hLink, (n) => new Int32Array(n));
      this.hVer = grow(this.hVer, (n) => new Int32Array(n));
    }
    let i = this.hSize++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (this.hKey[up]! < key || (this.hKey[up] === key && this.hLink[up]! <= link)) break;
      this.hKey[i] = this.hKey[up]!;
      this.hLink[i] = this.hLink[up]!;
      this.hVer[i] = this.hVer[up]!;
      i = up;
    }
    this.hKey[i] = key;
    this.hLink[i] = link;
    this.hVer[i] = ver;
  }

  private pop(): void {
    const n = --this.hSize;
    if (n === 0) return;
    const key = this.hKey[n]!,
      link = this.hLink[n]!,
      ver = this.hVer[n]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (
        c + 1 < n &&
        (this.hKey[c + 1]! < this.hKey[c]! ||
          (this.hKey[c + 1] === this.hKey[c] && this.hLink[c + 1]! < this.hLink[c]!))
      )
        c++;
      if (key < this.hKey[c]! || (key === this.hKey[c] && link <= this.hLink[c]!)) break;
      this.hKey[i] = this.hKey[c]!;
      this.hLink[i] = this.hLink[c]!;
      this.hVer[i] = this.hVer[c]!;
      i = c;
    }
    this.hKey[i] = key;
    this.hLink[i] = link;
    this.hVer[i] = ver;
  }
}
