/**
 * nodeShrinking: an arbitrary of matrices that shrinks by deleting nodes, zeroing entries and lowering values (on the
 * matrix itself).
 */
import fc from "fast-check";
import { matrixFromData, toSparse, type CommMatrix } from "../model/matrix.js";

/** A shrunk matrix in the storage of the one it came from. */
function like(m: CommMatrix, shrunk: CommMatrix): CommMatrix {
  return m.sparse ? toSparse(shrunk) : shrunk;
}

/** The matrix without node k (its row and column). */
function withoutNode(m: CommMatrix, k: number): CommMatrix {
  const { p, data } = m;
  const q = p - 1;
  const out = new Float64Array(q * q);
  for (let i = 0, a = 0; i < p; i++) {
    if (i === k) continue;
    for (let j = 0, b = 0; j < p; j++) if (j !== k) out[a * q + b++] = data[i * p + j]!;
    a++;
  }
  return like(m, matrixFromData(q, out, { elementBytes: m.elementBytes }));
}

/** The matrix with entry x set to v. */
function withEntry(m: CommMatrix, x: number, v: number): CommMatrix {
  const data = m.data.slice();
  data[x] = v;
  return like(m, matrixFromData(m.p, data, { elementBytes: m.elementBytes }));
}

/** Smaller matrices: each node deleted (last first), each entry zeroed, then each entry lowered toward minEntry. */
function* smaller(m: CommMatrix, minP: number, minEntry: number): Generator<fc.Value<CommMatrix>> {
  if (m.p > minP) for (let k = m.p - 1; k >= 0; k--) yield new fc.Value(withoutNode(m, k), undefined);
  const { data } = m;
  for (let x = 0; x < data.length; x++) if (data[x]! > 0) yield new fc.Value(withEntry(m, x, 0), undefined);
  for (let x = 0; x < data.length; x++) {
    const v = data[x]!;
    if (v > minEntry) yield new fc.Value(withEntry(m, x, minEntry), undefined);
    const half = Math.max(minEntry, Math.floor(v / 2));
    if (half > minEntry && half < v) yield new fc.Value(withEntry(m, x, half), undefined);
  }
}

/**
 * Draws from `base`, and shrinks any matrix by node deletion (down to minP), zeroing and lowering entries (to
 * minEntry).
 */
class NodeShrinking extends fc.Arbitrary<CommMatrix> {
  constructor(
    private readonly base: fc.Arbitrary<CommMatrix>,
    private readonly minP: number,
    private readonly minEntry: number,
  ) {
    super();
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<CommMatrix> {
    return new fc.Value(this.base.generate(mrng, biasFactor).value, undefined);
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
  shrink(value: CommMatrix): fc.Stream<fc.Value<CommMatrix>> {
    return new fc.Stream(smaller(value, this.minP, this.minEntry));
  }
}

/**
 * Matrices of `base` that shrink on the matrix itself: a failure found at P = 7 can shrink to the 3 nodes that matter.
 */
export function nodeShrinking(base: fc.Arbitrary<CommMatrix>, minP = 1, minEntry = 1): fc.Arbitrary<CommMatrix> {
  return new NodeShrinking(base, minP, minEntry);
}
