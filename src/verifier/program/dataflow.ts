/**
 * Dataflow programs: the shape of their dependencies, a dataflow execution (every operation posted once the
 * operations it waits for are done), deadlock freedom, and whether the dependencies order every pair of operations
 * that touch a slot.
 */
import { BUFFER_NAMES, type Program } from "../../model/program.js";
import { check, type Check } from "../report.js";
import { describeOpAt, PROGRAM_SOURCE } from "./describe.js";
import type { RendezvousRun } from "./rendezvous.js";

/**
 * What is wrong with a program's `after` table, or null: present exactly for a dataflow program, offsets covering it,
 * and every dependency an earlier operation of the same rank, ascending.
 */
export function afterProblem(prog: Program): string | null {
  const after = prog.after;
  if (prog.variant !== "dataflow")
    return after === undefined ? null : `a ${prog.variant} program carries dependencies (after): only dataflow does`;
  if (typeof after !== "object" || after === null) return "a dataflow program needs its dependencies (after)";
  const { start, op } = after;
  if (!(start instanceof Uint32Array) || !(op instanceof Uint32Array))
    return "after.start and after.op must be Uint32Arrays";
  const { ops, rankStart } = prog;
  const n = ops.rank.length;
  if (start.length !== n + 1 || start[0] !== 0 || start[n] !== op.length)
    return `after.start must have ${n + 1} entries from 0 to after.op's ${op.length}`;
  for (let x = 0; x < n; x++) {
    const a = start[x]!,
      e = start[x + 1]!;
    if (a > e) return `after.start[${x}] > after.start[${x + 1}]`;
    const lo = rankStart[ops.rank[x]!]!;
    for (let k = a; k < e; k++) {
      const d = op[k]!;
      if (d >= x || d < lo)
        return `${describeOpAt(prog, x)} waits for operation ${d}, which is not an earlier operation of rank ${ops.rank[x]}`;
      if (k > a && d <= op[k - 1]!)
        return `${describeOpAt(prog, x)}: its dependencies are not ascending (operation ${d} after ${op[k - 1]})`;
    }
  }
  return null;
}

/**
 * Executes a dataflow program with rendezvous matching: an operation is posted once every operation it waits for has
 * completed; a copy completes when posted, a send and its receive when both are posted. A worklist over operations
 * (counts of dependencies still pending, and the reverse edges) makes it O(n + dependencies). When it stops early,
 * `waitingAt` holds each rank's first incomplete operation, and `chain` / `cycle` the ranks along the wait-for chain
 * from the first stuck one (a dependency not done, or a partner not posted).
 */
export function runDataflow(prog: Program, partner: Int32Array): RendezvousRun & { readonly opChain: number[] } {
  const { ops, rankStart } = prog;
  const after = prog.after!;
  const n = ops.rank.length,
    p = rankStart.length - 1;
  const pending = new Uint32Array(n),
    revStart = new Uint32Array(n + 1);
  for (let x = 0; x < n; x++) {
    pending[x] = after.start[x + 1]! - after.start[x]!;
    for (let k = after.start[x]!; k < after.start[x + 1]!; k++) revStart[after.op[k]! + 1]!++;
  }
  for (let x = 0; x < n; x++) revStart[x + 1] = revStart[x + 1]! + revStart[x]!;
  const rev = new Uint32Array(after.op.length),
    fill = revStart.slice(0, n);
  for (let x = 0; x < n; x++)
    for (let k = after.start[x]!; k < after.start[x + 1]!; k++) rev[fill[after.op[k]!]!++] = x;
  const posted = new Uint8Array(n),
    done = new Uint8Array(n),
    order = new Uint32Array(n);
  let emitted = 0;
  const work = new Uint32Array(n);
  let top = 0;
  for (let x = n - 1; x >= 0; x--) if (pending[x] === 0) work[top++] = x;
  const finish = (x: number): void => {
    done[x] = 1;
    for (let k = revStart[x]!; k < revStart[x + 1]!; k++) {
      const y = rev[k]!;
      if (--pending[y]! === 0) work[top++] = y;
    }
  };
  while (top > 0) {
    const x = work[--top]!;
    posted[x] = 1;
    if (ops.kind[x] === 2) {
      order[emitted++] = x;
      finish(x);
      continue;
    }
    const y = partner[x]!;
    if (y < 0 || !posted[y] || done[y]) continue;
    order[emitted++] = ops.kind[x] === 0 ? x : y;
    finish(x);
    finish(y);
  }
  const waitingAt = new Int32Array(p).fill(-1);
  let stuck = 0,
    first = -1;
  for (let r = 0; r < p; r++) {
    for (let x = rankStart[r]!; x < rankStart[r + 1]!; x++)
      if (!done[x]) {
        waitingAt[r] = x;
        stuck++;
        if (first < 0) first = x;
        break;
      }
  }
  // Wait-for chain from the first stuck operation: a dependency not done, else the partner (not posted).
  const opChain: number[] = [],
    chain: number[] = [],
    cycle: number[] = [];
  if (first >= 0) {
    const seen = new Map<number, number>();
    let x = first;
    while (x >= 0 && !seen.has(x)) {
      seen.set(x, opChain.length);
      opChain.push(x);
      let next = -1;
      for (let k = after.start[x]!; k < after.start[x + 1]!; k++)
        if (!done[after.op[k]!]) {
          next = after.op[k]!;
          break;
        }
      if (next < 0 && ops.kind[x] !== 2) next = partner[x]!;
      x = next;
    }
    if (x >= 0) {
      opChain.push(x);
      for (let k = seen.get(x)!; k < opChain.length; k++) cycle.push(ops.rank[opChain[k]!]!);
    }
    for (const y of opChain) if (chain[chain.length - 1] !== ops.rank[y]) chain.push(ops.rank[y]!);
  }
  return { order: order.subarray(0, emitted), stuck, waitingAt, cycle, chain, opChain };
}

/** Deadlock freedom of a dataflow program from its run; the witness names the operations waiting in a cycle. */
export function checkDataflowDeadlock(prog: Program, run: ReturnType<typeof runDataflow>): Check {
  let witness: string | null = null;
  if (run.stuck > 0) {
    const c = run.opChain;
    const last = c[c.length - 1]!;
    const closes = c.indexOf(last) < c.length - 1;
    const steps = c.slice(0, -1).map((x, i) => `${describeOpAt(prog, x)} waits for ${describeOpAt(prog, c[i + 1]!)}`);
    witness = closes
      ? `operations wait for each other in a cycle: ${steps.slice(c.indexOf(last)).join("; ")}`
      : `${steps.length > 0 ? `${steps.join("; ")}; ` : ""}${describeOpAt(prog, last)} waits forever: it has no matching operation`;
  }
  return check(
    "program-deadlock",
    "dataflow: every operation is posted and completes (each posted once those it waits for are done, rendezvous matching): dependencies and message matching form no cycle",
    PROGRAM_SOURCE,
    run.stuck === 0,
    run.stuck,
    0,
    witness,
  );
}

/**
 * Whether operation `a` precedes operation `b` of the same rank through their dependencies (a chain of `after`
 * entries from b down to a): the direct dependencies first, then a search that visits only operations >= a.
 */
class Precedes {
  private readonly mark: Uint32Array;
  private readonly stack: Uint32Array;
  private stampNo = 0;
  private lastA = -1;
  private lastB = -1;
  private lastAnswer = false;

  constructor(private readonly prog: Program) {
    const n = prog.ops.rank.length;
    this.mark = new Uint32Array(n);
    this.stack = new Uint32Array(n);
  }

  /** True when a precedes b. */
  holds(a: number, b: number): boolean {
    if (a === this.lastA && b === this.lastB) return this.lastAnswer;
    this.lastA = a;
    this.lastB = b;
    this.lastAnswer = this.search(a, b);
    return this.lastAnswer;
  }

  private search(a: number, b: number): boolean {
    if (a >= b) return false;
    const { start, op } = this.prog.after!;
    for (let k = start[b]!; k < start[b + 1]!; k++) if (op[k] === a) return true;
    const stamp = ++this.stampNo;
    let top = 0;
    this.stack[top++] = b;
    this.mark[b] = stamp;
    while (top > 0) {
      const y = this.stack[--top]!;
      for (let k = start[y]!; k < start[y + 1]!; k++) {
        const d = op[k]!;
        if (d === a) return true;
        if (d < a || this.mark[d] === stamp) continue;
        this.mark[d] = stamp;
        this.stack[top++] = d;
      }
    }
    return false;
  }
}

/**
 * The dependencies suffice: per rank, taking its operations in program order, every read of a receive or scratch slot
 * comes after (through dependencies) the operation that last wrote it, every write after the operations that read the
 * slot since its last write (or, when none did, after its last writer); and two sends to one peer, or two receives
 * from one, with the same tag are ordered, so both ranks post them in program order and MPI matches them in that order.
 * Element by element (O(slots + elements moved)).
 */
export function checkDataflowOrder(prog: Program): Check {
  const { ops, pieces, rankStart, layout } = prog;
  const p = rankStart.length - 1;
  const before = new Precedes(prog);
  const base = new Float64Array(p + 1);
  for (let r = 0; r < p; r++) base[r + 1] = base[r]! + layout.recvSize[r]! + layout.scratchSize[r]!;
  const total = base[p]!;
  const lastWriter = new Int32Array(total).fill(-1),
    readHead = new Int32Array(total).fill(-1);
  let evOp = new Int32Array(1024),
    evNext = new Int32Array(1024),
    nEv = 0;
  let bad = 0,
    witness: string | null = null;
  const fault = (x: number, y: number, q: number, i: number, what: string): void => {
    bad++;
    witness ??= `${describeOpAt(prog, y)} ${what} ${BUFFER_NAMES[pieces.buffer[q]!]}[${pieces.offset[q]! + i}] without waiting for ${describeOpAt(prog, x)}`;
  };
  for (let r = 0; r < p; r++) {
    const x0 = rankStart[r]!,
      x1 = rankStart[r + 1]!;
    const lastOfKey = new Map<number, number>();
    for (let x = x0; x < x1; x++) {
      const k = ops.kind[x]!,
        q0 = ops.pieceStart[x]!,
        q1 = ops.pieceStart[x + 1]!,
        split = k === 2 ? q0 + ops.copySplit[x]! : k === 0 ? q1 : q0;
      if (k !== 2) {
        const key = (k * p + ops.peer[x]!) * 32768 + ops.tag[x]!;
        const prev = lastOfKey.get(key);
        if (prev !== undefined && !before.holds(prev, x)) {
          bad++;
          witness ??= `${describeOpAt(prog, x)} and ${describeOpAt(prog, prev)} have the same peer and tag but neither waits for the other: MPI may match them in either order`;
        }
        lastOfKey.set(key, x);
      }
      for (let pass = 0; pass < 2; pass++) {
        const reading = pass === 0;
        for (let q = reading ? q0 : split; q < (reading ? split : q1); q++) {
          if (pieces.buffer[q] === 0) continue;
          const s0 = base[r]! + pieces.offset[q]! + (pieces.buffer[q] === 2 ? layout.recvSize[r]! : 0),
            c = pieces.count[q]!;
          for (let i = 0; i < c; i++) {
            const s = s0 + i;
            const w = lastWriter[s]!;
            if (reading) {
              if (w >= 0 && !before.holds(w, x)) fault(w, x, q, i, "reads");
              if (nEv === evOp.length) {
                const o2 = new Int32Array(2 * nEv),
                  n2 = new Int32Array(2 * nEv);
                o2.set(evOp);
                n2.set(evNext);
                evOp = o2;
                evNext = n2;
              }
              evOp[nEv] = x;
              evNext[nEv] = readHead[s]!;
              readHead[s] = nEv++;
            } else {
              if (readHead[s]! >= 0) {
                for (let v = readHead[s]!; v >= 0; v = evNext[v]!)
                  if (evOp[v] !== x && !before.holds(evOp[v]!, x)) fault(evOp[v]!, x, q, i, "overwrites");
              } else if (w >= 0 && !before.holds(w, x)) fault(w, x, q, i, "overwrites");
              lastWriter[s] = x;
              readHead[s] = -1;
            }
          }
        }
      }
    }
  }
  return check(
    "program-dependencies",
    "dataflow: every read of a receive or scratch slot waits for the operation that wrote it, every write for the operations that read or wrote the slot before it, and messages with one peer and tag are posted in program order",
    PROGRAM_SOURCE,
    bad === 0,
    bad,
    0,
    witness,
  );
}
