/** Shared fast-check generators: seeded matrices of every shape the papers and users produce. */
import fc from "fast-check";
import { matrixFromData, toSparse, type CommMatrix } from "../../src/model/matrix.js";
import { createRng } from "../../src/model/rng.js";

/** Shapes of random matrices. */
export type MatrixKind = "dense" | "sparse" | "empty-rows" | "zero" | "huge" | "permutation" | "spike";

/** A recipe for a matrix: small to shrink, rebuilt deterministically from its seed. */
export interface MatrixRecipe {
  readonly p: number;
  readonly kind: MatrixKind;
  readonly seed: number;
  readonly maxEntry: number;
}

/**
 * Builds the matrix a recipe describes, stored sparse when the seed is odd (so that every property
 * test runs on both storages of CommMatrix; the entries do not depend on the storage).
 */
export function buildMatrix(r: MatrixRecipe): CommMatrix {
  const m = buildDense(r);
  return r.seed % 2 === 1 ? toSparse(m) : m;
}

/** The recipe's matrix in dense storage. */
function buildDense(r: MatrixRecipe): CommMatrix {
  const { p } = r;
  const rng = createRng(r.seed);
  const d = new Float64Array(p * p);
  const val = (): number => 1 + Math.floor(rng.next() * r.maxEntry);
  switch (r.kind) {
    case "dense":
      for (let k = 0; k < p * p; k++) d[k] = val();
      break;
    case "sparse":
      for (let k = 0; k < p * p; k++) if (rng.int(8) === 0) d[k] = val();
      break;
    case "empty-rows": {
      for (let i = 0; i < p; i++) {
        const rowOff = rng.int(3) === 0;
        for (let j = 0; j < p; j++) if (!rowOff && j % 3 !== 1 && rng.int(2) === 0) d[i * p + j] = val();
      }
      break;
    }
    case "zero":
      break;
    case "huge":
      // entries up to 2^40, sparse so that row sums stay exact
      for (let k = 0; k < p * p; k++) if (rng.int(4) === 0) d[k] = 1 + Math.floor(rng.next() * 2 ** 40);
      break;
    case "permutation": {
      const perm = Array.from({ length: p }, (_, i) => i);
      for (let i = p - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [perm[i], perm[j]] = [perm[j]!, perm[i]!];
      }
      for (let i = 0; i < p; i++) d[i * p + perm[i]!] = val();
      break;
    }
    case "spike":
      for (let i = 0; i < p; i++) {
        for (let j = 0; j < p; j++) d[i * p + j] = i === j ? 0 : 1;
        if (p > 1) d[i * p + ((i + 1 + rng.int(p - 1)) % p)] = r.maxEntry;
      }
      break;
  }
  return matrixFromData(p, d);
}

/** Recipes with P in [minP, maxP] (default 1..70) of the given `kinds` (default all); leave out "huge" (entries up to 2^40) for element-level tests. */
export function matrixRecipe(
  opts: { minP?: number; maxP?: number; kinds?: readonly MatrixKind[] } = {},
): fc.Arbitrary<MatrixRecipe> {
  const kinds = opts.kinds ?? (["dense", "sparse", "empty-rows", "zero", "huge", "permutation", "spike"] as const);
  return fc.record({
    p: fc.integer({ min: opts.minP ?? 1, max: opts.maxP ?? 70 }),
    kind: fc.constantFrom(...kinds),
    seed: fc.integer({ min: 0, max: 0x7fffffff }),
    maxEntry: fc.constantFrom(1, 7, 100, 5000),
  });
}

/** Matrices (built from recipes). */
export function matrixArb(opts: Parameters<typeof matrixRecipe>[0] = {}): fc.Arbitrary<CommMatrix> {
  return matrixRecipe(opts).map(buildMatrix);
}
