/**
 * Plan bytes: what a plan of a matrix holds at least, estimated before planning (`plan`), and with the store entry it
 * is encoded into (`store add`, `precompute`).
 */
import { checkMemory } from "../model/memory-budget.js";
import { matrixBytes, type CommMatrix } from "../model/matrix.js";

/** Bytes a schedule takes per transfer while it is built (src, dst, size and the builder's growth). */
const PLAN_TRANSFER_BYTES = 28;
/** Bytes per payload chunk (origin, dest, offset, count and the chunk starts). */
const PLAN_CHUNK_BYTES = 24;

/** The non-zero off-diagonal messages of `m` (each is one transfer at least), without building compressed rows. */
function messagesOf(m: CommMatrix): number {
  if (m.sparse !== undefined) {
    const { rowStart, col } = m.sparse;
    let n = rowStart[m.p]!;
    for (let i = 0; i < m.p; i++) for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) if (col[k] === i) n--;
    return n;
  }
  let n = 0;
  const { data, p } = m;
  for (let x = 0; x < data.length; x++) if (data[x]! > 0 && x % (p + 1) !== 0) n++;
  return n;
}

/**
 * What a plan of `m` holds at least: the matrix, and a transfer (with a chunk when `payload`) per message; the
 * planners whose work grows faster say so themselves (plan-memory.ts).
 */
export function planOutputBytes(m: CommMatrix, payload: boolean, messages = messagesOf(m)): number {
  return matrixBytes(m) + messages * (PLAN_TRANSFER_BYTES + (payload ? PLAN_CHUNK_BYTES : 0));
}

/** Bytes of a store entry per transfer (its stage, step, src, dst and size columns: 19 to 24) and per payload chunk. */
const ENTRY_TRANSFER_BYTES = 24;
const ENTRY_CHUNK_BYTES = 24;

/**
 * Refuses, before planning, a plan for the store that the budget cannot hold: what `plan` counts (planOutputBytes) and
 * the entry it is encoded into, both held at once while the entry is written.
 */
export function checkStorePlanMemory(
  module: string,
  m: CommMatrix,
  algorithm: string,
  payload: boolean,
  maxMemory: number,
  place: { file?: string } = {},
): void {
  const messages = messagesOf(m);
  const entry = messages * (ENTRY_TRANSFER_BYTES + (payload ? ENTRY_CHUNK_BYTES : 0));
  checkMemory(
    module,
    planOutputBytes(m, payload, messages) + entry,
    `planning ${algorithm} for P = ${m.p} into a store entry`,
    maxMemory,
    place,
  );
}
