/**
 * auditPairs: per ordered pair, the transfers i -> j against M[i][j], in one pass (shared by the direct and the
 * message-level delivery checks).
 */
import type { CommMatrix, MatrixRows } from "../model/matrix.js";
import { findInRow } from "../model/matrix-rows.js";
import type { Schedule } from "../model/schedule.js";
import { transfersBySource } from "./by-source.js";

/** The transfers of every pair against the matrix. */
export interface PairAudit {
  /** Off-diagonal pairs whose transfers do not add up to the entry, and the first of them. */
  readonly mismatches: number;
  readonly witness: string | null;
  /** Elements carried by network transfers (src != dst), and elements of off-diagonal messages. */
  readonly carried: number;
  readonly needed: number;
  /**
   * Pairs breaking direct delivery (off the diagonal: not equal to M[i][j]; on it: more than M[i][i]), and the first.
   */
  readonly directBad: number;
  readonly directWitness: string | null;
}

/**
 * One pass over the transfers grouped by source and the matrix rows (a scratch row of P, reused): O(P^2 + T) time, O(P
 * + T) memory; O(P + E + T) on a sparse matrix.
 */
export function auditPairs(m: CommMatrix, s: Schedule): PairAudit {
  if (m.sparse) return auditPairsSparse(m.sparse, s);
  const { p } = s;
  const rows = new SourceSums(s);
  const { got } = rows;
  const data = m.data;
  let carried = 0,
    needed = 0,
    mismatches = 0,
    directBad = 0;
  let witness: string | null = null,
    directWitness: string | null = null;
  for (let u = 0; u < p; u++) {
    const sent = rows.load(u);
    const row = u * p;
    // fast pass: the sums and whether the row has a bad pair (the diagonal taken out after)
    let need = 0,
      carry = 0,
      bad = false;
    for (let j = 0; j < p; j++) {
      const want = data[row + j]!,
        g = got[j]!;
      need += want;
      carry += g;
      if (g !== want && j !== u) bad = true;
    }
    needed += need - data[row + u]!;
    carried += carry - got[u]!;
    // a row with a bad pair is walked again in row-major order for the counts and the witnesses
    if (bad || got[u]! > data[row + u]!) {
      for (let j = 0; j < p; j++) {
        const want = data[row + j]!,
          g = got[j]!;
        if (j === u) {
          if (g > want) {
            directBad++;
            directWitness ??= `transfers ${u} -> ${j} carry ${g} elements, M[${u}][${j}] = ${want}`;
          }
        } else if (g !== want) {
          mismatches++;
          directBad++;
          witness ??= `transfers ${u} -> ${j} carry ${g} elements, M[${u}][${j}] = ${want}`;
          directWitness ??= witness;
        }
      }
    }
    rows.clear(u, sent);
  }
  return { mismatches, witness, carried, needed, directBad, directWitness };
}

/**
 * auditPairs over compressed rows: per source u, the row's non-zero entries and the destinations of
 * u's transfers (the pairs where either is non-zero), in O(P + E + T). The witnesses are the same as
 * the dense walk's: the first pair in row-major order.
 */
function auditPairsSparse(r: MatrixRows, s: Schedule): PairAudit {
  const { p } = s;
  const rows = new SourceSums(s);
  const { got, order } = rows;
  const { dst } = s;
  const { rowStart, col, val } = r;
  const stamp = new Int32Array(p).fill(-1);
  let carried = 0,
    needed = 0,
    mismatches = 0,
    directBad = 0;
  let witness: string | null = null,
    directWitness: string | null = null;
  for (let u = 0; u < p; u++) {
    const sent = rows.load(u);
    const k0 = rows.start[u]!,
      k1 = rows.start[u + 1]!;
    // the first (smallest j) bad pair of this row, off the diagonal and for direct delivery
    let firstOff = -1,
      firstDirect = -1;
    const judge = (j: number, want: number): void => {
      const g = got[j]!;
      if (j === u) {
        if (g > want) {
          directBad++;
          if (firstDirect < 0 || j < firstDirect) firstDirect = j;
        }
        return;
      }
      needed += want;
      carried += g;
      if (g !== want) {
        mismatches++;
        directBad++;
        if (firstOff < 0 || j < firstOff) firstOff = j;
        if (firstDirect < 0 || j < firstDirect) firstDirect = j;
      }
    };
    for (let k = rowStart[u]!; k < rowStart[u + 1]!; k++) {
      stamp[col[k]!] = u;
      judge(col[k]!, val[k]!);
    }
    for (let k = k0; k < k1; k++) {
      const j = dst[order[k]!]!;
      if (stamp[j] === u) continue;
      stamp[j] = u;
      judge(j, 0);
    }
    const entryOf = (j: number): number => {
      const k = findInRow(r, u, j);
      return k < 0 ? 0 : val[k]!;
    };
    const say = (j: number): string =>
      `transfers ${u} -> ${j} carry ${got[j]!} elements, M[${u}][${j}] = ${entryOf(j)}`;
    if (firstOff >= 0) witness ??= say(firstOff);
    if (firstDirect >= 0) directWitness ??= say(firstDirect);
    rows.clear(u, sent);
  }
  return { mismatches, witness, carried, needed, directBad, directWitness };
}

/**
 * Per source u, the elements its transfers carry to each destination (`got`, a scratch row of P): load(u) fills it,
 * clear(u) empties it.
 */
class SourceSums {
  readonly start: Uint32Array;
  readonly order: Uint32Array;
  readonly got: Float64Array;
  constructor(private readonly s: Schedule) {
    ({ start: this.start, order: this.order } = transfersBySource(s, true));
    this.got = new Float64Array(s.p);
  }
  /** Adds u's transfers into got; returns how many there are. */
  load(u: number): number {
    const { order, got } = this;
    const { dst, size } = this.s;
    const k0 = this.start[u]!,
      k1 = this.start[u + 1]!;
    for (let k = k0; k < k1; k++) {
      const x = order[k]!,
        j = dst[x]!;
      got[j] = got[j]! + size[x]!;
    }
    return k1 - k0;
  }
  /** Empties got after u: a sequential fill when u sends to many (cheaper than re-reading its transfers). */
  clear(u: number, sent: number): void {
    const { order, got } = this;
    const dst = this.s.dst;
    if (sent > this.s.p >>> 3) got.fill(0);
    else for (let k = this.start[u]!; k < this.start[u + 1]!; k++) got[dst[order[k]!]!] = 0;
  }
}
