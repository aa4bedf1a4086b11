/** zero: the empty communication (000 section 2's "empty" class), for tests. */
import { matrixFromData, type CommMatrix } from "../model/matrix.js";
import type { Rng } from "../model/rng.js";
import type { PatternDef } from "./types.js";
import { elementBytesOption, optionValue } from "./pattern-options.js";

/** The pattern `zero`: the all-zero P x P matrix. */
export const zeroPattern: PatternDef = {
  name: "zero",
  title: "All zeros (no communication)",
  source: "commplan (for tests)",
  options: [elementBytesOption(8)],
  generate(p: number, opts: Readonly<Record<string, number>>, _rng: Rng): CommMatrix {
    return matrixFromData(p, new Float64Array(p * p), { elementBytes: optionValue(opts, "elementBytes") });
  },
};
