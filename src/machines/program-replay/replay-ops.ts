/**
 * ReplayOps: a lowered program as the operations each rank executes in order, each waiting for a set of earlier
 * operations of its rank (a prefix, plus an optional explicit list) before it is posted.
 */
import { fail } from "../../model/errors.js";
import type { AfterTable, Program } from "../../model/program.js";
import { checkProgramArg } from "../../model/program-check.js";

/** Operation kinds of a replay (the program's codes). */
export const R_SEND = 0,
  R_RECV = 1,
  R_COPY = 2;

/** A nonblocking round's posting order: receives, sends, copies. */
const POST_ORDER = Uint8Array.of(R_RECV, R_SEND, R_COPY);

/**
 * Operations, columnar, grouped by rank in execution order: rank r's are [rankStart[r], rankStart[r + 1]). Before
 * operation x is posted its rank waits until every operation of the rank in [rankStart[r], waitPrefix[x]) and every
 * one of deps[depStart[x] .. depStart[x + 1]) has completed (an operation never waits for a later one). A rank ends
 * with a wait for all its operations. With `readyQueue` the order is not a posting order: a rank posts whatever is
 * ready (its dependencies observed complete), receives first, in the order they became ready, and when nothing is
 * ready waits for some of its pending operations (MPI_Waitsome), as the reference executor runs a dataflow program.
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
  /** Post from ready queues (dataflow) instead of in order; waitPrefix is then ignored. */
  readonly readyQueue?: boolean;
}

/**
 * The operations of `prog` as the reference executor runs them: nonblocking, every round posts its receives, then its
 * sends, then its copies, and the next round waits for all of them (SMPI's trace replay runs the same); blocking, the
 * operations in program order, each waiting for the one before; dataflow, in program order with their dependencies,
 * replayed from ready queues (`readyQueue`) as the executor runs them.
 */
export function replayOpsOf(prog: Program): ReplayOps {
  checkProgramArg("machines", prog, "replayOpsOf");
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
        for (let j = 0; j < 3; j++)
          for (let z = x; z < y; z++)
            if (ops.kind[z] === POST_ORDER[j]) {
              waitPrefix[w] = roundStart;
              order[w++] = z;
            }
      }
      x = y;
    }
  }
  return columns(prog, order, waitPrefix, blockingVariant, new Uint32Array(n + 1), new Uint32Array(0));
}

/** A dataflow program's operations (replayOpsOf): program order, each waiting for its own dependencies. */
function dataflowOps(prog: Program, after: AfterTable): ReplayOps {
  const { ops, rankStart, p } = prog;
  const n = ops.kind.length;
  const order = new Uint32Array(n),
    waitPrefix = new Uint32Array(n);
  for (let r = 0; r < p; r++)
    for (let z = rankStart[r]!; z < rankStart[r + 1]!; z++) {
      order[z] = z;
      waitPrefix[z] = rankStart[r]!;
    }
  const depStart = Uint32Array.from(after.start.subarray(0, n + 1)),
    deps = Uint32Array.from(after.op.subarray(0, after.start[n]!));
  for (let z = 0; z < n; z++)
    for (let d = depStart[z]!; d < depStart[z + 1]!; d++) {
      const y = deps[d]!;
      if (y >= n || ops.rank[y] !== ops.rank[z])
        throw fail(
          "machines",
          "BAD_INPUT",
          `program replay: operation ${z} of rank ${ops.rank[z]} waits for operation ${y}, not one of its rank's`,
        );
    }
  return { ...columns(prog, order, waitPrefix, false, depStart, deps), readyQueue: true };
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
