/** Permutation-decomposition bounds: RS_N's expected phase count (003 sec 3.3, statistical), split-coloring's bandwidth and 2x time bounds. */
import type { CommMatrix } from "../model/matrix.js";
import type { MatrixStats } from "../model/matrix-stats.js";
import type { Schedule } from "../model/schedule.js";
import { atMost, check, type Check } from "./report.js";
import type { ClaimContext } from "./claims.js";

/** Sum over steps of the longest network transfer of the step (the bandwidth term of the blocking model, in elements). */
export function sumOfStepMaxima(s: Schedule): number {
  let sum = 0;
  for (let k = 0; k < s.stepCount; k++) {
    let mx = 0;
    for (let x = s.stepStart[k]!; x < s.stepStart[k + 1]!; x++) if (s.src[x] !== s.dst[x] && s.size[x]! > mx) mx = s.size[x]!;
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
  return [check("rs-n-expected-phases", `RS_N phases beside the expectation d + log2 d (d = h = ${d}); statistical, not asserted per plan`, "003 sec 3.3 (analysis of [11])", true, s.stepCount, expectation)];
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * split-coloring: in mode "bvn" the per-step maxima sum to exactly L = t (the preemptive open-shop optimum,
 * a lower bound for every direct schedule); in mode "chunk" with chunk s (from the header params) no transfer
 * is longer than s, and with alpha, beta from the header the blocking time sum over steps of (alpha + beta x
 * longest) is at most alpha h + beta L + alpha L / s + beta h s, which is <= 2 (alpha h + beta L) when s lies
 * between alpha / beta and L / h (derived here from the stats, not taken from the planner).
 */
export function splitColoringBounds(_m: CommMatrix, s: Schedule, stats: MatrixStats, _ctx: ClaimContext): Check[] {
  const src = "issue 4: split colouring (Konig on the chunk multigraph), Gonzalez-Sahni / Birkhoff-von Neumann";
  const L = stats.t, h = stats.h;
  const sum = sumOfStepMaxima(s);
  const out: Check[] = [];
  if (s.params["mode"] === "bvn") {
    out.push(check("split-bvn-bandwidth", "bvn: the per-step maxima sum to exactly L = t", src, sum === L, sum, L, `sum of step maxima ${sum}, L = ${L}`));
    return out;
  }
  const chunk = num(s.params["chunk"]), alpha = num(s.params["alpha"]), beta = num(s.params["beta"]);
  if (chunk === null || chunk < 1) return [check("split-chunk-param", "chunk mode: the header names its chunk size", src, false, null, null, "params.chunk missing")];
  let longest = 0, at = -1;
  for (let x = 0; x < s.transferCount; x++) if (s.size[x]! > longest) { longest = s.size[x]!; at = x; }
  out.push(atMost("split-chunk-size", `no transfer longer than the chunk s = ${chunk}`, src, longest, chunk, `transfer ${at} has ${longest} elements`));
  if (alpha !== null && beta !== null && h > 0) {
    const time = s.stepCount * alpha + beta * sum;
    const bound = alpha * h + beta * L + (alpha * L) / chunk + beta * h * chunk;
    const tol = 1e-9 * Math.max(1, bound);
    out.push(check("split-chunk-time", "blocking time <= alpha h + beta L + alpha L / s + beta h s", src, time <= bound + tol, time, bound, `time ${time} > ${bound}`));
    const lo = Math.min(alpha / beta, L / h), hi = Math.max(alpha / beta, L / h);
    if (chunk >= lo && chunk <= hi) {
      const lb2 = 2 * (alpha * h + beta * L);
      out.push(check("split-chunk-2x", "s between alpha/beta and L/h: blocking time <= 2 (alpha h + beta L)", src, time <= lb2 + 1e-9 * lb2, time, lb2, `time ${time} > ${lb2}`));
    }
  }
  return out;
}
