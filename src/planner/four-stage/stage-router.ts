/**
 * Stage router: moves held elements through one stage, at message level (count matrix) or payload level (piece table).
 */
import { bucketItems, bucketStarts, prefixSums } from "../../internal/buckets.js";
import { growF64, growU32 } from "../../internal/growable.js";
import { progressTicker, type ProgressCallback } from "../../model/progress.js";

/** What a stage does with elements already at their destination: hold them, or route them like the rest (004). */
export type ArrivedRule = "hold" | "forward";

/** The arrived rules, default first. */
export const ARRIVED_RULES: readonly ArrivedRule[] = ["hold", "forward"];

/** How one stage sends what a node holds. */
export interface StageRule {
  /** "hold": elements at their destination stay there (not split, not sent); "forward": routed like the rest. */
  readonly arrived: ArrivedRule;
  /** Buckets per node (one message per bucket). */
  readonly buckets: number;
  /** The node that receives node u's bucket k. */
  target(u: number, k: number): number;
  /** Splits h elements for destination j held at u into out[0..buckets). */
  split(u: number, j: number, h: number, out: Float64Array): void;
  /** For a collect stage: the one bucket that takes everything for destination j (split then need not run). */
  readonly bucketOf?: (j: number) => number;
}

/** Message sizes of a stage: size[u * buckets + k]. */
export interface StageMessages {
  readonly buckets: number;
  readonly size: Float64Array;
}

/**
 * Message level: routes the P x P holdings matrix `hold` (node, destination) through a stage, one split per (node,
 * destination; with "hold", the diagonal stays); `progress`: nodes.
 */
export function routeCounts(
  p: number,
  hold: Float64Array,
  rule: StageRule,
  progress: ProgressCallback | null = null,
): { next: Float64Array; msgs: StageMessages } {
  const K = rule.buckets;
  const size = new Float64Array(p * K);
  const next = new Float64Array(p * p);
  const out = new Float64Array(K);
  const targets = new Int32Array(K);
  const tick = progressTicker(progress, p);
  let tickMark = tick(0);
  for (let u = 0; u < p; u++) {
    if (u >= tickMark) tickMark = tick(u);
    for (let k = 0; k < K; k++) targets[k] = rule.target(u, k);
    const row = u * p;
    for (let j = 0; j < p; j++) {
      const h = hold[row + j]!;
      if (h === 0) continue;
      if (j === u && rule.arrived === "hold") {
        next[row + j] = next[row + j]! + h;
        continue;
      }
      if (rule.bucketOf) {
        const k = rule.bucketOf(j);
        const sk = u * K + k,
          nk = targets[k]! * p + j;
        size[sk] = size[sk]! + h;
        next[nk] = next[nk]! + h;
        continue;
      }
      rule.split(u, j, h, out);
      for (let k = 0; k < K; k++) {
        const n = out[k]!;
        if (n === 0) continue;
        const sk = u * K + k,
          nk = targets[k]! * p + j;
        size[sk] = size[sk]! + n;
        next[nk] = next[nk]! + n;
      }
    }
  }
  tick(Infinity);
  return { next, msgs: { buckets: K, size } };
}

/** Pieces of messages held by nodes: elements offset..offset+count-1 of message origin -> dest, at holder. */
export interface Pieces {
  readonly holder: Uint32Array;
  readonly origin: Uint32Array;
  readonly dest: Uint32Array;
  readonly offset: Float64Array;
  readonly count: Float64Array;
}

/**
 * The chunks each message of a stage carries: chunks of message key = u * buckets + k are [start[key], start[key + 1]).
 */
export interface StageChunks extends StageMessages {
  readonly start: Uint32Array;
  readonly origin: Uint32Array;
  readonly dest: Uint32Array;
  readonly offset: Float64Array;
  readonly count: Float64Array;
}

/** Stable counting sort of indices 0..n-1 (or `input`) by key[i] in [0, range). */
function sortByKey(key: Uint32Array, range: number, input: Uint32Array | null): Uint32Array {
  const n = key.length;
  const start = bucketStarts(key, range, 0, n, new Uint32Array(range + 1));
  return bucketItems(key, start, input, 0, n, new Uint32Array(n));
}

/**
 * Payload level: groups the pieces by (holder, destination), splits each group's elements into
 * the buckets in order (cutting pieces at bucket boundaries), and returns the chunks of every
 * message plus the pieces after the stage (with "hold", pieces at their destination stay, after the routed ones).
 * Same sizes as `routeCounts` by construction.
 * `progress`: the pieces split (a collect stage reports only its end).
 */
export function routePieces(
  p: number,
  pieces: Pieces,
  rule: StageRule,
  progress: ProgressCallback | null = null,
): { next: Pieces; msgs: StageChunks } {
  const { moving, arrived } = rule.arrived === "hold" ? partitionArrived(pieces) : { moving: pieces, arrived: null };
  if (arrived === null) return routeMoving(p, pieces, rule, progress);
  const { next, msgs } = routeMoving(p, moving, rule, progress);
  return { next: concatPieces(next, arrived), msgs };
}

/** The columns of a piece table, picked by index. */
function pickPieces(pieces: Pieces, idx: readonly number[]): Pieces {
  const pick = <T extends Uint32Array | Float64Array>(col: T, make: (n: number) => T): T => {
    const out = make(idx.length);
    idx.forEach((x, t) => (out[t] = col[x]!));
    return out;
  };
  const u32 = (n: number) => new Uint32Array(n),
    f64 = (n: number) => new Float64Array(n);
  return {
    holder: pick(pieces.holder, u32),
    origin: pick(pieces.origin, u32),
    dest: pick(pieces.dest, u32),
    offset: pick(pieces.offset, f64),
    count: pick(pieces.count, f64),
  };
}

/** Splits the pieces into those still moving and those already at their destination (null when there are none). */
function partitionArrived(pieces: Pieces): { moving: Pieces; arrived: Pieces | null } {
  const moving: number[] = [],
    arrived: number[] = [];
  for (let x = 0; x < pieces.holder.length; x++) (pieces.holder[x] === pieces.dest[x] ? arrived : moving).push(x);
  if (arrived.length === 0) return { moving: pieces, arrived: null };
  return { moving: pickPieces(pieces, moving), arrived: pickPieces(pieces, arrived) };
}

/** Two piece tables, one after the other. */
function concatPieces(a: Pieces, b: Pieces): Pieces {
  const cat = <T extends Uint32Array | Float64Array>(x: T, y: T, out: T): T => {
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  const n = a.holder.length + b.holder.length;
  return {
    holder: cat(a.holder, b.holder, new Uint32Array(n)),
    origin: cat(a.origin, b.origin, new Uint32Array(n)),
    dest: cat(a.dest, b.dest, new Uint32Array(n)),
    offset: cat(a.offset, b.offset, new Float64Array(n)),
    count: cat(a.count, b.count, new Float64Array(n)),
  };
}

/** `routePieces` for the pieces it routes (with "hold", none of them at its destination). */
function routeMoving(
  p: number,
  pieces: Pieces,
  rule: StageRule,
  progress: ProgressCallback | null,
): { next: Pieces; msgs: StageChunks } {
  const K = rule.buckets;
  const n = pieces.holder.length;
  const tick = progressTicker(progress, n);
  let tickMark = tick(0);
  const order = sortByKey(pieces.holder, p, sortByKey(pieces.dest, p, null));
  if (rule.bucketOf) {
    // a collect stage: every piece goes whole into the one bucket of its destination
    const key = new Uint32Array(n);
    for (let x = 0; x < n; x++) key[x] = pieces.holder[x]! * K + rule.bucketOf(pieces.dest[x]!);
    const routed = gatherChunks(p, rule, key, sortByKey(key, p * K, order), pieces);
    tick(Infinity);
    return routed;
  }
  const cKey = growU32(n * 2),
    cOrigin = growU32(n * 2),
    cDest = growU32(n * 2),
    cOffset = growF64(n * 2),
    cCount = growF64(n * 2);
  const out = new Float64Array(K);
  let g = 0;
  while (g < n) {
    if (g >= tickMark) tickMark = tick(g);
    const u = pieces.holder[order[g]!]!,
      j = pieces.dest[order[g]!]!;
    let e = g,
      h = 0;
    while (e < n && pieces.holder[order[e]!] === u && pieces.dest[order[e]!] === j) h += pieces.count[order[e++]!]!;
    rule.split(u, j, h, out);
    // walk the group's pieces, filling bucket k with out[k] elements
    let k = 0,
      need = out[0]!;
    for (let x = g; x < e; x++) {
      const pc = order[x]!;
      let off = pieces.offset[pc]!,
        left = pieces.count[pc]!;
      while (left > 0) {
        while (need === 0) need = out[++k]!;
        const take = Math.min(left, need);
        cKey.push(u * K + k);
        cOrigin.push(pieces.origin[pc]!);
        cDest.push(j);
        cOffset.push(off);
        cCount.push(take);
        off += take;
        left -= take;
        need -= take;
      }
    }
    g = e;
  }
  const key = cKey.toArray();
  const cut = { origin: cOrigin.toArray(), dest: cDest.toArray(), offset: cOffset.toArray(), count: cCount.toArray() };
  const routed = gatherChunks(p, rule, key, sortByKey(key, p * K, null), cut);
  tick(Infinity);
  return routed;
}

/**
 * Lays out chunks (arrays indexed by chunk, key[i] = node * buckets + bucket) message by message in the order `corder`.
 */
function gatherChunks(
  p: number,
  rule: StageRule,
  key: Uint32Array,
  corder: Uint32Array,
  c: Omit<Pieces, "holder">,
): { next: Pieces; msgs: StageChunks } {
  const K = rule.buckets;
  const m = corder.length;
  const target = new Uint32Array(p * K);
  for (let u = 0; u < p; u++) for (let k = 0; k < K; k++) target[u * K + k] = rule.target(u, k);
  const start = new Uint32Array(p * K + 1);
  const size = new Float64Array(p * K);
  const origin = new Uint32Array(m),
    dest = new Uint32Array(m),
    offset = new Float64Array(m),
    count = new Float64Array(m),
    holder = new Uint32Array(m);
  for (let t = 0; t < m; t++) {
    const i = corder[t]!;
    const kk = key[i]!;
    start[kk + 1]!++;
    size[kk] = size[kk]! + c.count[i]!;
    origin[t] = c.origin[i]!;
    dest[t] = c.dest[i]!;
    offset[t] = c.offset[i]!;
    count[t] = c.count[i]!;
    holder[t] = target[kk]!;
  }
  prefixSums(start, p * K);
  return {
    next: { holder, origin, dest, offset, count },
    msgs: { buckets: K, size, start, origin, dest, offset, count },
  };
}
