/**
 * dataflowProgram: a nonblocking program's operations with the dependencies that replace its round barriers (reads
 * after the writes they read, writes after the reads and writes they overwrite, tag reuse in posting order).
 */
import type { AfterTable, Program } from "../model/program.js";
import { TAG_LIMIT } from "./tags.js";

const SEND = 0,
  COPY = 2;

/**
 * Grows a Uint32Array to hold at least `need` entries (doubling), keeping its first `used` entries.
 */
function grow(a: Uint32Array<ArrayBuffer>, used: number, need: number): Uint32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint32Array(Math.max(need, 2 * a.length));
  b.set(a.subarray(0, used));
  return b;
}

/**
 * The dependencies of a nonblocking program's operations, rank by rank. Within a round every operation is concurrent
 * (the lowering never lets two operations of a round touch a slot when one of them writes it), so an operation depends
 * only on operations of earlier rounds of its rank:
 *
 * - a send or a copy waits for the last operation that wrote the receive or scratch slots it reads (read after write);
 * - a receive or a copy waits for every operation that read the slots it writes since they were last written (write
 *   after read: a scratch slot is reused only once its previous contents have left), or, when none read them, for
 *   their last writer;
 * - past TAG_LIMIT rounds a tag repeats: a send (receive) waits for the previous send to (receive from) the same peer
 *   with the same tag, so both ranks post them in program order and MPI matches them in that order.
 *
 * Slots are tracked as the elementary segments between the pieces' boundaries (receive and scratch buffer in one
 * address space), so the work is O(pieces log pieces) per rank whatever the element counts. A rank that never reads its
 * receive or scratch buffer (every rank of a direct plan) has no dependencies: each of its receives writes its final
 * slots, once. Dependencies come out ascending and without repeats.
 */
export function dataflowAfter(prog: Program): AfterTable {
  const { ops, rankStart } = prog;
  const n = ops.kind.length,
    p = rankStart.length - 1;
  const start = new Uint32Array(n + 1);
  let out = new Uint32Array(Math.max(16, n >>> 2)),
    used = 0;
  const t = new SlotTracker(prog);
  const tagLast = prog.rounds > TAG_LIMIT ? new Map<number, number>() : null;
  for (let r = 0; r < p; r++) {
    const x0 = rankStart[r]!,
      x1 = rankStart[r + 1]!;
    tagLast?.clear();
    if (!t.begin(r) && tagLast === null) {
      for (let x = x0; x < x1; x++) start[x + 1] = used;
      continue;
    }
    for (let y0 = x0; y0 < x1;) {
      const round = ops.round[y0]!;
      let y1 = y0 + 1;
      while (y1 < x1 && ops.round[y1] === round) y1++;
      // Dependencies of the round's operations on earlier rounds, then the round's effects.
      for (let x = y0; x < y1; x++) {
        let nd = t.visit(x, false);
        if (tagLast !== null && ops.kind[x] !== COPY) {
          const key = (ops.peer[x]! * TAG_LIMIT + ops.tag[x]!) * 2 + ops.kind[x]!;
          const prev = tagLast.get(key);
          if (prev !== undefined) nd = t.push(nd, prev);
          tagLast.set(key, x);
        }
        const d = t.unique(nd);
        out = grow(out, used, used + d.length);
        out.set(d, used);
        used += d.length;
        start[x + 1] = used;
      }
      for (let x = y0; x < y1; x++) t.visit(x, true);
      y0 = y1;
    }
  }
  return { start, op: out.slice(0, used) };
}

/**
 * The receive and scratch slots of one rank at a time, as elementary segments between its pieces' boundaries (both
 * buffers in one address space): each segment's last writer and the operations that read it since (a linked list of
 * read events); and the dependency list being built.
 */
class SlotTracker {
  private bound = new Float64Array(64);
  private ns = 0;
  private lastWriter = new Int32Array(32);
  private readHead = new Int32Array(32);
  private evOp = new Uint32Array(64);
  private evNext = new Int32Array(64);
  private nEv = 0;
  private deps = new Uint32Array(64);
  private recvSize = 0;

  constructor(private readonly prog: Program) {}

  /** Starts rank r: its segments, all unwritten; false when the rank reads no receive or scratch slot. */
  begin(r: number): boolean {
    const { ops, pieces, rankStart } = this.prog;
    this.recvSize = this.prog.layout.recvSize[r]!;
    let nb = 0,
      reads = false;
    for (let x = rankStart[r]!; x < rankStart[r + 1]!; x++) {
      const q0 = ops.pieceStart[x]!,
        q1 = ops.pieceStart[x + 1]!,
        split = this.split(x);
      for (let q = q0; q < q1; q++) {
        if (pieces.buffer[q] === 0) continue;
        if (q < split) reads = true;
        if (nb + 2 > this.bound.length) {
          const b = new Float64Array(2 * this.bound.length);
          b.set(this.bound);
          this.bound = b;
        }
        const a = this.addr(q);
        this.bound[nb++] = a;
        this.bound[nb++] = a + pieces.count[q]!;
      }
    }
    if (!reads) return false;
    const sorted = this.bound.subarray(0, nb).sort();
    let ns = 0;
    for (let i = 0; i < nb; i++) if (i === 0 || sorted[i]! !== sorted[i - 1]!) sorted[ns++] = sorted[i]!;
    this.ns = ns;
    if (this.lastWriter.length < ns) {
      this.lastWriter = new Int32Array(2 * ns);
      this.readHead = new Int32Array(2 * ns);
    }
    this.lastWriter.fill(-1, 0, ns);
    this.readHead.fill(-1, 0, ns);
    this.nEv = 0;
    return true;
  }

  /** The first destination piece of operation x (its pieces before it are read, those from it on written). */
  private split(x: number): number {
    const { ops } = this.prog;
    const k = ops.kind[x]!;
    return k === COPY
      ? ops.pieceStart[x]! + ops.copySplit[x]!
      : k === SEND
        ? ops.pieceStart[x + 1]!
        : ops.pieceStart[x]!;
  }

  /** Piece q's start in the rank's receive-then-scratch address space. */
  private addr(q: number): number {
    const { pieces } = this.prog;
    return pieces.offset[q]! + (pieces.buffer[q] === 2 ? this.recvSize : 0);
  }

  /** The segment starting at address a. */
  private segOf(a: number): number {
    const b = this.bound;
    let lo = 0,
      hi = this.ns - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (b[mid]! < a) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Appends operation d to the dependency list of nd entries; returns the new length. */
  push(nd: number, d: number): number {
    if (nd === this.deps.length) this.deps = grow(this.deps, nd, nd + 64);
    this.deps[nd] = d;
    return nd + 1;
  }

  /**
   * apply false: lists what operation x waits for (returns the list's length); apply true: records x's reads and
   * writes (returns 0).
   */
  visit(x: number, apply: boolean): number {
    const { ops, pieces } = this.prog;
    const q0 = ops.pieceStart[x]!,
      q1 = ops.pieceStart[x + 1]!,
      split = this.split(x);
    const lw = this.lastWriter,
      rh = this.readHead,
      b = this.bound,
      last = this.ns - 1;
    let nd = 0;
    for (let q = q0; q < q1; q++) {
      if (pieces.buffer[q] === 0) continue;
      const a = this.addr(q),
        e = a + pieces.count[q]!,
        read = q < split;
      for (let s = this.segOf(a); s < last && b[s]! < e; s++) {
        if (apply) {
          if (read) this.addReader(s, x);
          else {
            lw[s] = x;
            rh[s] = -1;
          }
        } else if (read || rh[s]! < 0) {
          if (lw[s]! >= 0) nd = this.push(nd, lw[s]!);
        } else for (let v = rh[s]!; v >= 0; v = this.evNext[v]!) nd = this.push(nd, this.evOp[v]!);
      }
    }
    return nd;
  }

  /** Notes that operation x reads segment s. */
  private addReader(s: number, x: number): void {
    if (this.nEv === this.evOp.length) {
      const o2 = new Uint32Array(2 * this.nEv),
        n2 = new Int32Array(2 * this.nEv);
      o2.set(this.evOp);
      n2.set(this.evNext);
      this.evOp = o2;
      this.evNext = n2;
    }
    this.evOp[this.nEv] = x;
    this.evNext[this.nEv] = this.readHead[s]!;
    this.readHead[s] = this.nEv++;
  }

  /** The first nd dependencies, sorted, without repeats (a view, valid until the next call). */
  unique(nd: number): Uint32Array {
    const d = this.deps.subarray(0, nd);
    if (nd < 2) return d;
    d.sort();
    let m = 0;
    for (let i = 0; i < nd; i++) if (i === 0 || d[i]! !== d[i - 1]!) d[m++] = d[i]!;
    return d.subarray(0, m);
  }
}

/** The dataflow variant of a nonblocking program: the same operations and pieces, with their dependencies. */
export function dataflowProgram(prog: Program): Program {
  return { ...prog, variant: "dataflow", after: dataflowAfter(prog) };
}

/**
 * Per rank, the scratch a layout would need that gave every relayed piece its own slots (no reuse, so no receive
 * waits for a send): the elements written into scratch over the whole program. Compared with the reusing layout's
 * `scratchSize` in docs/lowering.md.
 */
export function scratchWithoutReuse(prog: Program): Float64Array {
  const { ops, pieces, rankStart } = prog;
  const p = rankStart.length - 1;
  const total = new Float64Array(p);
  for (let r = 0; r < p; r++)
    for (let x = rankStart[r]!; x < rankStart[r + 1]!; x++) {
      const k = ops.kind[x]!;
      if (k === SEND) continue;
      const q0 = k === COPY ? ops.pieceStart[x]! + ops.copySplit[x]! : ops.pieceStart[x]!;
      for (let q = q0; q < ops.pieceStart[x + 1]!; q++)
        if (pieces.buffer[q] === 2) total[r] = total[r]! + pieces.count[q]!;
    }
  return total;
}
