/** GOAL text (LogGOPSim / Schedgen) of a lowered program: per rank its sends, receives and copies, chained with `requires` so the simulation follows the rounds. */
import type { Program } from "../model/program.js";

/** Options of the GOAL writer. */
export interface GoalOptions {
  /** Time units (picoseconds, docs/runtimes.md) charged per copied byte as `calc`; 0 (default) writes copies as `calc 0`. */
  readonly calcPerByte?: number;
}

const OP_SEND = 0,
  OP_RECV = 1;

/**
 * The GOAL text, in pieces. Labels are l1, l2, ... per rank (LogGOPSim scopes labels to a rank).
 * Nonblocking programs: every operation of round k `requires` the join point of the rank's previous
 * round, and the join point of round k is a `calc 0` that `requires` each operation of the round
 * (or the round's only operation): O(operations) dependencies. Blocking programs: each operation
 * `requires` the one before it in program order. Comments only on lines of their own.
 */
export function* goalPieces(prog: Program, opts: GoalOptions = {}): Generator<string, void, undefined> {
  const { ops, rankStart } = prog;
  const eb = prog.elementBytes;
  const calcPerByte = opts.calcPerByte ?? 0;
  const blocking = prog.variant === "blocking";
  let out =
    `// commplan ${prog.algorithm}, P = ${prog.p}, ${prog.variant}, ${prog.rounds} rounds; sizes in bytes (${eb} per element), calc in picoseconds\n` +
    `num_ranks ${prog.p}\n`;
  const line = (x: number, label: number): string => {
    const k = ops.kind[x]!;
    const bytes = ops.count[x]! * eb;
    if (k === OP_SEND) return `l${label}: send ${bytes}b to ${ops.peer[x]} tag ${ops.tag[x]}\n`;
    if (k === OP_RECV) return `l${label}: recv ${bytes}b from ${ops.peer[x]} tag ${ops.tag[x]}\n`;
    return `l${label}: calc ${Math.round(bytes * calcPerByte)}\n`;
  };
  for (let r = 0; r < prog.p; r++) {
    out += `rank ${r} {\n`;
    let next = 1;
    let prev = 0; // label of the previous join (nonblocking) or operation (blocking); 0: none
    const end = rankStart[r + 1]!;
    let x = rankStart[r]!;
    while (x < end) {
      const round = ops.round[x]!;
      let y = x;
      while (y < end && ops.round[y] === round) y++;
      const first = next;
      for (let z = x; z < y; z++) {
        const label = next++;
        out += line(z, label);
        if (blocking) {
          if (prev !== 0) out += `l${label} requires l${prev}\n`;
          prev = label;
        } else if (prev !== 0) out += `l${label} requires l${prev}\n`;
      }
      if (!blocking) {
        if (y - x === 1) prev = first;
        else {
          const join = next++;
          out += `l${join}: calc 0\n`;
          for (let l = first; l < join; l++) out += `l${join} requires l${l}\n`;
          prev = join;
        }
      }
      if (out.length >= 1 << 16) {
        yield out;
        out = "";
      }
      x = y;
    }
    out += "}\n";
  }
  yield out;
}

/** The GOAL text as one string. */
export function goalText(prog: Program, opts: GoalOptions = {}): string {
  let s = "";
  for (const piece of goalPieces(prog, opts)) s += piece;
  return s;
}
