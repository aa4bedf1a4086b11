/**
 * RS_NH: random scheduling avoiding node contention with a per-phase cutoff, largest message first (003 sec 3.3's heap
 * per node, kept as sorted lists).
 */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { createRng, shuffleInPlace } from "../../model/rng.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { growF64, growU32, type Growable } from "../../internal/growable.js";
import { progressPhases, progressTicker, type ProgressCallback } from "../../model/progress.js";
import { planHeader } from "../plan-header.js";
import { integer, number, output, type Resolved } from "../../model/param-spec.js";
import { definePlanner } from "../plan-params.js";
import type { Planner, PlanOptions } from "../types.js";
import { offDiagonalMessages, type MessageList } from "./messages.js";
import { splitCostModel } from "./split-coloring.js";

const NAME = "rs-nh";
/**
 * The most transfers a fixed cutoff may produce before the plan is refused (a 2^24-transfer plan is already ~0.5 GB of
 * JSON).
 */
const MAX_TRANSFERS = 2 ** 24;

/**
 * How the cutoff of a phase is chosen from the remaining sizes of the messages selected for it; "auto" picks a rule per
 * plan by modelled time.
 */
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

/**
 * Receives the transfers of a plan: `step` opens a phase, `send` adds elements offset .. offset + size - 1 of message i
 * -> j to it.
 */
interface PhaseSink {
  /**
   * Opens a phase; false stops the run (what it measures can no longer matter). `left` bounds what
   * is still to come, this phase included: at least `phases` phases (some node still sends or
   * receives that many messages, at most one per phase) whose longest messages sum to at least
   * `elements` (some node still sends or receives that many elements, at most one message a phase).
   */
  step(left: { readonly phases: number; readonly elements: number }): boolean;
  /** Whether `step` reads `left` (else it gets zeros, and nothing is counted for it). */
  readonly bounded?: boolean;
  send(i: number, j: number, offset: number, size: number): void;
}

/** What an unbounded sink's `step` gets. */
const NOTHING_LEFT = { phases: 0, elements: 0 };

/**
 * Section 3.3 of 003: each node keeps its unsent messages in a max-heap by remaining size (ties by
 * a seeded random priority, then by message number). A phase visits the nodes with messages in a
 * fresh seeded random order; a node pops its heap until it meets a message whose destination is not
 * yet taken in this phase (the popped ones go back), as in RS_N but largest first: RowOrder keeps
 * each node's messages sorted instead and takes the first with a free destination, the same pick.
 * Then a cutoff c is chosen from the remaining sizes of the selected messages (`cutoff` "median" |
 * "mean": factor x the lower median or the mean; "none"; or a fixed number of elements); each
 * selected message sends min(remaining, c) elements (its next consecutive offsets) and, if anything
 * is left, goes back among its node's messages for a later phase. The paper defers the cutoff rule to its ref. [11],
 * which we do not have. The default,
 * "auto", plans with each rule of AUTO_RULES (same seed; bestRule) and keeps the one with the least
 * modelled blocking time, the sum over phases of alpha + beta x the phase's longest message, with
 * alpha and beta of the machine given (--machine) or of DEFAULT_SPLIT_MACHINE; the plan is built from
 * the record of the kept run, and the header names the rule, the machine, alpha, beta and the
 * modelled time (docs/algorithms/rs-nh.md). Every phase sends at least one element of every selected
 * message, so the loop ends. Progress: the message list, then each run of `phases` (auto: one per
 * rule) by elements sent, once per phase.
 */
function plan(m: CommMatrix, opts: PlanOptions<Resolved<typeof RS_NH_PARAMS>>): Schedule {
  const { cutoff: rule, factor } = rsNhParams(opts.params);
  const runs = rule === "auto" ? AUTO_RULES.length : 1;
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
  const start = startOrder(msgs, opts.seed);
  // one run of a rule into the plan
  const build = (params: PlanOptions["givenParams"], r: Exclude<CutoffRule, "auto">, f: number): Schedule => {
    const sb = builder(m, opts, params, msgs.count);
    const sink: PhaseSink = {
      step: () => {
        sb.step();
        return true;
      },
      send: (i, j, offset, size) => {
        sb.transfer(i, j, size);
        if (sb.payload) sb.chunk(i, j, offset, size);
      },
    };
    phases(msgs, start, r, f, opts.seed, reporting(sink, progress.phase(1), elements));
    const s = sb.build();
    progress.end();
    return s;
  };
  if (rule !== "auto") return build(opts.givenParams, rule, factor);
  const { name, alpha, beta } = splitCostModel(opts.machine, m.elementBytes);
  const { chosen, best, record } = bestRule(
    msgs,
    start,
    opts.seed,
    alpha,
    beta,
    (x) => progress.phase(1 + x),
    elements,
  );
  const params = {
    ...opts.givenParams,
    rule: chosen.cutoff === "none" ? "none" : `${chosen.cutoff} x ${chosen.factor}`,
    machine: name,
    alpha,
    beta,
    modelledTime: best === Infinity ? 0 : best,
  };
  // no run kept (no finite modelled time): the first rule, run again
  if (record === null) return build(params, chosen.cutoff, chosen.factor);
  const sb = builder(m, opts, params, msgs.count);
  record.replay(sb);
  const s = sb.build();
  progress.end();
  return s;
}

/** A schedule builder for an rs-nh plan: its header with `params`, and its one stage. */
function builder(
  m: CommMatrix,
  opts: PlanOptions<Resolved<typeof RS_NH_PARAMS>>,
  params: PlanOptions["givenParams"],
  messages: number,
): ScheduleBuilder {
  const b = new ScheduleBuilder({ ...planHeader(m, NAME, opts, true), params }, opts.payload, messages);
  b.stage("phases", "compose");
  return b;
}

/**
 * Runs RS_NH with each rule of AUTO_RULES and returns the one of least modelled blocking time (the
 * sum over phases of alpha + beta x the longest transfer; ties to the earlier rule) with the record
 * of its run (null when no run had a finite time). A run stops once its time so far and the least
 * the rest can take exceed the best so far beyond rounding (1e-9 relative): it can no longer be kept.
 * Each run reports to progressOf(its index), counting sent elements of `elements`.
 */
function bestRule(
  msgs: MessageList,
  start: { readonly prio: Uint32Array; readonly sorted: Uint32Array },
  seed: number,
  alpha: number,
  beta: number,
  progressOf: (x: number) => ProgressCallback | null,
  elements: number,
): { chosen: (typeof AUTO_RULES)[number]; best: number; record: PhaseRecord | null } {
  let best = Infinity,
    chosen = AUTO_RULES[0]!,
    kept: PhaseRecord | null = null;
  for (const [x, r] of AUTO_RULES.entries()) {
    const record = new PhaseRecord(msgs.count);
    let time = 0,
      phaseMax = -1,
      stopped = false;
    const sink: PhaseSink = {
      // the first run has no best to stop at
      bounded: best < Infinity,
      step: (left) => {
        if (phaseMax >= 0) time += alpha + beta * phaseMax;
        phaseMax = 0;
        // beyond rounding: the phase-by-phase sum may land an ulp or so off the bound's sum
        stopped = time + alpha * left.phases + beta * left.elements > best * (1 + 1e-9);
        if (!stopped) record.step();
        return !stopped;
      },
      send: (i, j, offset, size) => {
        if (size > phaseMax) phaseMax = size;
        record.send(i, j, offset, size);
      },
    };
    phases(msgs, start, r.cutoff, r.factor, seed, reporting(sink, progressOf(x), elements));
    if (phaseMax >= 0) time += alpha + beta * phaseMax;
    if (!stopped && time < best) {
      best = time;
      chosen = r;
      kept = record;
    }
  }
  return { chosen, best, record: kept };
}

/** The phases and transfers of one run of `phases`, to build the plan from without running it again. */
class PhaseRecord {
  private readonly src: Growable<Uint32Array>;
  private readonly dst: Growable<Uint32Array>;
  private readonly offset: Growable<Float64Array>;
  private readonly size: Growable<Float64Array>;
  /** Where each phase's transfers start. */
  private readonly phaseStart = growU32(64);
  constructor(transfers: number) {
    this.src = growU32(transfers);
    this.dst = growU32(transfers);
    this.offset = growF64(transfers);
    this.size = growF64(transfers);
  }

  step(): void {
    this.phaseStart.push(this.src.length);
  }

  send(i: number, j: number, offset: number, size: number): void {
    this.src.push(i);
    this.dst.push(j);
    this.offset.push(offset);
    this.size.push(size);
  }

  /** Opens a step of `b` per phase and adds its transfers (and their chunks at payload level). */
  replay(b: ScheduleBuilder): void {
    const src = this.src.take(),
      dst = this.dst.take(),
      offset = this.offset.take(),
      size = this.size.take(),
      starts = this.phaseStart.take();
    for (let ph = 0; ph < starts.length; ph++) {
      b.step();
      const end = ph + 1 < starts.length ? starts[ph + 1]! : src.length;
      for (let x = starts[ph]!; x < end; x++) {
        b.transfer(src[x]!, dst[x]!, size[x]!);
        if (b.payload) b.chunk(src[x]!, dst[x]!, offset[x]!, size[x]!);
      }
    }
  }
}

/**
 * The unsent messages of every sending node in priority order: largest remaining size first, ties
 * by the seeded random priority, then by message number (a total order, so the same inputs always
 * give the same plan). Node i's messages are order[head[i] .. head[i] + len[i]). A phase scans a
 * node's messages from the front for the first free destination: the one the paper's heap would pop
 * to after putting back those it passed (003 sec 3.3), without the pops and pushes. A message sent
 * in full leaves: the messages before it (those the scan passed) shift one place up and the
 * segment starts one later, so a removal costs what its scan did. A message sent in part moves back
 * to its new place (a binary search, then one shift of the messages it passes).
 */
class RowOrder {
  /** Where each node's messages start in `order` (from rowStart[i], one later per message sent in full). */
  readonly head: Uint32Array;
  readonly len: Uint32Array;
  readonly order: Uint32Array;
  /** The destination of order[x] at x: the scans read it in sequence. */
  readonly dest: Uint32Array;
  constructor(
    rowStart: Uint32Array,
    private readonly rem: Float64Array,
    private readonly prio: Uint32Array,
    sorted: Uint32Array,
    dst: Uint32Array,
  ) {
    this.order = sorted.slice();
    this.dest = new Uint32Array(sorted.length);
    for (let x = 0; x < sorted.length; x++) this.dest[x] = dst[sorted[x]!]!;
    const p = rowStart.length - 1;
    this.head = rowStart.slice(0, p);
    this.len = new Uint32Array(p);
    for (let i = 0; i < p; i++) this.len[i] = rowStart[i + 1]! - rowStart[i]!;
  }

  /**
   * Node i's messages sorted by priority (the order every run starts from: it depends on the sizes and priorities
   * alone).
   */
  static sorted(rowStart: Uint32Array, size: Float64Array, prio: Uint32Array): Uint32Array {
    const order = new Uint32Array(size.length);
    for (let k = 0; k < order.length; k++) order[k] = k;
    const first = (a: number, b: number): number => size[b]! - size[a]! || prio[b]! - prio[a]! || a - b;
    for (let i = 0; i + 1 < rowStart.length; i++) order.subarray(rowStart[i]!, rowStart[i + 1]!).sort(first);
    return order;
  }

  /** Whether message a goes before message b. */
  private before(a: number, b: number): boolean {
    const { rem, prio } = this;
    return rem[a]! > rem[b]! || (rem[a] === rem[b] && (prio[a]! > prio[b]! || (prio[a] === prio[b] && a < b)));
  }

  /**
   * Message at position x of node i's order (x = head[i] + its rank) has had elements sent: it leaves when none remain,
   * else moves back.
   */
  sent(i: number, x: number): void {
    const { order, dest } = this,
      h = this.head[i]!,
      end = h + this.len[i]!;
    const k = order[x]!,
      j = dest[x]!;
    if (this.rem[k]! <= 0) {
      order.copyWithin(h + 1, h, x);
      dest.copyWithin(h + 1, h, x);
      this.head[i] = h + 1;
      this.len[i]!--;
      return;
    }
    // the first position after x whose message goes before k no longer
    let lo = x + 1,
      hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.before(order[mid]!, k)) lo = mid + 1;
      else hi = mid;
    }
    order.copyWithin(x, x + 1, lo);
    dest.copyWithin(x, x + 1, lo);
    order[lo - 1] = k;
    dest[lo - 1] = j;
  }
}

/**
 * What every node still sends and receives (messages and elements), and their maxima: a bound on
 * the phases to come. Each maximum is the root of a tree of maxima over the 2P values (node v's
 * sends at v, its receives at P + v), so a send updates it in O(log P) and reading it costs nothing.
 */
class Backlog {
  private readonly n: number;
  private readonly p: number;
  private readonly msgs: Float64Array;
  private readonly elems: Float64Array;
  constructor(list: MessageList) {
    const { p, src, dst, size } = list;
    let n = 1;
    while (n < 2 * p) n *= 2;
    this.n = n;
    this.p = p;
    this.msgs = new Float64Array(2 * n);
    this.elems = new Float64Array(2 * n);
    for (let k = 0; k < list.count; k++) {
      const a = n + src[k]!,
        b = n + p + dst[k]!;
      this.msgs[a]!++;
      this.msgs[b]!++;
      this.elems[a] = this.elems[a]! + size[k]!;
      this.elems[b] = this.elems[b]! + size[k]!;
    }
    for (let x = n - 1; x >= 1; x--) {
      this.msgs[x] = Math.max(this.msgs[2 * x]!, this.msgs[2 * x + 1]!);
      this.elems[x] = Math.max(this.elems[2 * x]!, this.elems[2 * x + 1]!);
    }
  }

  /** Adds d to leaf x of tree t and updates the maxima above it, up to the first that does not change. */
  private static add(t: Float64Array, x: number, d: number): void {
    t[x] = t[x]! + d;
    for (x >>= 1; x >= 1; x >>= 1) {
      const v = Math.max(t[2 * x]!, t[2 * x + 1]!);
      if (v === t[x]) return;
      t[x] = v;
    }
  }

  /** s elements of i -> j were sent (`done`: the message's last ones). */
  sent(i: number, j: number, s: number, done: boolean): void {
    const a = this.n + i,
      b = this.n + this.p + j;
    Backlog.add(this.elems, a, -s);
    Backlog.add(this.elems, b, -s);
    if (done) {
      Backlog.add(this.msgs, a, -1);
      Backlog.add(this.msgs, b, -1);
    }
  }

  /** The most messages and elements any node still sends or receives. */
  left(): { phases: number; elements: number } {
    return { phases: this.msgs[1]!, elements: this.elems[1]! };
  }
}

/** Runs RS_NH with one cutoff rule on the message list, handing every phase and transfer to `sink`. */
function phases(
  msgs: MessageList,
  start: { readonly prio: Uint32Array; readonly sorted: Uint32Array },
  rule: Exclude<CutoffRule, "auto">,
  factor: number,
  seed: number,
  sink: PhaseSink,
): void {
  const { p, rowStart, src, dst } = msgs;
  const rng = createRng(seed);
  // the priorities were drawn first from this seed (start.prio): the shuffles follow them
  for (let k = 0; k < msgs.count; k++) rng.nextU32();
  const rem = Float64Array.from(msgs.size);
  const sent = new Float64Array(msgs.count);
  const rows = new RowOrder(rowStart, rem, start.prio, start.sorted, dst);
  const { head, len, order, dest } = rows;
  const nodes = new Uint32Array(p);
  let nNodes = 0;
  for (let i = 0; i < p; i++) if (len[i]! > 0) nodes[nNodes++] = i;
  const taken = new Int32Array(p).fill(-1);
  const picked = new Uint32Array(p);
  const at = new Uint32Array(p); // where node i's pick of this phase lies in `order`
  const sizes = new Float64Array(p);
  const backlog = sink.bounded === true ? new Backlog(msgs) : null;
  for (let iter = 0; nNodes > 0; iter++) {
    shuffleInPlace(rng, nodes.subarray(0, nNodes));
    let nPicked = 0;
    for (let r = 0; r < nNodes; r++) {
      const i = nodes[r]!;
      const end = head[i]! + len[i]!;
      for (let x = head[i]!; x < end; x++) {
        const j = dest[x]!;
        if (taken[j] === iter) continue;
        taken[j] = iter;
        picked[nPicked++] = order[x]!;
        at[i] = x;
        break;
      }
    }
    const cutoff = cutoffOf(rule, factor, rem, picked, nPicked, sizes);
    const phase = picked.subarray(0, nPicked).sort();
    if (!sink.step(backlog?.left() ?? NOTHING_LEFT)) return;
    for (let x = 0; x < nPicked; x++) {
      const k = phase[x]!;
      const i = src[k]!,
        j = dst[k]!;
      const s = Math.min(rem[k]!, cutoff);
      sink.send(i, j, sent[k]!, s);
      sent[k] = sent[k]! + s;
      rem[k] = rem[k]! - s;
      backlog?.sent(i, j, s, rem[k]! <= 0);
      rows.sent(i, at[i]!);
    }
    let w = 0;
    for (let r = 0; r < nNodes; r++) if (len[nodes[r]!]! > 0) nodes[w++] = nodes[r]!;
    nNodes = w;
  }
}

/**
 * The seeded priorities of the messages (the first draws of `seed`) and every node's messages sorted by them: what
 * every run of `phases` starts from.
 */
function startOrder(msgs: MessageList, seed: number): { prio: Uint32Array; sorted: Uint32Array } {
  const rng = createRng(seed);
  const prio = new Uint32Array(msgs.count);
  for (let k = 0; k < msgs.count; k++) prio[k] = rng.nextU32();
  return { prio, sorted: RowOrder.sorted(msgs.rowStart, msgs.size, prio) };
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
    bounded: sink.bounded === true,
    step: (left) => {
      tick(done);
      return sink.step(left);
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

/**
 * rs-nh's planning time grows fast with the messages (up to seven cutoff-rule runs, each scanning
 * past the destinations taken in a phase: bench/results/permutation.md times it against rs-n), and no
 * cheap bound tells it apart from coloring: auto plans it only up to this many messages (P = 64 dense),
 * a limit bench/results/auto.md and docs/auto.md weigh against a lower one.
 */
export const RS_NH_MAX_MESSAGES = 4096;

/**
 * RS_NH (003 sec 3.3): RS_N with largest-first heaps and a per-phase cutoff that splits long messages (rule chosen by
 * modelled time by default).
 */
export const rsNh: Planner = definePlanner(
  {
    name: NAME,
    title: "RS_NH: random partial permutations, largest message first, long messages cut at a per-phase cutoff",
    source: "003 sec 3.3",
    params: RS_NH_PARAMS,
    traits: { relayed: false, randomised: true, stages: 1, growth: "linear", claims: "verifier" },
    auto: {
      variants: [{ params: {} }],
      bound: "busiest-node",
      maxMessages: { limit: RS_NH_MAX_MESSAGES, why: "its planning time grows fast; coloring stands for it" },
    },
  },
  plan,
);
