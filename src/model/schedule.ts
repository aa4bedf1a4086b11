/** Schedule: the columnar schedule IR (stages, steps, transfers, payload chunks, stalls; docs/formats.md, Schedule). */
import { fail } from "./errors.js";
import { MAX_P } from "./limits.js";
import { describeValue } from "./option-checks.js";
import { growF64, growU32, type Growable } from "../internal/growable.js";

/** JSON-compatible values (planner parameters). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [k: string]: JsonValue };

/**
 * The local data rearrangement a stage starts with (after its barrier). Every kind except
 * "none" costs t_m per byte the node sends in the stage (004 section 2, eqs 1-4).
 */
export type Rearrange = "none" | "compose" | "distribute" | "collect";
/** Every Rearrange value, in order. */
export const REARRANGE_KINDS: readonly Rearrange[] = Object.freeze(["none", "compose", "distribute", "collect"]);

/** A stage: a run of steps after a barrier and a local rearrangement. */
export interface StageInfo {
  readonly name: string;
  readonly rearrange: Rearrange;
  /** Index of the stage's first step in the schedule's step columns. */
  readonly firstStep: number;
  readonly stepCount: number;
}

/** Payload chunks: chunk k names elements offset..offset+count-1 of the message origin -> dest. */
export interface ChunkTable {
  /** Chunks of transfer x are [start[x], start[x + 1]). */
  readonly start: Uint32Array;
  readonly origin: Uint32Array;
  readonly dest: Uint32Array;
  readonly offset: Float64Array;
  readonly count: Float64Array;
}

/** Start and end times of each transfer in a realised trace (microseconds). */
export interface TransferTimes {
  readonly start: Float64Array;
  readonly end: Float64Array;
}

/** Identification of a plan: what made it and for which matrix. */
export interface ScheduleHeader {
  readonly p: number;
  readonly algorithm: string;
  readonly params: { readonly [k: string]: JsonValue };
  readonly seed: number | null;
  readonly elementBytes: number;
  readonly matrixDigest: string;
  /**
   * `plan --algorithm auto`: the candidates weighed, their predicted and simulated times, and why the winner won
   * (src/auto/plan-auto.ts); absent otherwise.
   */
  readonly auto?: JsonValue;
}

/**
 * What is wrong with a schedule header, or null: p an integer in 1..MAX_P, elementBytes a positive integer, algorithm
 * and matrixDigest strings, params an object, seed an integer or null. O(1); ScheduleBuilder refuses a header that has
 * a problem, so a hand-made plan's mistake is named where it is made ("p must be ..., got \"3\"") and not read later as
 * a plan for another matrix.
 */
export function scheduleHeaderProblem(h: ScheduleHeader): string | null {
  if (typeof h !== "object" || h === null) return `the header is not an object, got ${describeValue(h)}`;
  const int = (v: unknown, min: number, max: number): boolean =>
    typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
  if (!int(h.p, 1, MAX_P)) return `p must be an integer in 1..${MAX_P}, got ${describeValue(h.p)}`;
  if (!int(h.elementBytes, 1, Number.MAX_SAFE_INTEGER))
    return `elementBytes must be a positive integer, got ${describeValue(h.elementBytes)}`;
  if (typeof h.algorithm !== "string") return `algorithm must be a string, got ${describeValue(h.algorithm)}`;
  if (typeof h.matrixDigest !== "string")
    return `matrixDigest must be a string ("" for none), got ${describeValue(h.matrixDigest)}`;
  if (typeof h.params !== "object" || h.params === null || Array.isArray(h.params))
    return `params must be an object, got ${describeValue(h.params)}`;
  if (h.seed !== null && !int(h.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER))
    return `seed must be an integer or null, got ${describeValue(h.seed)}`;
  return null;
}

/** A schedule in columnar form; transfers are stored in step order. */
export interface Schedule extends ScheduleHeader {
  readonly stages: readonly StageInfo[];
  readonly stepCount: number;
  /** Transfers of step s are [stepStart[s], stepStart[s + 1]). */
  readonly stepStart: Uint32Array;
  /** Stalled nodes of step s are stallNode[stallStart[s] .. stallStart[s + 1]). */
  readonly stallStart: Uint32Array;
  readonly stallNode: Uint32Array;
  readonly transferCount: number;
  readonly src: Uint32Array;
  readonly dst: Uint32Array;
  readonly size: Float64Array;
  /** Present when the plan was made with payloads. */
  readonly chunks: ChunkTable | null;
  /** Present in realised traces of run-time protocols. */
  readonly times: TransferTimes | null;
}

/** Builds a Schedule step by step; planners use it so that every plan has the same shape. */
export class ScheduleBuilder {
  private readonly stages: { name: string; rearrange: Rearrange; firstStep: number }[] = [];
  private readonly stepStart = growU32();
  private readonly stallStart = growU32();
  private readonly stallNode = growU32(16);
  // the transfer columns as raw typed arrays (not Growable: one monomorphic store each on the hot path)
  private srcBuf: Uint32Array;
  private dstBuf: Uint32Array;
  private sizeBuf: Float64Array;
  private n = 0;
  private readonly chunkStart = growU32();
  private readonly chunkOrigin = growU32();
  private readonly chunkDest = growU32();
  private readonly chunkOffset = growF64();
  private readonly chunkCount = growF64();
  private readonly tStart = growF64(16);
  private readonly tEnd = growF64(16);
  private steps = 0;
  private inStep = false;
  /** The header's P: every node given is checked against it where it is given. */
  private readonly p: number;

  constructor(
    readonly header: ScheduleHeader,
    readonly payload: boolean,
    expectedTransfers = 1024,
    readonly timed = false,
    /** Payload chunks the planner expects (the chunk columns start at this size: no doubling, no copy when exact). */
    expectedChunks = 1024,
  ) {
    const problem = scheduleHeaderProblem(header);
    if (problem !== null) throw fail("schedule", "BAD_INPUT", `ScheduleBuilder: ${problem}`, { field: "header" });
    this.p = header.p;
    const cap = Math.max(16, expectedTransfers);
    this.srcBuf = new Uint32Array(cap);
    this.dstBuf = new Uint32Array(cap);
    this.sizeBuf = new Float64Array(cap);
    if (payload && expectedChunks > 1024) for (const c of this.chunkColumns()) c.grow(expectedChunks);
  }

  private chunkColumns(): Growable<Uint32Array | Float64Array>[] {
    return [this.chunkOrigin, this.chunkDest, this.chunkOffset, this.chunkCount];
  }

  /** Starts a new stage (closing the current step). */
  stage(name: string, rearrange: Rearrange = "none"): this {
    this.inStep = false;
    this.stages.push({ name, rearrange, firstStep: this.steps });
    return this;
  }

  /** Starts a new step in the current stage. */
  step(): this {
    if (this.stages.length === 0) this.stage("main");
    this.stepStart.push(this.n);
    this.stallStart.push(this.stallNode.length);
    this.steps++;
    this.inStep = true;
    return this;
  }

  /** Number of transfers in the current step so far. */
  currentStepSize(): number {
    return this.inStep ? this.n - this.stepStart.last() : 0;
  }

  /** Removes the current step if it has neither transfers nor stalls. */
  dropEmptyStep(): this {
    if (this.inStep && this.currentStepSize() === 0 && this.stallNode.length === this.stallStart.last()) {
      this.stepStart.length--;
      this.stallStart.length--;
      this.steps--;
      this.inStep = false;
    }
    return this;
  }

  /**
   * Adds a transfer of `size` elements to the current step; returns its index. A node that is not an integer in
   * 0..P-1 is refused here, in one line naming it and P (the columns would store -1 as 4294967295 and 1.5 as 1).
   */
  transfer(src: number, dst: number, size: number): number {
    if (src >>> 0 !== src || src >= this.p) this.badNode("transfer", "src", src);
    if (dst >>> 0 !== dst || dst >= this.p) this.badNode("transfer", "dst", dst);
    if (!this.inStep) this.step();
    const n = this.n;
    if (n === this.srcBuf.length) this.growTransfers();
    this.srcBuf[n] = src;
    this.dstBuf[n] = dst;
    this.sizeBuf[n] = size;
    this.n = n + 1;
    if (this.payload) this.chunkStart.push(this.chunkOrigin.length);
    if (this.timed) {
      this.tStart.push(0);
      this.tEnd.push(0);
    }
    return this.n - 1;
  }

  /** Appends a payload chunk to the last transfer. */
  chunk(origin: number, dest: number, offset: number, count: number): this {
    if (!this.payload) throw fail("schedule", "BAD_INPUT", "chunk() on a builder made without payloads");
    this.chunkOrigin.push(origin);
    this.chunkDest.push(dest);
    this.chunkOffset.push(offset);
    this.chunkCount.push(count);
    return this;
  }

  /** Sets the realised times of the last transfer (timed builders only). */
  times(start: number, end: number): this {
    if (!this.timed) throw fail("schedule", "BAD_INPUT", "times() on a builder made without times");
    this.tStart.set(this.tStart.length - 1, start);
    this.tEnd.set(this.tEnd.length - 1, end);
    return this;
  }

  /** Marks `node` as stalling on purpose in the current step (a node out of 0..P-1 is refused, as in transfer). */
  stall(node: number): this {
    if (node >>> 0 !== node || node >= this.p) this.badNode("stall", "node", node);
    if (!this.inStep) this.step();
    this.stallNode.push(node);
    return this;
  }

  /** Throws the one-line BAD_INPUT error on a node of `method` that is not an integer in 0..P-1. */
  private badNode(method: string, field: string, v: unknown): never {
    throw fail(
      "schedule",
      "BAD_INPUT",
      `ScheduleBuilder.${method}: ${field} ${describeValue(v)} is not a node of P = ${this.p} (an integer in 0..${this.p - 1})`,
      { field },
    );
  }

  /** Doubles the transfer columns. */
  private growTransfers(): void {
    const cap = this.srcBuf.length * 2;
    const grow = <T extends Uint32Array | Float64Array>(a: T, b: T): T => (b.set(a), b);
    this.srcBuf = grow(this.srcBuf, new Uint32Array(cap));
    this.dstBuf = grow(this.dstBuf, new Uint32Array(cap));
    this.sizeBuf = grow(this.sizeBuf, new Float64Array(cap));
  }

  /** A transfer column right-sized: the buffer itself when exactly full (no copy), else a copy. */
  private column<T extends Uint32Array | Float64Array>(buf: T): T {
    return (buf.length === this.n ? buf : buf.slice(0, this.n)) as T;
  }

  /** Finishes the schedule (once: the builder's columns may become the schedule's own). */
  build(): Schedule {
    const stepStart = new Uint32Array(this.steps + 1);
    stepStart.set(this.stepStart.toArray());
    stepStart[this.steps] = this.n;
    const stallStart = new Uint32Array(this.steps + 1);
    stallStart.set(this.stallStart.toArray());
    stallStart[this.steps] = this.stallNode.length;
    const stages: StageInfo[] = this.stages.map((s, k) => ({
      name: s.name,
      rearrange: s.rearrange,
      firstStep: s.firstStep,
      stepCount: (k + 1 < this.stages.length ? this.stages[k + 1]!.firstStep : this.steps) - s.firstStep,
    }));
    let chunks: ChunkTable | null = null;
    if (this.payload) {
      const start = new Uint32Array(this.n + 1);
      start.set(this.chunkStart.toArray());
      start[this.n] = this.chunkOrigin.length;
      // take: the column itself when the planner's expected count was exact
      chunks = {
        start,
        origin: this.chunkOrigin.take(),
        dest: this.chunkDest.take(),
        offset: this.chunkOffset.take(),
        count: this.chunkCount.take(),
      };
    }
    return {
      ...this.header,
      stages,
      stepCount: this.steps,
      stepStart,
      stallStart,
      stallNode: this.stallNode.toArray(),
      transferCount: this.n,
      // sized from the planner's expected count, the columns are handed over without a copy when exactly full
      src: this.column(this.srcBuf),
      dst: this.column(this.dstBuf),
      size: this.column(this.sizeBuf),
      chunks,
      times: this.timed ? { start: this.tStart.toArray(), end: this.tEnd.toArray() } : null,
    };
  }
}

/** The stage index of every step. */
export function stageOfStep(s: Schedule): Uint32Array {
  const out = new Uint32Array(s.stepCount);
  s.stages.forEach((st, k) => out.fill(k, st.firstStep, st.firstStep + st.stepCount));
  return out;
}

/** The step index of every transfer. */
export function stepOfTransfer(s: Schedule): Uint32Array {
  const out = new Uint32Array(s.transferCount);
  for (let st = 0; st < s.stepCount; st++) out.fill(st, s.stepStart[st]!, s.stepStart[st + 1]!);
  return out;
}
