/** uniform: all-to-all personalized communication with uniform messages (000 section 2's all-to-all case). */
import { integer } from "../model/param-spec.js";
import { matrixFromData } from "../model/matrix.js";
import { MAX_SIZE_OPTION, elementBytesOption, definePattern } from "./pattern-options.js";

/** The pattern `uniform`: every off-diagonal entry is `size`, the diagonal 0; no randomness. */
export const uniformPattern = definePattern({
  name: "uniform",
  title: "All-to-all with uniform messages of `size` elements",
  source: "000 (Ranka, Shankar, Alsabti 1995) section 2 (all-to-all, uniform messages)",
  options: {
    size: integer({ description: "elements in every off-diagonal message", min: 0, max: MAX_SIZE_OPTION, default: 1 }),
    elementBytes: elementBytesOption(8),
  },
  generate(p, opts, _rng) {
    const size = opts.size;
    const data = new Float64Array(p * p).fill(size);
    for (let i = 0; i < p; i++) data[i * p + i] = 0;
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
});
