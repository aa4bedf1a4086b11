/** random: a random sparse many-to-many matrix (000 section 2's general many-to-many case, non-uniform sizes). */
import { integer, number } from "../model/param-spec.js";
import { matrixFromData } from "../model/matrix.js";
import { MAX_SIZE_OPTION, elementBytesOption, definePattern } from "./pattern-options.js";

/**
 * The pattern `random`: each off-diagonal entry, row by row, is non-zero when a draw rng.next()
 * is below `density`, and then takes a second draw uniform in 1..max; the diagonal is 0.
 */
export const randomPattern = definePattern({
  name: "random",
  title: "Random many-to-many: each message present with probability `density`, size uniform in 1..max",
  source: "000 (Ranka, Shankar, Alsabti 1995) section 2 (many-to-many, non-uniform)",
  options: {
    density: number({ description: "probability that an off-diagonal message exists", min: 0, max: 1, default: 0.5 }),
    max: integer({
      description: "largest message; sizes are uniform in 1..max",
      min: 1,
      max: MAX_SIZE_OPTION,
      default: 100,
    }),
    elementBytes: elementBytesOption(8),
  },
  generate(p, opts, rng) {
    const density = opts.density;
    const max = opts.max;
    const data = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) {
        if (j === i) continue;
        if (rng.next() < density) data[i * p + j] = 1 + rng.int(max);
      }
    }
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
});
