/** PieceCol: buffer pieces grouped by owner (a message side) in growable columns, for the lowering's passes. */
import { growF64, growU32, type Growable } from "../internal/growable.js";

/**
 * Buffer pieces grouped by owner (a message side): pieces of owner k are [start[k], start[k + 1]).
 * Owners are appended in order; `piece` coalesces with the previous piece of the same owner when
 * it continues it in the same buffer.
 */
export class PieceCol {
  readonly buffer: Growable<Uint32Array>;
  readonly offset: Growable<Float64Array>;
  readonly count: Growable<Float64Array>;
  readonly start: Growable<Uint32Array>;
  /** `pieces` and `owners`: expected sizes (the columns grow past them). */
  constructor(pieces = 1024, owners = 1024) {
    this.buffer = growU32(pieces);
    this.offset = growF64(pieces);
    this.count = growF64(pieces);
    this.start = growU32(owners + 1);
  }
  /** Opens the next owner's piece list. */
  open(): void {
    this.start.push(this.buffer.length);
  }
  /** Appends a piece to the open owner, merging it into the previous one when adjacent. */
  piece(buffer: number, offset: number, count: number): void {
    const n = this.buffer.length;
    if (
      n > this.start.data[this.start.length - 1]! &&
      this.buffer.data[n - 1] === buffer &&
      this.offset.data[n - 1]! + this.count.data[n - 1]! === offset
    ) {
      this.count.data[n - 1] = this.count.data[n - 1]! + count;
      return;
    }
    this.buffer.push(buffer);
    this.offset.push(offset);
    this.count.push(count);
  }
  /** Closes the owner list (start gets its final entry). */
  close(): Uint32Array {
    this.start.push(this.buffer.length);
    return this.start.toArray();
  }
}
