/**
 * Layout slots: where the block of (rank, peer) lives in a RankLayout's per-slot arrays, in either form (full or
 * peers).
 */
import type { PeerIndex, RankLayout } from "./program.js";

/** The first slot of rank r (full form: r * p). */
export function slotStart(peers: PeerIndex | null, p: number, r: number): number {
  return peers === null ? r * p : peers.start[r]!;
}

/** The peer of slot k (full form: k mod p). */
export function slotPeer(peers: PeerIndex | null, p: number, k: number): number {
  return peers === null ? k % p : peers.peer[k]!;
}

/** The slot of rank r's block for peer j, or -1 when the peer form has none (a binary search in rank r's peers). */
export function slotOf(peers: PeerIndex | null, p: number, r: number, j: number): number {
  if (peers === null) return r * p + j;
  const { peer } = peers;
  let lo = peers.start[r]!,
    hi = peers.start[r + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1,
      v = peer[mid]!;
    if (v === j) return mid;
    if (v < j) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The slots of every rank on one side: rank r's are start(r) .. start(r + 1) - 1. */
export function slotCount(peers: PeerIndex | null, p: number): number {
  return peers === null ? p * p : peers.start[p]!;
}

/** Rank r's send displacement for destination j (-1 when the peer form has no block for j). */
export function sendDisplOf(layout: RankLayout, p: number, r: number, j: number): number {
  const k = slotOf(layout.sendPeers, p, r, j);
  return k < 0 ? -1 : layout.sendDispls[k]!;
}

/** Rank r's receive displacement for origin i (-1 when the peer form has no block for i). */
export function recvDisplOf(layout: RankLayout, p: number, r: number, i: number): number {
  const k = slotOf(layout.recvPeers, p, r, i);
  return k < 0 ? -1 : layout.recvDispls[k]!;
}
