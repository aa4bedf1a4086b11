/** A reference interpreter of lowered programs for the tests: executes them on tagged elements, independent of the lowering code. */
import type { CommMatrix } from "../../src/model/matrix.js";
import type { Program } from "../../src/model/program.js";
import { recvDisplOf, sendDisplOf } from "../../src/model/layout-slots.js";

/** Buffers of one rank: element ids (-1: empty). */
interface Buffers {
  readonly bufs: Float64Array[]; // send, recv, scratch
}

/** The id of element (o, d, x): bases[o * p + d] + x. */
function elementBases(m: CommMatrix): Float64Array {
  const b = new Float64Array(m.p * m.p);
  let at = 0;
  for (let k = 0; k < m.p * m.p; k++) {
    b[k] = at;
    at += m.data[k]!;
  }
  return b;
}

function initBuffers(m: CommMatrix, prog: Program, bases: Float64Array): Buffers[] {
  const { p } = m;
  const { layout } = prog;
  const out: Buffers[] = [];
  for (let r = 0; r < p; r++) {
    const send = new Float64Array(layout.sendSize[r]!).fill(-1);
    for (let d = 0; d < p; d++)
      for (let x = 0; x < m.data[r * p + d]!; x++) send[sendDisplOf(layout, p, r, d) + x] = bases[r * p + d]! + x;
    out.push({
      bufs: [send, new Float64Array(layout.recvSize[r]!).fill(-1), new Float64Array(layout.scratchSize[r]!).fill(-1)],
    });
  }
  return out;
}

/** Reads the pieces [a, b) of a rank; throws when one leaves its buffer. */
function gather(prog: Program, rank: number, b: Buffers, a: number, e: number, what: string): number[] {
  const vals: number[] = [];
  for (let q = a; q < e; q++) {
    const buf = b.bufs[prog.pieces.buffer[q]!]!,
      off = prog.pieces.offset[q]!,
      cnt = prog.pieces.count[q]!;
    if (!(cnt >= 1) || off < 0 || off + cnt > buf.length)
      throw new Error(
        `${what}: rank ${rank} piece ${q} (${prog.pieces.buffer[q]}, ${off}, ${cnt}) leaves its buffer of ${buf.length}`,
      );
    for (let x = 0; x < cnt; x++) vals.push(buf[off + x]!);
  }
  return vals;
}

function scatter(
  prog: Program,
  rank: number,
  b: Buffers,
  a: number,
  e: number,
  vals: readonly number[],
  what: string,
): void {
  let at = 0;
  for (let q = a; q < e; q++) {
    const buf = b.bufs[prog.pieces.buffer[q]!]!,
      off = prog.pieces.offset[q]!,
      cnt = prog.pieces.count[q]!;
    if (prog.pieces.buffer[q] === 0) throw new Error(`${what}: rank ${rank} writes into its send buffer`);
    if (!(cnt >= 1) || off < 0 || off + cnt > buf.length)
      throw new Error(`${what}: rank ${rank} piece ${q} leaves its buffer of ${buf.length}`);
    for (let x = 0; x < cnt; x++) buf[off + x] = vals[at++]!;
  }
  if (at !== vals.length)
    throw new Error(`${what}: rank ${rank}: pieces hold ${at} elements, the message ${vals.length}`);
}

/** Checks that every element (o, d, x) sits at recv[d][recvDispls[d][o] + x]; returns the number of elements checked. */
function checkDelivery(m: CommMatrix, prog: Program, bases: Float64Array, state: Buffers[]): number {
  const { p } = m;
  let n = 0;
  for (let d = 0; d < p; d++) {
    const recv = state[d]!.bufs[1]!;
    for (let o = 0; o < p; o++) {
      for (let x = 0; x < m.data[o * p + d]!; x++) {
        const got = recv[recvDisplOf(prog.layout, p, d, o) + x];
        if (got !== bases[o * p + d]! + x)
          throw new Error(
            `element (${o}, ${d}, ${x}) is not at its place in rank ${d}'s receive buffer (found ${got})`,
          );
        n++;
      }
    }
  }
  return n;
}

/**
 * Executes a program round by round (nonblocking semantics): sends and copies read their pieces at
 * the start of the round, then receives and copies write. Every send must have exactly one receive
 * with the same (peer, tag, count) in its round and vice versa. Returns the elements checked.
 */
export function runRounds(m: CommMatrix, prog: Program): number {
  const { p } = m;
  const bases = elementBases(m);
  const state = initBuffers(m, prog, bases);
  const { ops } = prog;
  const pc = new Array<number>(p).fill(0).map((_, r) => prog.rankStart[r]!);
  for (let round = 0; round < prog.rounds; round++) {
    const messages = new Map<string, number[][]>();
    const copies: [number, number, number[]][] = [];
    const recvs: number[] = [];
    for (let r = 0; r < p; r++) {
      let x = pc[r]!;
      for (; x < prog.rankStart[r + 1]! && ops.round[x] === round; x++) {
        if (ops.rank[x] !== r) throw new Error(`op ${x} is listed under rank ${r} but says rank ${ops.rank[x]}`);
        const a = ops.pieceStart[x]!,
          e = ops.pieceStart[x + 1]!;
        if (ops.kind[x] === 0) {
          const vals = gather(prog, r, state[r]!, a, e, `round ${round} send`);
          if (vals.length !== ops.count[x])
            throw new Error(
              `round ${round}: rank ${r} send of ${ops.count[x]} has ${vals.length} elements in its pieces`,
            );
          const key = `${r}>${ops.peer[x]}#${ops.tag[x]}#${ops.count[x]}`;
          messages.set(key, [...(messages.get(key) ?? []), vals]);
        } else if (ops.kind[x] === 2) {
          const split = a + ops.copySplit[x]!;
          const vals = gather(prog, r, state[r]!, a, split, `round ${round} copy`);
          if (vals.length !== ops.count[x]) throw new Error(`round ${round}: rank ${r} copy count mismatch`);
          copies.push([r, x, vals]);
        } else recvs.push(x);
      }
      pc[r] = x;
    }
    for (const [r, x, vals] of copies)
      scatter(
        prog,
        r,
        state[r]!,
        ops.pieceStart[x]! + ops.copySplit[x]!,
        ops.pieceStart[x + 1]!,
        vals,
        `round ${round} copy`,
      );
    for (const x of recvs) {
      const r = ops.rank[x]!;
      const key = `${ops.peer[x]}>${r}#${ops.tag[x]}#${ops.count[x]}`;
      const list = messages.get(key);
      if (!list || list.length !== 1)
        throw new Error(
          `round ${round}: rank ${r} receive (peer ${ops.peer[x]}, tag ${ops.tag[x]}, count ${ops.count[x]}) has ${list?.length ?? 0} matching sends`,
        );
      messages.delete(key);
      scatter(prog, r, state[r]!, ops.pieceStart[x]!, ops.pieceStart[x + 1]!, list[0]!, `round ${round} recv`);
    }
    if (messages.size > 0) throw new Error(`round ${round}: send ${[...messages.keys()][0]} has no receive`);
  }
  for (let r = 0; r < p; r++)
    if (pc[r] !== prog.rankStart[r + 1])
      throw new Error(`rank ${r} has operations past round ${prog.rounds} or out of round order`);
  return checkDelivery(m, prog, bases, state);
}

/**
 * Executes a program with blocking rendezvous semantics in waves: each rank runs its operations in
 * program order; a send and a receive complete together when both are the current operations of
 * their ranks and match (peer, tag, count). Throws on deadlock (no rank can move); returns the
 * number of waves (a wave completes every pair that can complete at once).
 */
export function runBlocking(m: CommMatrix, prog: Program): { waves: number; elements: number } {
  const { p } = m;
  const bases = elementBases(m);
  const state = initBuffers(m, prog, bases);
  const { ops } = prog;
  const pc = Array.from({ length: p }, (_, r) => prog.rankStart[r]!);
  const end = (r: number): number => prog.rankStart[r + 1]!;
  let waves = 0;
  for (;;) {
    for (let r = 0; r < p; r++) {
      while (pc[r]! < end(r) && ops.kind[pc[r]!] === 2) {
        const x = pc[r]!,
          a = ops.pieceStart[x]!,
          split = a + ops.copySplit[x]!;
        scatter(
          prog,
          r,
          state[r]!,
          split,
          ops.pieceStart[x + 1]!,
          gather(prog, r, state[r]!, a, split, "copy"),
          "copy",
        );
        pc[r]!++;
      }
    }
    const pairs: [number, number][] = [];
    for (let r = 0; r < p; r++) {
      const x = pc[r]!;
      if (x >= end(r) || ops.kind[x] !== 0) continue;
      const v = ops.peer[x]!,
        y = pc[v]!;
      if (
        y < end(v) &&
        ops.kind[y] === 1 &&
        ops.peer[y] === r &&
        ops.tag[y] === ops.tag[x] &&
        ops.count[y] === ops.count[x]
      )
        pairs.push([r, v]);
    }
    if (pairs.length === 0) break;
    waves++;
    for (const [r, v] of pairs) {
      const x = pc[r]!,
        y = pc[v]!;
      const vals = gather(prog, r, state[r]!, ops.pieceStart[x]!, ops.pieceStart[x + 1]!, "send");
      scatter(prog, v, state[v]!, ops.pieceStart[y]!, ops.pieceStart[y + 1]!, vals, "recv");
      pc[r]!++;
      pc[v]!++;
    }
  }
  const stuck = pc.findIndex((x, r) => x < end(r));
  if (stuck >= 0)
    throw new Error(
      `deadlock: rank ${stuck} waits at op ${pc[stuck]} (${["send to", "recv from", "copy"][ops.kind[pc[stuck]!]!]} ${ops.peer[pc[stuck]!]})`,
    );
  return { waves, elements: checkDelivery(m, prog, bases, state) };
}
