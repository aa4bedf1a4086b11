/**
 * ReplayOps: a lowered program as the operations each rank executes in order, each waiting for a set of earlier
 * operations of its rank (a prefix, plus an optional explicit list) before it is posted.
 */
import { fail } from "../../model/errors.js";
import type { Program } from "../../model/program.js";

/** Operation kinds of a replay (the program's codes). */
export const R_SEND = 0,
  R_RECV = 1,
  R_COPY = 2;

/**
 * Operations, columnar, grouped by rank in execution order: rank r's are [rankStart[r], rankStart[r + 1]). Before
 * operation x is posted its rank waits until every operation of the rank in [rankStart[r], waitPrefix[x]) and every
 * one of deps[depStart[x] .. depStart[x + 1]) has completed (an operation never waits for a later one). A rank ends
 * with a wait for all its operations.
 */
export interface ReplayOps {
  readonly p: number;
  readonly rankStart: Uint32Array;
  readonly kind: Uint8Array;
  readonly peer: Uint32Array;
  readonly tag: Uint32Array;
  /** Payload bytes (the envelope is the runtime's). */
  readonly bytes: Float64Array;
  /** 1: a blocking call (MPI_Send / MPI_Recv: SMPI's os), 0: a nonblocking one (ois). */
  readonly blocking: Uint8Array;
  readonly waitPrefix: Uint32Array;
  /** Explicit dependencies (op ids of the same rank, earlier), CSR: depStart has one entry more than the ops. */
  readonly depStart: Uint32Array;
  readonly deps: Uint32Array;
}

/**
 * The operations of `prog` as the reference executor runs them under SMPI's trace replay: nonblocking, every round
 * posts its receives, then its sends, then its copies, and the next round waits for all of them; blocking, the
 * operations in program order, each waiting for the one before.
 */
export function replayOpsOf(prog: Program): ReplayOps {
  const { ops, rankStart, p } = prog;
  const n = ops.kind.length;
  const order = new Uint32Array(n);
  const waitPrefix = new Uint32Array(n);
  const blockingVariant = prog.variant === "blocking";
  let w = 0;
  for (let r = 0; r < p; r++) {
    const end = rankStart[r + 1]!;
    let x = rankStart[r]!;
    while (x < end) {
      let y = x;
      while (y < end && ops.round[y] === ops.round[x]) y++;
      const roundStart = w;
      if (blockingVariant) {
        for (let z = x; z < y; z++) {
          waitPrefix[w] = w;
          order[w++] = z;
        }
      } else {
        for (const k of [R_RECV, R_SEND, R_COPY])
          for (let z = x; z < y; z++)
            if (ops.kind[z] === k) {
              waitPrefix[w] = roundStart;
              order[w++] = z;
            }
      }
      x = y;
    }
  }
  const kind = new Uint8Array(n),
    peer = new Uint32Array(n),
    tag = new Uint32Array(n),
    bytes = new Float64Array(n),
    blocking = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const z = order[i]!;
    kind[i] = ops.kind[z]!;
    peer[i] = ops.peer[z]!;
    tag[i] = ops.tag[z]!;
    bytes[i] = ops.count[z]! * prog.elementBytes;
    blocking[i] = blockingVariant ? 1 : 0;
    if (!Number.isFinite(bytes[i]!))
      throw fail("machines", "BAD_INPUT", `program replay: operation ${z} of rank ${ops.rank[z]} has no finite size`);
  }
  return {
    p,
    rankStart: Uint32Array.from(rankStart),
    kind,
    peer,
    tag,
    bytes,
    blocking,
    waitPrefix,
    depStart: new Uint32Array(n + 1),
    deps: new Uint32Array(0),
  };
}
