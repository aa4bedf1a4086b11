/**
 * Permutation-decomposition bounds: RS_N's expected phase count (003 sec 3.3, statistical), coloring's sum of phase
 * maxima against a lower bound, split-coloring's bandwidth and 2x time bounds.
 */
import { networkMessages } from "./network-messages.js";
import { prefixSums } from "../internal/buckets.js";
import type { CommMatrix } from "../model/matrix.js";
import type { MatrixStats } from "../model/matrix-stats.js";
import type { Schedule } from "../model/schedule.js";
import { atLeast, atMost, check, type Check } from "./report.js";
import type { ClaimContext } from "./types.js";

/**
 * Sum over steps of the longest network transfer of the step (the bandwidth term of the blocking model, in elements).
 */
export function sumOfStepMaxima(s: Schedule): number {
  let sum = 0;
  for (let k = 0; k < s.stepCount; k++) {
    let mx = 0;
    for (let x = s.stepStart[k]!; x < s.stepStart[k + 1]!; x++)
      if (s.src[x] !== s.dst[x] && s.size[x]! > mx) mx = s.size[x]!;
    sum += mx;
  }
  return sum;
}

/**
 * 003 sec 3.3: with d messages per node to random destinations, RS_N needs about d + log d permutations.
 * That is a statement about the mean over random matrices, not a bound on one plan, so the row always
 * holds: `measured` is the phase count, `bound` the expectation d + log2 d with d = h (informational).
 * log2 rather than ln: 003's table 4 means (5.54, 18.56, 34.2 at d = 4, 16, 31) lie below d + log2 d
 * but the first lies above d + ln d (5.39).
 */
export function rsNExpectation(_m: CommMatrix, s: Schedule, stats: MatrixStats, _ctx: ClaimContext): Check[] {
  const d = stats.h;
  const expectation = d > 0 ? d + Math.log2(d) : 0;
  return [
    check(
      "rs-n-expected-phases",
      `RS_N phases beside the expectation d + log2 d (d = h = ${d}); statistical, not asserted per plan`,
      "003 sec 3.3 (analysis of [11])",
      true,
      s.stepCount,
      expectation,
    ),
  ];
}

/**
 * A lower bound on the sum over steps of the longest message for any direct schedule that sends every
 * message whole, from the matrix alone: for x > 0 the messages of size >= x at one node need distinct
 * steps, so at least Delta(x) steps (Delta(x) = max over nodes of the number of off-diagonal messages
 * >= x it sends or receives) have a longest message >= x, and the sum is >= the integral of Delta(x)
 * over x > 0. Delta is a step function that changes only at message sizes: with the distinct sizes
 * s_1 > s_2 > ... > s_k (s_{k+1} = 0), the integral is the sum of Delta(s_g) (s_g - s_{g+1}).
 */
export function wholeMessageSumLowerBound(m: CommMatrix): number {
  const p = m.p;
  const { src, dst, size } = networkMessages(m);
  const n = size.length;
  const sizes = size.slice();
  sizes.sort(); // ascending
  // distinct sizes, largest first, and each message's group (binary search)
  const distinct: number[] = [];
  for (let x = n - 1; x >= 0; x--)
    if (distinct.length === 0 || distinct[distinct.length - 1] !== sizes[x]) distinct.push(sizes[x]!);
  const groupStart = new Uint32Array(distinct.length + 1);
  const groupOf = (v: number): number => {
    let lo = 0,
      hi = distinct.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (distinct[mid]! > v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const gi = new Uint32Array(n),
    gj = new Uint32Array(n);
  for (let x = 0; x < n; x++) groupStart[groupOf(size[x]!) + 1]!++;
  prefixSums(groupStart, distinct.length);
  const fill = groupStart.slice(0, distinct.length);
  for (let x = 0; x < n; x++) {
    const at = fill[groupOf(size[x]!)]!++;
    gi[at] = src[x]!;
    gj[at] = dst[x]!;
  }
  const out = new Uint32Array(p),
    inn = new Uint32Array(p);
  let delta = 0,
    integral = 0;
  for (let g = 0; g < distinct.length; g++) {
    for (let x = groupStart[g]!; x < groupStart[g + 1]!; x++) delta = Math.max(delta, ++out[gi[x]!]!, ++inn[gj[x]!]!);
    integral += delta * (distinct[g]! - (g + 1 < distinct.length ? distinct[g + 1]! : 0));
  }
  return integral;
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * coloring: the sum over steps of the longest transfer, recomputed from the schedule, is at least
 * `wholeMessageSumLowerBound` recomputed from the matrix (a bound every whole-message schedule meets);
 * the header's `sumOfMaxima` and `lowerBound` are compared with those recomputed values, never used.
 */
export function coloringBounds(m: CommMatrix, s: Schedule, _stats: MatrixStats, _ctx: ClaimContext): Check[] {
  const src = "sum over phases of the largest message; threshold-degree bound (docs/algorithms/coloring.md)";
  const sum = sumOfStepMaxima(s),
    lb = wholeMessageSumLowerBound(m);
  const out = [
    atLeast(
      "sum-of-step-maxima",
      "sum over steps of the longest transfer >= the whole-message lower bound (both recomputed: schedule, matrix)",
      src,
      sum,
      lb,
      `sum of step maxima ${sum} < lower bound ${lb}`,
    ),
  ];
  const hs = num(s.params["sumOfMaxima"]),
    hl = num(s.params["lowerBound"]);
  if (hs === null && hl === null) {
    out.push(
      check(
        "coloring-header-sums",
        "header sumOfMaxima / lowerBound (not applicable: the header carries neither)",
        src,
        true,
      ),
    );
  } else {
    const sumOk = hs !== null && close(hs, sum),
      ok = sumOk && hl !== null && close(hl, lb);
    // a failing row shows the pair that differs: sumOfMaxima's, else lowerBound's
    const [shown, recomputed] = sumOk ? [hl, lb] : [hs, sum];
    out.push(
      check(
        "coloring-header-sums",
        "header sumOfMaxima and lowerBound equal the recomputed sum of step maxima and lower bound",
        src,
        ok,
        ok ? hs : shown,
        ok ? sum : recomputed,
        `header sumOfMaxima ${hs ?? "missing"} (recomputed ${sum}), lowerBound ${hl ?? "missing"} (recomputed ${lb})`,
      ),
    );
  }
  return out;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * split-coloring: in mode "bvn" the per-step maxima sum to exactly L = t (the preemptive open-shop optimum,
 * a lower bound for every direct schedule); in mode "chunk" with chunk s (from the header params) no transfer
 * is longer than s, and the blocking time sum over steps of (alpha + beta x longest) is at most
 * alpha h + beta L + alpha L / s + beta h s, which is <= 2 (alpha h + beta L) when s lies between alpha / beta
 * and L / h. The verifier is given no machine, so alpha and beta are the header's: the time rows check the
 * plan against the model it names (the header's own arithmetic), with the steps, the step maxima, L and h
 * recomputed here. Outside that interval the 2x row is reported as not applicable, with the interval.
 */
export function splitColoringBounds(_m: CommMatrix, s: Schedule, stats: MatrixStats, _ctx: ClaimContext): Check[] {
  const src =
    "split colouring (Konig on the chunk multigraph), Gonzalez-Sahni / Birkhoff-von Neumann (docs/algorithms/split-coloring.md)";
  const L = stats.t,
    h = stats.h;
  const sum = sumOfStepMaxima(s);
  const out: Check[] = [];
  if (s.params["mode"] === "bvn") {
    out.push(
      check(
        "split-bvn-bandwidth",
        "bvn: the per-step maxima sum to exactly L = t",
        src,
        sum === L,
        sum,
        L,
        `sum of step maxima ${sum}, L = ${L}`,
      ),
    );
    return out;
  }
  const chunk = num(s.params["chunk"]),
    alpha = num(s.params["alpha"]),
    beta = num(s.params["beta"]);
  if (chunk === null || chunk < 1)
    return [
      check(
        "split-chunk-param",
        "chunk mode: the header names its chunk size",
        src,
        false,
        null,
        null,
        "params.chunk missing",
      ),
    ];
  let longest = 0,
    at = -1;
  for (let x = 0; x < s.transferCount; x++)
    if (s.size[x]! > longest) {
      longest = s.size[x]!;
      at = x;
    }
  out.push(
    atMost(
      "split-chunk-size",
      `no transfer longer than the chunk s = ${chunk}`,
      src,
      longest,
      chunk,
      `transfer ${at} has ${longest} elements`,
    ),
  );
  if (alpha === null || beta === null || alpha < 0 || beta < 0) {
    out.push(
      check("split-chunk-time", "blocking time bound (not applicable: the header has no valid alpha, beta)", src, true),
    );
  } else if (h > 0) {
    // alpha and beta are the header's (the verifier has no machine): these rows check the plan against
    // the model it was made for; L, h, the steps, the step maxima and the chunk size are recomputed here
    const time = s.stepCount * alpha + beta * sum;
    const bound = alpha * h + beta * L + (alpha * L) / chunk + beta * h * chunk;
    const tol = 1e-9 * Math.max(1, bound);
    const model = `header's model alpha = ${alpha}, beta = ${beta}`;
    out.push(
      check(
        "split-chunk-time",
        `blocking time <= alpha h + beta L + alpha L / s + beta h s (${model}; steps, maxima, L, h recomputed)`,
        src,
        time <= bound + tol,
        time,
        bound,
        `time ${time} > ${bound}`,
      ),
    );
    const lo = Math.min(alpha / beta, L / h),
      hi = Math.max(alpha / beta, L / h);
    const lb2 = 2 * (alpha * h + beta * L);
    if (chunk >= lo && chunk <= hi) {
      out.push(
        check(
          "split-chunk-2x",
          `s between alpha/beta and L/h: blocking time <= 2 (alpha h + beta L) (${model})`,
          src,
          time <= lb2 + 1e-9 * lb2,
          time,
          lb2,
          `time ${time} > ${lb2}`,
        ),
      );
    } else {
      out.push(
        check(
          "split-chunk-2x",
          `blocking time <= 2 (alpha h + beta L) (not applicable: s = ${chunk} lies outside [${fmtNum(lo)}, ${fmtNum(hi)}] = [min, max] of alpha/beta and L/h, where the 2x bound is not claimed)`,
          src,
          true,
          time,
          null,
        ),
      );
    }
  }
  return out;
}

const fmtNum = (x: number): string => (Number.isInteger(x) ? String(x) : x.toPrecision(6));
