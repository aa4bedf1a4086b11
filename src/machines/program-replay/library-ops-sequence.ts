/** Two library calls in sequence as one ReplayOps: each rank runs its operations of the first, then of the second. */
import { fail } from "../../model/errors.js";
import type { ReplayOps } from "./replay-ops.js";

/**
 * The operations of `first` then `then`, rank by rank: rank r's operations of `first`, then its operations of `then`,
 * each of which also waits for all of r's operations of `first` (the first call has returned). Explicit dependencies
 * move with their operations. Both must have the same P and post in order (no ready queues). O(operations).
 */
export function sequenceOps(first: ReplayOps, then: ReplayOps): ReplayOps {
  const p = first.p;
  if (then.p !== p || first.readyQueue === true || then.readyQueue === true)
    throw fail("machines", "BAD_INPUT", `library calls: cannot sequence P = ${first.p} and P = ${then.p} in order`);
  const na = first.kind.length,
    n = na + then.kind.length;
  const rankStart = new Uint32Array(p + 1);
  for (let r = 0; r <= p; r++) rankStart[r] = first.rankStart[r]! + then.rankStart[r]!;
  // where each operation goes: first's x of rank r to x + then.rankStart[r], then's y to y + first.rankStart[r + 1]
  const to = new Uint32Array(n);
  for (let r = 0; r < p; r++) {
    for (let x = first.rankStart[r]!; x < first.rankStart[r + 1]!; x++) to[x] = x + then.rankStart[r]!;
    for (let y = then.rankStart[r]!; y < then.rankStart[r + 1]!; y++) to[na + y] = y + first.rankStart[r + 1]!;
  }
  const kind = new Uint8Array(n),
    peer = new Uint32Array(n),
    tag = new Uint32Array(n),
    bytes = new Float64Array(n),
    blocking = new Uint8Array(n),
    waitPrefix = new Uint32Array(n),
    depCount = new Uint32Array(n);
  const parts = [first, then] as const;
  for (let part = 0; part < 2; part++) {
    const ops = parts[part]!;
    const base = part === 0 ? 0 : na;
    for (let r = 0; r < p; r++)
      for (let x = ops.rankStart[r]!; x < ops.rankStart[r + 1]!; x++) {
        const z = to[base + x]!;
        kind[z] = ops.kind[x]!;
        peer[z] = ops.peer[x]!;
        tag[z] = ops.tag[x]!;
        bytes[z] = ops.bytes[x]!;
        blocking[z] = ops.blocking[x]!;
        // a prefix ends at or before its operation, so inside the part; the second part's start past the first part
        waitPrefix[z] = to[base + ops.waitPrefix[x]!]!;
        depCount[z] = ops.depStart[x + 1]! - ops.depStart[x]!;
      }
  }
  const depStart = new Uint32Array(n + 1);
  for (let z = 0; z < n; z++) depStart[z + 1] = depStart[z]! + depCount[z]!;
  const deps = new Uint32Array(depStart[n]!);
  for (let part = 0; part < 2; part++) {
    const ops = parts[part]!;
    const base = part === 0 ? 0 : na;
    for (let x = 0; x < ops.kind.length; x++) {
      const z = to[base + x]!;
      for (let d = ops.depStart[x]!, k = depStart[z]!; d < ops.depStart[x + 1]!; d++, k++)
        deps[k] = to[base + ops.deps[d]!]!;
    }
  }
  return { p, rankStart, kind, peer, tag, bytes, blocking, waitPrefix, depStart, deps };
}
