/**
 * The public forms of the model's small accessors (commplan/model): each checks its arguments once, naming itself and
 * the argument in a one-line CommplanError, then calls the internal function, which the hot loops inside commplan call
 * unchecked (an entry read per element, a slot looked up per block).
 */
import { MAX_P } from "./limits.js";
import { checkScheduleArg } from "./schedule-check.js";
import type { Schedule } from "./schedule.js";
import { stageOfStep as stageOfStepRaw, stepOfTransfer as stepOfTransferRaw } from "./schedule.js";
import {
  checkMatrixArg,
  entry as entryRaw,
  isSparse as isSparseRaw,
  matrixCols as matrixColsRaw,
  matrixDigest as matrixDigestRaw,
  matrixRows as matrixRowsRaw,
  nonzeroCount as nonzeroCountRaw,
  type CommMatrix,
  type MatrixCols,
  type MatrixRows,
} from "./matrix.js";
import { classify as classifyRaw, type MatrixClass } from "./matrix-stats.js";
import {
  recvDisplOf as recvDisplOfRaw,
  sendDisplOf as sendDisplOfRaw,
  slotCount as slotCountRaw,
  slotOf as slotOfRaw,
  slotPeer as slotPeerRaw,
  slotStart as slotStartRaw,
} from "./layout-slots.js";
import type { PeerIndex, RankLayout } from "./program.js";
import { checkArg, isIntIn, isOptionsObject } from "./option-checks.js";
import { sparseFromCoordinates as sparseFromCoordinatesRaw, type SparseStructure } from "./sparse-structure.js";

/** Checks that `v` is a node of P = p (an integer in 0..p-1), naming `fn` and `field`. */
function checkNode(module: string, fn: string, field: string, v: unknown, p: number): void {
  checkArg(module, fn, field, v, isIntIn(v, 0, p - 1), `a node of P = ${p} (an integer in 0..${p - 1})`);
}

/** M[i][j] (a binary search in row i of a sparse matrix); i and j are nodes of P. */
export function entry(m: CommMatrix, i: number, j: number): number {
  checkMatrixArg("matrix", m, "entry");
  checkNode("matrix", "entry", "i", i, m.p);
  checkNode("matrix", "entry", "j", j, m.p);
  return entryRaw(m, i, j);
}

/** Whether m is stored sparse. */
export function isSparse(m: CommMatrix): boolean {
  checkMatrixArg("matrix", m, "isSparse");
  return isSparseRaw(m);
}

/**
 * The non-zero entries of m in compressed rows (diagonal included): the storage of a sparse matrix, a one-pass scan of
 * a dense one (kept with m).
 */
export function matrixRows(m: CommMatrix): MatrixRows {
  checkMatrixArg("matrix", m, "matrixRows");
  return matrixRowsRaw(m);
}

/** The non-zero entries of m in compressed columns, rows ascending (O(P + E), kept with m). */
export function matrixCols(m: CommMatrix): MatrixCols {
  checkMatrixArg("matrix", m, "matrixCols");
  return matrixColsRaw(m);
}

/** The number of non-zero entries (diagonal included). */
export function nonzeroCount(m: CommMatrix): number {
  checkMatrixArg("matrix", m, "nonzeroCount");
  return nonzeroCountRaw(m);
}

/** A stable digest of P and the non-zero entries of m: "mm3x64:<16 hex>" (docs/matrix.md). */
export function matrixDigest(m: CommMatrix): string {
  checkMatrixArg("matrix", m, "matrixDigest");
  return matrixDigestRaw(m);
}

/**
 * The class of 000 section 2 of a non-empty matrix from its fan-outs and fan-ins (other nodes only, one per node):
 * all-to-all, all-to-many, many-to-all or many-to-many (docs/matrix.md).
 */
export function classify(fanOut: Uint32Array, fanIn: Uint32Array): Exclude<MatrixClass, "empty"> {
  const what = "a Uint32Array of one count per node";
  checkArg("matrix", "classify", "fanOut", fanOut, fanOut instanceof Uint32Array && fanOut.length > 0, what);
  const same = fanIn instanceof Uint32Array && fanIn.length === fanOut.length;
  checkArg("matrix", "classify", "fanIn", fanIn, same, `${what}, as long as fanOut (${fanOut.length})`);
  return classifyRaw(fanOut, fanIn);
}

/**
 * Builds the compressed-row structure of coordinate entries (0-based; duplicates merged, rows sorted), after checking
 * the sizes, the index arrays and every index (in 0..rows-1 and 0..cols-1).
 */
export function sparseFromCoordinates(
  rows: number,
  cols: number,
  rowOf: Int32Array,
  colOf: Int32Array,
  count?: number,
  source?: string,
): SparseStructure {
  const fn = "sparseFromCoordinates";
  checkArg("matrix", fn, "rows", rows, isIntIn(rows, 0, 2 ** 31 - 1), "an integer >= 0");
  checkArg("matrix", fn, "cols", cols, isIntIn(cols, 0, 2 ** 31 - 1), "an integer >= 0");
  checkArg("matrix", fn, "rowOf", rowOf, rowOf instanceof Int32Array, "an Int32Array");
  checkArg("matrix", fn, "colOf", colOf, colOf instanceof Int32Array, "an Int32Array");
  const n = count ?? rowOf.length;
  const most = Math.min(rowOf.length, colOf.length);
  checkArg("matrix", fn, "count", n, isIntIn(n, 0, most), `an integer in 0..${most} (the entries given)`);
  checkArg("matrix", fn, "source", source, source === undefined || typeof source === "string", "a string");
  for (let k = 0; k < n; k++) {
    const r = rowOf[k]!,
      c = colOf[k]!;
    if (r < 0 || r >= rows) checkArg("matrix", fn, `rowOf[${k}]`, r, false, `an index in 0..${rows - 1}`);
    if (c < 0 || c >= cols) checkArg("matrix", fn, `colOf[${k}]`, c, false, `an index in 0..${cols - 1}`);
  }
  return sparseFromCoordinatesRaw(rows, cols, rowOf, colOf, n, source);
}

/** The stage index of every step. */
export function stageOfStep(s: Schedule): Uint32Array {
  checkScheduleArg("schedule", s, "stageOfStep");
  return stageOfStepRaw(s);
}

/** The step index of every transfer. */
export function stepOfTransfer(s: Schedule): Uint32Array {
  checkScheduleArg("schedule", s, "stepOfTransfer");
  return stepOfTransferRaw(s);
}

/** Checks p (an integer in 1..MAX_P) and peers (null, the full form, or a PeerIndex of p + 1 offsets). */
function checkSlots(fn: string, peers: unknown, p: number, field = "peers"): void {
  checkArg("program", fn, "p", p, isIntIn(p, 1, MAX_P), `an integer in 1..${MAX_P}`);
  const ok =
    peers === null ||
    (isOptionsObject(peers) &&
      peers["start"] instanceof Uint32Array &&
      peers["start"].length === p + 1 &&
      peers["peer"] instanceof Uint32Array);
  checkArg("program", fn, field, peers, ok, "null (the full form) or a PeerIndex { start: p + 1 offsets, peer }");
}

/** The first slot of rank r (full form: r * p). */
export function slotStart(peers: PeerIndex | null, p: number, r: number): number {
  checkSlots("slotStart", peers, p);
  checkArg("program", "slotStart", "r", r, isIntIn(r, 0, p), `a rank in 0..${p} (p: the end of the last)`);
  return slotStartRaw(peers, p, r);
}

/** The peer of slot k (full form: k mod p). */
export function slotPeer(peers: PeerIndex | null, p: number, k: number): number {
  checkSlots("slotPeer", peers, p);
  const n = slotCountRaw(peers, p);
  checkArg("program", "slotPeer", "k", k, isIntIn(k, 0, n - 1), `a slot in 0..${n - 1}`);
  return slotPeerRaw(peers, p, k);
}

/** The slot of rank r's block for peer j, or -1 when the peer form has none (a binary search in rank r's peers). */
export function slotOf(peers: PeerIndex | null, p: number, r: number, j: number): number {
  checkSlots("slotOf", peers, p);
  checkNode("program", "slotOf", "r", r, p);
  checkNode("program", "slotOf", "j", j, p);
  return slotOfRaw(peers, p, r, j);
}

/** The slots of every rank on one side: rank r's are start(r) .. start(r + 1) - 1. */
export function slotCount(peers: PeerIndex | null, p: number): number {
  checkSlots("slotCount", peers, p);
  return slotCountRaw(peers, p);
}

/** Checks a displacement lookup's layout side, rank and peer. */
function checkDispl(fn: string, layout: unknown, side: "send" | "recv", p: number, r: unknown, j: unknown): void {
  const ok = isOptionsObject(layout) && layout[`${side}Displs`] instanceof Float64Array;
  checkArg("program", fn, "layout", layout, ok, "a RankLayout (a program's layout)");
  checkSlots(fn, (layout as RankLayout)[`${side}Peers`], p, `layout.${side}Peers`);
  checkNode("program", fn, "r", r, p);
  checkNode("program", fn, side === "send" ? "j" : "i", j, p);
}

/** Rank r's send displacement for destination j (-1 when the peer form has no block for j). */
export function sendDisplOf(layout: RankLayout, p: number, r: number, j: number): number {
  checkDispl("sendDisplOf", layout, "send", p, r, j);
  return sendDisplOfRaw(layout, p, r, j);
}

/** Rank r's receive displacement for origin i (-1 when the peer form has no block for i). */
export function recvDisplOf(layout: RankLayout, p: number, r: number, i: number): number {
  checkDispl("recvDisplOf", layout, "recv", p, r, i);
  return recvDisplOfRaw(layout, p, r, i);
}
