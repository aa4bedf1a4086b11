/**
 * Message-level Stages I and II of A4 in O(P^2): R-Distribute + R-Comm and C-Distribute + C-Comm in closed form (004
 * fig. 11).
 */
import { columnSize, type NodeArray } from "./node-array.js";
import type { ArrivedRule, StageMessages } from "./stage-router.js";
import { progressTicker, type ProgressCallback } from "../../model/progress.js";

/** Holdings after a stage (node-major P x P) and the stage's message sizes. */
export interface RoutedStage {
  readonly next: Float64Array;
  readonly msgs: StageMessages;
}

/**
 * Per-destination accumulators of one group of senders whose buckets go to the same receivers:
 * bucket k of destination j gets w[k] q[j] + base[j] + d[k][j], d a difference array over the
 * buckets (bucket-major, k * p + j) of the one or two cyclic ranges that take one more element.
 */
class Accumulator {
  readonly q: Float64Array;
  readonly base: Float64Array;
  readonly d: Float64Array;
  /** The same for one sender's message sizes: sum of q, sum of base, difference array over buckets. */
  readonly sd: Float64Array;
  sq = 0;
  sb = 0;
  constructor(
    readonly p: number,
    readonly k: number,
  ) {
    this.q = new Float64Array(p);
    this.base = new Float64Array(p);
    this.d = new Float64Array((k + 1) * p);
    this.sd = new Float64Array(k + 1);
  }
  /** Starts a new group of senders. */
  reset(): void {
    this.q.fill(0);
    this.base.fill(0);
    this.d.fill(0);
  }
  /** Starts a new sender. */
  startSender(): void {
    this.sq = 0;
    this.sb = 0;
    this.sd.fill(0);
  }
  /** Adds q and base for destination j. */
  add(j: number, q: number, base: number): void {
    this.q[j] = this.q[j]! + q;
    this.base[j] = this.base[j]! + base;
    this.sq += q;
    this.sb += base;
  }
  /** One more element for destination j in buckets start .. start + n - 1 (mod k), 0 <= start, n < k <= this.k. */
  range(j: number, start: number, n: number, k: number): void {
    if (n === 0) return;
    const { d, sd, p } = this;
    const end = start + n;
    d[start * p + j] = d[start * p + j]! + 1;
    sd[start] = sd[start]! + 1;
    if (end <= k) {
      d[end * p + j] = d[end * p + j]! - 1;
      sd[end] = sd[end]! - 1;
    } else {
      d[k * p + j] = d[k * p + j]! - 1;
      d[j] = d[j]! + 1;
      d[(end - k) * p + j] = d[(end - k) * p + j]! - 1;
      sd[k] = sd[k]! - 1;
      sd[0] = sd[0]! + 1;
      sd[end - k] = sd[end - k]! - 1;
    }
  }
  /** Writes the current sender's message sizes: size[at + b] for buckets b < n (w[b] the weight of q). */
  senderSizes(size: Float64Array, at: number, n: number, w: Float64Array | null): void {
    let run = 0;
    for (let b = 0; b < n; b++) {
      run += this.sd[b]!;
      size[at + b] = (w ? w[b]! : 1) * this.sq + this.sb + run;
    }
  }
  /** Prefix sums of the difference array over buckets 0..n-1 (in place). */
  prefix(n: number): void {
    const { d, p } = this;
    for (let b = 1; b < n; b++) for (let j = 0, x = b * p, y = x - p; j < p; j++, x++, y++) d[x] = d[x]! + d[y]!;
  }
  /** Adds bucket b's holdings (after `prefix`) to receiver row `to` of next. */
  flush(next: Float64Array, b: number, to: number, w: number): void {
    const { q, base, d, p } = this;
    const from = b * p,
      at = to * p;
    for (let j = 0; j < p; j++) next[at + j] = next[at + j]! + w * q[j]! + base[j]! + d[from + j]!;
  }
}

/** floor(h / n), exact for integers h < 2^53 (the float quotient may round up to the next integer). */
function quot(h: number, n: number): number {
  const q = Math.floor(h / n);
  return h - q * n < 0 ? q - 1 : q;
}

/**
 * Stage I at message level: every node R-Distributes its holdings (fig. 11: element t for node j
 * to bucket ((j mod C + t) mod P) mod C) and sends bucket c along its row to column c; the nodes of
 * the incomplete row send their pseudo-column buckets c >= r to node (b, c), b their own column
 * (fig. 8). Destination j's h elements put q w_c + base + (0 or 1) into bucket c, q = floor(h / P),
 * w_c = R or R - 1 per P elements, and the residual's one or two runs of consecutive counter values
 * add one to cyclic ranges of buckets; summed per row with difference arrays this is O(P^2).
 * `progress`: rows of the node array.
 */
export function routeRDistribute(
  a: NodeArray,
  hold: Float64Array,
  progress: ProgressCallback | null = null,
): RoutedStage {
  const P = a.p,
    C = a.cols;
  const next = new Float64Array(P * P),
    size = new Float64Array(P * C);
  const w = new Float64Array(C);
  for (let c = 0; c < C; c++) w[c] = Math.floor(P / C) + (c < P % C ? 1 : 0);
  const acc = new Accumulator(P, C);
  const addSender = (u: number): void => {
    acc.startSender();
    const row = u * P;
    for (let j = 0; j < P; j++) {
      const h = hold[row + j]!;
      if (h === 0) continue;
      // int32 arithmetic below: rem < P
      const q = quot(h, P),
        rem = (h - q * P) | 0;
      const s = j % C;
      const len1 = rem < P - s ? rem : P - s,
        len2 = rem - len1;
      const b1 = (len1 / C) | 0,
        b2 = (len2 / C) | 0;
      acc.add(j, q, b1 + b2);
      acc.range(j, s, len1 - b1 * C, C);
      acc.range(j, 0, len2 - b2 * C, C);
    }
    acc.senderSizes(size, u * C, C, w);
  };
  const tick = progressTicker(progress, a.rows);
  let tickMark = tick(0);
  for (let row = 0; row < a.rows; row++) {
    if (row >= tickMark) tickMark = tick(row);
    const incomplete = a.r > 0 && row === a.rows - 1;
    // a complete row is one group; each node of the incomplete row is its own group (its pseudo-column buckets go to
    // different rows)
    for (let b = 0; b < (incomplete ? a.r : 1); b++) {
      acc.reset();
      if (incomplete) addSender(row * C + b);
      else for (let x = 0; x < C; x++) addSender(row * C + x);
      acc.prefix(C);
      for (let c = 0; c < C; c++) acc.flush(next, c, (incomplete && c >= a.r ? b : row) * C + c, w[c]!);
    }
  }
  tick(Infinity);
  return { next, msgs: { buckets: C, size } };
}

/**
 * Stage II at message level: every node C-Distributes its holdings over the N nodes of its column
 * (element t for node j to bucket (j mod N + t) mod N) and sends bucket k to row k of its column.
 * Destination j's h elements put floor(h / N) into every bucket and one more into the cyclic range
 * of h mod N buckets from j mod N; summed per column with difference arrays this is O(P^2). With
 * `arrived` "hold", a node's elements for itself (arrived in Stage I) stay and are not distributed.
 * `progress`: columns of the node array.
 */
export function routeCDistribute(
  a: NodeArray,
  hold: Float64Array,
  progress: ProgressCallback | null = null,
  arrived: ArrivedRule = "hold",
): RoutedStage {
  const P = a.p,
    C = a.cols,
    K = a.rows;
  const next = new Float64Array(P * P),
    size = new Float64Array(P * K);
  const acc = new Accumulator(P, K);
  const tick = progressTicker(progress, C);
  let tickMark = tick(0);
  for (let b = 0; b < C; b++) {
    if (b >= tickMark) tickMark = tick(b);
    const n = columnSize(a, b);
    acc.reset();
    for (let k = 0; k < n; k++) {
      const u = k * C + b,
        row = u * P;
      acc.startSender();
      for (let j = 0; j < P; j++) {
        const h = hold[row + j]!;
        if (h === 0) continue;
        if (j === u && arrived === "hold") {
          next[row + j] = next[row + j]! + h;
          continue;
        }
        const q = quot(h, n);
        acc.add(j, q, 0);
        acc.range(j, j % n, (h - q * n) | 0, n);
      }
      acc.senderSizes(size, u * K, n, null);
    }
    acc.prefix(n);
    for (let k = 0; k < n; k++) acc.flush(next, k, k * C + b, 1);
  }
  tick(Infinity);
  return { next, msgs: { buckets: K, size } };
}
