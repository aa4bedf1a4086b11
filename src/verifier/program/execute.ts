/**
 * Program execution on tagged elements: delivery to the receive displacements, reads of written slots only, every
 * message moved once, scratch safety, and (nonblocking) buffer races within a round.
 */
import type { CommMatrix } from "../../model/matrix.js";
import { slotOf } from "../../model/layout-slots.js";
import { BUFFER_NAMES, type Program } from "../../model/program.js";
import { check, type Check } from "../report.js";
import {
  denseRounds,
  describeElement,
  describeOp,
  describeOpAt,
  EMPTY,
  PROGRAM_SOURCE,
  type ElementCodes,
} from "./describe.js";
import type { RendezvousRun } from "./rendezvous.js";

/** The checks an execution decides. */
export interface ExecutionChecks {
  readonly delivery: Check;
  readonly reads: Check;
  readonly once: Check;
  readonly scratch: Check;
  /** Nonblocking programs only (dataflow programs have checkDataflowOrder). */
  readonly races: Check | null;
}

const PENDING = 0x7fffffff;
/** The holder of an element a send has read and its receive has not yet written. */
const IN_FLIGHT = -1;

/**
 * Executes the program on buffers of element codes (one Float64 per slot, plus three Int32 stamps;
 * memory O(slots + the largest round's sends)). Nonblocking: round by round; within a round each
 * rank handles its operations in program order: a copy takes effect when reached, a send reads its
 * pieces when posted, a receive writes its pieces when the round completes (after every rank has
 * posted). Blocking and dataflow: in the completion order of the run (a send is read and its
 * receive written at the rendezvous). Unmatched operations move nothing.
 */
export function executeProgram(
  m: CommMatrix,
  prog: Program,
  codes: ElementCodes,
  partner: Int32Array,
  run: RendezvousRun,
): ExecutionChecks {
  const { ops } = prog;
  const n = ops.rank.length,
    blocking = prog.variant !== "nonblocking";
  const ex = startExecution(m, prog, codes, blocking);
  let maxOp = 0;
  for (let x = 0; x < n; x++) maxOp = Math.max(maxOp, ops.count[x]!);
  const tmp = new Float64Array(maxOp);
  if (blocking) runBlocking(ex, prog, partner, run, tmp);
  else runNonblocking(ex, prog, partner, tmp);

  const { found } = ex;
  const { wrong, witness } = scanReceiveBuffers(m, prog, codes, ex.base, ex.content);
  const deliveryWitness =
    witness !== null && blocking && run.stuck > 0
      ? `${witness} (the ${prog.variant} execution stopped at a deadlock)`
      : witness;
  const delivery = check(
    "program-delivery",
    "executed on tagged elements, every rank's receive buffer holds element (o, d, x) at recvDispls[d][o] + x",
    PROGRAM_SOURCE,
    wrong === 0,
    wrong,
    0,
    deliveryWitness,
  );
  const reads = check(
    "program-reads",
    "every slot a send or a copy reads holds an element: its own send block, or one an earlier operation wrote",
    PROGRAM_SOURCE,
    found.unread === 0,
    found.unread,
    0,
    found.unreadWitness,
  );
  const once = check(
    "program-once",
    "every element is sent only by the rank that holds it and written into its receive slot once: the program moves the plan's messages, each once",
    PROGRAM_SOURCE,
    found.twice === 0,
    found.twice,
    0,
    found.twiceWitness,
  );
  const scratch = check(
    "program-scratch",
    "no scratch slot is overwritten while its element is still to be sent on",
    PROGRAM_SOURCE,
    found.unsafe === 0,
    found.unsafe,
    0,
    found.unsafeWitness,
  );
  const raceCheck = blocking
    ? null
    : check(
        "program-races",
        "nonblocking rounds: no slot a posted receive writes is touched, and no slot a posted send reads is written, by another operation of the round",
        PROGRAM_SOURCE,
        found.races === 0,
        found.races,
        0,
        found.raceWitness,
      );
  return { delivery, reads, once, scratch, races: raceCheck };
}

/**
 * What an execution has found so far: scratch slots overwritten too early, nonblocking races; each with its first
 * witness.
 */
interface Findings {
  unread: number;
  unreadWitness: string | null;
  twice: number;
  twiceWitness: string | null;
  unsafe: number;
  unsafeWitness: string | null;
  races: number;
  raceWitness: string | null;
}

/** The buffers of one execution, its findings, and the moves on them. */
interface Execution {
  /** base[3r + b]: where rank r's buffer b starts (see `initialBuffers`). */
  readonly base: Float64Array;
  /** The element code in every slot. */
  readonly content: Float64Array;
  readonly found: Findings;
  /**
   * Reads the pieces [from, to) of op x into out[at..], noting slots that hold no element; scratch slots read become
   * free from `freeAt`.
   */
  readonly gather: (x: number, from: number, to: number, out: Float64Array, at: number, freeAt: number) => void;
  /** Send x's elements out[at..at + count) leave its rank: each must be held there (else it is sent twice). */
  readonly depart: (x: number, out: Float64Array, at: number) => void;
  /** Receive y's elements src[at..at + count) arrive: its rank holds them. */
  readonly arrive: (y: number, src: Float64Array, at: number) => void;
  /**
   * Writes src[at..] into the pieces [from, to) of op x at round `now`, noting overwritten scratch elements and receive
   * slots written again while their element is still at the rank.
   */
  readonly scatter: (x: number, from: number, to: number, src: Float64Array, at: number, now: number) => void;
  /** Stamps (or checks) the slots of pieces [from, to) of op x for nonblocking races in round k (nonblocking only). */
  readonly stamp: (
    x: number,
    from: number,
    to: number,
    k: number,
    reads: boolean,
    writes: boolean,
    post: "send" | "recv" | "copy",
  ) => void;
}

/** The initial buffers of an execution (every send buffer filled) with its gather, scatter and stamp moves. */
function startExecution(m: CommMatrix, prog: Program, codes: ElementCodes, blocking: boolean): Execution {
  const { ops, pieces } = prog;
  const { base, content } = initialBuffers(m, prog, codes);
  const freeFrom = new Int32Array(content.length);
  const readStamp = blocking ? null : new Int32Array(content.length),
    writeStamp = blocking ? null : new Int32Array(content.length);
  const found: Findings = {
    unread: 0,
    unreadWitness: null,
    twice: 0,
    twiceWitness: null,
    unsafe: 0,
    unsafeWitness: null,
    races: 0,
    raceWitness: null,
  };
  const holder = initialHolders(m, codes);
  const race = (x: number, k: number, i: number, what: string): void => {
    found.races++;
    found.raceWitness ??= `${describeOp(prog, x)} touches ${BUFFER_NAMES[pieces.buffer[k]!]}[${pieces.offset[k]! + i}], which ${what}`;
  };
  const gather: Execution["gather"] = (x, from, to, out, at, freeAt) => {
    const b0 = 3 * ops.rank[x]!;
    for (let k = from; k < to; k++) {
      const s0 = base[b0 + pieces.buffer[k]!]! + pieces.offset[k]!,
        c = pieces.count[k]!,
        scratch = pieces.buffer[k] === 2;
      for (let i = 0; i < c; i++) {
        const v = content[s0 + i]!;
        out[at++] = v;
        if (v === EMPTY) {
          found.unread++;
          found.unreadWitness ??= `${describeOpAt(prog, x)} reads ${BUFFER_NAMES[pieces.buffer[k]!]}[${pieces.offset[k]! + i}], which holds no element: no earlier operation wrote one there`;
        }
        if (scratch) freeFrom[s0 + i] = freeAt;
      }
    }
  };
  const depart: Execution["depart"] = (x, out, at) => {
    const r = ops.rank[x]!,
      end = at + ops.count[x]!;
    for (let i = at; i < end; i++) {
      const v = out[i]!;
      if (v === EMPTY) continue;
      if (holder[v] !== r) {
        found.twice++;
        found.twiceWitness ??= `${describeOpAt(prog, x)} sends ${describeElement(codes, v)} (element ${i - at} of the message), which rank ${r} has already sent on: it moves twice`;
      }
      holder[v] = IN_FLIGHT;
    }
  };
  const arrive: Execution["arrive"] = (y, src, at) => {
    const r = ops.rank[y]!,
      end = at + ops.count[y]!;
    for (let i = at; i < end; i++) if (src[i] !== EMPTY) holder[src[i]!] = r;
  };
  const scatter: Execution["scatter"] = (x, from, to, src, at, now) => {
    const r = ops.rank[x]!,
      b0 = 3 * r;
    for (let k = from; k < to; k++) {
      const s0 = base[b0 + pieces.buffer[k]!]! + pieces.offset[k]!,
        c = pieces.count[k]!,
        scratch = pieces.buffer[k] === 2;
      for (let i = 0; i < c; i++) {
        const v = src[at++]!,
          s = s0 + i;
        if (pieces.buffer[k] === 1 && content[s] !== EMPTY && holder[content[s]!] === r) {
          found.twice++;
          found.twiceWitness ??= `${describeOpAt(prog, x)} writes ${describeElement(codes, v)} into recv[${pieces.offset[k]! + i}], which already holds ${describeElement(codes, content[s]!)}, not sent on: a receive slot written twice`;
        }
        if (scratch) {
          const old = content[s]!;
          if (freeFrom[s]! > now && old !== EMPTY && old !== v) {
            found.unsafe++;
            found.unsafeWitness ??= `${describeOp(prog, x)} writes ${describeElement(codes, v)} into scratch[${pieces.offset[k]! + i}], which still holds ${describeElement(codes, old)}, not yet sent on`;
          }
          freeFrom[s] = v === EMPTY ? 0 : PENDING;
        }
        content[s] = v;
      }
    }
  };
  const stamp: Execution["stamp"] = (x, from, to, k, reads, writes, post) => {
    const b0 = 3 * ops.rank[x]!,
      mark = k + 1;
    for (let q = from; q < to; q++) {
      const s0 = base[b0 + pieces.buffer[q]!]! + pieces.offset[q]!,
        c = pieces.count[q]!;
      for (let i = 0; i < c; i++) {
        const s = s0 + i;
        if (writeStamp![s] === mark) race(x, q, i, "a receive posted earlier in the same round writes");
        else if (writes && readStamp![s] === mark) race(x, q, i, "a send posted earlier in the same round reads");
        if (post === "send" && reads) readStamp![s] = mark;
        if (post === "recv" && writes) writeStamp![s] = mark;
      }
    }
  };
  return { base, content, found, gather, depart, arrive, scatter, stamp };
}

/**
 * Blocking: every operation in the completion order of the rendezvous run (a send is read and its receive written at
 * the rendezvous).
 */
function runBlocking(ex: Execution, prog: Program, partner: Int32Array, run: RendezvousRun, tmp: Float64Array): void {
  const { ops } = prog;
  const { gather, depart, arrive, scatter } = ex;
  for (const x of run.order) {
    const ps = ops.pieceStart[x]!,
      pe = ops.pieceStart[x + 1]!;
    if (ops.kind[x] === 2) {
      const split = ps + ops.copySplit[x]!;
      gather(x, ps, split, tmp, 0, 0);
      scatter(x, split, pe, tmp, 0, 0);
    } else {
      const y = partner[x]!;
      gather(x, ps, pe, tmp, 0, 0);
      depart(x, tmp, 0);
      scatter(y, ops.pieceStart[y]!, ops.pieceStart[y + 1]!, tmp, 0, 0);
      arrive(y, tmp, 0);
    }
  }
}

/**
 * Nonblocking: round by round (the rounds the operations use, in order), each rank's operations in
 * program order, ranks in order; receives written when the round completes. The operations are
 * bucketed by round with a stable counting sort (they are sorted by rank, then program order), so
 * the work is O(n + pieces), whatever P and the number of rounds.
 */
function runNonblocking(ex: Execution, prog: Program, partner: Int32Array, tmp: Float64Array): void {
  const { ops } = prog;
  const n = ops.rank.length;
  const { gather, depart, arrive, scatter, stamp } = ex;
  const { idx, count } = denseRounds(ops.round);
  const start = new Uint32Array(count + 1),
    roundSends = new Float64Array(count);
  for (let x = 0; x < n; x++) {
    start[idx[x]! + 1]!++;
    if (ops.kind[x] === 0) roundSends[idx[x]!] = roundSends[idx[x]!]! + ops.count[x]!;
  }
  for (let k = 0; k < count; k++) start[k + 1] = start[k + 1]! + start[k]!;
  const byRound = new Uint32Array(n),
    fill = start.slice(0, count);
  for (let x = 0; x < n; x++) byRound[fill[idx[x]!]!++] = x;
  let most = 0;
  for (let k = 0; k < count; k++) most = Math.max(most, roundSends[k]!);
  const stage = new Float64Array(most);
  const stageAt = new Float64Array(n);
  for (let k = 0; k < count; k++) {
    let at = 0;
    for (let q = start[k]!; q < start[k + 1]!; q++) {
      const x = byRound[q]!;
      const ps = ops.pieceStart[x]!,
        pe = ops.pieceStart[x + 1]!;
      if (ops.kind[x] === 0) {
        stamp(x, ps, pe, k, true, false, "send");
        stageAt[x] = at;
        gather(x, ps, pe, stage, at, k + 1);
        depart(x, stage, at);
        at += ops.count[x]!;
      } else if (ops.kind[x] === 1) {
        stamp(x, ps, pe, k, false, true, "recv");
      } else {
        const split = ps + ops.copySplit[x]!;
        stamp(x, ps, split, k, true, false, "copy");
        stamp(x, split, pe, k, false, true, "copy");
        gather(x, ps, split, tmp, 0, k);
        scatter(x, split, pe, tmp, 0, k);
      }
    }
    for (let q = start[k]!; q < start[k + 1]!; q++) {
      const x = byRound[q]!,
        y = partner[x]!;
      if (ops.kind[x] !== 1 || y < 0) continue;
      scatter(x, ops.pieceStart[x]!, ops.pieceStart[x + 1]!, stage, stageAt[y]!, k);
      arrive(x, stage, stageAt[y]!);
    }
  }
}

/** Every element's holder at the start: its origin rank (indexed by element code). */
function initialHolders(m: CommMatrix, codes: ElementCodes): Int32Array {
  const holder = new Int32Array(codes.total);
  const { colStart, row, val } = codes.cols;
  for (let d = 0; d < m.p; d++) {
    for (let k = colStart[d]!; k < colStart[d + 1]!; k++) {
      const g = codes.prefix[k]!;
      holder.fill(row[k]!, g, g + val[k]!);
    }
  }
  return holder;
}

/**
 * Slot bases (base[3r + b]: where rank r's buffer b starts; base[3P]: all slots) and the initial contents: every send
 * buffer filled, the rest EMPTY.
 */
function initialBuffers(
  m: CommMatrix,
  prog: Program,
  codes: ElementCodes,
): { base: Float64Array; content: Float64Array } {
  const { p } = m;
  const { layout } = prog;
  const base = new Float64Array(3 * p + 1);
  for (let r = 0; r < p; r++) {
    base[3 * r + 1] = base[3 * r]! + layout.sendSize[r]!;
    base[3 * r + 2] = base[3 * r + 1]! + layout.recvSize[r]!;
    base[3 * r + 3] = base[3 * r + 2]! + layout.scratchSize[r]!;
  }
  const content = new Float64Array(base[3 * p]!).fill(EMPTY);
  const { colStart, row, val } = codes.cols;
  for (let d = 0; d < p; d++) {
    for (let k = colStart[d]!; k < colStart[d + 1]!; k++) {
      const o = row[k]!,
        c = val[k]!,
        at = base[3 * o]! + layout.sendDispls[slotOf(layout.sendPeers, p, o, d)]!,
        g = codes.prefix[k]!;
      for (let x = 0; x < c; x++) content[at + x] = g + x;
    }
  }
  return { base, content };
}

/**
 * Counts receive-buffer slots that do not hold their element (o, d, x) at recvDispls[d][o] + x; the witness names the
 * first.
 */
function scanReceiveBuffers(
  m: CommMatrix,
  prog: Program,
  codes: ElementCodes,
  base: Float64Array,
  content: Float64Array,
): { wrong: number; witness: string | null } {
  const { p } = m;
  const { recvDispls, recvPeers } = prog.layout;
  const { colStart, row, val } = codes.cols;
  let wrong = 0,
    witness: string | null = null;
  for (let d = 0; d < p; d++) {
    for (let k = colStart[d]!; k < colStart[d + 1]!; k++) {
      const o = row[k]!,
        c = val[k]!,
        displ = recvDispls[slotOf(recvPeers, p, d, o)]!,
        at = base[3 * d + 1]! + displ,
        g = codes.prefix[k]!;
      for (let x = 0; x < c; x++) {
        const v = content[at + x]!;
        if (v === g + x) continue;
        wrong++;
        witness ??= `rank ${d} recv[${displ + x}] holds ${describeElement(codes, v)}, expected (${o}, ${d}, ${x})`;
      }
    }
  }
  return { wrong, witness };
}
