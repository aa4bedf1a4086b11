/**
 * Program well-formedness: tables, ranks, rounds, kinds and peers in range; pieces inside their buffers and adding up;
 * MPI_Alltoallv displacements.
 */
import { matrixCols, matrixRows, type CommMatrix, type MatrixCols, type MatrixRows } from "../../model/matrix.js";
import { slotCount, slotPeer, slotStart } from "../../model/layout-slots.js";
import { BUFFER_NAMES, OP_KINDS, type PeerIndex, type Program, type RankLayout } from "../../model/program.js";
import { check, type Check } from "../report.js";
import { afterProblem } from "./dataflow.js";
import { describeOp, PROGRAM_SOURCE } from "./describe.js";
import { counted } from "../../internal/plural.js";
import { columnProblem } from "../../model/schedule-check.js";

const TITLE =
  "tables consistent; ranks, rounds, kinds and peers in range; pieces inside their buffers and adding up; displacements hold M";
const isCount = (v: number): boolean => v >= 1 && Number.isInteger(v) && v <= Number.MAX_SAFE_INTEGER;
const isIndex = (v: number): boolean => v >= 0 && Number.isInteger(v) && v <= Number.MAX_SAFE_INTEGER;

/** Checks a program's tables against P and the matrix; the other program checks run only when this holds. */
export function checkProgramWellFormed(m: CommMatrix, prog: Program): Check {
  const bad = (w: string): Check => check("program-well-formed", TITLE, PROGRAM_SOURCE, false, null, null, w);
  const { p } = m;
  const { ops, pieces, layout } = prog;
  const shape = typesProblem(prog);
  if (shape !== null) return bad(shape);
  if (prog.variant !== "nonblocking" && prog.variant !== "blocking" && prog.variant !== "dataflow")
    return bad(`variant '${String(prog.variant)}' is not nonblocking, blocking or dataflow`);
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
    return bad(`ops.pieceStart has ${counted(ops.pieceStart.length, "entry", "entries")}, expected ${n + 1}`);
  const np = pieces.buffer.length;
  if (pieces.offset.length !== np || pieces.count.length !== np) return bad("the piece columns differ in length");
  if (ops.pieceStart[0] !== 0 || ops.pieceStart[n] !== np) return bad(`ops.pieceStart does not cover the ${np} pieces`);
  if (prog.rankStart.length !== p + 1 || prog.rankStart[0] !== 0 || prog.rankStart[p] !== n)
    return bad(`rankStart does not cover the ${n} operations of ${p} ranks`);
  const lw = checkLayout(m, layout);
  if (lw !== null) return bad(lw);
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
      if (kind === 2 && ops.tag[x] !== 0) return bad(`${describeOp(prog, x)}: a copy's tag must be 0`);
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
      checkDispls(layout.sendPeers, p, r, layout.sendCounts, layout.sendDispls, layout.sendSize[r]!, "send") ??
      checkDispls(layout.recvPeers, p, r, layout.recvCounts, layout.recvDispls, layout.recvSize[r]!, "recv");
    if (w !== null) return bad(w);
  }
  const aw = afterProblem(prog);
  if (aw !== null) return bad(aw);
  return check("program-well-formed", TITLE, PROGRAM_SOURCE, true);
}

/**
 * What is wrong with the types of a program object's tables (a hand-built one): every column the IR's typed array; null
 * when sound.
 */
function typesProblem(prog: Program): string | null {
  const { ops, pieces, layout } = prog as Partial<Program>;
  if (typeof ops !== "object" || ops === null) return "ops is not an operation table";
  if (typeof pieces !== "object" || pieces === null) return "pieces is not a piece table";
  if (typeof layout !== "object" || layout === null) return "layout is not a rank layout";
  const u32 = Uint32Array,
    f64 = Float64Array,
    u8 = Uint8Array;
  const columns: [string, unknown, typeof u32 | typeof f64 | typeof u8][] = [
    ["rankStart", prog.rankStart, u32],
    ["ops.rank", ops.rank, u32],
    ["ops.round", ops.round, u32],
    ["ops.kind", ops.kind, u8],
    ["ops.peer", ops.peer, u32],
    ["ops.tag", ops.tag, u32],
    ["ops.count", ops.count, f64],
    ["ops.pieceStart", ops.pieceStart, u32],
    ["ops.copySplit", ops.copySplit, u32],
    ["pieces.buffer", pieces.buffer, u8],
    ["pieces.offset", pieces.offset, f64],
    ["pieces.count", pieces.count, f64],
    ["layout.sendCounts", layout.sendCounts, f64],
    ["layout.recvCounts", layout.recvCounts, f64],
    ["layout.sendDispls", layout.sendDispls, f64],
    ["layout.recvDispls", layout.recvDispls, f64],
    ["layout.sendSize", layout.sendSize, f64],
    ["layout.recvSize", layout.recvSize, f64],
    ["layout.scratchSize", layout.scratchSize, f64],
  ];
  for (const side of ["sendPeers", "recvPeers"] as const) {
    const peers = layout[side] as PeerIndex | null | undefined;
    if (peers === null) continue;
    if (typeof peers !== "object") return `layout.${side} is neither null nor a peer index`;
    columns.push([`layout.${side}.start`, peers.start, u32], [`layout.${side}.peer`, peers.peer, u32]);
  }
  for (const [name, col, type] of columns) {
    const w = columnProblem(name, col, type);
    if (w !== null) return w;
  }
  return null;
}

/**
 * Rank r's displacements for one buffer: each block inside the buffer, blocks disjoint (the counts were checked against
 * M).
 */
function checkDispls(
  peers: PeerIndex | null,
  p: number,
  r: number,
  counts: Float64Array,
  displs: Float64Array,
  size: number,
  which: "send" | "recv",
): string | null {
  const order: number[] = [];
  const end = slotStart(peers, p, r + 1);
  for (let k = slotStart(peers, p, r); k < end; k++) {
    const d = displs[k]!,
      c = counts[k]!;
    if (c === 0) continue;
    if (d + c > size)
      return `rank ${r}: ${which} block for ${which === "send" ? "destination" : "origin"} ${slotPeer(peers, p, k)} (${c} elements at ${d}) ends past its ${which} buffer of ${size} elements`;
    order.push(k);
  }
  order.sort((a, b) => displs[a]! - displs[b]!);
  for (let i = 1; i < order.length; i++) {
    const a = order[i - 1]!,
      b = order[i]!;
    if (displs[a]! + counts[a]! > displs[b]!)
      return `rank ${r}: ${which} blocks of ${slotPeer(peers, p, a)} and ${slotPeer(peers, p, b)} overlap (at ${displs[a]} and ${displs[b]})`;
  }
  return null;
}

/**
 * The layout's shape: sizes per rank, one count and displacement per slot, a peer form's slots consistent,
 * displacements integers.
 */
function checkLayout(m: CommMatrix, layout: RankLayout): string | null {
  const { p } = m;
  for (const [name, col] of [
    ["sendSize", layout.sendSize],
    ["recvSize", layout.recvSize],
    ["scratchSize", layout.scratchSize],
  ] as const) {
    if (col.length !== p) return `layout.${name} has ${counted(col.length, "entry", "entries")}, expected ${p}`;
    for (let k = 0; k < p; k++)
      if (!isIndex(col[k]!)) return `layout.${name}[${k}] = ${col[k]} is not a non-negative integer`;
  }
  if ((layout.sendPeers === null) !== (layout.recvPeers === null))
    return "layout: one side has the peer form and the other the full form";
  for (const side of ["send", "recv"] as const) {
    const peers = layout[`${side}Peers`],
      counts = layout[`${side}Counts`],
      displs = layout[`${side}Displs`];
    const w = checkSlots(peers, p, side);
    if (w !== null) return w;
    const n = slotCount(peers, p);
    if (counts.length !== n || displs.length !== n)
      return `layout.${side}Counts / ${side}Displs have ${counts.length} / ${displs.length} entries, expected ${n}`;
    for (let k = 0; k < n; k++)
      if (!isIndex(displs[k]!)) return `layout.${side}Displs[${k}] = ${displs[k]} is not a non-negative integer`;
    const c = checkCounts(side === "send" ? matrixRows(m) : matrixCols(m), peers, counts, side);
    if (c !== null) return c;
  }
  return null;
}

/** A peer form's slot index: p + 1 non-decreasing offsets from 0, peers below p and ascending within each rank. */
function checkSlots(peers: PeerIndex | null, p: number, side: "send" | "recv"): string | null {
  if (peers === null) return null;
  const { start, peer } = peers;
  if (start.length !== p + 1 || start[0] !== 0 || start[p] !== peer.length)
    return `layout.${side}Peers: its offsets do not cover its ${peer.length} slots for ${p} ranks`;
  for (let r = 0; r < p; r++) {
    if (start[r]! > start[r + 1]!) return `layout.${side}Peers: the offsets of rank ${r} decrease`;
    for (let k = start[r]!; k < start[r + 1]!; k++) {
      if (peer[k]! >= p) return `layout.${side}Peers: rank ${r} lists peer ${peer[k]}, not below p = ${p}`;
      if (k > start[r]! && peer[k]! <= peer[k - 1]!)
        return `layout.${side}Peers: rank ${r} lists peer ${peer[k]} after ${peer[k - 1]} (peers must ascend)`;
    }
  }
  return null;
}

/**
 * The layout's counts are the matrix's (MPI_Alltoallv's sendcounts / recvcounts): rank r's send
 * blocks are row r of M, its receive blocks column r. `lines` is M's compressed rows (send) or
 * columns (recv); the full form holds every peer (zeros included), the peer form exactly the
 * non-zero entries.
 */
function checkCounts(
  lines: MatrixRows | MatrixCols,
  peers: PeerIndex | null,
  counts: Float64Array,
  side: "send" | "recv",
): string | null {
  const { p } = lines;
  const [lineStart, idx] = "rowStart" in lines ? [lines.rowStart, lines.col] : [lines.colStart, lines.row];
  const val = lines.val;
  const cell = (r: number, j: number): string => (side === "send" ? `M[${r}][${j}]` : `M[${j}][${r}]`);
  for (let r = 0; r < p; r++) {
    let e = lineStart[r]!;
    const e1 = lineStart[r + 1]!;
    if (peers === null) {
      for (let j = 0; j < p; j++) {
        const want = e < e1 && idx[e] === j ? val[e++]! : 0;
        if (counts[r * p + j] !== want)
          return `layout.${side}Counts[${r * p + j}] = ${counts[r * p + j]}, but ${cell(r, j)} = ${want}`;
      }
      continue;
    }
    const k0 = peers.start[r]!,
      k1 = peers.start[r + 1]!;
    for (let k = k0; k < k1 || e < e1; k++, e++) {
      if (k >= k1)
        return `layout.${side}Peers: rank ${r} lists no block for ${idx[e]}, but ${cell(r, idx[e]!)} = ${val[e]}`;
      const j = peers.peer[k]!;
      if (e >= e1 || idx[e]! > j) return `layout.${side}Peers: rank ${r} lists a block for ${j}, but ${cell(r, j)} = 0`;
      if (idx[e]! < j)
        return `layout.${side}Peers: rank ${r} lists no block for ${idx[e]}, but ${cell(r, idx[e]!)} = ${val[e]}`;
      if (counts[k] !== val[e])
        return `layout.${side}Counts of rank ${r} for ${j} = ${counts[k]}, but ${cell(r, j)} = ${val[e]}`;
    }
  }
  return null;
}
