/** Data mode: element tags move between per-node buffers following the payload chunks (docs/simulator.md). */
import { fail } from "../../model/errors.js";
import { checkMadeFor, matrixRows, type CommMatrix, type MatrixRows } from "../../model/matrix.js";
import { findInRow } from "../../model/matrix-rows.js";
import type { Schedule } from "../../model/schedule.js";

/** Most elements data mode tracks (one Int32 tag each). */
export const MAX_DATA_ELEMENTS = 50_000_000;
/** Most failures kept (the first ones, in simulated-time order). */
const MAX_FAILURES = 20;
/** Tag of an element on the wire. */
const IN_FLIGHT = -1;

/**
 * Where every element (o, d, x) is: holder[base[k] + x] is the node that holds it, or -1 while a
 * transfer carries it, k being (o, d)'s slot among the matrix's non-zero entries (matrixRows, in
 * row-major order: no P x P table). A transfer may only take elements its source holds when it starts.
 */
export class DataTracker {
  private readonly holder: Int32Array;
  private readonly base: Float64Array;
  private readonly rows: MatrixRows;
  /** Failures so far, each naming the node and the element. */
  readonly failures: string[] = [];
  failureCount = 0;

  constructor(
    readonly m: CommMatrix,
    readonly s: Schedule,
  ) {
    if (s.chunks === null)
      throw fail(
        "simulate",
        "BAD_INPUT",
        "data mode needs a schedule with payload chunks (plan with the option payload)",
        {
          field: "chunks",
        },
      );
    checkMadeFor(m, s, "data mode: the schedule", "simulate");
    const p = m.p;
    const rows = (this.rows = matrixRows(m));
    const e = rows.rowStart[p]!;
    this.base = new Float64Array(e + 1);
    let total = 0;
    for (let k = 0; k < e; k++) {
      this.base[k] = total;
      total += rows.val[k]!;
    }
    this.base[e] = total;
    if (total > MAX_DATA_ELEMENTS)
      throw fail(
        "simulate",
        "BAD_INPUT",
        `data mode tracks at most ${MAX_DATA_ELEMENTS} elements, the matrix has ${total}`,
        { field: "data" },
      );
    this.holder = new Int32Array(total);
    for (let o = 0; o < p; o++) this.holder.fill(o, this.base[rows.rowStart[o]!]!, this.base[rows.rowStart[o + 1]!]!);
  }

  /** The slot of pair (o, d) among the non-zero entries, or -1 (a pair outside the matrix or a zero entry). */
  private slot(o: number, d: number): number {
    const p = this.m.p;
    return o >= p || d >= p ? -1 : findInRow(this.rows, o, d);
  }

  private note(text: string): void {
    this.failureCount++;
    if (this.failures.length < MAX_FAILURES) this.failures.push(text);
  }

  /** Transfer x starts at time t: its source must hold every element it lists; they go on the wire. */
  start(x: number, t: number): void {
    const c = this.s.chunks!;
    const a = this.s.src[x]!;
    for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
      const o = c.origin[k]!,
        d = c.dest[k]!,
        off = c.offset[k]!,
        n = c.count[k]!;
      const q = this.slot(o, d);
      if (q < 0 || off + n > this.rows.val[q]!) {
        this.note(
          `transfer ${x} (${a} -> ${this.s.dst[x]}) chunk ${k - c.start[x]!} names elements (${o}, ${d}, ${off}..${off + n - 1}) outside the matrix`,
        );
        continue;
      }
      const b0 = this.base[q]! + off;
      for (let e = 0; e < n; e++) {
        const h = this.holder[b0 + e]!;
        if (h !== a) {
          this.note(
            `node ${a} does not hold element (${o}, ${d}, ${off + e}) when transfer ${x} (${a} -> ${this.s.dst[x]}) starts at ${t} us (${h === IN_FLIGHT ? "it is in flight" : `node ${h} holds it`})`,
          );
          continue;
        }
        this.holder[b0 + e] = IN_FLIGHT;
      }
    }
  }

  /** Transfer x ends: the elements it took arrive at its destination. */
  end(x: number): void {
    const c = this.s.chunks!;
    const a = this.s.src[x]!,
      b = this.s.dst[x]!;
    for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
      const o = c.origin[k]!,
        d = c.dest[k]!,
        off = c.offset[k]!,
        n = c.count[k]!;
      const q = this.slot(o, d);
      if (q < 0 || off + n > this.rows.val[q]!) continue;
      const b0 = this.base[q]! + off;
      // Only the elements this transfer took (tagged in flight) arrive; others were reported at start.
      for (let e = 0; e < n; e++) if (this.holder[b0 + e] === IN_FLIGHT) this.holder[b0 + e] = b;
    }
    void a;
  }

  /** After the run: every node holds exactly its elements; returns the failures (empty when delivery is exact). */
  finish(): string[] {
    const p = this.m.p;
    const { rowStart, col } = this.rows;
    for (let o = 0; o < p; o++) {
      for (let q = rowStart[o]!; q < rowStart[o + 1]!; q++) {
        const d = col[q]!;
        const from = this.base[q]!,
          to = this.base[q + 1]!;
        for (let i = from; i < to; i++) {
          const h = this.holder[i]!;
          if (h !== d)
            this.note(
              `node ${d} does not hold element (${o}, ${d}, ${i - from}) at the end (${h === IN_FLIGHT ? "still in flight" : `node ${h} holds it`})`,
            );
        }
      }
    }
    return this.failures;
  }
}
