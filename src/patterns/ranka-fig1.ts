/** ranka-fig1: the 8 x 8 all-to-many matrix with equal traffic 10 of 000 section 2, figure 1. */
import { matrixFromRows } from "../model/matrix.js";
import { elementBytesOption, requireFixedP, definePattern } from "./pattern-options.js";

/** Figure 1 of 000 as printed (blank entries are 0); every row and every column sums to 10. */
export const RANKA_FIG1_ROWS: readonly (readonly number[])[] = [
  [0, 3, 1, 0, 2, 1, 2, 1],
  [1, 0, 2, 2, 1, 1, 3, 0],
  [4, 1, 0, 2, 0, 2, 0, 1],
  [0, 2, 0, 0, 0, 3, 1, 4],
  [3, 0, 4, 0, 0, 2, 1, 0],
  [1, 2, 1, 2, 0, 0, 0, 4],
  [0, 2, 1, 0, 7, 0, 0, 0],
  [1, 0, 1, 4, 0, 1, 3, 0],
];

/** The pattern `ranka-fig1` (fixed P = 8; no randomness). */
export const rankaFig1 = definePattern({
  name: "ranka-fig1",
  title: "Figure 1 of 000: all-to-many with equal traffic t = 10",
  source: "000 (Ranka, Shankar, Alsabti 1995) section 2, figure 1",
  options: { elementBytes: elementBytesOption(8) },
  fixedP: 8,
  generate(p, opts, _rng) {
    requireFixedP("ranka-fig1", 8, p);
    return matrixFromRows(RANKA_FIG1_ROWS, { elementBytes: opts.elementBytes });
  },
});
