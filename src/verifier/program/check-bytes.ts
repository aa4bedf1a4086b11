/**
 * Memory of the program checks: the bytes a program's tables hold, and the bytes verifyProgram allocates to check it,
 * from its operations, pieces, buffer slots and the matrix's entries (for a refusal before they are allocated).
 */
import type { CommMatrix } from "../../model/matrix.js";
import type { Program } from "../../model/program.js";

/**
 * Bytes per operation the checks allocate: the matching (partner, the send and receive lists and the sort's buffer:
 * 16), then the run in the variant's order (the nonblocking round buckets and staging offsets, 16; the rendezvous and
 * dataflow queues and marks are no larger).
 */
export const CHECK_BYTES_PER_OP = 32;
/** Bytes per buffer slot (send, receive and scratch elements): its content and its free, read and write stamps. */
export const CHECK_BYTES_PER_SLOT = 20;
/** Bytes per element the matrix moves: its holder, and the staging of a round's sends. */
export const CHECK_BYTES_PER_ELEMENT = 12;
/** Bytes per non-zero entry of the matrix: its column-major copy (row, value) and the elements' prefix sums. */
export const CHECK_BYTES_PER_ENTRY = 20;

/** Bytes the typed arrays of a program hold (their whole stores: a view keeps its store's spare room). */
export function programTableBytes(prog: Program): number {
  const stores = new Set<ArrayBufferLike>();
  const visit = (x: unknown): void => {
    if (ArrayBuffer.isView(x)) stores.add(x.buffer);
    else if (x !== null && typeof x === "object") for (const v of Object.values(x)) visit(v);
  };
  visit(prog.layout);
  visit(prog.rankStart);
  visit(prog.ops);
  visit(prog.pieces);
  visit(prog.after);
  let bytes = 0;
  for (const s of stores) bytes += s.byteLength;
  return bytes;
}

/** The buffer slots of a program: every rank's send, receive and scratch elements. */
export function programSlots(prog: Program): number {
  const { sendSize, recvSize, scratchSize } = prog.layout;
  let slots = 0;
  for (let r = 0; r < prog.p; r++) slots += sendSize[r]! + recvSize[r]! + scratchSize[r]!;
  return slots;
}

/** The layout's buffer sizes and the field of a rank in program JSON (program-json-read.ts) that gives each. */
const SIZE_FIELDS = [
  ["sendSize", "sendSize"],
  ["recvSize", "recvSize"],
  ["scratchSize", "scratch"],
] as const;

/**
 * The largest buffer size of a program: its rank, its field as program JSON names it in the rank's object (sendSize,
 * recvSize or scratch) and its elements.
 */
export function largestBufferSize(prog: Program): { rank: number; field: string; elements: number } {
  let top = { rank: 0, field: "sendSize", elements: -1 };
  for (const [size, field] of SIZE_FIELDS) {
    const sizes = prog.layout[size];
    for (let r = 0; r < prog.p; r++) if (sizes[r]! > top.elements) top = { rank: r, field, elements: sizes[r]! };
  }
  return top;
}

/** The non-zero entries of a matrix and the elements they hold, read from its storage (no copy made). */
function entriesOf(m: CommMatrix): { entries: number; elements: number } {
  const vals = m.sparse ? m.sparse.val : m.data;
  let entries = 0,
    elements = 0;
  for (let k = 0; k < vals.length; k++)
    if (vals[k]! > 0) {
      entries++;
      elements += vals[k]!;
    }
  return { entries, elements };
}

/** Bytes verifyProgram allocates to check `prog` against `m` (the matrix and the program's tables aside). */
export function programCheckBytes(m: CommMatrix, prog: Program): number {
  const { entries, elements } = entriesOf(m);
  return (
    CHECK_BYTES_PER_OP * prog.ops.rank.length +
    CHECK_BYTES_PER_SLOT * programSlots(prog) +
    CHECK_BYTES_PER_ELEMENT * elements +
    CHECK_BYTES_PER_ENTRY * entries
  );
}
