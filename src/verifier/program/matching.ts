/**
 * Program matching: every send pairs with exactly one receive of the same round, peer pair, tag and count (MPI's
 * in-order matching).
 */
import type { Program } from "../../model/program.js";
import { check, type Check } from "../report.js";
import { denseRounds, describeOp, PROGRAM_SOURCE } from "./describe.js";

/** The matching check and the partner of every operation (-1: none, and for copies). */
export interface Matching {
  readonly check: Check;
  /** partner[x]: the receive of send x or the send of receive x, -1 when unmatched or a copy. */
  readonly partner: Int32Array;
}

/**
 * Pairs sends with receives. Messages are keyed by (round, source, destination, tag); within a key
 * the k-th send in program order pairs with the k-th receive, as MPI matches messages of one
 * (source, tag) in order. A pair whose counts differ is not a match; both ops are left unmatched.
 * Sends and receives are ordered by key with stable counting-sort passes (tag, destination, source,
 * round, numbered densely: `denseRounds`): O(n log n + P) for n operations.
 */
export function matchOps(prog: Program): Matching {
  const { ops } = prog;
  const n = ops.rank.length;
  const partner = new Int32Array(n).fill(-1);
  const rounds = denseRounds(ops.round);
  let ns = 0,
    nr = 0;
  for (let x = 0; x < n; x++) {
    if (ops.kind[x] === 0) ns++;
    else if (ops.kind[x] === 1) nr++;
  }
  const sends = new Uint32Array(ns),
    recvs = new Uint32Array(nr);
  ns = nr = 0;
  for (let x = 0; x < n; x++) {
    if (ops.kind[x] === 0) sends[ns++] = x;
    else if (ops.kind[x] === 1) recvs[nr++] = x;
  }
  // Key columns: the source and destination of the message.
  const src = (x: number): number => (ops.kind[x] === 0 ? ops.rank[x]! : ops.peer[x]!);
  const dst = (x: number): number => (ops.kind[x] === 0 ? ops.peer[x]! : ops.rank[x]!);
  const p = prog.rankStart.length - 1;
  let maxTag = 0;
  for (let x = 0; x < n; x++) maxTag = Math.max(maxTag, ops.tag[x]!);
  const sortByKey = (list: Uint32Array): Uint32Array => {
    let cur: Uint32Array = list,
      tmp: Uint32Array = new Uint32Array(list.length);
    const pass = (key: (x: number) => number, buckets: number): void => {
      const start = new Uint32Array(buckets + 1);
      for (const x of cur) {
        const b = key(x) + 1;
        start[b] = start[b]! + 1;
      }
      for (let b = 0; b < buckets; b++) start[b + 1] = start[b + 1]! + start[b]!;
      for (const x of cur) {
        const b = key(x);
        tmp[start[b]!] = x;
        start[b] = start[b]! + 1;
      }
      [cur, tmp] = [tmp, cur];
    };
    pass((x) => ops.tag[x]! & 0xffff, 0x10000);
    if (maxTag > 0xffff) pass((x) => ops.tag[x]! >>> 16, 0x10000);
    pass(dst, p);
    pass(src, p);
    pass((x) => rounds.idx[x]!, rounds.count);
    return cur;
  };
  const sortedSends = sortByKey(sends),
    sortedRecvs = sortByKey(recvs);
  let firstBad = -1,
    unmatched = 0;
  const note = (x: number): void => {
    unmatched++;
    if (firstBad < 0 || x < firstBad) firstBad = x;
  };
  let i = 0,
    j = 0;
  while (i < ns || j < nr) {
    if (i === ns) {
      note(sortedRecvs[j++]!);
      continue;
    }
    if (j === nr) {
      note(sortedSends[i++]!);
      continue;
    }
    const s = sortedSends[i]!,
      r = sortedRecvs[j]!;
    const c = ops.round[s]! - ops.round[r]! || src(s) - src(r) || dst(s) - dst(r) || ops.tag[s]! - ops.tag[r]!;
    if (c < 0) {
      note(s);
      i++;
      continue;
    }
    if (c > 0) {
      note(r);
      j++;
      continue;
    }
    if (ops.count[s] === ops.count[r]) {
      partner[s] = r;
      partner[r] = s;
    } else {
      note(s);
      note(r);
    }
    i++;
    j++;
  }
  const title = "every send has exactly one receive of the same round, peer pair, tag and count, and vice versa";
  const witness =
    firstBad < 0
      ? null
      : `${describeOp(prog, firstBad)} has no matching ${ops.kind[firstBad] === 0 ? "receive" : "send"}${countHint(prog, firstBad)}`;
  return { check: check("program-matching", title, PROGRAM_SOURCE, unmatched === 0, unmatched, 0, witness), partner };
}

/** " (the receive at ... expects 5 elements)" when an op of the same key but another count exists. */
function countHint(prog: Program, x: number): string {
  const { ops } = prog;
  const wantKind = ops.kind[x] === 0 ? 1 : 0,
    peer = ops.peer[x]!;
  for (let y = prog.rankStart[peer]!; y < prog.rankStart[peer + 1]!; y++) {
    if (
      ops.kind[y] === wantKind &&
      ops.peer[y] === ops.rank[x] &&
      ops.round[y] === ops.round[x] &&
      ops.tag[y] === ops.tag[x] &&
      ops.count[y] !== ops.count[x]
    ) {
      return ` (${describeOp(prog, y)} differs in count)`;
    }
  }
  return "";
}
