/** Round helpers shared by the total-exchange protocols of 001: direct rounds and rounds to chosen next hops. */
import { prefixSums } from "../../internal/buckets.js";
import type { Rng } from "../../model/rng.js";
import type { RoundEngine } from "./round-engine.js";

/** Packets held away from their destination, grouped by holder: dest[start[u] .. start[u + 1]). */
export interface Held {
  readonly start: Int32Array;
  readonly dest: Int32Array;
}

/** Lists the packets every node holds for other nodes (by holder, then destination). */
export function collectHeld(eng: RoundEngine): Held {
  const { n, count } = eng;
  const start = new Int32Array(n + 1);
  let total = 0;
  for (let u = 0; u < n; u++) {
    start[u] = total;
    for (let w = 0; w < n; w++) if (w !== u) total += count[u * n + w]!;
  }
  start[n] = total;
  const dest = new Int32Array(total);
  let x = 0;
  for (let u = 0; u < n; u++)
    for (let w = 0; w < n; w++) if (w !== u) for (let c = count[u * n + w]!; c > 0; c--) dest[x++] = w;
  return { start, dest };
}

/** The current relation load: most packets one node holds for others or still expects. */
export function currentLoad(eng: RoundEngine): number {
  const { n, count } = eng;
  const col = new Float64Array(n);
  let t = 0;
  for (let u = 0; u < n; u++) {
    let row = 0;
    for (let w = 0; w < n; w++) {
      if (w === u) continue;
      const c = count[u * n + w]!;
      row += c;
      col[w] = col[w]! + c;
    }
    if (row > t) t = row;
  }
  for (let w = 0; w < n; w++) if (col[w]! > t) t = col[w]!;
  return t;
}

/** Up to `rounds` rounds of direct delivery (each pair with packets sends one per round); returns the rounds used. */
export function directRounds(eng: RoundEngine, rounds: number): number {
  const { n, count } = eng;
  let used = 0;
  for (let r = 0; r < rounds && eng.pending > 0; r++) {
    for (let u = 0; u < n; u++) for (let w = 0; w < n; w++) if (u !== w && count[u * n + w]! > 0) eng.move(u, w, w);
    eng.endRound(true);
    used++;
  }
  return used;
}

/**
 * Sends held packets to the next hops `hop` (one per packet of `held`; hop == holder: the packet
 * stays; hop == destination: delivered) in at most `maxRounds` rounds, one packet per ordered pair
 * per round. Where a (holder, next hop) pair has more packets than rounds, a random subset (`rng`)
 * goes (001 sec 3.2: "a random subset of k of these messages is routed"); the others stay where
 * they are. Returns the rounds used.
 */
export function scatterRounds(eng: RoundEngine, held: Held, hop: Int32Array, maxRounds: number, rng: Rng): number {
  const { n } = eng;
  const { start, dest } = held;
  // counting sort of each holder's packets by next hop
  const cnt = new Int32Array(n * n + 1);
  for (let u = 0; u < n; u++) for (let x = start[u]!; x < start[u + 1]!; x++) cnt[u * n + hop[x]! + 1]!++;
  let most = 0;
  for (let u = 0; u < n; u++)
    for (let k = 0; k < n; k++) if (k !== u && cnt[u * n + k + 1]! > most) most = cnt[u * n + k + 1]!;
  prefixSums(cnt, n * n);
  const off = cnt.slice(0, n * n);
  const sorted = new Int32Array(dest.length);
  for (let u = 0; u < n; u++)
    for (let x = start[u]!; x < start[u + 1]!; x++) sorted[off[u * n + hop[x]!]!++] = dest[x]!;
  const rounds = Math.min(most, maxRounds);
  // buckets larger than the rounds: a uniform random subset of `rounds` packets goes first
  // (partial Fisher-Yates of the bucket; the bucket is otherwise in destination order)
  for (let q = 0; q < n * n; q++) {
    const a = cnt[q]!,
      len = cnt[q + 1]! - a;
    if (len <= rounds || q % (n + 1) === 0) continue;
    for (let y = 0; y < rounds; y++) {
      const z = y + rng.int(len - y);
      const t = sorted[a + y]!;
      sorted[a + y] = sorted[a + z]!;
      sorted[a + z] = t;
    }
  }
  for (let r = 0; r < rounds; r++) {
    for (let u = 0; u < n; u++) {
      for (let k = 0; k < n; k++) {
        if (k === u) continue;
        const q = u * n + k;
        if (cnt[q]! + r < cnt[q + 1]!) eng.move(u, sorted[cnt[q]! + r]!, k);
      }
    }
    eng.endRound(true);
  }
  return rounds;
}
