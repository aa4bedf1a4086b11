/** random: a random sparse many-to-many matrix (000 section 2's general many-to-many case, non-uniform sizes). */
import { matrixFromData, type CommMatrix } from "../model/matrix.js";
import type { Rng } from "../model/rng.js";
import type { PatternDef } from "./types.js";
import { MAX_SIZE_OPTION, elementBytesOption, optionValue } from "./pattern-options.js";

/**
 * The pattern `random`: each off-diagonal entry, row by row, is non-zero when a draw rng.next()
 * is below `density`, and then takes a second draw uniform in 1..max; the diagonal is 0.
 */
export const randomPattern: PatternDef = {
  name: "random",
  title: "Random many-to-many: each message present with probability `density`, size uniform in 1..max",
  source: "000 (Ranka, Shankar, Alsabti 1995) section 2 (many-to-many, non-uniform)",
  options: [
    { name: "density", description: "probability that an off-diagonal message exists", default: 0.5, min: 0, max: 1, integer: false },
    { name: "max", description: "largest message; sizes are uniform in 1..max", default: 100, min: 1, max: MAX_SIZE_OPTION, integer: true },
    elementBytesOption(8),
  ],
  generate(p: number, opts: Readonly<Record<string, number>>, rng: Rng): CommMatrix {
    const density = optionValue(opts, "density");
    const max = optionValue(opts, "max");
    const data = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) {
        if (j === i) continue;
        if (rng.next() < density) data[i * p + j] = 1 + rng.int(max);
      }
    }
    return matrixFromData(p, data, { elementBytes: optionValue(opts, "elementBytes") });
  },
};
