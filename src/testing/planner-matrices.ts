/**
 * anyMatrixArb: the matrices a planner is tried on by default: matrixArb in both storages and every pattern family of
 * `commplan gen` that reads no file, also in both storages; shrinks on the matrix itself.
 */
import fc from "fast-check";
import { toSparse, type CommMatrix } from "../model/matrix.js";
import { MAX_ENTRY_OPTION, matrixArb } from "./matrix-arbitraries.js";
import { fail } from "../model/errors.js";
import { checkOptionKeys, checkOptionsObject, describeValue } from "../model/option-checks.js";
import { checkPRange } from "./check-options.js";
import { nodeShrinking } from "./matrix-shrink.js";
import { anyPatternArb } from "./pattern-arbitraries.js";

/** Options of anyMatrixArb. */
export interface AnyMatrixArbOptions {
  /** Smallest P (default 1). */
  readonly minP?: number;
  /** Largest P (default 8). */
  readonly maxP?: number;
  /** Largest entry (default 100): a pattern matrix with a larger entry is drawn again. */
  readonly maxEntry?: number;
}

/** The largest entry of a matrix. */
function largest(m: CommMatrix): number {
  if (m.sparse) return m.sparse.val.reduce((a, v) => Math.max(a, v), 0);
  return m.data.reduce((a, v) => Math.max(a, v), 0);
}

/**
 * Any matrix a planner may meet: three draws in four from matrixArb (dense or sparse storage, half each), one in four
 * from a pattern family (dense or sparse); P in minP..maxP and entries up to maxEntry either way.
 */
export function anyMatrixArb(options: AnyMatrixArbOptions = {}): fc.Arbitrary<CommMatrix> {
  checkOptionsObject("testing", "options", options);
  checkOptionKeys("testing", options, ["minP", "maxP", "maxEntry"], "anyMatrixArb");
  const minP = options.minP ?? 1;
  const maxP = options.maxP ?? Math.max(8, minP);
  const maxEntry = options.maxEntry ?? 100;
  checkPRange("anyMatrixArb", minP, maxP);
  if (!(typeof maxEntry === "number" && Number.isInteger(maxEntry) && maxEntry >= 1 && maxEntry <= MAX_ENTRY_OPTION))
    throw fail(
      "testing",
      "BAD_OPTION",
      `anyMatrixArb: maxEntry must be an integer in 1..2^40, got ${describeValue(maxEntry)}`,
      {
        field: "maxEntry",
      },
    );
  const patterns = fc
    .tuple(anyPatternArb({ minP, maxP }), fc.boolean())
    .filter(([m]) => m.p >= minP && m.p <= maxP && largest(m) <= maxEntry)
    .map(([m, sparse]) => (sparse ? toSparse(m) : m));
  const drawn = fc.oneof(
    { weight: 3, arbitrary: matrixArb({ minP, maxP, maxEntry, storage: "mixed" }) },
    { weight: 1, arbitrary: patterns },
  );
  return nodeShrinking(drawn, minP);
}
