/** The blocking variant's greedy edge colouring of one round's messages (emit's colourRounds, emitDirect's scatter). */

/**
 * The colouring of one round (colourRounds in emit.ts colours every round with it): the messages [qa, qb) of `order`
 * (null: message q is the q-th), the colour of the q-th to out[q - qa] (0 for a copy). A message takes the smallest
 * colour used by neither of its ranks in the round. `used` (P entries, all 0) is all 0 again on return. Returns the
 * most colours a message of the round took (its greatest colour + 1; 0 when every message is a copy or none is).
 */
export function colourRound(
  src: Uint32Array,
  dst: Uint32Array,
  order: Uint32Array | null,
  qa: number,
  qb: number,
  used: Int32Array,
  out: Uint32Array,
): number {
  // the colours < 32 each rank took in this round, as bits (int32: all 32 taken is -1); cleared after the round by
  // a second pass over its messages (in cache), not tested per rank with a round stamp (a branch that a round's
  // messages in an irregular rank order mispredicted)
  let high: Map<number, Set<number>> | null = null; // colours >= 32, rarely needed
  let top = 0;
  for (let q = qa; q < qb; q++) {
    const k = order === null ? q : order[q]!,
      a = src[k]!,
      b = dst[k]!;
    if (a === b) {
      out[q - qa] = 0;
      continue;
    }
    const mask = used[a]! | used[b]!;
    let c: number;
    if (mask !== -1) {
      const bit = ~mask & (mask + 1);
      c = 31 - Math.clz32(bit);
      used[a] = used[a]! | bit;
      used[b] = used[b]! | bit;
    } else {
      high ??= new Map();
      const ha = high.get(a) ?? new Set<number>(),
        hb = high.get(b) ?? new Set<number>();
      c = 32;
      while (ha.has(c) || hb.has(c)) c++;
      ha.add(c);
      hb.add(c);
      high.set(a, ha);
      high.set(b, hb);
    }
    out[q - qa] = c;
    if (c >= top) top = c + 1;
  }
  for (let q = qa; q < qb; q++) {
    const k = order === null ? q : order[q]!;
    used[src[k]!] = 0;
    used[dst[k]!] = 0;
  }
  return top;
}
