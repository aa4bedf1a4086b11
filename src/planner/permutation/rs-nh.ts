/** RS_NH: random scheduling avoiding node contention with a per-phase cutoff and a heap per node, 003 sec 3.3. */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { createRng, shuffleInPlace } from "../../model/rng.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { progressPhases, progressTicker, type ProgressCallback } from "../../model/progress.js";
import { planHeader } from "../plan-header.js";
import { integer, number, output, type Resolved } from "../../model/param-spec.js";
import { definePlanner } from "../plan-params.js";
import type { Planner, PlanOptions } from "../types.js";
import { offDiagonalMessages, type MessageList } from "./messages.js";
import { splitCostModel } from "./split-coloring.js";

const NAME = "rs-nh";
/** The most transfers a fixed cutoff may produce before the plan is refused (a 2^24-transfer plan is already ~0.5 GB of JSON). */
const MAX_TRANSFERS = 2 ** 24;

/** How the cutoff of a phase is chosen from the remaining sizes of the messages selected for it; "auto" picks a rule per plan by modelled time. */
export type CutoffRule = "auto" | "median" | "mean" | "none" | number;

/** The named cutoff rules (a cutoff may also be a number of elements). */
const CUTOFF_RULES = ["auto", "median", "mean", "none"] as const;

/** Resolved parameters of rs-nh: the cutoff rule and the factor applied to a median or mean. */
export interface RsNhParams {
  readonly cutoff: CutoffRule;
  readonly factor: number;
}

/** The rules "auto" tries, in this order (ties go to the earlier one): no cut first, then ever lower cutoffs. */
export const AUTO_RULES: readonly { readonly cutoff: "none" | "mean" | "median"; readonly factor: number }[] = [
  { cutoff: "none", factor: 1 },
  { cutoff: "mean", factor: 3 },
  { cutoff: "mean", factor: 2 },
  { cutoff: "median", factor: 2 },
  { cutoff: "mean", factor: 1.5 },
  { cutoff: "mean", factor: 1 },
  { cutoff: "median", factor: 1 },
];

/** The parameters of rs-nh: `cutoff` and `factor`, and the keys it writes into the header with cutoff "auto". */
const RS_NH_PARAMS = {
  cutoff: integer({
    description:
      "how a phase's cutoff is chosen: auto (the rule of least modelled time), factor x median or mean of the selected messages' remaining sizes, none, or a fixed size",
    values: CUTOFF_RULES,
    min: 1,
    unit: "elements",
    default: "auto",
  }),
  factor: number({ description: "the factor applied to the median or the mean", min: 1, default: 3 }),
  rule: output("the rule auto chose"),
  machine: output("the machine whose alpha and beta auto used"),
  alpha: output("start-up time per message of that machine, in us"),
  beta: output("time per element of that machine, in us"),
  modelledTime: output("the modelled blocking time of the plan, in us"),
};

/** The cutoff rule and factor of resolved params (`resolvePlanOptions` checked them against RS_NH_PARAMS). */
export function rsNhParams(params: Resolved<typeof RS_NH_PARAMS>): RsNhParams {
  return { cutoff: params.cutoff, factor: params.factor };
}

/** Receives the transfers of a plan: `step` opens a phase, `send` adds elements offset .. offset + size - 1 of message i -> j to it. */
interface PhaseSink {
  step(): void;
  send(i: number, j: number, offset: number, size: number): void;
}

/**
 * Section 3.3 of 003: each node keeps its unsent messages in a max-heap by remaining size (ties by
 * a seeded random priority). A phase visits the nodes with messages in a fresh seeded random order;
 * a node pops its heap until it meets a message whose destination is not yet taken in this phase
 * (the popped ones go back), as in RS_N but largest first. Then a cutoff c is chosen from the
 * remaining sizes of the selected messages (`cutoff` "median" | "mean": factor x the lower median or
 * the mean; "none"; or a fixed number of elements); each selected message sends min(remaining, c)
 * elements (its next consecutive offsets) and, if anything is left, returns to its node's heap for a
 * later phase. The paper defers the cutoff rule to its ref. [11], which we do not have. The default,
 * "auto", plans with each rule of AUTO_RULES (same seed) and keeps the one with the least modelled
 * blocking time, the sum over phases of alpha + beta x the phase's longest message, with alpha and
 * beta of the machine given (--machine) or of DEFAULT_SPLIT_MACHINE; the header then names the rule,
 * the machine, alpha, beta and the modelled time (docs/algorithms/rs-nh.md). Every phase sends at least
 * one element of every selected message, so the loop ends. Progress: the message list, then each
 * run of `phases` (auto: one per rule, then the plan) by elements sent, once per phase.
 */
function plan(m: CommMatrix, opts: PlanOptions<Resolved<typeof RS_NH_PARAMS>>): Schedule {
  const { cutoff: rule, factor } = rsNhParams(opts.params);
  const runs = rule === "auto" ? AUTO_RULES.length + 1 : 1;
  const progress = progressPhases(opts.progress, [10, ...Array.from({ length: runs }, () => 100)]);
  const msgs = offDiagonalMessages(m, progress.phase(0));
  const elements = opts.progress ? msgs.size.reduce((x, y) => x + y, 0) : 0; // what the progress counts
  if (typeof rule === "number") {
    let pieces = 0;
    for (let k = 0; k < msgs.count; k++) pieces += Math.ceil(msgs.size[k]! / rule);
    if (pieces > MAX_TRANSFERS) {
      throw fail(
        "planner",
        "BAD_OPTION",
        `${NAME}: cutoff ${rule} would split the messages into ${pieces} transfers (limit ${MAX_TRANSFERS}); choose a larger cutoff or "auto"`,
        { field: "params.cutoff" },
      );
    }
  }
  let chosen: { cutoff: Exclude<CutoffRule, "auto">; factor: number } =
    rule === "auto" ? AUTO_RULES[0]! : { cutoff: rule, factor };
  let params = opts.givenParams;
  if (rule === "auto") {
    const { name, alpha, beta } = splitCostModel(opts.machine, m.elementBytes);
    let best = Infinity;
    for (const [x, r] of AUTO_RULES.entries()) {
      let time = 0,
        phaseMax = -1;
      const sink: PhaseSink = {
        step: () => {
          if (phaseMax >= 0) time += alpha + beta * phaseMax;
          phaseMax = 0;
        },
        send: (_i, _j, _o, size) => {
          if (size > phaseMax) phaseMax = size;
        },
      };
      phases(msgs, r.cutoff, r.factor, opts.seed, reporting(sink, progress.phase(1 + x), elements));
      if (phaseMax >= 0) time += alpha + beta * phaseMax;
      if (time < best) {
        best = time;
        chosen = r;
      }
    }
    const ruleName = chosen.cutoff === "none" ? "none" : `${chosen.cutoff} x ${chosen.factor}`;
    params = {
      ...opts.givenParams,
      rule: ruleName,
      machine: name,
      alpha,
      beta,
      modelledTime: best === Infinity ? 0 : best,
    };
  }
  const b = new ScheduleBuilder({ ...planHeader(m, NAME, opts, true), params }, opts.payload, msgs.count);
  b.stage("phases", "compose");
  const sink: PhaseSink = {
    step: () => b.step(),
    send: (i, j, offset, size) => {
      b.transfer(i, j, size);
      if (b.payload) b.chunk(i, j, offset, size);
    },
  };
  phases(msgs, chosen.cutoff, chosen.factor, opts.seed, reporting(sink, progress.phase(runs), elements));
  const s = b.build();
  progress.end();
  return s;
}

/** One max-heap of messages per sending node, by remaining size then random priority; node i's heap lives in heap[rowStart[i] .. rowStart[i] + len[i]). */
class RowHeaps {
  readonly len: Uint32Array;
  private readonly heap: Uint32Array;
  constructor(
    private readonly rowStart: Uint32Array,
    private readonly rem: Float64Array,
    private readonly prio: Uint32Array,
  ) {
    this.heap = new Uint32Array(prio.length);
    this.len = new Uint32Array(rowStart.length - 1);
  }

  /** Whether message a goes before message b. */
  private above(a: number, b: number): boolean {
    const rem = this.rem;
    return rem[a]! > rem[b]! || (rem[a] === rem[b] && this.prio[a]! > this.prio[b]!);
  }

  /** Adds message k to node i's heap. */
  push(i: number, k: number): void {
    const heap = this.heap,
      base = this.rowStart[i]!;
    let x = this.len[i]!;
    this.len[i] = x + 1;
    while (x > 0) {
      const parent = (x - 1) >> 1;
      const q = heap[base + parent]!;
      if (!this.above(k, q)) break;
      heap[base + x] = q;
      x = parent;
    }
    heap[base + x] = k;
  }

  /** Removes and returns the top of node i's (non-empty) heap. */
  pop(i: number): number {
    const heap = this.heap,
      base = this.rowStart[i]!;
    const top = heap[base]!;
    const n = this.len[i]! - 1;
    this.len[i] = n;
    if (n === 0) return top;
    const last = heap[base + n]!;
    let x = 0;
    for (;;) {
      let c = 2 * x + 1;
      if (c >= n) break;
      if (c + 1 < n && this.above(heap[base + c + 1]!, heap[base + c]!)) c++;
      if (!this.above(heap[base + c]!, last)) break;
      heap[base + x] = heap[base + c]!;
      x = c;
    }
    heap[base + x] = last;
    return top;
  }
}

/** Runs RS_NH with one cutoff rule on the message list, handing every phase and transfer to `sink`. */
function phases(
  msgs: MessageList,
  rule: Exclude<CutoffRule, "auto">,
  factor: number,
  seed: number,
  sink: PhaseSink,
): void {
  const { p, rowStart, src, dst } = msgs;
  const rng = createRng(seed);
  const rem = Float64Array.from(msgs.size);
  const sent = new Float64Array(msgs.count);
  const prio = new Uint32Array(msgs.count);
  for (let k = 0; k < msgs.count; k++) prio[k] = rng.nextU32();
  const heaps = new RowHeaps(rowStart, rem, prio);
  const { len } = heaps;
  const rows = new Uint32Array(p);
  let nRows = 0;
  for (let i = 0; i < p; i++) {
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) heaps.push(i, k);
    if (len[i]! > 0) rows[nRows++] = i;
  }
  const taken = new Int32Array(p).fill(-1);
  const picked = new Uint32Array(p);
  const sizes = new Float64Array(p);
  const stash = new Uint32Array(p);
  for (let iter = 0; nRows > 0; iter++) {
    shuffleInPlace(rng, rows.subarray(0, nRows));
    let nPicked = 0;
    for (let r = 0; r < nRows; r++) {
      const i = rows[r]!;
      let nStash = 0;
      while (len[i]! > 0) {
        const k = heaps.pop(i);
        if (taken[dst[k]!] === iter) {
          stash[nStash++] = k;
          continue;
        }
        taken[dst[k]!] = iter;
        picked[nPicked++] = k;
        break;
      }
      for (let x = 0; x < nStash; x++) heaps.push(i, stash[x]!);
    }
    const cutoff = cutoffOf(rule, factor, rem, picked, nPicked, sizes);
    const phase = picked.subarray(0, nPicked).sort();
    sink.step();
    for (let x = 0; x < nPicked; x++) {
      const k = phase[x]!;
      const i = src[k]!,
        j = dst[k]!;
      const s = Math.min(rem[k]!, cutoff);
      sink.send(i, j, sent[k]!, s);
      sent[k] = sent[k]! + s;
      rem[k] = rem[k]! - s;
      if (rem[k]! > 0) heaps.push(i, k);
    }
    let w = 0;
    for (let r = 0; r < nRows; r++) if (len[rows[r]!]! > 0) rows[w++] = rows[r]!;
    nRows = w;
  }
}

/**
 * `sink`, also reporting the elements sent of `total` to `progress` once per phase (a wrapper, so that
 * `phases` itself has no progress code: see ProgressTick); `sink` itself without a callback.
 */
function reporting(sink: PhaseSink, progress: ProgressCallback | null, total: number): PhaseSink {
  if (!progress) return sink;
  const tick = progressTicker(progress, total);
  let done = 0;
  return {
    step: () => {
      tick(done);
      sink.step();
    },
    send: (i, j, offset, size) => {
      done += size;
      sink.send(i, j, offset, size);
    },
  };
}

/** The cutoff of one phase from the remaining sizes of its selected messages (always >= 1). */
function cutoffOf(
  rule: Exclude<CutoffRule, "auto">,
  factor: number,
  rem: Float64Array,
  picked: Uint32Array,
  n: number,
  scratch: Float64Array,
): number {
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

/** RS_NH (003 sec 3.3): RS_N with largest-first heaps and a per-phase cutoff that splits long messages (rule chosen by modelled time by default). */
export const rsNh: Planner = definePlanner(
  {
    name: NAME,
    title: "RS_NH: random partial permutations, largest message first, long messages cut at a per-phase cutoff",
    source: "003 sec 3.3",
    params: RS_NH_PARAMS,
  },
  plan,
);
