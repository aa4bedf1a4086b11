/** Program well-formedness: tables, ranks, rounds, kinds and peers in range; pieces inside their buffers and adding up; MPI_Alltoallv displacements. */
import type { CommMatrix } from "../../model/matrix.js";
import { BUFFER_NAMES, OP_KINDS, type Program } from "../../model/program.js";
import { check, type Check } from "../report.js";
import { describeOp, PROGRAM_SOURCE } from "./describe.js";

const TITLE =
  "tables consistent; ranks, rounds, kinds and peers in range; pieces inside their buffers and adding up; displacements hold M";
const isCount = (v: number): boolean => v >= 1 && Number.isInteger(v) && v <= Number.MAX_SAFE_INTEGER;
const isIndex = (v: number): boolean => v >= 0 && Number.isInteger(v) && v <= Number.MAX_SAFE_INTEGER;

/** Checks a program's tables against P and the matrix; the other program checks run only when this holds. */
export function checkProgramWellFormed(m: CommMatrix, prog: Program): Check {
  const bad = (w: string): Check => check("program-well-formed", TITLE, PROGRAM_SOURCE, false, null, null, w);
  const { p } = m;
  const { ops, pieces, layout } = prog;
  if (prog.variant !== "nonblocking" && prog.variant !== "blocking")
    return bad(`variant '${String(prog.variant)}' is neither nonblocking nor blocking`);
  if (!(Number.isInteger(prog.rounds) && prog.rounds >= 0))
    return bad(`rounds = ${prog.rounds} is not a non-negative integer`);
  const n = ops.rank.length;
  for (const [name, col] of [
    ["round", ops.round],
    ["kind", ops.kind],
    ["peer", ops.peer],
    ["tag", ops.tag],
    ["count", ops.count],
    ["copySplit", ops.copySplit],
  ] as const) {
    if (col.length !== n) return bad(`ops.${name} has ${col.length} entries, ops.rank has ${n}`);
  }
  if (ops.pieceStart.length !== n + 1)
    return bad(`ops.pieceStart has ${ops.pieceStart.length} entries, expected ${n + 1}`);
  const np = pieces.buffer.length;
  if (pieces.offset.length !== np || pieces.count.length !== np) return bad("the piece columns differ in length");
  if (ops.pieceStart[0] !== 0 || ops.pieceStart[n] !== np) return bad(`ops.pieceStart does not cover the ${np} pieces`);
  if (prog.rankStart.length !== p + 1 || prog.rankStart[0] !== 0 || prog.rankStart[p] !== n)
    return bad(`rankStart does not cover the ${n} operations of ${p} ranks`);
  for (const [name, col, len] of [
    ["sendDispls", layout.sendDispls, p * p],
    ["recvDispls", layout.recvDispls, p * p],
    ["sendSize", layout.sendSize, p],
    ["recvSize", layout.recvSize, p],
    ["scratchSize", layout.scratchSize, p],
  ] as const) {
    if (col.length !== len) return bad(`layout.${name} has ${col.length} entries, expected ${len}`);
    for (let k = 0; k < len; k++)
      if (!isIndex(col[k]!)) return bad(`layout.${name}[${k}] = ${col[k]} is not a non-negative integer`);
  }
  const counts = checkCounts(m, layout.sendCounts, layout.recvCounts);
  if (counts !== null) return bad(counts);
  const sizes = [layout.sendSize, layout.recvSize, layout.scratchSize];
  for (let r = 0; r < p; r++) {
    const lo = prog.rankStart[r]!,
      hi = prog.rankStart[r + 1]!;
    if (lo > hi) return bad(`rankStart[${r}] > rankStart[${r + 1}]`);
    for (let x = lo; x < hi; x++) {
      if (ops.rank[x] !== r) return bad(`operation ${x} is in rank ${r}'s range but names rank ${ops.rank[x]}`);
      const round = ops.round[x]!,
        kind = ops.kind[x]!;
      if (round >= prog.rounds)
        return bad(`rank ${r}, operation ${x - lo}: round ${round} is not in 0..${prog.rounds - 1}`);
      if (x > lo && round < ops.round[x - 1]!)
        return bad(
          `rank ${r}, operation ${x - lo}: round ${round} after round ${ops.round[x - 1]} (operations must be sorted by round)`,
        );
      if (kind >= OP_KINDS.length)
        return bad(`rank ${r}, operation ${x - lo}: kind code ${kind} is not 0 (send), 1 (recv) or 2 (copy)`);
      if (ops.peer[x]! >= p) return bad(`rank ${r}, operation ${x - lo}: peer ${ops.peer[x]} is not in 0..${p - 1}`);
      if (kind === 2 && ops.peer[x] !== r) return bad(`${describeOp(prog, x)}: a copy's peer must be its own rank`);
      if (!isCount(ops.count[x]!))
        return bad(`${describeOp(prog, x)}: count ${ops.count[x]} is not a positive integer`);
      const ps = ops.pieceStart[x]!,
        pe = ops.pieceStart[x + 1]!;
      if (ps > pe) return bad(`${describeOp(prog, x)}: negative piece range`);
      const split = kind === 2 ? ps + ops.copySplit[x]! : pe;
      if (kind !== 2 && ops.copySplit[x] !== 0)
        return bad(`${describeOp(prog, x)}: copySplit ${ops.copySplit[x]} on a ${OP_KINDS[kind]}`);
      if (split > pe) return bad(`${describeOp(prog, x)}: copySplit ${ops.copySplit[x]} exceeds its ${pe - ps} pieces`);
      let sum = 0,
        sumDst = 0;
      for (let k = ps; k < pe; k++) {
        const b = pieces.buffer[k]!,
          off = pieces.offset[k]!,
          c = pieces.count[k]!;
        if (b >= BUFFER_NAMES.length)
          return bad(
            `${describeOp(prog, x)}, piece ${k - ps}: buffer code ${b} is not 0 (send), 1 (recv) or 2 (scratch)`,
          );
        if (!isIndex(off) || !isCount(c))
          return bad(`${describeOp(prog, x)}, piece ${k - ps}: offset ${off} / count ${c} invalid`);
        const size = sizes[b]![r]!;
        if (off + c > size)
          return bad(
            `${describeOp(prog, x)}, piece ${k - ps}: ${BUFFER_NAMES[b]}[${off}..${off + c}) lies outside rank ${r}'s ${BUFFER_NAMES[b]} buffer of ${size} elements`,
          );
        if (k < split) sum += c;
        else sumDst += c;
      }
      if (kind === 2) {
        if (sum !== ops.count[x] || sumDst !== ops.count[x])
          return bad(
            `${describeOp(prog, x)}: source pieces carry ${sum}, destination pieces ${sumDst} elements, the copy ${ops.count[x]}`,
          );
      } else if (sum !== ops.count[x]) return bad(`${describeOp(prog, x)}: its pieces carry ${sum} elements`);
    }
    const w =
      checkDispls(m, r, layout.sendDispls, layout.sendSize[r]!, "send") ??
      checkDispls(m, r, layout.recvDispls, layout.recvSize[r]!, "recv");
    if (w !== null) return bad(w);
  }
  return check("program-well-formed", TITLE, PROGRAM_SOURCE, true);
}

/** Rank r's displacements for one buffer: each block (M[r][j] for send, M[j][r] for recv) inside the buffer, blocks disjoint. */
function checkDispls(
  m: CommMatrix,
  r: number,
  displs: Float64Array,
  size: number,
  which: "send" | "recv",
): string | null {
  const { p, data } = m;
  const len = (j: number): number => (which === "send" ? data[r * p + j]! : data[j * p + r]!);
  const order: number[] = [];
  for (let j = 0; j < p; j++) {
    const d = displs[r * p + j]!,
      c = len(j);
    if (c === 0) continue;
    if (d + c > size)
      return `rank ${r}: ${which} block for ${which === "send" ? "destination" : "origin"} ${j} (${c} elements at ${d}) ends past its ${which} buffer of ${size} elements`;
    order.push(j);
  }
  order.sort((a, b) => displs[r * p + a]! - displs[r * p + b]!);
  for (let k = 1; k < order.length; k++) {
    const a = order[k - 1]!,
      b = order[k]!;
    if (displs[r * p + a]! + len(a) > displs[r * p + b]!)
      return `rank ${r}: ${which} blocks of ${a} and ${b} overlap (at ${displs[r * p + a]} and ${displs[r * p + b]})`;
  }
  return null;
}

/** The layout's counts are the matrix's (MPI_Alltoallv's sendcounts / recvcounts): sendCounts[r p + j] = M[r][j], recvCounts[r p + i] = M[i][r]. */
function checkCounts(m: CommMatrix, sendCounts: Float64Array, recvCounts: Float64Array): string | null {
  const { p, data } = m;
  if (sendCounts.length !== p * p || recvCounts.length !== p * p)
    return `layout.sendCounts / recvCounts have ${sendCounts.length} / ${recvCounts.length} entries, expected ${p * p}`;
  for (let r = 0; r < p; r++) {
    for (let j = 0; j < p; j++) {
      if (sendCounts[r * p + j] !== data[r * p + j])
        return `layout.sendCounts[${r * p + j}] = ${sendCounts[r * p + j]}, but M[${r}][${j}] = ${data[r * p + j]}`;
      if (recvCounts[r * p + j] !== data[j * p + r])
        return `layout.recvCounts[${r * p + j}] = ${recvCounts[r * p + j]}, but M[${j}][${r}] = ${data[j * p + r]}`;
    }
  }
  return null;
}
