/**
 * lowerSchedule: a schedule and its matrix to a per-rank Program (MPI_Alltoallv buffers, scratch, rounds of
 * operations).
 */
import { fail } from "../model/errors.js";
import { checkMadeFor, checkMatrixArg, matrixDigest, type CommMatrix } from "../model/matrix.js";
import type { Program, ProgramVariant } from "../model/program.js";
import type { Schedule } from "../model/schedule.js";
import { checkProgress, progressPhases, type ProgressCallback } from "../model/progress.js";
import { dataflowProgram } from "./dataflow.js";
import { emitOps } from "./emit.js";
import { bufferLayout, type BufferLayout, type DisplacementOptions } from "./layout.js";
import { directMessages, directMessagesUnchecked, groupTransfers } from "./messages.js";
import { payloadMessages } from "./payload.js";
import { checkSchedule } from "../model/schedule-check.js";
import { checkOptionKeys, checkOptionsObject } from "../model/option-checks.js";

/** Options of lowerSchedule: the variant and, optionally, the caller's displacements. */
export interface LowerOptions extends DisplacementOptions {
  /**
   * "nonblocking" (default), "blocking" (each round ordered in matchings of ranks) or "dataflow" (the nonblocking
   * operations with their dependencies, no round barriers).
   */
  readonly variant?: ProgramVariant;
  /**
   * Called now and then while lowering: `done` of `total` thousandths of the work (the layout, the messages, the
   * operations laid out).
   */
  readonly progress?: ProgressCallback | null;
}

/** The keys of LowerOptions (its own and DisplacementOptions'). */
const LOWER_OPTION_KEYS: readonly string[] = Object.freeze([
  "variant",
  "progress",
  "form",
  "sendDispls",
  "recvDispls",
  "sendSize",
  "recvSize",
  "maxMemory",
]);

/**
 * Weights of the lowering's progress: layout, grouping, messages (followed element by element for a payload plan),
 * operations (about their shares of the time).
 */
const DIRECT_PROGRESS: readonly number[] = [150, 50, 50, 750];
const PAYLOAD_PROGRESS: readonly number[] = [10, 10, 850, 130];

/** What lowering measured beside the program. */
export interface LowerResult {
  readonly program: Program;
  /** Per rank: the peak of simultaneously live relayed elements (a lower bound on its scratch size). */
  readonly scratchPeak: Float64Array;
  /** The most sub-phases (colour classes) in one round (1 for nonblocking programs with messages). */
  readonly maxClasses: number;
}

/**
 * Lowers a schedule to a program for every rank. A payload plan is followed element by element
 * (relayed elements get scratch space); a message-level plan must be direct (every transfer u -> v
 * carries the next elements of M[u][v]) and is refused otherwise. Throws CommplanError.
 */
export function lowerSchedule(m: CommMatrix, s: Schedule, opts: LowerOptions = {}): LowerResult {
  checkOptionsObject("lower", "options", opts);
  checkOptionKeys("lower", opts, LOWER_OPTION_KEYS);
  checkMatrixArg("lower", m);
  // a plan without chunks has its transfers checked by groupTransfers, in its pass over them (no pass of its own)
  checkSchedule(s, "lower", { transfers: typeof s !== "object" || s === null || s.chunks !== null });
  const g = groupTransfers(s);
  if (s.p !== m.p)
    throw fail("lower", "MISMATCH", `the schedule is for P = ${s.p}, the matrix has P = ${m.p}`, { field: "p" });
  if (s.matrixDigest !== "") checkMadeFor(m, s, "the schedule", "lower");
  const variant = opts.variant ?? "nonblocking";
  if (variant !== "nonblocking" && variant !== "blocking" && variant !== "dataflow")
    throw fail("lower", "BAD_OPTION", `variant must be nonblocking, blocking or dataflow, got ${String(variant)}`, {
      field: "variant",
    });
  const { p } = m;
  const progress = progressPhases(
    checkProgress(opts.progress, "lower"),
    s.chunks === null ? DIRECT_PROGRESS : PAYLOAD_PROGRESS,
  );
  const layout = bufferLayout(m, opts);
  progress.complete(0);
  progress.complete(1);
  let msgs, scratchSize: Float64Array, scratchPeak: Float64Array;
  if (s.chunks === null) {
    msgs = directMessagesUnchecked(layout, p, s, g, defaultSendTotal(layout, opts)) ?? directMessages(layout, p, s, g);
    scratchSize = new Float64Array(p);
    scratchPeak = new Float64Array(p);
    progress.complete(2);
  } else {
    ({ msgs, scratchSize, scratchPeak } = payloadMessages(p, s, g, layout, progress.phase(2)));
  }
  const rounds = s.stepCount > 0 ? s.stepCount : msgs.n > 0 ? 1 : 0;
  const emitVariant = variant === "blocking" ? "blocking" : "nonblocking";
  let e = emitOps(msgs, p, rounds, emitVariant, layout, progress.phase(3));
  // a pair of two messages or a count not its pair's (directMessagesUnchecked): directMessages refuses the plan
  if (e === null) e = emitOps(directMessages(layout, p, s, g), p, rounds, emitVariant, layout)!;
  const lowered: Program = {
    p,
    algorithm: s.algorithm,
    params: s.params,
    seed: s.seed,
    elementBytes: s.elementBytes,
    // a schedule that names no matrix (digest "") is lowered for m: the program says so, as verify-program checks
    matrixDigest: s.matrixDigest === "" ? matrixDigest(m) : s.matrixDigest,
    variant: variant === "blocking" ? "blocking" : "nonblocking",
    rounds,
    layout: { ...layout, scratchSize },
    rankStart: e.rankStart,
    ops: e.ops,
    pieces: e.pieces,
  };
  const program = variant === "dataflow" ? dataflowProgram(lowered) : lowered;
  progress.end();
  return { program, scratchPeak, maxClasses: e.maxClasses };
}

/**
 * The matrix's total when the send side's layout is the default (prefix sums: each rank's send buffer is its row's
 * sum), from the P buffer sizes; null when the caller gave displacements or sizes (then the counts are summed).
 */
function defaultSendTotal(layout: BufferLayout, opts: DisplacementOptions): number | null {
  if (opts.sendDispls !== undefined || opts.sendSize !== undefined) return null;
  let total = 0;
  for (let r = 0; r < layout.sendSize.length; r++) total += layout.sendSize[r]!;
  return total;
}
