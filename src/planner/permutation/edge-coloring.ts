/**
 * Bipartite edge colouring with exactly max-degree colours (Konig 1916): largest-first first-fit with priced
 * alternating-path (Kempe chain) repair, a heuristic for a small sum of colour maxima.
 */
import { prefixSums } from "../../internal/buckets.js";
import { progressTicker, type ProgressCallback } from "../../model/progress.js";

/**
 * A proper edge colouring of a bipartite (multi)graph, senders x receivers, with `colors` = max degree
 * colours, kept as two slot tables: `sendAt[u * colors + c]` is the edge of colour c at sender u
 * (or -1), `recvAt[v * colors + c]` the edge of colour c at receiver v.
 */
export interface BipartiteColoring {
  readonly colors: number;
  readonly sendAt: Int32Array;
  readonly recvAt: Int32Array;
  /** Alternating paths flipped while colouring. */
  readonly flips: number;
  /** Edges recoloured by those flips (the sum of path lengths). */
  readonly flippedEdges: number;
  /** Path steps walked while pricing repairs (the flips included). */
  readonly walked: number;
  /** `degreeThresholds` of the edges in the order they were coloured; their sum is `sumOfMaximaLowerBound`. */
  readonly thresholds: Float64Array;
}

const ctz = (x: number): number => 31 - Math.clz32(x & -x);

/**
 * The sizes at which the running max degree rises, taking edges in `orderDesc` (largest first):
 * `t[c]` is the size of the edge that raises it to c + 1, so t is non-increasing, has Delta entries,
 * and any colouring with whole edges has at least c + 1 colours whose largest edge is >= t[c].
 */
export function degreeThresholds(
  p: number,
  src: Uint32Array,
  dst: Uint32Array,
  size: Float64Array,
  orderDesc: Uint32Array,
): Float64Array {
  const out = new Uint32Array(p),
    inn = new Uint32Array(p);
  const t: number[] = [];
  for (let x = 0; x < orderDesc.length; x++) {
    const e = orderDesc[x]!;
    const a = ++out[src[e]!]!,
      b = ++inn[dst[e]!]!;
    if (a > t.length || b > t.length) t.push(size[e]!);
  }
  return Float64Array.from(t);
}

/** Candidate free colours tried at each end of an edge that needs a repair (so up to 2 K^2 alternating paths). */
const REPAIR_CANDIDATES = 2;
/** Once one candidate path has ended at length n, the others are walked at most CAP_FACTOR n + CAP_EXTRA steps. */
const CAP_FACTOR = 4,
  CAP_EXTRA = 16;

/** The colour slot tables of `colorBipartite` (see there). */
interface SlotTables {
  readonly D: number;
  readonly W: number;
  readonly sSlot: Int32Array;
  readonly rSlot: Int32Array;
  readonly sUsed: Uint32Array;
  readonly rUsed: Uint32Array;
}

// Puts the edge at position t (sender u, receiver v) into colour c. A module-level function, not a
// closure: per-call closures in colorBipartite's loop make V8 deoptimise it on every call
// (docs/algorithms/coloring.md).
function place(tb: SlotTables, t: number, u: number, v: number, c: number): void {
  const { D, W, sSlot, rSlot, sUsed, rUsed } = tb;
  const bit = 1 << (c & 31),
    w = c >>> 5,
    us = 2 * (u * D + c),
    vs = 2 * (v * D + c);
  sSlot[us] = t;
  sSlot[us + 1] = v;
  rSlot[vs] = t;
  rSlot[vs + 1] = u;
  sUsed[u * W + w]! |= bit;
  rUsed[v * W + w]! |= bit;
}

/**
 * Colours every edge with Delta = max-degree colours, a heuristic for a small sum over colours of the
 * largest edge (the problem is NP-hard in general; this is not an exact method). Edges are taken in
 * `order` (largest first; `size` must be non-increasing along it) and each colour remembers the largest
 * edge it has held, m[c]; every opened colour has m[c] >= the current edge, so putting the edge in an
 * opened colour costs nothing, and the cost of the colouring is the size of each edge that opens a
 * colour plus what alternating-path flips add to m.
 *
 * - The edge takes the lowest opened colour free at both ends (bitset AND over Delta / 32 words,
 *   starting at the first word with a free bit at both ends).
 * - If one end already has every opened colour, a new colour is opened (the degree forces it; this is
 *   the step the lower bound `degreeThresholds` counts).
 * - Otherwise (every opened colour is busy at one end or the other) a colour a free at u and b free at
 *   v exist among the opened ones. For up to K = 2 candidates a and K candidates b, both repairs are
 *   priced: flipping the a/b path from v frees a at v (it cannot reach u), flipping the b/a path from
 *   u frees b at u (Konig). A flip moves the path's a-edges to b and its b-edges to a; its cost is
 *   what that raises m[a] and m[b] by. The paths are walked in lockstep, a walk stops as soon as its
 *   partial cost reaches the best complete one, and once the first walk has ended at length n the others
 *   get at most 4 n + 16 steps. Opening a fresh colour early is priced too, at size - t[opened]
 *   (t from `degreeThresholds`: the colour would otherwise be opened later by an edge of size
 *   t[opened]); it is only possible while opened < Delta. The cheapest wins, ties to the shorter walk.
 *
 * Hot loop: edges are renumbered by their position in `order` (so a larger edge has a smaller number
 * and a path's largest edge is its smallest number, found without reading sizes), and each colour slot
 * holds the edge and its other end side by side, so a path step is one random memory access.
 * Time O(E Delta / 32 + walked path length); a path has at most 2P edges, and the capped lockstep walk
 * costs at most 2 K^2 (4 n + 16) for a flip of length n. Memory: two Int32 tables of 2 P Delta slots.
 * `progress`: edges coloured of E.
 */
export function colorBipartite(
  p: number,
  src: Uint32Array,
  dst: Uint32Array,
  size: Float64Array,
  order: Uint32Array,
  progress: ProgressCallback | null = null,
): BipartiteColoring {
  const thresholds = degreeThresholds(p, src, dst, size, order);
  const D = thresholds.length,
    E = order.length;
  // position t = the t-th edge of `order`: oSrc, oDst, oSize by position
  const oSrc = new Uint32Array(E),
    oDst = new Uint32Array(E),
    oSize = new Float64Array(E);
  for (let t = 0; t < E; t++) {
    const e = order[t]!;
    oSrc[t] = src[e]!;
    oDst[t] = dst[e]!;
    oSize[t] = size[e]!;
  }
  const st = colorState(p, D, oSize);
  const outDeg = new Uint32Array(p),
    inDeg = new Uint32Array(p);
  let opened = 0,
    flips = 0,
    flippedEdges = 0;
  const tick = progressTicker(progress, E);
  let mark = tick(0);
  // (no closures in this loop: per-call closures make V8 deoptimise it on every call)
  for (let t = 0; t < E; t++) {
    if (t >= mark) mark = tick(t);
    const u = oSrc[t]!,
      v = oDst[t]!,
      s = oSize[t]!;
    const du = ++outDeg[u]!,
      dv = ++inDeg[v]!;
    // a new colour when the degree forces it, else the lowest opened colour free at both ends
    let c = du > opened || dv > opened ? opened : lowestFreeAtBoth(st, u, v, opened);
    if (c < 0) {
      // every opened colour is busy at one end or the other: the cheapest repair, or a fresh colour early
      const bestW = cheapestRepair(st, u, v, opened, opened < D ? s - thresholds[opened]! : Infinity);
      if (bestW >= 0) {
        flippedEdges += flipPath(st, bestW, u, v);
        flips++;
        c = st.wFirst[bestW]!;
      } else if (opened === D) throw new Error("colorBipartite: internal error: no repair path ended");
      else c = opened; // opening a fresh colour is the cheapest option
    }
    if (c === opened) st.mPos[opened++] = t;
    place(st, t, u, v, c);
  }
  // back to edge numbers
  const sendAt = new Int32Array(p * D),
    recvAt = new Int32Array(p * D);
  for (let x = 0; x < p * D; x++) {
    const a = st.sSlot[2 * x]!,
      b = st.rSlot[2 * x]!;
    sendAt[x] = a < 0 ? -1 : order[a]!;
    recvAt[x] = b < 0 ? -1 : order[b]!;
  }
  tick(Infinity);
  return { colors: D, sendAt, recvAt, thresholds, flips, flippedEdges, walked: st.walked };
}

/** The working state of `colorBipartite`: slot tables, free-word hints, colour maxima and the repair walkers. */
interface ColorState extends SlotTables {
  /** Per node, a word below which every word of its used bitset is full (lowered on release). */
  readonly sLow: Uint32Array;
  readonly rLow: Uint32Array;
  /** mPos[c]: the position of the largest edge colour c has held (its size is m[c]). */
  readonly mPos: Int32Array;
  /** Edge sizes by position. */
  readonly oSize: Float64Array;
  readonly candA: Int32Array;
  readonly candB: Int32Array;
  // walker w follows colour wFirst, then wSecond, ...; even walkers start at v (a receiver), odd ones at u
  // wMinF / wMinS: the smallest position (largest edge) met on first- / second-colour edges
  readonly wFirst: Int32Array;
  readonly wSecond: Int32Array;
  readonly wNode: Int32Array;
  readonly wRecv: Uint8Array;
  readonly wAlive: Uint8Array;
  readonly wMinF: Int32Array;
  readonly wMinS: Int32Array;
  readonly wCost: Float64Array;
  /** A path to flip: (position, sender, receiver) triples read from the slots. */
  readonly path: Int32Array;
  /** Path steps walked while pricing repairs (the flips included). */
  walked: number;
}

/** The bits of word (opened - 1) >>> 5 that stand for colours below `opened`. */
function topMaskOf(opened: number): number {
  return opened & 31 ? (1 << (opened & 31)) - 1 : -1;
}

/** The lowest of the `opened` colours free at both sender u and receiver v, or -1. */
function lowestFreeAtBoth(st: ColorState, u: number, v: number, opened: number): number {
  const { W, sUsed, rUsed, sLow, rLow } = st;
  const ub = u * W,
    vb = v * W,
    top = (opened - 1) >>> 5,
    topMask = topMaskOf(opened);
  while (sLow[u]! < W && sUsed[ub + sLow[u]!] === 0xffffffff) sLow[u]!++;
  while (rLow[v]! < W && rUsed[vb + rLow[v]!] === 0xffffffff) rLow[v]!++;
  for (let w = Math.max(sLow[u]!, rLow[v]!); w <= top; w++) {
    let x = ~(sUsed[ub + w]! | rUsed[vb + w]!);
    if (w === top) x &= topMask;
    if (x !== 0) return (w << 5) + ctz(x);
  }
  return -1;
}

/**
 * Writes the lowest free opened colours of one node (bitset words used[base + low ..]) into out, at most out.length;
 * returns how many.
 */
function freeColours(used: Uint32Array, base: number, low: number, opened: number, out: Int32Array): number {
  const top = (opened - 1) >>> 5,
    topMask = topMaskOf(opened),
    K = out.length;
  let n = 0;
  for (let w = low; w <= top && n < K; w++) {
    for (let x = ~used[base + w]! & (w === top ? topMask : -1); x !== 0 && n < K; x &= x - 1)
      out[n++] = (w << 5) + ctz(x);
  }
  return n;
}

/**
 * Prices the repairs of edge (u, v) when no opened colour is free at both ends: sets up a walker
 * pair per candidate pair (a, b) and walks them in lockstep (see `colorBipartite`); returns the
 * winning walker, or -1 when opening a fresh colour at cost `best` is at least as cheap.
 */
function cheapestRepair(st: ColorState, u: number, v: number, opened: number, best: number): number {
  const { W, candA, candB, wFirst, wSecond, wNode, wRecv } = st;
  const nA = freeColours(st.sUsed, u * W, st.sLow[u]!, opened, candA);
  const nB = freeColours(st.rUsed, v * W, st.rLow[v]!, opened, candB);
  if (!(best > 0)) return -1;
  let nW = 0;
  for (let i = 0; i < nA; i++) {
    for (let j = 0; j < nB; j++) {
      const a = candA[i]!,
        b = candB[j]!;
      wFirst[nW] = a;
      wSecond[nW] = b;
      wNode[nW] = v;
      wRecv[nW] = 1;
      nW++; // from v: frees a at v, the edge gets a
      wFirst[nW] = b;
      wSecond[nW] = a;
      wNode[nW] = u;
      wRecv[nW] = 0;
      nW++; // from u: frees b at u, the edge gets b
    }
  }
  return walkRepairs(st, nW, best);
}

/**
 * Walks the nW repair walkers in lockstep, each stopping once its partial cost reaches `best`; returns the cheapest
 * complete one, or -1.
 */
function walkRepairs(st: ColorState, nW: number, best: number): number {
  const { D, sSlot, rSlot, mPos, oSize, wFirst, wSecond, wNode, wRecv, wAlive, wMinF, wMinS, wCost } = st;
  const E = oSize.length;
  wMinF.fill(E, 0, nW);
  wMinS.fill(E, 0, nW);
  wCost.fill(0, 0, nW);
  wAlive.fill(1, 0, nW);
  let alive = nW,
    cap = Infinity,
    bestW = -1;
  for (let n = 0; alive > 0 && n < cap && best > 0; n++) {
    const odd = n & 1;
    for (let w = 0; w < nW; w++) {
      if (wAlive[w] === 0) continue;
      const recv = wRecv[w] === 1,
        slot = 2 * (wNode[w]! * D + (odd ? wSecond[w]! : wFirst[w]!));
      const f = recv ? rSlot[slot]! : sSlot[slot]!;
      st.walked++;
      if (f < 0) {
        if (wCost[w]! < best) {
          best = wCost[w]!;
          bestW = w;
          if (cap === Infinity) cap = CAP_FACTOR * n + CAP_EXTRA;
        }
        wAlive[w] = 0;
        alive--;
        continue;
      }
      // first-colour edges move to wSecond, second-colour edges to wFirst: cost = what that raises m by
      if (odd === 0 ? f < wMinF[w]! : f < wMinS[w]!) {
        if (odd === 0) wMinF[w] = f;
        else wMinS[w] = f;
        const mf = wMinF[w]!,
          ms = wMinS[w]!,
          toS = mPos[wSecond[w]!]!,
          toF = mPos[wFirst[w]!]!;
        wCost[w] = (mf < toS ? oSize[mf]! - oSize[toS]! : 0) + (ms < toF ? oSize[ms]! - oSize[toF]! : 0);
      }
      if (wCost[w]! >= best) {
        wAlive[w] = 0;
        alive--;
        continue;
      }
      wNode[w] = recv ? rSlot[slot + 1]! : sSlot[slot + 1]!;
      wRecv[w] = recv ? 0 : 1;
    }
  }
  return bestW;
}

/**
 * Flips walker bestW's path (from v when bestW is even, else from u): its first-colour edges to its second colour and
 * back; returns the path length.
 */
function flipPath(st: ColorState, bestW: number, u: number, v: number): number {
  const { D, W, sSlot, rSlot, sUsed, rUsed, sLow, rLow, mPos, path } = st;
  const first = st.wFirst[bestW]!,
    second = st.wSecond[bestW]!;
  let node = bestW % 2 === 0 ? v : u,
    recv = bestW % 2 === 0,
    n = 0;
  for (;;) {
    const slot = 2 * (node * D + (n % 2 === 0 ? first : second));
    const f = recv ? rSlot[slot]! : sSlot[slot]!;
    if (f < 0) break;
    const other = recv ? rSlot[slot + 1]! : sSlot[slot + 1]!;
    path[3 * n] = f;
    path[3 * n + 1] = recv ? other : node;
    path[3 * n + 2] = recv ? node : other;
    n++;
    node = other;
    recv = !recv;
  }
  for (let x = 0; x < n; x++) {
    const pu = path[3 * x + 1]!,
      pv = path[3 * x + 2]!,
      pc = x % 2 === 0 ? first : second;
    const bit = ~(1 << (pc & 31)),
      w = pc >>> 5;
    sSlot[2 * (pu * D + pc)] = -1;
    rSlot[2 * (pv * D + pc)] = -1;
    sUsed[pu * W + w]! &= bit;
    rUsed[pv * W + w]! &= bit;
    if (w < sLow[pu]!) sLow[pu] = w;
    if (w < rLow[pv]!) rLow[pv] = w;
  }
  for (let x = 0; x < n; x++) {
    const f = path[3 * x]!,
      pc = x % 2 === 0 ? second : first;
    place(st, f, path[3 * x + 1]!, path[3 * x + 2]!, pc);
    if (f < mPos[pc]!) mPos[pc] = f;
  }
  return n;
}

/** The state for colouring E edges of p nodes with D colours, edge sizes by position oSize. */
function colorState(p: number, D: number, oSize: Float64Array): ColorState {
  const W = (D + 31) >>> 5,
    K = REPAIR_CANDIDATES,
    NW = 2 * K * K;
  return {
    D,
    W,
    // slot (x, c): [2 (x D + c)] = the position of the edge of colour c at x (or -1), [+1] = its other end
    sSlot: new Int32Array(2 * p * D).fill(-1),
    rSlot: new Int32Array(2 * p * D).fill(-1),
    // used-colour bitsets
    sUsed: new Uint32Array(p * W),
    rUsed: new Uint32Array(p * W),
    sLow: new Uint32Array(p),
    rLow: new Uint32Array(p),
    mPos: new Int32Array(D),
    oSize,
    candA: new Int32Array(K),
    candB: new Int32Array(K),
    wFirst: new Int32Array(NW),
    wSecond: new Int32Array(NW),
    wNode: new Int32Array(NW),
    wRecv: new Uint8Array(NW),
    wAlive: new Uint8Array(NW),
    wMinF: new Int32Array(NW),
    wMinS: new Int32Array(NW),
    wCost: new Float64Array(NW),
    path: new Int32Array(3 * (2 * p + 2)),
    walked: 0,
  };
}

/**
 * Edge indices sorted by size, largest first, ties by index: a stable LSD radix sort on the bits of
 * the doubles (non-negative doubles order as their 64-bit patterns), 16-bit digits (8-bit below 2^16
 * edges, where clearing 2^16 counters would dominate), digits that are the same for every edge
 * skipped; O(E) time, no comparator calls.
 */
export function orderBySizeDesc(size: Float64Array): Uint32Array {
  const n = size.length;
  let order = new Uint32Array(n),
    tmp = new Uint32Array(n);
  for (let x = 0; x < n; x++) order[x] = x;
  if (n === 0) return order;
  const words = new Uint32Array(size.buffer, size.byteOffset, 2 * n); // little-endian: lo, hi
  if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1)
    throw new Error("orderBySizeDesc: big-endian platforms are not supported");
  const bits = n < 1 << 16 ? 8 : 16,
    mask = (1 << bits) - 1,
    perWord = 32 / bits;
  const count = new Uint32Array(mask + 2);
  for (let digit = 0; digit < 64 / bits; digit++) {
    const word = Math.floor(digit / perWord),
      shift = (digit % perWord) * bits;
    count.fill(0);
    // bucket mask - digit (largest first), counted one slot up for the prefix sums
    for (let e = 0; e < n; e++) count[mask - ((words[2 * e + word]! >>> shift) & mask) + 1]!++;
    if (count[mask - ((words[word]! >>> shift) & mask) + 1] === n) continue; // every edge has edge 0's digit
    prefixSums(count, mask + 1);
    for (let x = 0; x < n; x++) {
      const e = order[x]!;
      tmp[count[mask - ((words[2 * e + word]! >>> shift) & mask)]!++] = e;
    }
    [order, tmp] = [tmp, order];
  }
  return order;
}

/**
 * A lower bound on the sum over phases of the largest message, for any decomposition into partial
 * permutations that does not split messages. For a threshold x, the messages of size >= x at one
 * node must be in distinct phases, so at least Delta(x) = max degree of the subgraph of messages
 * >= x phases have a maximum >= x; sum of maxima = integral over x of #{phases with maximum >= x}
 * >= integral of Delta(x) dx. Taking messages largest first, the integral is the sum of the sizes
 * of the messages that raise the running max degree. It is >= t (the largest row or column
 * traffic, the integral of one node's degree) >= M_max.
 */
export function sumOfMaximaLowerBound(
  p: number,
  src: Uint32Array,
  dst: Uint32Array,
  size: Float64Array,
  orderDesc: Uint32Array,
): number {
  return degreeThresholds(p, src, dst, size, orderDesc).reduce((x, y) => x + y, 0);
}

/** The largest edge size of every colour (0 for an unused colour). */
export function colorMaxima(p: number, col: BipartiteColoring, size: Float64Array): Float64Array {
  const D = col.colors;
  const max = new Float64Array(D);
  for (let u = 0; u < p; u++) {
    for (let c = 0; c < D; c++) {
      const e = col.sendAt[u * D + c]!;
      if (e >= 0 && size[e]! > max[c]!) max[c] = size[e]!;
    }
  }
  return max;
}

/**
 * Lowers the sum of colour maxima without changing the number of colours. For a pair of colours
 * (a, b), a the heavier, the a/b subgraph is a union of alternating paths and even cycles; each
 * component may swap its two colours. Orienting every component so that its larger edge is in a
 * is optimal for the pair (each colour gets at least every component's smaller side, and one
 * colour gets the overall maximum) and never raises max(a) + max(b). Pairs are visited heaviest
 * first, (c_0, c_1), (c_0, c_2), ..., (c_1, c_2), ...; each pair costs O(P + its edges), and the
 * passes stop after `budget` node visits, or when a round (c_i, *) lowered no maximum in its first eight
 * pairs (on regular graphs the a/b subgraphs are long cycles and nothing can be gained). Returns the new maxima
 * (colouring updated in place).
 * `progress`: the work (node and edge visits) of the budget, once per pair.
 */
export function improveSumOfMaxima(
  p: number,
  col: BipartiteColoring,
  src: Uint32Array,
  dst: Uint32Array,
  size: Float64Array,
  budget: number,
  progress: ProgressCallback | null = null,
): Float64Array {
  const D = col.colors,
    { sendAt, recvAt } = col;
  const max = colorMaxima(p, col, size);
  const tick = progressTicker(progress, budget);
  let tickMark = tick(0);
  if (D < 2) {
    tick(Infinity);
    return max;
  }
  const stamp = new Int32Array(src.length).fill(-1);
  const stack = new Int32Array(2 * p + 2); // edge * 2 + (1 if colour b)
  const comp = new Int32Array(2 * p + 2);
  let pairId = 0,
    work = 0;
  const rank = Array.from({ length: D }, (_, c) => c).sort((x, y) => max[y]! - max[x]! || x - y);
  for (let i = 0; i < D && work < budget; i++) {
    let gained = false;
    for (let k = i + 1; k < D && work < budget; k++) {
      if (!gained && k - i > 8) break; // eight pairs in a row without a gain: give up the round
      let a = rank[i]!,
        b = rank[k]!;
      if (max[a]! < max[b]!) [a, b] = [b, a]; // a is the heavier; max[a] is kept, max[b] can only drop
      if (max[b] === 0) continue;
      if (work >= tickMark) tickMark = tick(work);
      pairId++;
      work += p;
      let newB = 0;
      for (let u = 0; u < p; u++) {
        for (let side = 0; side < 2; side++) {
          const e0 = sendAt[u * D + (side === 0 ? a : b)]!;
          if (e0 < 0 || stamp[e0] === pairId) continue;
          // collect the component of e0
          let top = 0,
            n = 0,
            maxA = 0,
            maxB = 0;
          stamp[e0] = pairId;
          stack[top++] = e0 * 2 + side;
          while (top > 0) {
            const x = stack[--top]!;
            comp[n++] = x;
            const e = x >> 1,
              isB = x & 1;
            if (isB) {
              if (size[e]! > maxB) maxB = size[e]!;
            } else if (size[e]! > maxA) maxA = size[e]!;
            const other = isB ? a : b;
            const f = sendAt[src[e]! * D + other]!;
            if (f >= 0 && stamp[f] !== pairId) {
              stamp[f] = pairId;
              stack[top++] = f * 2 + (1 - isB);
            }
            const g = recvAt[dst[e]! * D + other]!;
            if (g >= 0 && stamp[g] !== pairId) {
              stamp[g] = pairId;
              stack[top++] = g * 2 + (1 - isB);
            }
          }
          work += n;
          if (maxB > maxA) {
            for (let y = 0; y < n; y++) {
              const e = comp[y]! >> 1,
                c = comp[y]! & 1 ? b : a;
              sendAt[src[e]! * D + c] = -1;
              recvAt[dst[e]! * D + c] = -1;
            }
            for (let y = 0; y < n; y++) {
              const e = comp[y]! >> 1,
                c = comp[y]! & 1 ? a : b;
              sendAt[src[e]! * D + c] = e;
              recvAt[dst[e]! * D + c] = e;
            }
            if (maxA > newB) newB = maxA;
          } else if (maxB > newB) newB = maxB;
        }
      }
      if (newB < max[b]!) gained = true;
      max[b] = newB;
    }
    if (!gained) break; // a whole round against colour rank[i] gained nothing: later rounds rarely do
  }
  tick(Infinity);
  return max;
}
