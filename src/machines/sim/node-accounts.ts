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

  /**
   * The accounts of a run that lasted `makespan` us, with each node's idle time (makespan - busy - wait - stalled, at
   * least 0): the shape of SimResult.nodes.
   */
  times(makespan: number): {
    busy: Float64Array;
    idle: Float64Array;
    stalled: Float64Array;
    wait: Float64Array;
    sentBytes: Float64Array;
    recvBytes: Float64Array;
  } {
    const idle = new Float64Array(this.p);
    for (let v = 0; v < this.p; v++) idle[v] = Math.max(0, makespan - this.busy[v]! - this.wait[v]! - this.stalled[v]!);
    const { busy, stalled, wait, sentBytes, recvBytes } = this;
    return { busy, idle, stalled, wait, sentBytes, recvBytes };
  }
}
