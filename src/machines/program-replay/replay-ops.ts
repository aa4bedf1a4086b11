/**
 * ReplayOps: a lowered program as the operations each rank executes in order, each waiting for a set of earlier
 * operations of its rank (a prefix, plus an optional explicit list) before it is posted.
 */
import { fail } from "../../model/errors.js";
import type { AfterTable, Program } from "../../model/program.js";

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
 * operations in program order, each waiting for the one before; dataflow, every receive that waits for nothing
 * first, then the other operations in program order, each waiting for its own dependencies only (the executor posts
 * whatever is ready, receives first: in order, an operation whose dependencies come late holds back the later ones of
 * its rank, which the executor would post; a relay plan's sends are in the order their data arrives, so this is
 * rare).
 */
export function replayOpsOf(prog: Program): ReplayOps {
  if (prog.variant === "dataflow" && prog.after !== undefined) return dataflowOps(prog, prog.after);
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
  return columns(prog, order, waitPrefix, blockingVariant, new Uint32Array(n + 1), new Uint32Array(0));
}

/** A dataflow program's operations (replayOpsOf): receives without dependencies first, each op waiting for its own. */
function dataflowOps(prog: Program, after: AfterTable): ReplayOps {
  const { ops, rankStart, p } = prog;
  const n = ops.kind.length;
  const order = new Uint32Array(n),
    pos = new Uint32Array(n),
    waitPrefix = new Uint32Array(n);
  let w = 0;
  for (let r = 0; r < p; r++) {
    const a = rankStart[r]!,
      e = rankStart[r + 1]!;
    const free = (z: number): boolean => ops.kind[z] === R_RECV && after.start[z + 1] === after.start[z];
    for (let z = a; z < e; z++) if (free(z)) order[w++] = z;
    for (let z = a; z < e; z++) if (!free(z)) order[w++] = z;
    for (let i = a; i < e; i++) {
      pos[order[i]!] = i;
      waitPrefix[i] = a;
    }
  }
  const depStart = new Uint32Array(n + 1),
    deps = new Uint32Array(after.op.length);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const z = order[i]!;
    for (let d = after.start[z]!; d < after.start[z + 1]!; d++) {
      const y = pos[after.op[d]!]!;
      if (y >= i)
        throw fail(
          "machines",
          "BAD_INPUT",
          `program replay: operation ${z} waits for a later operation ${after.op[d]}`,
        );
      deps[k++] = y;
    }
    depStart[i + 1] = k;
  }
  return columns(prog, order, waitPrefix, false, depStart, deps);
}

/** The replay's columns of `prog`'s operations taken in `order`. */
function columns(
  prog: Program,
  order: Uint32Array,
  waitPrefix: Uint32Array,
  blockingVariant: boolean,
  depStart: Uint32Array,
  deps: Uint32Array,
): ReplayOps {
  const { ops, rankStart, p } = prog;
  const n = order.length;
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
    depStart,
    deps,
  };
}
