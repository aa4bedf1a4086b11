/** Exact bipartite edge colouring with max-degree colours: first-fit plus alternating-path (Kempe chain) repair (Konig 1916). */

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
}

const ctz = (x: number): number => 31 - Math.clz32(x & -x);

/** Max degree of the bipartite (multi)graph with edges src[e] -> dst[e] over P senders and P receivers. */
export function maxDegree(p: number, src: Uint32Array, dst: Uint32Array): number {
  const out = new Uint32Array(p), inn = new Uint32Array(p);
  let d = 0;
  for (let e = 0; e < src.length; e++) {
    const a = ++out[src[e]!]!, b = ++inn[dst[e]!]!;
    if (a > d) d = a;
    if (b > d) d = b;
  }
  return d;
}

/**
 * Colours every edge with one of Delta = max-degree colours, taking edges in `order`, so that every
 * prefix of `order` with max degree k uses colours 0 .. k - 1 only (nested colourings). Edge (u, v)
 * gets the lowest colour free at both ends (bitset AND, O(Delta / 32)) if it is below k, the max
 * degree of the prefix up to and including the edge; otherwise, with a < k the highest colour free
 * at u and b < k the highest free at v (both exist: u and v had degree < k before the edge), the a/b
 * alternating path from v is flipped, after which a is free at both (the path cannot reach u: it
 * would have to enter u by an a-edge, and a is free at u). That is Konig's proof made incremental:
 * O(E Delta / 32 + total path length), paths at most 2P edges, so O(E P) in the worst case.
 * With `order` largest first, colour c only holds edges no larger than the edge that raised the
 * prefix degree to c + 1, so the sum over colours of the largest edge equals sumOfMaximaLowerBound:
 * optimal among all colourings with whole edges.
 * Memory: two Int32 tables of P * Delta slots (at most the size of the dense matrix).
 */
export function colorBipartite(p: number, src: Uint32Array, dst: Uint32Array, order: Uint32Array): BipartiteColoring {
  const D = maxDegree(p, src, dst);
  const sendAt = new Int32Array(p * D).fill(-1);
  const recvAt = new Int32Array(p * D).fill(-1);
  const W = (D + 31) >>> 5;
  const sFree = new Uint32Array(p * W), rFree = new Uint32Array(p * W);
  if (D > 0) {
    const tail = D & 31 ? (2 ** (D & 31) - 1) >>> 0 : 0xffffffff;
    for (let x = 0; x < p; x++) {
      sFree.fill(0xffffffff, x * W, x * W + W - 1);
      rFree.fill(0xffffffff, x * W, x * W + W - 1);
      sFree[x * W + W - 1] = tail;
      rFree[x * W + W - 1] = tail;
    }
  }
  const assign = (e: number, c: number): void => {
    const u = src[e]!, v = dst[e]!, bit = ~(1 << (c & 31)), w = c >>> 5;
    sendAt[u * D + c] = e;
    recvAt[v * D + c] = e;
    sFree[u * W + w]! &= bit;
    rFree[v * W + w]! &= bit;
  };
  const unassign = (e: number, c: number): void => {
    const u = src[e]!, v = dst[e]!, bit = 1 << (c & 31), w = c >>> 5;
    sendAt[u * D + c] = -1;
    recvAt[v * D + c] = -1;
    sFree[u * W + w]! |= bit;
    rFree[v * W + w]! |= bit;
  };
  // the highest free colour below `limit` (bits of colours >= D are never set)
  const lastFree = (bits: Uint32Array, base: number, limit: number): number => {
    const top = (limit - 1) >>> 5, r = limit & 31;
    for (let w = top; w >= 0; w--) {
      let x = bits[base + w]!;
      if (w === top && r !== 0) x &= (2 ** r - 1) >>> 0;
      if (x !== 0) return (w << 5) + 31 - Math.clz32(x);
    }
    return -1;
  };
  const outDeg = new Uint32Array(p), inDeg = new Uint32Array(p);
  let cur = 0; // max degree of the edges coloured so far: they use colours < cur only
  const path = new Int32Array(2 * p + 2), path2 = new Int32Array(2 * p + 2);
  let flips = 0, flippedEdges = 0;
  for (let t = 0; t < order.length; t++) {
    const e = order[t]!;
    const u = src[e]!, v = dst[e]!;
    const ub = u * W, vb = v * W;
    const du = ++outDeg[u]!, dv = ++inDeg[v]!;
    if (du > cur || dv > cur) cur++;
    let c = -1;
    for (let w = 0; w < W; w++) {
      const x = sFree[ub + w]! & rFree[vb + w]!;
      if (x !== 0) {
        c = (w << 5) + ctz(x);
        break;
      }
    }
    if (c >= cur) c = -1;
    if (c < 0) {
      // a < cur free at u, b < cur free at v (degrees were < cur before this edge); the a/b path
      // stays below cur, so the prefix keeps cur colours
      const a = lastFree(sFree, ub, cur), b = lastFree(rFree, vb, cur);
      // two candidate paths, walked in lockstep, the first to end is flipped:
      // from v: v -a-> sender -b-> receiver -a-> ... (flipping frees a at v; it cannot reach u);
      // from u: u -b-> receiver -a-> sender -b-> ... (flipping frees b at u; it cannot reach v)
      let n1 = 0, n2 = 0, node1 = v, node2 = u, recv1 = true, recv2 = false, done = 0;
      for (;;) {
        const f1 = recv1 ? recvAt[node1 * D + a]! : sendAt[node1 * D + b]!;
        if (f1 < 0) { done = 1; break; }
        path[n1++] = f1;
        node1 = recv1 ? src[f1]! : dst[f1]!;
        recv1 = !recv1;
        const f2 = recv2 ? recvAt[node2 * D + a]! : sendAt[node2 * D + b]!;
        if (f2 < 0) { done = 2; break; }
        path2[n2++] = f2;
        node2 = recv2 ? src[f2]! : dst[f2]!;
        recv2 = !recv2;
      }
      const n = done === 1 ? n1 : n2, pth = done === 1 ? path : path2;
      // path 1 alternates a, b, a, ...; path 2 alternates b, a, b, ...
      const first = done === 1 ? a : b, second = done === 1 ? b : a;
      for (let x = 0; x < n; x++) unassign(pth[x]!, x % 2 === 0 ? first : second);
      for (let x = 0; x < n; x++) assign(pth[x]!, x % 2 === 0 ? second : first);
      c = done === 1 ? a : b;
      flips++;
      flippedEdges += n;
    }
    assign(e, c);
  }
  return { colors: D, sendAt, recvAt, flips, flippedEdges };
}

/**
 * Edge indices sorted by size, largest first, ties by index: a stable LSD radix sort on the bits of
 * the doubles (non-negative doubles order as their 64-bit patterns), four 16-bit digits, digits
 * that are the same for every edge skipped; O(E) time, no comparator calls.
 */
export function orderBySizeDesc(size: Float64Array): Uint32Array {
  const n = size.length;
  let order = new Uint32Array(n), tmp = new Uint32Array(n);
  for (let x = 0; x < n; x++) order[x] = x;
  const words = new Uint32Array(size.buffer, size.byteOffset, 2 * n); // little-endian: lo, hi
  if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) throw new Error("orderBySizeDesc: big-endian platforms are not supported");
  const count = new Uint32Array(65537);
  for (let digit = 0; digit < 4; digit++) {
    const word = digit >> 1, shift = (digit & 1) * 16;
    count.fill(0);
    for (let e = 0; e < n; e++) count[0xffff - ((words[2 * e + word]! >>> shift) & 0xffff) + 1]!++;
    let skip = false;
    for (let k = 1; k <= 65536; k++) if (count[k] === n) skip = true;
    if (skip) continue;
    for (let k = 0; k < 65536; k++) count[k + 1]! += count[k]!;
    for (let x = 0; x < n; x++) {
      const e = order[x]!;
      tmp[count[0xffff - ((words[2 * e + word]! >>> shift) & 0xffff)]!++] = e;
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
export function sumOfMaximaLowerBound(p: number, src: Uint32Array, dst: Uint32Array, size: Float64Array, orderDesc: Uint32Array): number {
  const out = new Uint32Array(p), inn = new Uint32Array(p);
  let d = 0, lb = 0;
  for (let t = 0; t < orderDesc.length; t++) {
    const e = orderDesc[t]!;
    const a = ++out[src[e]!]!, b = ++inn[dst[e]!]!;
    if (a > d || b > d) {
      d++;
      lb += size[e]!;
    }
  }
  return lb;
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
 * pairs (on regular graphs the a/b subgraphs are long cycles and nothing can be gained). Returns the new maxima (colouring updated in place).
 */
export function improveSumOfMaxima(p: number, col: BipartiteColoring, src: Uint32Array, dst: Uint32Array, size: Float64Array, budget: number): Float64Array {
  const D = col.colors, { sendAt, recvAt } = col;
  const max = colorMaxima(p, col, size);
  if (D < 2) return max;
  const stamp = new Int32Array(src.length).fill(-1);
  const stack = new Int32Array(2 * p + 2); // edge * 2 + (1 if colour b)
  const comp = new Int32Array(2 * p + 2);
  let pairId = 0, work = 0;
  const rank = Array.from({ length: D }, (_, c) => c).sort((x, y) => max[y]! - max[x]! || x - y);
  for (let i = 0; i < D && work < budget; i++) {
    let gained = false;
    for (let k = i + 1; k < D && work < budget; k++) {
      if (!gained && k - i > 8) break; // eight pairs in a row without a gain: give up the round
      let a = rank[i]!, b = rank[k]!;
      if (max[a]! < max[b]!) [a, b] = [b, a]; // a is the heavier; max[a] is kept, max[b] can only drop
      if (max[b] === 0) continue;
      pairId++;
      work += p;
      let newB = 0;
      for (let u = 0; u < p; u++) {
        for (let side = 0; side < 2; side++) {
          const e0 = sendAt[u * D + (side === 0 ? a : b)]!;
          if (e0 < 0 || stamp[e0] === pairId) continue;
          // collect the component of e0
          let top = 0, n = 0, maxA = 0, maxB = 0;
          stamp[e0] = pairId;
          stack[top++] = e0 * 2 + side;
          while (top > 0) {
            const x = stack[--top]!;
            comp[n++] = x;
            const e = x >> 1, isB = x & 1;
            if (isB) { if (size[e]! > maxB) maxB = size[e]!; } else if (size[e]! > maxA) maxA = size[e]!;
            const other = isB ? a : b;
            const f = sendAt[src[e]! * D + other]!;
            if (f >= 0 && stamp[f] !== pairId) { stamp[f] = pairId; stack[top++] = f * 2 + (1 - isB); }
            const g = recvAt[dst[e]! * D + other]!;
            if (g >= 0 && stamp[g] !== pairId) { stamp[g] = pairId; stack[top++] = g * 2 + (1 - isB); }
          }
          work += n;
          if (maxB > maxA) {
            for (let y = 0; y < n; y++) {
              const e = comp[y]! >> 1, c = comp[y]! & 1 ? b : a;
              sendAt[src[e]! * D + c] = -1;
              recvAt[dst[e]! * D + c] = -1;
            }
            for (let y = 0; y < n; y++) {
              const e = comp[y]! >> 1, c = comp[y]! & 1 ? a : b;
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
  return max;
}

