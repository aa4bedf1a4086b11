/** fast-check arbitraries of communication matrices that shrink toward small P, zero entries and small values. */
import fc from "fast-check";
import { fail } from "../model/errors.js";
import { nodeShrinking } from "./matrix-shrink.js";
import { DEFAULT_ELEMENT_BYTES, MAX_P, matrixFromData, toSparse, type CommMatrix } from "../model/matrix.js";
import { jsonExcerpt } from "../internal/quoted.js";
import { checkBooleanOption, checkOptionKeys, checkOptionsObject, describeValue } from "../model/option-checks.js";

/** Options of matrixArb; every field is optional. */
export interface MatrixArbOptions {
  /** Smallest P (default 1). */
  readonly minP?: number;
  /** Largest P (default 8): the arbitrary draws maxP^2 entries and crops them to P x P, so keep it small. */
  readonly maxP?: number;
  /**
   * Fractions of non-zero entries to draw from, one per grid matrix (default [0, 0.15, 0.5, 1]: the zero matrix,
   * sparse, half, dense); half the matrices are not grids but lists of entries at random positions, whatever this says.
   */
  readonly densities?: readonly number[];
  /** Smallest non-zero entry (default 1). */
  readonly minEntry?: number;
  /** Largest entry (default 100; up to 2^40, kept so that no row or column sum passes 2^53 - 1). */
  readonly maxEntry?: number;
  /** Empty some rows and columns entirely (default true). */
  readonly emptyRows?: boolean;
  /** Allow entries on the diagonal (messages to self; default true). */
  readonly diagonal?: boolean;
  /** Bytes per element of every matrix (default 8). */
  readonly elementBytes?: number;
  /**
   * How the matrices are stored: "dense" (default), "sparse" (compressed rows), or "mixed" (drawn per matrix), so that
   * a planner is tried on both.
   */
  readonly storage?: "dense" | "sparse" | "mixed";
}

/** The largest maxEntry accepted. */
export const MAX_ENTRY_OPTION = 2 ** 40;

function bad(field: string, text: string): never {
  throw fail("testing", "BAD_OPTION", `matrixArb: ${field} ${text}`, { field });
}

/** The keys of MatrixArbOptions. */
const MATRIX_ARB_KEYS: readonly string[] = Object.freeze([
  "minP",
  "maxP",
  "densities",
  "minEntry",
  "maxEntry",
  "emptyRows",
  "diagonal",
  "elementBytes",
  "storage",
]);

/** Checks the options and fills the defaults. */
function resolve(o: MatrixArbOptions): Required<MatrixArbOptions> {
  checkOptionsObject("testing", "options", o);
  checkOptionKeys("testing", o, MATRIX_ARB_KEYS, "matrixArb");
  if (o.densities !== undefined && !Array.isArray(o.densities))
    bad("densities", `must be a non-empty list of numbers in 0..1, got ${describeValue(o.densities)}`);
  for (const flag of ["emptyRows", "diagonal"] as const) checkBooleanOption("testing", flag, o[flag]);
  const r = {
    minP: o.minP ?? 1,
    maxP: o.maxP ?? Math.max(8, o.minP ?? 1),
    densities: o.densities ?? [0, 0.15, 0.5, 1],
    minEntry: o.minEntry ?? 1,
    maxEntry: o.maxEntry ?? Math.max(100, o.minEntry ?? 1),
    emptyRows: o.emptyRows ?? true,
    diagonal: o.diagonal ?? true,
    elementBytes: o.elementBytes ?? DEFAULT_ELEMENT_BYTES,
    storage: o.storage ?? "dense",
  };
  if (!["dense", "sparse", "mixed"].includes(r.storage))
    bad("storage", `must be "dense", "sparse" or "mixed", got ${jsonExcerpt(r.storage)}`);
  if (!Number.isInteger(r.minP) || r.minP < 1) bad("minP", `must be a positive integer, got ${r.minP}`);
  if (!Number.isInteger(r.maxP) || r.maxP < r.minP || r.maxP > MAX_P)
    bad("maxP", `must be an integer in minP..${MAX_P}, got ${r.maxP}`);
  if (r.densities.length === 0 || r.densities.some((d) => !(d >= 0 && d <= 1)))
    bad("densities", `must be a non-empty list of numbers in 0..1, got [${r.densities.join(", ")}]`);
  if (!Number.isInteger(r.minEntry) || r.minEntry < 1) bad("minEntry", `must be a positive integer, got ${r.minEntry}`);
  if (!Number.isInteger(r.maxEntry) || r.maxEntry < r.minEntry || r.maxEntry > MAX_ENTRY_OPTION)
    bad("maxEntry", `must be an integer in minEntry..2^40, got ${r.maxEntry}`);
  if (!Number.isInteger(r.elementBytes) || r.elementBytes < 1)
    bad("elementBytes", `must be a positive integer, got ${describeValue(r.elementBytes)}`);
  if (r.maxEntry * r.maxP > Number.MAX_SAFE_INTEGER)
    bad("maxEntry", `x maxP must stay below 2^53 (row sums are exact), got ${r.maxEntry} x ${r.maxP}`);
  return r;
}

/** Entries from minEntry to maxEntry shrinking toward minEntry (big integers past 32 bits). */
function entryArb(min: number, max: number): fc.Arbitrary<number> {
  if (max <= 0x7fffffff) return fc.integer({ min, max });
  return fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
}

/**
 * Entries biased toward the values that trigger bugs early: the smallest four (both parities), the largest, and
 * otherwise any value of the range.
 */
function biasedEntryArb(min: number, max: number): fc.Arbitrary<number> {
  const small = fc.integer({ min, max: Math.min(max, min + 3) });
  const edge = fc.constantFrom(...new Set([min, max, Math.max(min, max - 1)]));
  return fc.oneof(
    { weight: 4, arbitrary: small },
    { weight: 1, arbitrary: edge },
    { weight: 3, arbitrary: entryArb(min, max) },
  );
}

/** P biased toward the small end: half the draws in minP..minP+4, the rest over the whole range. */
function biasedPArb(minP: number, maxP: number): fc.Arbitrary<number> {
  return fc.oneof(fc.integer({ min: minP, max: Math.min(maxP, minP + 4) }), fc.integer({ min: minP, max: maxP }));
}

/** Empties the masked rows and columns (and the diagonal when not allowed) of row-major data. */
function applyMasks(
  p: number,
  data: Float64Array,
  rowOff: readonly boolean[],
  colOff: readonly boolean[],
  diagonal: boolean,
): void {
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++)
      if (rowOff[i] === true || colOff[j] === true || (i === j && !diagonal)) data[i * p + j] = 0;
}

/**
 * Any communication matrix: P in minP..maxP, either a few [i, j, value] entries (i and j taken mod
 * P, so shrinking P keeps them) or a grid at a density drawn per matrix, some rows and columns
 * emptied. Shrinks toward small P, fewer entries, entries near node 0, small values and no emptied
 * rows; and on the matrix itself, by deleting nodes (src/testing/matrix-shrink.ts). The draws lean toward what
 * triggers bugs early: P near minP, dense grids, entries among the four smallest (both parities) or at maxEntry,
 * and, in one matrix in three, all non-zero entries equal.
 */
export function matrixArb(options: MatrixArbOptions = {}): fc.Arbitrary<CommMatrix> {
  const o = resolve(options);
  const n = o.maxP * o.maxP;
  const value = biasedEntryArb(o.minEntry, o.maxEntry);
  const sparse = fc
    .array(fc.tuple(fc.nat(o.maxP - 1), fc.nat(o.maxP - 1), value), { maxLength: n })
    .map((es) => (p: number, data: Float64Array) => {
      for (const [i, j, v] of es) data[(i % p) * p + (j % p)] = v;
    });
  // ascending, so that shrinking goes toward sparser grids (a draw that shrinks to 0 empties its entry)
  const pcts = [...o.densities].sort((a, b) => a - b).map((d) => Math.round(d * 1000));
  // half the draws the densest, the other half any (5 in 8 the densest with four densities): conditions on several
  // entries at once come up early
  const pct = fc.oneof(fc.constantFrom(...pcts), fc.constant(pcts[pcts.length - 1]!));
  const grid = fc
    .tuple(pct, fc.array(fc.tuple(fc.integer({ min: 0, max: 999 }), value), { minLength: n, maxLength: n }))
    .map(([density, cells]) => (p: number, data: Float64Array) => {
      for (let i = 0; i < p; i++)
        for (let j = 0; j < p; j++) {
          const [draw, v] = cells[i * o.maxP + j]!;
          if (draw >= 1000 - density) data[i * p + j] = v;
        }
    });
  // a row or column is emptied with probability 1/8; the draws shrink to 0, which keeps it
  const mask = fc
    .array(fc.integer({ min: 0, max: 7 }), { minLength: o.maxP, maxLength: o.maxP })
    .map((xs) => xs.map((x) => x === 7));
  const none: boolean[] = [];
  const masks = o.emptyRows ? fc.tuple(mask, mask) : fc.constant([none, none] as const);
  const storage = o.storage === "mixed" ? fc.boolean() : fc.constant(o.storage === "sparse");
  // one matrix in three has all its non-zero entries equal (ties between senders, equal message sizes)
  const same = fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });
  const drawn = fc
    .tuple(biasedPArb(o.minP, o.maxP), fc.oneof(sparse, grid), masks, storage, same)
    .map(([p, fill, [rowOff, colOff], asSparse, equal]) => {
      const data = new Float64Array(p * p);
      fill(p, data);
      applyMasks(p, data, rowOff, colOff, o.diagonal);
      if (equal !== null) for (let x = 0; x < data.length; x++) if (data[x]! > 0) data[x] = equal;
      const m = matrixFromData(p, data, { elementBytes: o.elementBytes });
      return asSparse ? toSparse(m) : m;
    });
  return nodeShrinking(drawn, o.minP, o.minEntry);
}
