/** Timeline: per-node intervals (kind, peer, size) of a simulated run, stored in columns. */
import { growF64, growU32 } from "../../internal/growable.js";
import { TIMELINE_NONE, type Timeline } from "../../model/timeline.js";

/** What a node does in an interval. */
export type IntervalKind =
  "send" | "recv" | "copy" | "compose" | "wait" | "stall" | "barrier" | "cpu" | "dma" | "collide";
/** Every IntervalKind; the column `kind` stores the index into this list. */
export const INTERVAL_KINDS: readonly IntervalKind[] = Object.freeze([
  "send",
  "recv",
  "copy",
  "compose",
  "wait",
  "stall",
  "barrier",
  "cpu",
  "dma",
  "collide",
]);
/** Kind codes (indices into INTERVAL_KINDS). */
export const K = {
  send: 0,
  recv: 1,
  copy: 2,
  compose: 3,
  wait: 4,
  stall: 5,
  barrier: 6,
  cpu: 7,
  dma: 8,
  collide: 9,
} as const;

export type { Timeline } from "../../model/timeline.js";

/** No peer / no transfer. */
export const NONE = TIMELINE_NONE;

/** Append-only recorder of a timeline; a disabled recorder drops everything. */
export class TimelineRecorder {
  private readonly node = growU32(256);
  private readonly kind = growU32(256);
  private readonly start = growF64(256);
  private readonly end = growF64(256);
  private readonly peer = growU32(256);
  private readonly size = growF64(256);
  private readonly transfer = growU32(256);
  constructor(
    readonly p: number,
    readonly enabled: boolean,
  ) {}

  /** Records one interval (ignored when disabled or empty). */
  add(node: number, kind: number, start: number, end: number, peer: number, size: number, transfer: number): void {
    if (!this.enabled || !(end > start)) return;
    this.node.push(node);
    this.kind.push(kind);
    this.start.push(start);
    this.end.push(end);
    this.peer.push(peer);
    this.size.push(size);
    this.transfer.push(transfer);
  }

  /** The finished timeline. */
  build(): Timeline {
    return {
      p: this.p,
      kindNames: INTERVAL_KINDS,
      count: this.node.length,
      node: this.node.toArray(),
      kind: this.kind.toArray(),
      start: this.start.toArray(),
      end: this.end.toArray(),
      peer: this.peer.toArray(),
      size: this.size.toArray(),
      transfer: this.transfer.toArray(),
    };
  }
}
