/** wang-table1: the 8 x 8 all-to-many matrix of 003 section 1, table 1 ("1" = P_i sends to P_j). */
import { integer } from "../model/param-spec.js";
import { matrixFromRows } from "../model/matrix.js";
import { MAX_SIZE_OPTION, elementBytesOption, requireFixedP, definePattern } from "./pattern-options.js";

/**
 * Table 1 of 003 as printed (blank entries are 0): P_0 sends 3 messages, P_4 sends 5, P_0, P_1, P_3, P_4, P_6 send to
 * P_2.
 */
export const WANG_TABLE1_ROWS: readonly (readonly number[])[] = [
  [0, 1, 1, 0, 0, 0, 1, 0],
  [1, 0, 1, 1, 0, 0, 0, 1],
  [1, 1, 0, 1, 1, 0, 1, 0],
  [0, 1, 1, 0, 1, 1, 0, 0],
  [0, 0, 1, 1, 0, 1, 1, 1],
  [0, 0, 0, 1, 1, 0, 0, 1],
  [1, 0, 1, 0, 1, 0, 0, 1],
  [0, 1, 0, 0, 1, 1, 1, 0],
];

/** The pattern `wang-table1` (fixed P = 8; entries are 1 x unit; no randomness). */
export const wangTable1 = definePattern({
  name: "wang-table1",
  title: "Table 1 of 003: an 8 x 8 all-to-many pattern, every message `unit` elements",
  source: "003 (Wang, Lin, Ranka 1993) section 1, table 1",
  options: {
    unit: integer({
      description: "elements per message (the table only marks which messages exist)",
      min: 1,
      max: MAX_SIZE_OPTION,
      default: 1,
    }),
    elementBytes: elementBytesOption(8),
  },
  fixedP: 8,
  generate(p, opts, _rng) {
    requireFixedP("wang-table1", 8, p);
    const unit = opts.unit;
    return matrixFromRows(
      WANG_TABLE1_ROWS.map((row) => row.map((v) => v * unit)),
      { elementBytes: opts.elementBytes },
    );
  },
});
