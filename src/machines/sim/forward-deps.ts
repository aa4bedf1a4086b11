/**
 * Forwarding dependencies: which receives of its own stage a transfer must wait for because it forwards elements they
 * bring (docs/simulator.md, Nonblocking mode, "What a send waits for").
 */
import { bucketStarts } from "../../internal/buckets.js";
import { growU32, type Growable } from "../../internal/growable.js";
import type { ChunkTable, Schedule } from "../../model/schedule.js";

/**
 * For every transfer x: `need[x]` receives of its stage it waits for; receive y releases the transfers list[start[y] ..
 * start[y + 1]).
 */
export interface ForwardDeps {
  readonly need: Uint32Array;
  readonly start: Uint32Array;
  readonly list: Uint32Array;
}

/** The sorted index of the chunks that arrive over the network (see `receiveIndex`). */
interface ReceiveIndex {
  /** Chunks sorted by (stage, receiving node, origin, dest, offset). */
  readonly recv: Uint32Array;
  /** Per chunk: (receiving node, origin, dest) as one number. */
  readonly rKey: Float64Array;
  /** Running maximum of chunk ends within each (stage, rKey) group, to find overlaps by binary search. */
  readonly maxEnd: Float64Array;
}

/**
 * The pairs (x, y), pushed in order of x: transfer x forwards elements that the network transfer y
 * of an earlier step of x's stage brings to x's source (overlapping chunks of one message).
 */
function forwardPairs(s: Schedule, c: ChunkTable): { pairX: Growable<Uint32Array>; pairY: Growable<Uint32Array> } {
  const T = s.transferCount;
  const { p, src, stepStart } = s;
  const C = c.origin.length;
  const owner = new Uint32Array(C);
  const stepOf = new Uint32Array(T);
  for (let st = 0; st < s.stepCount; st++) for (let x = stepStart[st]!; x < stepStart[st + 1]!; x++) stepOf[x] = st;
  const stageOf = new Uint32Array(s.stepCount);
  for (const [k, st] of s.stages.entries()) stageOf.fill(k, st.firstStep, st.firstStep + st.stepCount);
  for (let x = 0; x < T; x++) owner.fill(x, c.start[x]!, c.start[x + 1]!);
  const key = (node: number, k: number): number => (node * p + c.origin[k]!) * p + c.dest[k]!;
  const stageKey = (k: number): number => stageOf[stepOf[owner[k]!]!]!;
  const { recv, rKey, maxEnd } = receiveIndex(s, c, owner, key, stageKey);
  const n = recv.length;

  const pairX = growU32(),
    pairY = growU32();
  const mark = new Int32Array(T).fill(-1);
  for (let x = 0; x < T; x++) {
    const a = src[x]!,
      sx = stepOf[x]!,
      stage = stageOf[sx]!;
    for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
      const kk = key(a, k),
        lo0 = c.offset[k]!,
        hi0 = lo0 + c.count[k]!;
      // first record of the group (stage, kk)
      let lo = 0,
        hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const r = recv[mid]!;
        if (stageKey(r) < stage || (stageKey(r) === stage && rKey[r]! < kk)) lo = mid + 1;
        else hi = mid;
      }
      // first record of the group whose running maximum end passes lo0
      hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const r = recv[mid]!;
        if (stageKey(r) === stage && rKey[r] === kk && maxEnd[mid]! <= lo0) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < n; i++) {
        const r = recv[i]!;
        if (stageKey(r) !== stage || rKey[r] !== kk || c.offset[r]! >= hi0) break;
        const y = owner[r]!;
        if (c.offset[r]! + c.count[r]! <= lo0 || stepOf[y]! >= sx || y === x || mark[y] === x) continue;
        mark[y] = x;
        pairX.push(x);
        pairY.push(y);
      }
    }
  }
  return { pairX, pairY };
}

/**
 * Chunks that arrive somewhere over the network, sorted by (stage, node, origin, dest, offset), with the running
 * maximum of their ends per group.
 */
function receiveIndex(
  s: Schedule,
  c: ChunkTable,
  owner: Uint32Array,
  key: (node: number, k: number) => number,
  stageKey: (k: number) => number,
): ReceiveIndex {
  const { src, dst } = s;
  const C = c.origin.length;
  let n = 0;
  for (let k = 0; k < C; k++) if (src[owner[k]!] !== dst[owner[k]!]) n++;
  const recv = new Uint32Array(n);
  const rKey = new Float64Array(C);
  for (let k = 0, i = 0; k < C; k++) {
    const y = owner[k]!;
    if (src[y] === dst[y]) continue;
    recv[i++] = k;
    rKey[k] = key(dst[y]!, k);
  }
  recv.sort((u, w) => stageKey(u) - stageKey(w) || rKey[u]! - rKey[w]! || c.offset[u]! - c.offset[w]!);
  const maxEnd = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const k = recv[i]!;
    const endK = c.offset[k]! + c.count[k]!;
    const same = i > 0 && stageKey(recv[i - 1]!) === stageKey(k) && rKey[recv[i - 1]!] === rKey[k];
    maxEnd[i] = same ? Math.max(maxEnd[i - 1]!, endK) : endK;
  }
  return { recv, rKey, maxEnd };
}

/**
 * The stage-internal forwarding dependencies of `s`. Transfer x (step sx, source a) depends on a
 * network transfer y into a of an earlier step of the same stage when a chunk of y and a chunk of
 * x name overlapping elements of one message (origin, dest). Earlier stages need no entry: a stage
 * starts after the barrier that ends the previous one. Without payload chunks there is nothing to
 * match and every `need` is 0 (every registered planner forwards only across stage barriers).
 * Cost: O(C log C) for C chunks plus the dependencies found.
 */
export function forwardDeps(s: Schedule): ForwardDeps {
  const T = s.transferCount;
  const need = new Uint32Array(T);
  const c = s.chunks;
  if (c === null || T === 0) return { need, start: new Uint32Array(T + 1), list: new Uint32Array(0) };
  const { pairX, pairY } = forwardPairs(s, c);
  const px = pairX.toArray(),
    py = pairY.toArray();
  const start = bucketStarts(py, T, 0, py.length, new Uint32Array(T + 1));
  const fill = start.slice(0, T);
  const list = new Uint32Array(py.length);
  for (let i = 0; i < py.length; i++) {
    list[fill[py[i]!]!++] = px[i]!;
    need[px[i]!]!++;
  }
  return { need, start, list };
}
