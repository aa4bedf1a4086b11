/** zero: the empty communication (000 section 2's "empty" class), for tests. */
import { matrixFromData } from "../model/matrix.js";
import { elementBytesOption, definePattern } from "./pattern-options.js";

/** The pattern `zero`: the all-zero P x P matrix. */
export const zeroPattern = definePattern({
  name: "zero",
  title: "All zeros (no communication)",
  source: "commplan (for tests)",
  options: { elementBytes: elementBytesOption(8) },
  generate(p, opts, _rng) {
    return matrixFromData(p, new Float64Array(p * p), { elementBytes: opts.elementBytes });
  },
});
