/**
 * SimGrid time-independent traces of a lowered program: one action file per rank (init, rounds of irecv / isend /
 * compute / waitall, or send / recv in program order, or a dataflow program without dependencies as one round,
 * finalize) and the index.
 */
import type { Program } from "../model/program.js";
import { fail } from "../model/errors.js";
import { operationBytes } from "./exact-number.js";
import { checkProgramArg } from "../model/program-check.js";
import { checkOptionsObject } from "../model/option-checks.js";

/** One file of a multi-file export: its name inside the output directory and its text, in pieces. */
export interface ExportedFile {
  readonly name: string;
  pieces(): Iterable<string>;
}

/** Options of the SimGrid trace writer. */
export interface SimgridTraceOptions {
  /**
   * Flops charged per copied byte (a `compute` action after the round's posts, so it overlaps the
   * round's messages); 0 writes copies as nothing. With the platform's host speed s (flops/us) and
   * the machine's t_m (us/byte) this is t_m * s.
   */
  readonly computeFlopsPerByte?: number;
}

/** The trace file name of rank r (relative: smpirun resolves the index's names from its working directory). */
export function simgridRankFileName(r: number): string {
  return `rank-${r}.txt`;
}

/** The name of the index file that lists the rank files, one per line. */
export const SIMGRID_INDEX = "index.txt";

const OP_SEND = 0,
  OP_RECV = 1;

/** Lines of rank r's trace, in pieces of about 64 KiB. */
export function* simgridRankTrace(
  prog: Program,
  r: number,
  opts: SimgridTraceOptions = {},
): Generator<string, void, undefined> {
  const { ops, rankStart } = prog;
  const eb = prog.elementBytes;
  const flopsPerByte = opts.computeFlopsPerByte ?? 0;
  const blocking = prog.variant === "blocking";
  let out = `${r} init\n`;
  const compute = (x: number): string => `${r} compute ${num(ops.count[x]! * eb * flopsPerByte)}\n`;
  const end = rankStart[r + 1]!;
  let x = rankStart[r]!;
  // a dataflow program without dependencies (checkSimgridVariant) is one round: everything posted, one waitall
  const flat = prog.variant === "dataflow";
  while (x < end) {
    const round = ops.round[x]!;
    let y = x;
    while (y < end && (flat || ops.round[y] === round)) y++;
    if (blocking) {
      for (let z = x; z < y; z++) {
        const k = ops.kind[z]!;
        if (k === OP_SEND) out += `${r} send ${ops.peer[z]} ${ops.tag[z]} ${operationBytes(prog, z)}\n`;
        else if (k === OP_RECV) out += `${r} recv ${ops.peer[z]} ${ops.tag[z]} ${operationBytes(prog, z)}\n`;
        else if (flopsPerByte > 0) out += compute(z);
      }
    } else {
      // Receives first (a posted receive never delays a send), then sends, then local copies
      // (compute overlaps the messages in flight), then one waitall closes the round. A dataflow program (flat) keeps
      // its sends and copies in program order after the receives, as the executor's dataflow loop posts a program
      // without dependencies (every receive, then the other operations in the order they became ready: a copy is
      // done before the sends after it) and as `simulate --program` replays it.
      let posted = 0;
      for (let z = x; z < y; z++) {
        if (ops.kind[z] !== OP_RECV) continue;
        out += `${r} irecv ${ops.peer[z]} ${ops.tag[z]} ${operationBytes(prog, z)}\n`;
        posted++;
      }
      for (let z = x; z < y; z++) {
        const k = ops.kind[z]!;
        if (k === OP_SEND) {
          out += `${r} isend ${ops.peer[z]} ${ops.tag[z]} ${operationBytes(prog, z)}\n`;
          posted++;
        } else if (flat && k !== OP_RECV && flopsPerByte > 0) out += compute(z);
      }
      if (!flat && flopsPerByte > 0)
        for (let z = x; z < y; z++) if (ops.kind[z] !== OP_SEND && ops.kind[z] !== OP_RECV) out += compute(z);
      if (posted > 0) out += `${r} waitall\n`;
    }
    if (out.length >= 1 << 16) {
      yield out;
      out = "";
    }
    x = y;
  }
  yield out + `${r} finalize\n`;
}

/** A number as SimGrid reads it (no exponent for integers below 2^53, up to 12 significant digits otherwise). */
function num(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(12)));
}

/** The index file: the rank files in rank order, one per line. */
export function simgridIndex(p: number): string {
  let s = "";
  for (let r = 0; r < p; r++) s += simgridRankFileName(r) + "\n";
  return s;
}

/**
 * Refuses a dataflow program with dependencies: SimGrid 3.32's trace replay runs each rank's actions in file order,
 * and its `wait` names one request (`wait <src> <dst> <tag>`; no waitany or waitsome), so an operation cannot be
 * posted when whichever of its rank's requests completes first; only a dataflow program without dependencies (a
 * direct plan: every operation posted at once, one waitall) is expressed exactly.
 */
export function checkSimgridVariant(prog: Program): void {
  if (prog.variant !== "dataflow" || prog.after === undefined || prog.after.op.length === 0) return;
  throw fail(
    "export",
    "UNSUPPORTED",
    `simgrid: the dataflow program of ${prog.algorithm} has ${prog.after.op.length} dependencies, which SimGrid's trace replay cannot express (actions run in file order, a wait names one request): run it with the executor under smpirun (runtimes/executor, docs/runtimes.md), or export the nonblocking variant`,
    { field: "variant" },
  );
}

/**
 * The largest message SimGrid's trace replay reads right: SimGrid 3.32 (`smpi_replay.cpp`) passes an action's size to
 * MPI_Isend / MPI_Send as an int count of MPI_BYTE, so 2^31 bytes replays as a wrapped size (measured: a 2^31-byte
 * message took 7.9e11 s, a 2^32-byte one the time of an empty message).
 */
export const SIMGRID_MAX_MESSAGE_BYTES = 2 ** 31 - 1;

/** Refuses a program with a message past SIMGRID_MAX_MESSAGE_BYTES (checked before any file is written). */
export function checkSimgridMessageSizes(prog: Program): void {
  const { ops } = prog;
  const limit = SIMGRID_MAX_MESSAGE_BYTES / prog.elementBytes;
  for (let x = 0; x < ops.count.length; x++) {
    if (ops.count[x]! <= limit || (ops.kind[x] !== OP_SEND && ops.kind[x] !== OP_RECV)) continue;
    throw fail(
      "export",
      "UNSUPPORTED",
      `simgrid: the ${ops.kind[x] === OP_SEND ? "send" : "receive"} of rank ${ops.rank[x]} (peer ${ops.peer[x]}, round ${ops.round[x]}) is ${ops.count[x]! * prog.elementBytes} bytes, past the ${SIMGRID_MAX_MESSAGE_BYTES} (2^31 - 1) SimGrid's trace replay reads (an int count: a larger size wraps and replays wrong): plan smaller messages (e.g. split-coloring with its chunk parameter) or use another format`,
      { field: "matrix" },
    );
  }
}

/**
 * Every trace file of the program (rank files, then the index); refuses what checkSimgridVariant and
 * checkSimgridMessageSizes refuse.
 */
export function simgridTraceFiles(prog: Program, opts: SimgridTraceOptions = {}): ExportedFile[] {
  checkProgramArg("export", prog, "simgridTraceFiles");
  checkOptionsObject("export", "options", opts);
  checkSimgridVariant(prog);
  checkSimgridMessageSizes(prog);
  const files: ExportedFile[] = [];
  for (let r = 0; r < prog.p; r++)
    files.push({ name: simgridRankFileName(r), pieces: () => simgridRankTrace(prog, r, opts) });
  files.push({ name: SIMGRID_INDEX, pieces: () => [simgridIndex(prog.p)] });
  return files;
}
