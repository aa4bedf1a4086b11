/**
 * Rendezvous execution of a program: which operations complete, in what order, and the cycle of waiting ranks when it
 * stops.
 */
import type { Program } from "../../model/program.js";
import { check, type Check } from "../report.js";
import { describeOp, PROGRAM_SOURCE } from "./describe.js";

/** The outcome of a rendezvous execution. */
export interface RendezvousRun {
  /** Completed operations in completion order: a copy, or the send of a completed send / receive pair. */
  readonly order: Uint32Array;
  /** Ranks that still have operations when no rank can move. */
  readonly stuck: number;
  /** The operation each rank waits at (-1: finished); for a nonblocking round, its first incomplete send or receive. */
  readonly waitingAt: Int32Array;
  /** The cycle of waiting ranks (first rank repeated at the end), empty when there is none. */
  readonly cycle: readonly number[];
  /**
   * The chain of waiting ranks followed from the first stuck rank (ends at the cycle's repeat or at an unmatched
   * operation).
   */
  readonly chain: readonly number[];
}

/**
 * Executes the program with rendezvous semantics. Blocking programs: each rank runs its operations
 * in program order; a copy completes at once, a send or receive when the peer is at its partner.
 * Nonblocking programs: a rank posts all operations of its current round at once (copies complete
 * at once), a send or receive completes when its partner is posted, and the rank moves to its next
 * round when every operation of the round has completed. Operations without a partner never
 * complete. A worklist of ranks that may move makes it O(n) for n operations.
 */
export function runRendezvous(prog: Program, partner: Int32Array): RendezvousRun {
  const { ops, rankStart } = prog;
  const p = rankStart.length - 1,
    n = ops.rank.length;
  const blocking = prog.variant === "blocking";
  const posted = new Uint8Array(n),
    done = new Uint8Array(n);
  const pc = new Uint32Array(p),
    roundEnd = new Uint32Array(p),
    pending = new Uint32Array(p),
    inRound = new Uint8Array(p);
  const order = new Uint32Array(n);
  let emitted = 0;
  const work = new Int32Array(p + n + 1);
  let top = 0;
  for (let r = p - 1; r >= 0; r--) {
    pc[r] = rankStart[r]!;
    work[top++] = r;
  }
  // Completes the pair (x, y), x being the op just posted; returns the peer rank.
  const complete = (x: number, y: number): number => {
    done[x] = done[y] = 1;
    order[emitted++] = ops.kind[x] === 0 ? x : y;
    return ops.rank[y]!;
  };
  while (top > 0) {
    const r = work[--top]!;
    const end = rankStart[r + 1]!;
    if (blocking) {
      while (pc[r]! < end) {
        const x = pc[r]!;
        if (ops.kind[x] === 2) {
          done[x] = 1;
          order[emitted++] = x;
          pc[r] = pc[r]! + 1;
          continue;
        }
        if (posted[x]) break; // already waiting here
        posted[x] = 1;
        const y = partner[x]!;
        if (y < 0 || !posted[y] || done[y]) break;
        const q = complete(x, y);
        pc[r] = pc[r]! + 1;
        if (q !== r) {
          pc[q] = pc[q]! + 1;
          work[top++] = q;
        }
      }
    } else {
      for (;;) {
        if (inRound[r]) {
          if (pending[r]! > 0) break;
          pc[r] = roundEnd[r]!;
          inRound[r] = 0;
        }
        const lo = pc[r]!;
        if (lo >= end) break;
        const round = ops.round[lo]!;
        let e = lo;
        while (e < end && ops.round[e] === round) e++;
        roundEnd[r] = e;
        inRound[r] = 1;
        for (let x = lo; x < e; x++) {
          if (ops.kind[x] === 2) {
            done[x] = 1;
            order[emitted++] = x;
            continue;
          }
          posted[x] = 1;
          const y = partner[x]!;
          if (y >= 0 && posted[y] && !done[y]) {
            const q = complete(x, y);
            pending[q] = pending[q]! - 1;
            if (q !== r && pending[q] === 0) work[top++] = q;
          } else pending[r] = pending[r]! + 1;
        }
      }
    }
  }
  const waitingAt = new Int32Array(p).fill(-1);
  let stuck = 0,
    first = -1;
  for (let r = 0; r < p; r++) {
    const end = rankStart[r + 1]!;
    let x = pc[r]!;
    if (!blocking && inRound[r]) while (x < roundEnd[r]! && done[x]) x++;
    if (x < end) {
      waitingAt[r] = x;
      stuck++;
      if (first < 0) first = r;
    }
  }
  const chain: number[] = [],
    cycle: number[] = [];
  if (first >= 0) {
    const seenAt = new Int32Array(p).fill(-1);
    let r = first;
    while (r >= 0 && seenAt[r]! < 0 && waitingAt[r]! >= 0) {
      seenAt[r] = chain.length;
      chain.push(r);
      const y = partner[waitingAt[r]!]!;
      r = y < 0 ? -1 : ops.rank[y]!;
    }
    if (r >= 0 && seenAt[r]! >= 0) {
      chain.push(r);
      for (let k = seenAt[r]!; k < chain.length; k++) cycle.push(chain[k]!);
    }
  }
  return { order: order.subarray(0, emitted), stuck, waitingAt, cycle, chain };
}

/**
 * The deadlock-freedom check from a rendezvous run: no rank left with operations; the witness names the cycle of
 * waiting ranks.
 */
export function checkDeadlock(prog: Program, run: RendezvousRun): Check {
  const title =
    prog.variant === "blocking"
      ? "blocking: every rank runs its operations to the end under rendezvous sends in program order"
      : "nonblocking: every round of every rank completes (operations posted per round, rendezvous matching)";
  let witness: string | null = null;
  if (run.stuck > 0) {
    const at = (r: number): string => describeOp(prog, run.waitingAt[r]!);
    if (run.cycle.length > 0) {
      const ranks = run.cycle.slice(0, -1);
      witness = `ranks ${run.cycle.join(" -> ")} wait for each other: ${ranks.map(at).join("; ")}`;
    } else {
      const last = run.chain[run.chain.length - 1]!;
      const via = run.chain.length > 1 ? `ranks ${run.chain.join(" -> ")} wait in a chain; ` : "";
      witness = `${via}${at(last)} waits forever: it has no matching operation`;
    }
  }
  return check("program-deadlock", title, PROGRAM_SOURCE, run.stuck === 0, run.stuck, 0, witness);
}
