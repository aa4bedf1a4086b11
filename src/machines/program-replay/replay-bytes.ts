/**
 * The memory a program replay asks for (replayProgramOps), estimated before it runs: simulate --program and --library
 * refuse a replay past --max-memory in one line.
 */
import { PAIR_TABLE_MAX_RANKS } from "./replay-engine.js";
import { R_SEND, type ReplayOps } from "./replay-ops.js";

/**
 * Bytes a replay allocates: a fixed part (the event heap's and the growable tables' first room), per operation (the op
 * records, flags, route offsets, latencies and weights, the due heap, the matching and its scratch, the flows'
 * numbering), per send and route hop (the routes, copied into the max-min system, its per-flow tables and heap
 * entries, the link slices), per link (the system's 40 link tables), per rank, per pair of ranks up to
 * PAIR_TABLE_MAX_RANKS (the first send of each pair), per dependency (ready queues), and per operation for the
 * timeline (its post times and up to four intervals of 44 bytes, with the recorder's spare room).
 * test/machines/program-replay-bytes.test.ts holds the estimate above what a finished replay keeps (replayHeldBytes),
 * and under 3 times it from 1,000 operations, on random programs, networks and timeline settings.
 */
export const REPLAY_BYTES = {
  fixed: 64 * 1024,
  perOp: 200,
  perSend: 160,
  perHop: 64,
  perLink: 448,
  perRank: 96,
  perPair: 4,
  perDep: 12,
  perOpTimeline: 400,
} as const;

/** What replayWorkBytes counts of the operations: ranks, operations, sends and explicit dependencies. */
export interface ReplayCounts {
  readonly p: number;
  readonly ops: number;
  readonly sends: number;
  readonly deps: number;
}

/** An upper estimate of the bytes replayProgramOps allocates for `ops` on a network of `links` links. */
export function replayWorkBytes(
  ops: Pick<ReplayOps, "p" | "kind" | "deps">,
  net: { readonly links: number; readonly maxHops: number },
  timeline = false,
): number {
  return replayCountsBytes(replayCounts(ops), net, timeline);
}

/** The counts replayWorkBytes reads of operations. */
export function replayCounts(ops: Pick<ReplayOps, "p" | "kind" | "deps">): ReplayCounts {
  const n = ops.kind.length;
  let sends = 0;
  for (let x = 0; x < n; x++) if (ops.kind[x] === R_SEND) sends++;
  return { p: ops.p, ops: n, sends, deps: ops.deps.length };
}

/** replayWorkBytes from the counts alone (a refusal before the operations are made). */
export function replayCountsBytes(
  c: ReplayCounts,
  net: { readonly links: number; readonly maxHops: number },
  timeline = false,
): number {
  const b = REPLAY_BYTES;
  const p = c.p;
  return (
    b.fixed +
    c.ops * (b.perOp + (timeline ? b.perOpTimeline : 0)) +
    c.sends * (b.perSend + b.perHop * Math.max(1, net.maxHops)) +
    net.links * b.perLink +
    p * b.perRank +
    (p <= PAIR_TABLE_MAX_RANKS ? p * p * b.perPair : 0) +
    c.deps * b.perDep
  );
}
