/**
 * nodeShrinking: an arbitrary of matrices that shrinks by deleting blocks of nodes, zeroing entries and lowering values
 * to their least failing ones (on the matrix itself).
 */
import fc from "fast-check";
import { matrixFromData, toSparse, type CommMatrix } from "../model/matrix.js";

/** A shrunk matrix in the storage of the one it came from. */
function like(m: CommMatrix, shrunk: CommMatrix): CommMatrix {
  return m.sparse ? toSparse(shrunk) : shrunk;
}

/** The matrix without nodes k..k+d-1 (their rows and columns). */
function withoutNodes(m: CommMatrix, k: number, d: number): CommMatrix {
  const { p, data } = m;
  const q = p - d;
  const gone = (i: number): boolean => i >= k && i < k + d;
  const out = new Float64Array(q * q);
  for (let i = 0, a = 0; i < p; i++) {
    if (gone(i)) continue;
    for (let j = 0, b = 0; j < p; j++) if (!gone(j)) out[a * q + b++] = data[i * p + j]!;
    a++;
  }
  return like(m, matrixFromData(q, out, { elementBytes: m.elementBytes }));
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

/** The matrix with the entries at `xs` (row-major indices) set to v. */
function withEntries(m: CommMatrix, xs: readonly number[], v: number): CommMatrix {
  const data = m.data.slice();
  for (const x of xs) data[x] = v;
  return like(m, matrixFromData(m.p, data, { elementBytes: m.elementBytes }));
}

/** The matrix with entry x set to v. */
const withEntry = (m: CommMatrix, x: number, v: number): CommMatrix => withEntries(m, [x], v);

/**
 * Smaller matrices: blocks of nodes deleted (half of them, then two, then one; last block first), blocks of the
 * non-zero entries zeroed (half of them, a quarter, ..., two: a large matrix whose P cannot shrink loses its irrelevant
 * entries in a few rounds, not one round per entry), each entry zeroed, then each entry lowered by a binary search
 * toward minEntry (a failing entry ends at its least failing value); a deletion that gives the same matrix as an
 * earlier one is not tried again.
 */
function* smaller(m: CommMatrix, minP: number, minEntry: number): Generator<fc.Value<CommMatrix>> {
  const seen = new Set<string>();
  const fresh = (c: CommMatrix): boolean => {
    const key = `${c.p}:${c.data.join(",")}`;
    return !seen.has(key) && seen.add(key) !== undefined;
  };
  for (const d of blockSizes(m.p, minP))
    for (let k = m.p - d; k >= 0; k--) {
      const c = withoutNodes(m, k, d);
      if (fresh(c)) yield new fc.Value(c, undefined);
    }
  const { data } = m;
  const nonZero: number[] = [];
  for (let x = 0; x < data.length; x++) if (data[x]! > 0) nonZero.push(x);
  for (let size = nonZero.length >> 1; size >= 2; size >>= 1)
    for (let k = 0; k + size <= nonZero.length; k += size)
      yield new fc.Value(withEntries(m, nonZero.slice(k, k + size), 0), undefined);
  for (const x of nonZero) yield new fc.Value(withEntry(m, x, 0), undefined);
  for (let x = 0; x < data.length; x++)
    for (const v of lowered(data[x]!, minEntry)) yield new fc.Value(withEntry(m, x, v), undefined);
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
