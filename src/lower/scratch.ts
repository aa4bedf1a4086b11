/** Scratch: places relayed elements in each rank's scratch buffer by lifetime (first fit by arrival round) and measures the lower bound. */
import { fail } from "../model/errors.js";

/** Where every departure piece lies in its rank's scratch, each hold's pieces in element order, and the per-rank sizes. */
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
  // Blocks (rank, arrival, departure); positions inside them in hold order.
  const blockOf = new Map<number, number>();
  const bNode: number[] = [],
    bStart: number[] = [],
    bEnd: number[] = [],
    bSize: number[] = [];
  const dpPos = new Float64Array(nDp),
    dpBlock = new Uint32Array(nDp);
  for (let h = 0; h < nHold; h++) {
    const node = holdNode[h]!,
      sa = holdRound[h]!;
    for (let q = holdDpStart[h]!; q < holdDpStart[h + 1]!; q++) {
      const e = holdDps[q]!,
        sd = dpRound[e]!;
      const key = (sa * rounds + sd) * p + node;
      let b = blockOf.get(key);
      if (b === undefined) {
        b = bNode.length;
        blockOf.set(key, b);
        bNode.push(node);
        bStart.push(sa);
        bEnd.push(sd);
        bSize.push(0);
      }
      dpPos[e] = bSize[b]!;
      dpBlock[e] = b;
      bSize[b] = bSize[b]! + dpCnt[e]!;
    }
  }
  // First fit per rank.
  const nb = bNode.length;
  const byNode: number[][] = Array.from({ length: p }, () => []);
  for (let b = 0; b < nb; b++) byNode[bNode[b]!]!.push(b);
  const base = new Float64Array(nb),
    size = new Float64Array(p),
    peak = new Float64Array(p);
  for (let r = 0; r < p; r++) {
    const list = byNode[r]!;
    if (list.length === 0) continue;
    list.sort((x, y) => bStart[x]! - bStart[y]! || bEnd[y]! - bEnd[x]! || x - y);
    // Free space as gaps sorted by offset; the last gap is [end of everything placed, infinity).
    const gOff: number[] = [0],
      gLen: number[] = [Infinity];
    let liveBlocks: number[] = [];
    let top = 0,
      now = -1;
    for (const b of list) {
      const sa = bStart[b]!;
      if (sa !== now) {
        now = sa;
        const still: number[] = [];
        for (const o of liveBlocks)
          if (bEnd[o]! >= sa) still.push(o);
          else freeGap(gOff, gLen, base[o]!, bSize[o]!);
        liveBlocks = still;
      }
      const need = bSize[b]!;
      let g = 0;
      while (gLen[g]! < need) g++;
      const at = gOff[g]!;
      if (gLen[g] === need) {
        gOff.splice(g, 1);
        gLen.splice(g, 1);
      } else {
        gOff[g] = at + need;
        gLen[g] = gLen[g]! - need;
      }
      base[b] = at;
      liveBlocks.push(b);
      top = Math.max(top, at + need);
    }
    size[r] = top;
    // Lower bound: the most elements live in one round (sweep over arrival / departure events).
    const ev: [number, number][] = [];
    for (const b of list) ev.push([bStart[b]!, bSize[b]!], [bEnd[b]! + 1, -bSize[b]!]);
    ev.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    let live = 0,
      best = 0;
    for (const [, dz] of ev) {
      live += dz;
      best = Math.max(best, live);
    }
    peak[r] = best;
  }
  const dpOffset = new Float64Array(nDp);
  for (let e = 0; e < nDp; e++) dpOffset[e] = base[dpBlock[e]!]! + dpPos[e]!;
  return { dpOffset, holdDpStart, holdDps, size, peak };
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
