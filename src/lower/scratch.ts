/**
 * Scratch: places relayed elements in each rank's scratch buffer by lifetime (first fit by arrival round) and measures
 * the lower bound.
 */
import { fail } from "../model/errors.js";
import { growF64, growU32 } from "../internal/growable.js";

/**
 * Where every departure piece lies in its rank's scratch, each hold's pieces in element order, and the per-rank sizes.
 */
export interface ScratchPlan {
  /** Scratch offset of each departure piece. */
  readonly dpOffset: Float64Array;
  /** Departure pieces of hold h, in element order: holdDps[holdDpStart[h] .. holdDpStart[h + 1]). */
  readonly holdDpStart: Uint32Array;
  readonly holdDps: Uint32Array;
  /** Scratch elements each rank needs. */
  readonly size: Float64Array;
  /** Lower bound: the peak of simultaneously live relayed elements at each rank. */
  readonly peak: Float64Array;
}

/**
 * Elements live from the round they arrive to the round they leave, both included (within a round,
 * sends read their pieces while receives write theirs). Departure pieces with the same (rank,
 * arrival round, departure round) form one block, laid out in arrival order (so a received message
 * lands in few pieces); each rank's blocks are placed first-fit in order of arrival round (longest
 * lifetime first on ties) among the blocks still live.
 */
export function allocateScratch(
  p: number,
  rounds: number,
  holdNode: Uint32Array,
  holdRound: Uint32Array,
  nHold: number,
  dpHold: Uint32Array,
  dpInner: Float64Array,
  dpCnt: Float64Array,
  dpRound: Uint32Array,
  nDp: number,
): ScratchPlan {
  // Departure pieces by hold, each hold's in element order (insertion sort: a hold has few).
  const holdDpStart = new Uint32Array(nHold + 1);
  for (let e = 0; e < nDp; e++) {
    const i = dpHold[e]! + 1;
    holdDpStart[i] = holdDpStart[i]! + 1;
  }
  for (let h = 0; h < nHold; h++) holdDpStart[h + 1] = holdDpStart[h + 1]! + holdDpStart[h]!;
  const fill = holdDpStart.slice(0, nHold);
  const holdDps = new Uint32Array(nDp);
  for (let e = 0; e < nDp; e++) {
    const h = dpHold[e]!;
    let at = fill[h]!++;
    while (at > holdDpStart[h]! && dpInner[holdDps[at - 1]!]! > dpInner[e]!) {
      holdDps[at] = holdDps[at - 1]!;
      at--;
    }
    holdDps[at] = e;
  }
  if (rounds * rounds * p > Number.MAX_SAFE_INTEGER)
    throw fail("lower", "UNSUPPORTED", `too many rounds (${rounds}) to index scratch blocks`);
  // Blocks (rank, arrival, departure), numbered in order of first appearance; positions inside them in hold order.
  const blockOf = new BlockIndex();
  const bNode = growU32(),
    bStart = growU32(),
    bEnd = growU32(),
    bSize = growF64();
  const dpPos = new Float64Array(nDp),
    dpBlock = new Uint32Array(nDp);
  for (let h = 0; h < nHold; h++) {
    const node = holdNode[h]!,
      sa = holdRound[h]!;
    for (let q = holdDpStart[h]!; q < holdDpStart[h + 1]!; q++) {
      const e = holdDps[q]!,
        sd = dpRound[e]!;
      let b = blockOf.get((sa * rounds + sd) * p + node, bNode.length);
      if (b === bNode.length) {
        bNode.push(node);
        bStart.push(sa);
        bEnd.push(sd);
        b = bSize.push(0);
      }
      dpPos[e] = bSize.data[b]!;
      dpBlock[e] = b;
      bSize.data[b] = bSize.data[b]! + dpCnt[e]!;
    }
  }
  const { base, size, peak } = placeBlocks(p, bNode.length, bNode.data, bStart.data, bEnd.data, bSize.data);
  const dpOffset = new Float64Array(nDp);
  for (let e = 0; e < nDp; e++) dpOffset[e] = base[dpBlock[e]!]! + dpPos[e]!;
  return { dpOffset, holdDpStart, holdDps, size, peak };
}

/**
 * An open-addressing map from integer keys (< 2^53) to block numbers, in typed arrays: a JS Map of
 * keys past 2^31 (not small integers) is slow to look up (docs/lowering.md has the figure).
 */
class BlockIndex {
  private keys = new Float64Array(1024).fill(-1);
  private vals = new Uint32Array(1024);
  private n = 0;

  /** The value of `key`, or `fresh` after storing it for `key` when the key is new. */
  get(key: number, fresh: number): number {
    if (2 * (this.n + 1) > this.keys.length) this.grow();
    const keys = this.keys,
      mask = keys.length - 1;
    let i = slot(key, mask);
    for (;;) {
      const k = keys[i]!;
      if (k === key) return this.vals[i]!;
      if (k === -1) break;
      i = (i + 1) & mask;
    }
    keys[i] = key;
    this.vals[i] = fresh;
    this.n++;
    return fresh;
  }

  private grow(): void {
    const oldKeys = this.keys,
      oldVals = this.vals;
    const keys = new Float64Array(oldKeys.length * 2).fill(-1),
      vals = new Uint32Array(oldKeys.length * 2);
    const mask = keys.length - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      const k = oldKeys[j]!;
      if (k === -1) continue;
      let i = slot(k, mask);
      while (keys[i] !== -1) i = (i + 1) & mask;
      keys[i] = k;
      vals[i] = oldVals[j]!;
    }
    this.keys = keys;
    this.vals = vals;
  }
}

/** The home slot of an integer key below 2^53 (both 32-bit halves mixed). */
function slot(key: number, mask: number): number {
  const lo = key >>> 0,
    hi = (key / 4294967296) >>> 0;
  return (Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 7) & mask;
}

/**
 * First fit per rank: each rank's blocks in order of arrival round (longest lifetime first on
 * ties, then block number), placed in the lowest free gap that holds them, after the blocks whose
 * last round is before that arrival are freed. The peak is the most elements live in one round.
 */
function placeBlocks(
  p: number,
  nb: number,
  bNode: Uint32Array,
  bStart: Uint32Array,
  bEnd: Uint32Array,
  bSize: Float64Array,
): { base: Float64Array; size: Float64Array; peak: Float64Array } {
  // the blocks of each rank, in block order (a counting sort)
  const nodeStart = new Uint32Array(p + 1);
  for (let b = 0; b < nb; b++) nodeStart[bNode[b]! + 1]!++;
  for (let r = 0; r < p; r++) nodeStart[r + 1] = nodeStart[r + 1]! + nodeStart[r]!;
  const byNode = new Uint32Array(nb),
    byEnd = new Uint32Array(nb);
  const at = nodeStart.slice(0, p);
  for (let b = 0; b < nb; b++) byNode[at[bNode[b]!]!++] = b;
  byEnd.set(byNode);
  const base = new Float64Array(nb),
    size = new Float64Array(p),
    peak = new Float64Array(p);
  for (let r = 0; r < p; r++) {
    const lo = nodeStart[r]!,
      hi = nodeStart[r + 1]!;
    if (lo === hi) continue;
    const list = byNode.subarray(lo, hi),
      ends = byEnd.subarray(lo, hi);
    list.sort((x, y) => bStart[x]! - bStart[y]! || bEnd[y]! - bEnd[x]! || x - y);
    ends.sort((x, y) => bEnd[x]! - bEnd[y]! || x - y);
    // Free space as gaps sorted by offset; the last gap is [end of everything placed, infinity).
    const gOff: number[] = [0],
      gLen: number[] = [Infinity];
    let top = 0,
      live = 0,
      best = 0,
      freed = 0;
    for (let i = 0; i < list.length; i++) {
      const b = list[i]!,
        sa = bStart[b]!;
      // blocks whose last round is before this arrival (placed already: they arrived earlier)
      while (freed < ends.length && bEnd[ends[freed]!]! < sa) {
        const o = ends[freed++]!;
        freeGap(gOff, gLen, base[o]!, bSize[o]!);
        live -= bSize[o]!;
      }
      const need = bSize[b]!;
      let g = 0;
      while (gLen[g]! < need) g++;
      const off = gOff[g]!;
      if (gLen[g] === need) {
        gOff.splice(g, 1);
        gLen.splice(g, 1);
      } else {
        gOff[g] = off + need;
        gLen[g] = gLen[g]! - need;
      }
      base[b] = off;
      top = Math.max(top, off + need);
      live += need;
      best = Math.max(best, live);
    }
    size[r] = top;
    peak[r] = best;
  }
  return { base, size, peak };
}

/** Returns [off, off + len) to the free gaps (sorted by offset), merging it with its neighbours. */
function freeGap(gOff: number[], gLen: number[], off: number, len: number): void {
  if (len === 0) return;
  let lo = 0,
    hi = gOff.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (gOff[mid]! < off) lo = mid + 1;
    else hi = mid;
  }
  // lo: the first gap after the freed range (the last gap is infinite, so one always exists).
  const prev = lo - 1;
  const joinsPrev = prev >= 0 && gOff[prev]! + gLen[prev]! === off;
  const joinsNext = off + len === gOff[lo];
  if (joinsPrev && joinsNext) {
    gLen[prev] = gLen[prev]! + len + gLen[lo]!;
    gOff.splice(lo, 1);
    gLen.splice(lo, 1);
  } else if (joinsPrev) gLen[prev] = gLen[prev]! + len;
  else if (joinsNext) {
    gOff[lo] = off;
    gLen[lo] = gLen[lo]! + len;
  } else {
    gOff.splice(lo, 0, off);
    gLen.splice(lo, 0, len);
  }
}
