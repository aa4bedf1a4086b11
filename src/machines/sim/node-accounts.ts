/** NodeAccounts: per-node busy / contention-wait / stalled time of a simulated run, kept in typed arrays. */

/** Per-node time accounts; busy is the union of a node's activities (a counter per node, so overlaps count once). */
export class NodeAccounts {
  readonly busy: Float64Array;
  readonly wait: Float64Array;
  readonly stalled: Float64Array;
  /** Network bytes sent and received per node. */
  readonly sentBytes: Float64Array;
  readonly recvBytes: Float64Array;
  private readonly active: Int32Array;
  private readonly since: Float64Array;

  constructor(readonly p: number) {
    this.busy = new Float64Array(p);
    this.wait = new Float64Array(p);
    this.stalled = new Float64Array(p);
    this.sentBytes = new Float64Array(p);
    this.recvBytes = new Float64Array(p);
    this.active = new Int32Array(p);
    this.since = new Float64Array(p);
  }

  /** Node v starts an activity at time t. */
  begin(v: number, t: number): void {
    const n = this.active[v]!;
    this.active[v] = n + 1;
    if (n === 0) this.since[v] = t;
  }

  /** Node v ends an activity at time t. */
  end(v: number, t: number): void {
    const n = this.active[v]! - 1;
    this.active[v] = n;
    if (n === 0) this.busy[v] = this.busy[v]! + (t - this.since[v]!);
  }
}
