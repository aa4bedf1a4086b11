/**
 * wang-set1 / wang-set2: test sets 1 and 2 of 003 section 5 (about d messages per row and column; uniform or COM x unit
 * sizes).
 */
import { integer } from "../model/param-spec.js";
import { fail } from "../model/errors.js";
import { matrixFromData } from "../model/matrix.js";
import type { Rng } from "../model/rng.js";
import { MAX_SIZE_OPTION, elementBytesOption, optionAgainstP, definePattern } from "./pattern-options.js";
import { disjointPermutations } from "./random-permutations.js";

const dOption = integer({
  description: "active entries in every row and every column (d <= p - 1; 003 uses 4, 8, 16, 24, 31 at p = 32)",
  min: 0,
  max: 16383,
  default: 4,
});
const unitOption = integer({
  description: "elements per COM unit (003's msg_unit)",
  min: 1,
  max: MAX_SIZE_OPTION,
  default: 1,
});

/** The support of both sets: d disjoint off-diagonal random permutations (exactly d entries per row and column). */
function support(name: string, p: number, opts: { readonly d: number }, rng: Rng): Int32Array[] {
  const d = opts.d;
  if (d > p - 1) optionAgainstP(name, "d", d, p, "must be at most p - 1");
  return disjointPermutations(rng, p, d);
}

/** The pattern `wang-set1`: test set 1 of 003, every message `unit` elements. */
export const wangSet1 = definePattern({
  name: "wang-set1",
  title: "003 test set 1: d-regular support, uniform messages",
  source: "003 (Wang, Lin, Ranka 1993) section 5, test set 1",
  options: { d: dOption, unit: unitOption, elementBytes: elementBytesOption(8) },
  generate(p, opts, rng) {
    const unit = opts.unit;
    const data = new Float64Array(p * p);
    for (const perm of support("wang-set1", p, opts, rng)) for (let i = 0; i < p; i++) data[i * p + perm[i]!] = unit;
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
});

/**
 * The pattern `wang-set2`: test set 2 of 003, message (i, j) = COM(i, j) x unit with COM(i, j) uniform in 1..maxFactor.
 */
export const wangSet2 = definePattern({
  name: "wang-set2",
  title: "003 test set 2: d-regular support, COM(i, j) x unit with COM(i, j) uniform in 1..maxFactor",
  source: "003 (Wang, Lin, Ranka 1993) section 5, test set 2 (table 5: sizes 1..32 x msg_unit)",
  options: {
    d: dOption,
    unit: unitOption,
    maxFactor: integer({
      description: "largest COM(i, j) (table 5 of 003: 32)",
      min: 1,
      max: MAX_SIZE_OPTION,
      default: 32,
    }),
    elementBytes: elementBytesOption(8),
  },
  generate(p, opts, rng) {
    const unit = opts.unit;
    const maxFactor = opts.maxFactor;
    if (maxFactor * unit > MAX_SIZE_OPTION) {
      throw fail(
        "patterns",
        "BAD_OPTION",
        `options 'maxFactor' x 'unit' of pattern 'wang-set2' must be at most ${MAX_SIZE_OPTION}, got ${maxFactor} x ${unit}`,
        { field: "maxFactor" },
      );
    }
    const data = new Float64Array(p * p);
    const perms = support("wang-set2", p, opts, rng);
    // sizes drawn row by row, column by column, after the support (a fixed order for determinism)
    const active = new Uint8Array(p * p);
    for (const perm of perms) for (let i = 0; i < p; i++) active[i * p + perm[i]!] = 1;
    for (let x = 0; x < p * p; x++) if (active[x] === 1) data[x] = (1 + rng.int(maxFactor)) * unit;
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
});
