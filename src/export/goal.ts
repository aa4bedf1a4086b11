/**
 * GOAL text (LogGOPSim / Schedgen) of a lowered program: per rank its sends, receives and copies, chained with
 * `requires` so the simulation follows the rounds (a dataflow program: its own dependencies).
 */
import type { Program } from "../model/program.js";
import { AsciiWriter, pieceText } from "../internal/ascii-writer.js";
import { numberOpt } from "./options.js";
import { operationBytes } from "./exact-number.js";
import { fail } from "../model/errors.js";
import { checkProgress, progressTicker, type ProgressCallback } from "../model/progress.js";
import { checkProgramArg } from "../model/program-check.js";
import { checkOptionsObject } from "../model/option-checks.js";

/** Options of the GOAL writer. */
export interface GoalOptions {
  /**
   * Time units (picoseconds, docs/runtimes.md) charged per copied byte as `calc`; 0 (default) writes copies as `calc
   * 0`.
   */
  readonly calcPerByte?: number;
  /** Called as the ranks are written: `done` of `total` ranks. */
  readonly progress?: ProgressCallback | null;
}

const OP_SEND = 0,
  OP_RECV = 1;
/**
 * Characters that end a GOAL comment line or that a text reader may take for one: C0 controls, DEL, U+0085, U+2028,
 * U+2029.
 */
/* eslint-disable no-control-regex -- control characters are what this pattern finds */
const NOT_COMMENT = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/g;
/* eslint-enable no-control-regex */

/**
 * Text for a GOAL `//` comment: a line break or other control character written as the text \uXXXX (\n, \r, \t as
 * such).
 */
export function goalCommentText(s: string): string {
  return s.replace(NOT_COMMENT, (c) =>
    c === "\n"
      ? "\\n"
      : c === "\r"
        ? "\\r"
        : c === "\t"
          ? "\\t"
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A calc time of operation x, refused past 2^53 - 1 picoseconds (written in digits, as GOAL reads it, it would not be
 * exact).
 */
function goalCalc(prog: Program, x: number, ps: number): number {
  if (ps <= Number.MAX_SAFE_INTEGER) return ps;
  const field = `the calc of the copy of rank ${prog.ops.rank[x]} (round ${prog.ops.round[x]})`;
  throw fail(
    "export",
    "BAD_INPUT",
    `${field}: ${prog.ops.count[x]} elements at ${prog.elementBytes} bytes each take more than 2^53 - 1 picoseconds, which GOAL cannot write exactly`,
    { field },
  );
}

/** Target size of the pieces (bytes). */
const PIECE = 1 << 20;

/**
 * The GOAL text, in pieces. Labels are l1, l2, ... per rank (LogGOPSim scopes labels to a rank).
 * Nonblocking programs: every operation of round k `requires` the join point of the rank's previous
 * round, and the join point of round k is a `calc 0` that `requires` each operation of the round
 * (or the round's only operation): O(operations) dependencies. Blocking programs: each operation
 * `requires` the one before it in program order. Dataflow programs: each operation `requires` the
 * operations it waits for, and nothing else. Comments only on lines of their own. The header
 * is a string, the ranks Buffers of ASCII (about 1 MiB each).
 */
export function* goalChunks(prog: Program, opts: GoalOptions = {}): Generator<string | Uint8Array, void, undefined> {
  const { ops, rankStart, after } = prog;
  const eb = prog.elementBytes;
  const calcPerByte = numberOpt("export", "calcPerByte", opts.calcPerByte, 0, { min: 0, max: 1e9 });
  const blocking = prog.variant === "blocking";
  const tick = progressTicker(checkProgress(opts.progress, "export"), prog.p);
  yield (
    `// commplan ${goalCommentText(prog.algorithm)}, P = ${prog.p}, ${prog.variant}, ${prog.rounds} rounds; sizes in bytes (${eb} per element), calc in picoseconds\n` +
    `num_ranks ${prog.p}\n`
  );
  const w = new AsciiWriter(PIECE + 4096);
  const label = (l: number): void => {
    w.char(0x6c); // l
    w.num(l);
  };
  const requires = (a: number, b: number): void => {
    label(a);
    w.text(" requires ");
    label(b);
    w.char(0x0a);
  };
  const line = (x: number, l: number): void => {
    const k = ops.kind[x]!;
    const bytes = operationBytes(prog, x);
    label(l);
    if (k === OP_SEND || k === OP_RECV) {
      w.text(k === OP_SEND ? ": send " : ": recv ");
      w.num(bytes);
      w.text(k === OP_SEND ? "b to " : "b from ");
      w.num(ops.peer[x]!);
      w.text(" tag ");
      w.num(ops.tag[x]!);
    } else {
      w.text(": calc ");
      w.num(goalCalc(prog, x, Math.round(bytes * calcPerByte)));
    }
    w.char(0x0a);
  };
  for (let r = 0; r < prog.p; r++) {
    tick(r);
    w.text("rank ");
    w.num(r);
    w.text(" {\n");
    let next = 1;
    let prev = 0; // label of the previous join (nonblocking) or operation (blocking); 0: none
    const end = rankStart[r + 1]!;
    let x = rankStart[r]!;
    // a rank with no operation gets one `calc 0`: LogGOPSim (spcl/LogGOPSim 76451de) crashed on an empty rank block
    if (x === end) w.text("l1: calc 0\n");
    if (after !== undefined) {
      // dataflow: operation x is label x - x0 + 1 and requires exactly the operations it waits for
      const x0 = x;
      for (; x < end; x++) {
        line(x, x - x0 + 1);
        for (let k = after.start[x]!; k < after.start[x + 1]!; k++) requires(x - x0 + 1, after.op[k]! - x0 + 1);
        if (w.length >= PIECE) yield w.take();
      }
    }
    while (x < end) {
      const round = ops.round[x]!;
      let y = x;
      while (y < end && ops.round[y] === round) y++;
      const first = next;
      for (let z = x; z < y; z++) {
        const l = next++;
        line(z, l);
        if (prev !== 0) requires(l, prev);
        if (blocking) prev = l;
      }
      if (!blocking) {
        if (y - x === 1) prev = first;
        else {
          const join = next++;
          label(join);
          w.text(": calc 0\n");
          for (let l = first; l < join; l++) requires(join, l);
          prev = join;
        }
      }
      if (w.length >= PIECE) yield w.take();
      x = y;
    }
    w.text("}\n");
  }
  yield w.take();
  tick(Infinity);
}

/** The GOAL text, in pieces (strings; see goalChunks). */
export function* goalPieces(prog: Program, opts: GoalOptions = {}): Generator<string, void, undefined> {
  checkProgramArg("export", prog, "goalPieces");
  checkOptionsObject("export", "options", opts);
  for (const piece of goalChunks(prog, opts)) yield pieceText(piece);
}

/** The GOAL text as one string. */
export function goalText(prog: Program, opts: GoalOptions = {}): string {
  checkProgramArg("export", prog, "goalText");
  checkOptionsObject("export", "options", opts);
  let s = "";
  for (const piece of goalPieces(prog, opts)) s += piece;
  return s;
}
