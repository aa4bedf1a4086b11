/** lowerSchedule: a schedule and its matrix to a per-rank Program (MPI_Alltoallv buffers, scratch, rounds of operations). */
import { fail } from "../model/errors.js";
import { checkMadeFor, type CommMatrix } from "../model/matrix.js";
import type { Program, ProgramVariant } from "../model/program.js";
import type { Schedule } from "../model/schedule.js";
import { emitOps } from "./emit.js";
import { bufferLayout, type DisplacementOptions } from "./layout.js";
import { directMessages, groupTransfers } from "./messages.js";
import { payloadMessages } from "./payload.js";
import { checkSchedule } from "../model/schedule-check.js";

/** Options of lowerSchedule: the variant and, optionally, the caller's displacements. */
export interface LowerOptions extends DisplacementOptions {
  /** "nonblocking" (default) or "blocking" (each round ordered in matchings of ranks). */
  readonly variant?: ProgramVariant;
}

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
  checkSchedule(s, "lower");
  if (s.p !== m.p)
    throw fail("lower", "MISMATCH", `the schedule is for P = ${s.p}, the matrix has P = ${m.p}`, { field: "p" });
  if (s.matrixDigest !== "") checkMadeFor(m, s, "the schedule", "lower");
  const variant = opts.variant ?? "nonblocking";
  if (variant !== "nonblocking" && variant !== "blocking")
    throw fail("lower", "BAD_OPTION", `variant must be nonblocking or blocking, got ${String(variant)}`, {
      field: "variant",
    });
  const { p } = m;
  const layout = bufferLayout(m, opts);
  const g = groupTransfers(s);
  let msgs, scratchSize: Float64Array, scratchPeak: Float64Array;
  if (s.chunks === null) {
    msgs = directMessages(layout, p, s, g);
    scratchSize = new Float64Array(p);
    scratchPeak = new Float64Array(p);
  } else {
    ({ msgs, scratchSize, scratchPeak } = payloadMessages(p, s, g, layout));
  }
  const rounds = s.stepCount > 0 ? s.stepCount : msgs.n > 0 ? 1 : 0;
  const e = emitOps(msgs, p, rounds, variant, layout);
  const program: Program = {
    p,
    algorithm: s.algorithm,
    params: s.params,
    seed: s.seed,
    elementBytes: s.elementBytes,
    matrixDigest: s.matrixDigest,
    variant,
    rounds,
    layout: { ...layout, scratchSize },
    rankStart: e.rankStart,
    ops: e.ops,
    pieces: e.pieces,
  };
  return { program, scratchPeak, maxClasses: e.maxClasses };
}
