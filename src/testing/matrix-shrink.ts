/**
 * nodeShrinking: an arbitrary of matrices that shrinks by deleting blocks of nodes, zeroing entries and lowering values
 * to their least failing ones (on the matrix itself).
 */
import fc from "fast-check";
import { matrixFromData, matrixFromEntries, matrixRows, type CommMatrix } from "../model/matrix.js";

/** A non-zero entry [i, j, value]. */
type Entry = readonly [number, number, number];

/** The non-zero entries of m in row-major order, from its compressed rows (matrixRows: no dense copy of a sparse m). */
function entriesOf(m: CommMatrix): Entry[] {
  const out: Entry[] = [];
  const { rowStart, col, val } = matrixRows(m);
  for (let i = 0; i < m.p; i++)
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) if (val[k]! > 0) out.push([i, col[k]!, val[k]!]);
  return out;
}

/** The q x q matrix of `es` in the storage of m (sparse stays sparse). */
function build(m: CommMatrix, q: number, es: readonly Entry[]): CommMatrix {
  if (m.sparse !== undefined) return matrixFromEntries(q, es, { elementBytes: m.elementBytes });
  const data = new Float64Array(q * q);
  for (const [i, j, v] of es) data[i * q + j] = v;
  return matrixFromData(q, data, { elementBytes: m.elementBytes });
}

/** The matrix without nodes k..k+d-1 (their rows and columns). */
function withoutNodes(m: CommMatrix, es: readonly Entry[], k: number, d: number): { c: CommMatrix; key: string } {
  const gone = (i: number): boolean => i >= k && i < k + d;
  const at = (i: number): number => (i >= k + d ? i - d : i);
  const kept: Entry[] = es.filter(([i, j]) => !gone(i) && !gone(j)).map(([i, j, v]) => [at(i), at(j), v]);
  return { c: build(m, m.p - d, kept), key: `${m.p - d}:${kept.join(";")}` };
}

/**
 * How many nodes one shrink step deletes, largest first: half of them (both roundings, so that an odd P can reach an
 * odd P), then two (which keeps P's parity), then one; each leaves at least minP.
 */
function blockSizes(p: number, minP: number): number[] {
  const sizes = [Math.ceil(p / 2), Math.floor(p / 2), 2, 1].filter((d) => d >= 1 && p - d >= minP);
  return [...new Set(sizes)];
}

/** The values a binary search from v down to min tries: min, then v minus halving distances, down to v - 1. */
function* lowered(v: number, min: number): Generator<number> {
  if (v <= min) return;
  yield min;
  for (let d = Math.floor((v - min) / 2); d >= 1; d = Math.floor(d / 2)) yield v - d;
}

/** The matrix with the entries es[from..to) zeroed. */
const withoutEntries = (m: CommMatrix, es: readonly Entry[], from: number, to: number): CommMatrix =>
  build(m, m.p, [...es.slice(0, from), ...es.slice(to)]);

/** The matrix with entry es[x] set to v > 0. */
const withValue = (m: CommMatrix, es: readonly Entry[], x: number, v: number): CommMatrix =>
  build(
    m,
    m.p,
    es.map((e, y): Entry => (y === x ? [e[0], e[1], v] : e)),
  );

/**
 * Smaller matrices: blocks of nodes deleted (half of them, then two, then one; last block first), blocks of the
 * non-zero entries zeroed (half of them, a quarter, ..., two: a large matrix whose P cannot shrink loses its irrelevant
 * entries in a few rounds, not one round per entry), each entry zeroed, then each entry lowered by a binary search
 * toward minEntry (a failing entry ends at its least failing value); a deletion that gives the same matrix as an
 * earlier one is not tried again. A sparse matrix is shrunk on its entries (O(P + E) per candidate, no dense copy).
 */
function* smaller(m: CommMatrix, minP: number, minEntry: number): Generator<fc.Value<CommMatrix>> {
  const seen = new Set<string>();
  const es = entriesOf(m);
  for (const d of blockSizes(m.p, minP))
    for (let k = m.p - d; k >= 0; k--) {
      const { c, key } = withoutNodes(m, es, k, d);
      if (!seen.has(key)) {
        seen.add(key);
        yield new fc.Value(c, undefined);
      }
    }
  for (let size = es.length >> 1; size >= 2; size >>= 1)
    for (let k = 0; k + size <= es.length; k += size) yield new fc.Value(withoutEntries(m, es, k, k + size), undefined);
  for (let x = 0; x < es.length; x++) yield new fc.Value(withoutEntries(m, es, x, x + 1), undefined);
  for (let x = 0; x < es.length; x++)
    for (const v of lowered(es[x]![2], minEntry)) yield new fc.Value(withValue(m, es, x, v), undefined);
}

/** The context of a value drawn by `base`, kept when `base` shrinks first: base's own context. */
class BaseContext {
  constructor(readonly context: unknown) {}
}

/**
 * Draws from `base`, and shrinks any matrix by node deletion (down to minP), zeroing and lowering entries (to
 * minEntry). With `baseFirst`, a matrix `base` drew (or shrank to) first tries `base`'s own shrinks (a pattern's P,
 * options and seed), then those on the matrix itself; a matrix shrunk on itself goes on shrinking on itself.
 */
class NodeShrinking extends fc.Arbitrary<CommMatrix> {
  constructor(
    private readonly base: fc.Arbitrary<CommMatrix>,
    private readonly minP: number,
    private readonly minEntry: number,
    private readonly baseFirst: boolean,
  ) {
    super();
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<CommMatrix> {
    const v = this.base.generate(mrng, biasFactor);
    return new fc.Value(v.value_, this.baseFirst ? new BaseContext(v.context) : undefined);
  }
  canShrinkWithoutContext(value: unknown): value is CommMatrix {
    const v = value as CommMatrix;
    return (
      typeof v === "object" &&
      v !== null &&
      typeof v.p === "number" &&
      (v.sparse !== undefined || (v.data instanceof Float64Array && v.data.length === v.p * v.p))
    );
  }
  shrink(value: CommMatrix, context: unknown): fc.Stream<fc.Value<CommMatrix>> {
    // a generator: the shrinks on the matrix itself are made only when the stream reaches them
    const own = smaller(value, this.minP, this.minEntry);
    if (!(context instanceof BaseContext)) return new fc.Stream(own);
    return this.base
      .shrink(value, context.context)
      .map((v) => new fc.Value(v.value_, new BaseContext(v.context)))
      .join(own);
  }
}

/**
 * Matrices of `base` that shrink on the matrix itself: a failure found at P = 7 can shrink to the 3 nodes that matter.
 */
export function nodeShrinking(base: fc.Arbitrary<CommMatrix>, minP = 1, minEntry = 1): fc.Arbitrary<CommMatrix> {
  return new NodeShrinking(base, minP, minEntry, false);
}

/**
 * Matrices of `base` that shrink first as `base` does (a pattern arbitrary: P, options, seed), then on the matrix
 * itself as nodeShrinking's do (never below minP).
 */
export function baseThenNodeShrinking(
  base: fc.Arbitrary<CommMatrix>,
  minP = 1,
  minEntry = 1,
): fc.Arbitrary<CommMatrix> {
  return new NodeShrinking(base, minP, minEntry, true);
}
