/**
 * verifyProgram: the program checks (well-formed, matching, delivery by execution, reads of written slots, each message
 * moved once, scratch safety, races or, dataflow, sufficient dependencies, deadlock freedom) of a lowered schedule.
 */
import { fail } from "../../model/errors.js";
import { checkMadeFor, type CommMatrix } from "../../model/matrix.js";
import type { Program } from "../../model/program.js";
import { checkOptionKeys, checkOptionsObject } from "../../model/option-checks.js";
import { makeReport, type Check, type Report } from "../report.js";
import { elementCodes } from "./describe.js";
import { executeProgram } from "./execute.js";
import { matchOps } from "./matching.js";
import { checkProgramWellFormed } from "./program-well-formed.js";
import { checkDataflowDeadlock, checkDataflowOrder, runDataflow } from "./dataflow.js";
import { checkDeadlock, runRendezvous } from "./rendezvous.js";

/** Options of the program checks. */
export interface ProgramVerifyOptions {
  /**
   * The most buffer slots (send + receive + scratch elements over all ranks) the execution checks may allocate (default
   * 2^24, up to 24 bytes each).
   */
  readonly maxElements?: number;
}

/** The keys of ProgramVerifyOptions. */
const PROGRAM_VERIFY_OPTION_KEYS: readonly string[] = Object.freeze(["maxElements"]);

/** The default of `maxElements`. */
export const DEFAULT_MAX_PROGRAM_ELEMENTS = 2 ** 24;

/**
 * Checks a lowered program against its matrix, from the matrix and the program alone. Throws a
 * CommplanError when the program was made for another matrix (code MISMATCH) or its buffers hold
 * more than `maxElements` slots (code UNSUPPORTED), and a BAD_OPTION one for options that are not an object or hold an
 * unknown key; every other finding is a row of the report.
 * When `program-well-formed` fails, no other check runs.
 */
export function verifyProgram(m: CommMatrix, prog: Program, opts: ProgramVerifyOptions = {}): Report {
  checkOptionsObject("verify", "options", opts);
  checkOptionKeys("verify", opts, PROGRAM_VERIFY_OPTION_KEYS);
  const limit = opts.maxElements ?? DEFAULT_MAX_PROGRAM_ELEMENTS;
  if (!(Number.isInteger(limit) && limit >= 0))
    throw fail("verify", "BAD_OPTION", `maxElements must be a non-negative integer, got ${String(limit)}`, {
      field: "maxElements",
    });
  checkMadeFor(m, prog, "the program", "verify");

  const checks: Check[] = [];
  const wf = checkProgramWellFormed(m, prog);
  checks.push(wf);
  if (!wf.holds) return makeReport(prog.algorithm, prog.p, checks);
  let slots = 0;
  const { sendSize, recvSize, scratchSize } = prog.layout;
  for (let r = 0; r < m.p; r++) slots += sendSize[r]! + recvSize[r]! + scratchSize[r]!;
  if (slots > limit)
    throw fail(
      "verify",
      "UNSUPPORTED",
      `the program's buffers hold ${slots} elements, more than maxElements = ${limit} that its execution may allocate`,
      { field: "maxElements" },
    );

  const matching = matchOps(prog);
  checks.push(matching.check);
  if (prog.variant === "dataflow") {
    const run = runDataflow(prog, matching.partner);
    const executed = executeProgram(m, prog, elementCodes(m), matching.partner, run);
    checks.push(executed.delivery, executed.reads, executed.once, executed.scratch);
    checks.push(checkDataflowOrder(prog), checkDataflowDeadlock(prog, run));
    return makeReport(prog.algorithm, prog.p, checks);
  }
  const run = runRendezvous(prog, matching.partner);
  const executed = executeProgram(m, prog, elementCodes(m), matching.partner, run);
  checks.push(executed.delivery, executed.reads, executed.once, executed.scratch);
  if (executed.races) checks.push(executed.races);
  checks.push(checkDeadlock(prog, run));
  return makeReport(prog.algorithm, prog.p, checks);
}
