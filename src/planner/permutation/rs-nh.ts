/** RS_NH: random scheduling avoiding node contention with a per-phase cutoff and a heap per node, 003 sec 3.3. */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { createRng, shuffleInPlace } from "../../model/rng.js";
import { ScheduleBuilder, type JsonValue, type Schedule } from "../../model/schedule.js";
import { planHeader } from "../plan-header.js";
import type { Planner, PlanOptions } from "../types.js";
import { offDiagonalMessages, rejectUnknownParams } from "./messages.js";

const NAME = "rs-nh";
/** The most transfers a fixed cutoff may produce before the plan is refused (a 2^24-transfer plan is already ~0.5 GB of JSON). */
const MAX_TRANSFERS = 2 ** 24;

/** How the cutoff of a phase is chosen from the remaining sizes of the messages selected for it. */
export type CutoffRule = "median" | "mean" | "none" | number;

/** Checked parameters of rs-nh: the cutoff rule and the factor applied to a median or mean. */
export interface RsNhParams {
  readonly cutoff: CutoffRule;
  readonly factor: number;
}

/** Checks `params.cutoff` (default "mean") and `params.factor` (default 3); throws BAD_OPTION naming the parameter. */
export function rsNhParams(params: { readonly [k: string]: JsonValue }): RsNhParams {
  rejectUnknownParams(NAME, params, ["cutoff", "factor"]);
  const v = params["cutoff"] ?? "mean";
  const f = params["factor"] ?? 3;
  if (typeof f !== "number" || !Number.isFinite(f) || f < 1) {
    throw fail("planner", "BAD_OPTION", `${NAME}: factor must be a number >= 1, got ${JSON.stringify(f)}`, { field: "params.factor" });
  }
  if (v === "median" || v === "mean" || v === "none") return { cutoff: v, factor: f };
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 1) return { cutoff: v, factor: f };
  throw fail("planner", "BAD_OPTION", `${NAME}: cutoff must be "median", "mean", "none" or a positive integer (elements), got ${JSON.stringify(v)}`, { field: "params.cutoff" });
}

/**
 * Section 3.3 of 003: each node keeps its unsent messages in a max-heap by remaining size (ties by
 * a seeded random priority). A phase visits the nodes with messages in a fresh seeded random order;
 * a node pops its heap until it meets a message whose destination is not yet taken in this phase
 * (the popped ones go back), as in RS_N but largest first. Then a cutoff c is chosen from the
 * remaining sizes of the selected messages (default: 3 x their mean; `cutoff` "median" | "mean" |
 * "none" | elements, `factor` scales median and mean); each selected
 * message sends min(remaining, c) elements (its next consecutive offsets) and, if anything is left,
 * returns to its node's heap for a later phase. The paper defers the cutoff rule to its ref. [11];
 * 3 x mean is our choice: of the rules measured it adds the fewest phases over RS_N closest to 003 table 5
 * (docs/algorithms/rs-nh.md). Every phase sends at least one element
 * of every selected message, so the loop ends.
 */
function plan(m: CommMatrix, opts: PlanOptions): Schedule {
  const { cutoff: rule, factor } = rsNhParams(opts.params);
  const msgs = offDiagonalMessages(m);
  const { p, rowStart, src, dst } = msgs;
  if (typeof rule === "number") {
    let pieces = 0;
    for (let k = 0; k < msgs.count; k++) pieces += Math.ceil(msgs.size[k]! / rule);
    if (pieces > MAX_TRANSFERS) {
      throw fail("planner", "BAD_OPTION", `${NAME}: cutoff ${rule} would split the messages into ${pieces} transfers (limit ${MAX_TRANSFERS}); choose a larger cutoff or "mean"`, { field: "params.cutoff" });
    }
  }
  const rng = createRng(opts.seed);
  const rem = Float64Array.from(msgs.size);
  const sent = new Float64Array(msgs.count);
  const prio = new Uint32Array(msgs.count);
  for (let k = 0; k < msgs.count; k++) prio[k] = rng.nextU32();
  const above = (a: number, b: number): boolean => rem[a]! > rem[b]! || (rem[a] === rem[b] && prio[a]! > prio[b]!);
  // heap of node i lives in heap[rowStart[i] .. rowStart[i] + len[i])
  const heap = new Uint32Array(msgs.count);
  const len = new Uint32Array(p);
  const push = (i: number, k: number): void => {
    const base = rowStart[i]!;
    let x = len[i]!;
    len[i] = x + 1;
    while (x > 0) {
      const parent = (x - 1) >> 1;
      const q = heap[base + parent]!;
      if (!above(k, q)) break;
      heap[base + x] = q;
      x = parent;
    }
    heap[base + x] = k;
  };
  const pop = (i: number): number => {
    const base = rowStart[i]!;
    const top = heap[base]!;
    const n = len[i]! - 1;
    len[i] = n;
    if (n === 0) return top;
    const last = heap[base + n]!;
    let x = 0;
    for (;;) {
      let c = 2 * x + 1;
      if (c >= n) break;
      if (c + 1 < n && above(heap[base + c + 1]!, heap[base + c]!)) c++;
      if (!above(heap[base + c]!, last)) break;
      heap[base + x] = heap[base + c]!;
      x = c;
    }
    heap[base + x] = last;
    return top;
  };
  const rows = new Uint32Array(p);
  let nRows = 0;
  for (let i = 0; i < p; i++) {
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) push(i, k);
    if (len[i]! > 0) rows[nRows++] = i;
  }
  const taken = new Int32Array(p).fill(-1);
  const picked = new Uint32Array(p);
  const sizes = new Float64Array(p);
  const stash = new Uint32Array(p);
  const b = new ScheduleBuilder(planHeader(m, NAME, opts), opts.payload, msgs.count);
  b.stage("phases", "compose");
  for (let iter = 0; nRows > 0; iter++) {
    shuffleInPlace(rng, rows.subarray(0, nRows));
    let nPicked = 0;
    for (let r = 0; r < nRows; r++) {
      const i = rows[r]!;
      let nStash = 0;
      while (len[i]! > 0) {
        const k = pop(i);
        if (taken[dst[k]!] === iter) {
          stash[nStash++] = k;
          continue;
        }
        taken[dst[k]!] = iter;
        picked[nPicked++] = k;
        break;
      }
      for (let x = 0; x < nStash; x++) push(i, stash[x]!);
    }
    const cutoff = cutoffOf(rule, factor, rem, picked, nPicked, sizes);
    const phase = picked.subarray(0, nPicked).sort();
    b.step();
    for (let x = 0; x < nPicked; x++) {
      const k = phase[x]!;
      const i = src[k]!, j = dst[k]!;
      const s = Math.min(rem[k]!, cutoff);
      b.transfer(i, j, s);
      if (b.payload) b.chunk(i, j, sent[k]!, s);
      sent[k] = sent[k]! + s;
      rem[k] = rem[k]! - s;
      if (rem[k]! > 0) push(i, k);
    }
    let w = 0;
    for (let r = 0; r < nRows; r++) if (len[rows[r]!]! > 0) rows[w++] = rows[r]!;
    nRows = w;
  }
  return b.build();
}

/** The cutoff of one phase from the remaining sizes of its selected messages (always >= 1). */
function cutoffOf(rule: CutoffRule, factor: number, rem: Float64Array, picked: Uint32Array, n: number, scratch: Float64Array): number {
  if (rule === "none") return Infinity;
  if (typeof rule === "number") return rule;
  if (rule === "mean") {
    let sum = 0;
    for (let x = 0; x < n; x++) sum += rem[picked[x]!]!;
    return Math.max(1, Math.ceil((factor * sum) / n));
  }
  for (let x = 0; x < n; x++) scratch[x] = rem[picked[x]!]!;
  const sorted = scratch.subarray(0, n).sort();
  return Math.ceil(factor * sorted[(n - 1) >> 1]!); // lower median
}

/** RS_NH (003 sec 3.3): RS_N with largest-first heaps and a per-phase cutoff that splits long messages. */
export const rsNh: Planner = {
  name: NAME,
  title: "RS_NH: random partial permutations, largest message first, long messages cut at a per-phase cutoff",
  source: "003 sec 3.3",
  plan,
};
