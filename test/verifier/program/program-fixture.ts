/** Test fixture: programs as plain per-rank op lists (pack / unpack) and a naive lowering of direct message-level schedules. */
import { matrixDigest, type CommMatrix } from "../../../src/model/matrix.js";
import type { Program, ProgramVariant } from "../../../src/model/program.js";
import type { Schedule } from "../../../src/model/schedule.js";

/** A piece: [buffer code (0 send, 1 recv, 2 scratch), offset, count]. */
export type PlainPiece = [number, number, number];

/** One operation; `count` defaults to the sum of its (source) pieces, `split` (copies) to half of the pieces. */
export interface PlainOp {
  round: number;
  kind: "send" | "recv" | "copy";
  peer: number;
  tag: number;
  count?: number;
  pieces: PlainPiece[];
  split?: number;
}

/** A program in plain form: ops[r] is rank r's program in order. */
export interface PlainProgram {
  variant: ProgramVariant;
  rounds: number;
  sendDispls: number[];
  recvDispls: number[];
  sendSize: number[];
  recvSize: number[];
  scratchSize: number[];
  ops: PlainOp[][];
}

const KIND = { send: 0, recv: 1, copy: 2 } as const;

/** Default MPI_Alltoallv layout of m: displacements as prefix sums (destination order for send, origin order for recv), no scratch. */
export function defaultLayout(m: CommMatrix): Omit<PlainProgram, "variant" | "rounds" | "ops"> {
  const { p, data } = m;
  const sendDispls: number[] = [],
    recvDispls: number[] = [],
    sendSize: number[] = [],
    recvSize: number[] = [];
  for (let r = 0; r < p; r++) {
    let s = 0,
      t = 0;
    for (let j = 0; j < p; j++) {
      sendDispls.push(s);
      recvDispls.push(t);
      s += data[r * p + j]!;
      t += data[j * p + r]!;
    }
    sendSize.push(s);
    recvSize.push(t);
  }
  return { sendDispls, recvDispls, sendSize, recvSize, scratchSize: new Array<number>(p).fill(0) };
}

/** Packs a plain program into the columnar IR (ops kept in the given order). */
export function pack(m: CommMatrix, pl: PlainProgram, algorithm = "test"): Program {
  const flat = pl.ops.flatMap((list, r) => list.map((o) => ({ r, o })));
  const n = flat.length;
  const np = flat.reduce((a, { o }) => a + o.pieces.length, 0);
  const ops = {
    rank: new Uint32Array(n),
    round: new Uint32Array(n),
    kind: new Uint8Array(n),
    peer: new Uint32Array(n),
    tag: new Uint32Array(n),
    count: new Float64Array(n),
    pieceStart: new Uint32Array(n + 1),
    copySplit: new Uint32Array(n),
  };
  const pieces = { buffer: new Uint8Array(np), offset: new Float64Array(np), count: new Float64Array(np) };
  let k = 0;
  flat.forEach(({ r, o }, x) => {
    const split = o.kind === "copy" ? (o.split ?? o.pieces.length / 2) : 0;
    ops.rank[x] = r;
    ops.round[x] = o.round;
    ops.kind[x] = KIND[o.kind];
    ops.peer[x] = o.peer;
    ops.tag[x] = o.tag;
    ops.count[x] =
      o.count ?? o.pieces.slice(0, o.kind === "copy" ? split : o.pieces.length).reduce((a, q) => a + q[2], 0);
    ops.copySplit[x] = split;
    ops.pieceStart[x] = k;
    for (const [b, off, c] of o.pieces) {
      pieces.buffer[k] = b;
      pieces.offset[k] = off;
      pieces.count[k++] = c;
    }
  });
  ops.pieceStart[n] = k;
  const rankStart = new Uint32Array(m.p + 1);
  pl.ops.forEach((list, r) => {
    rankStart[r + 1] = rankStart[r]! + list.length;
  });
  return {
    p: m.p,
    algorithm,
    params: {},
    seed: null,
    elementBytes: m.elementBytes,
    matrixDigest: matrixDigest(m),
    variant: pl.variant,
    rounds: pl.rounds,
    layout: {
      sendDispls: Float64Array.from(pl.sendDispls),
      recvDispls: Float64Array.from(pl.recvDispls),
      sendSize: Float64Array.from(pl.sendSize),
      recvSize: Float64Array.from(pl.recvSize),
      scratchSize: Float64Array.from(pl.scratchSize),
      sendCounts: Float64Array.from(m.data),
      recvCounts: transposed(m),
      sendPeers: null,
      recvPeers: null,
    },
    rankStart,
    ops,
    pieces,
  };
}

/** Unpacks a program into plain form (for mutation). */
export function unpack(prog: Program): PlainProgram {
  const { ops, pieces, layout } = prog;
  const names = ["send", "recv", "copy"] as const;
  const list: PlainOp[][] = Array.from({ length: prog.p }, () => []);
  for (let x = 0; x < ops.rank.length; x++) {
    const ps: PlainPiece[] = [];
    for (let k = ops.pieceStart[x]!; k < ops.pieceStart[x + 1]!; k++)
      ps.push([pieces.buffer[k]!, pieces.offset[k]!, pieces.count[k]!]);
    list[ops.rank[x]!]!.push({
      round: ops.round[x]!,
      kind: names[ops.kind[x]!]!,
      peer: ops.peer[x]!,
      tag: ops.tag[x]!,
      count: ops.count[x]!,
      pieces: ps,
      split: ops.copySplit[x]!,
    });
  }
  return {
    variant: prog.variant,
    rounds: prog.rounds,
    sendDispls: Array.from(layout.sendDispls),
    recvDispls: Array.from(layout.recvDispls),
    sendSize: Array.from(layout.sendSize),
    recvSize: Array.from(layout.recvSize),
    scratchSize: Array.from(layout.scratchSize),
    ops: list,
  };
}

/**
 * Lowers a direct message-level schedule naively: one round per step, each transfer takes the next
 * elements of its message straight from the send buffer to the receive buffer (tag = step); a
 * transfer src == dst and whatever is left of a diagonal entry become copies (the latter in
 * round 0). Nonblocking: a rank posts its receives, then its copies, then its sends. Blocking: every
 * rank runs a round's operations in the order of the step's transfers (copies first), one global
 * order for all ranks, so the lowest unfinished transfer can always complete under rendezvous.
 */
export function lowerDirect(m: CommMatrix, s: Schedule, variant: ProgramVariant): Program {
  const { p, data } = m;
  const lay = defaultLayout(m);
  const cursor = new Float64Array(p * p);
  const keyed: { key: number; op: PlainOp }[][] = Array.from({ length: p }, () => []);
  const rank = (op: PlainOp): number =>
    variant === "blocking" ? 0 : op.kind === "recv" ? 0 : op.kind === "copy" ? 1 : 2;
  for (let st = 0; st < s.stepCount; st++) {
    for (let t = s.stepStart[st]!; t < s.stepStart[st + 1]!; t++) {
      const a = s.src[t]!,
        b = s.dst[t]!,
        c = s.size[t]!,
        at = cursor[a * p + b]!;
      cursor[a * p + b] = at + c;
      const sp: PlainPiece = [0, lay.sendDispls[a * p + b]! + at, c],
        rp: PlainPiece = [1, lay.recvDispls[b * p + a]! + at, c];
      if (a === b)
        keyed[a]!.push({ key: -1, op: { round: st, kind: "copy", peer: a, tag: 0, pieces: [sp, rp], split: 1 } });
      else {
        keyed[a]!.push({ key: t, op: { round: st, kind: "send", peer: b, tag: st, pieces: [sp] } });
        keyed[b]!.push({ key: t, op: { round: st, kind: "recv", peer: a, tag: st, pieces: [rp] } });
      }
    }
  }
  for (let r = 0; r < p; r++) {
    const left = data[r * p + r]! - cursor[r * p + r]!;
    if (left > 0) {
      const at = cursor[r * p + r]!;
      keyed[r]!.push({
        key: -1,
        op: {
          round: 0,
          kind: "copy",
          peer: r,
          tag: 0,
          pieces: [
            [0, lay.sendDispls[r * p + r]! + at, left],
            [1, lay.recvDispls[r * p + r]! + at, left],
          ],
          split: 1,
        },
      });
    }
  }
  const ops = keyed.map((list) =>
    list.sort((x, y) => x.op.round - y.op.round || rank(x.op) - rank(y.op) || x.key - y.key).map((e) => e.op),
  );
  const rounds = Math.max(s.stepCount, ops.some((l) => l.length > 0) ? 1 : 0);
  return pack(m, { variant, rounds, ...lay, ops }, s.algorithm);
}

/** recvCounts of the default layout: recvCounts[r * p + i] = M[i][r]. */
function transposed(m: CommMatrix): Float64Array {
  const out = new Float64Array(m.p * m.p);
  for (let i = 0; i < m.p; i++) for (let r = 0; r < m.p; r++) out[r * m.p + i] = m.data[i * m.p + r]!;
  return out;
}
