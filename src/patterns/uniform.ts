/** uniform: all-to-all personalized communication with uniform messages (000 section 2's all-to-all case). */
import { matrixFromData, type CommMatrix } from "../model/matrix.js";
import type { Rng } from "../model/rng.js";
import type { PatternDef } from "./types.js";
import { MAX_SIZE_OPTION, elementBytesOption, optionValue } from "./pattern-options.js";

/** The pattern `uniform`: every off-diagonal entry is `size`, the diagonal 0; no randomness. */
export const uniformPattern: PatternDef = {
  name: "uniform",
  title: "All-to-all with uniform messages of `size` elements",
  source: "000 (Ranka, Shankar, Alsabti 1995) section 2 (all-to-all, uniform messages)",
  options: [
    { name: "size", description: "elements in every off-diagonal message", default: 1, min: 0, max: MAX_SIZE_OPTION, integer: true },
    elementBytesOption(8),
  ],
  generate(p: number, opts: Readonly<Record<string, number>>, _rng: Rng): CommMatrix {
    const size = optionValue(opts, "size");
    const data = new Float64Array(p * p).fill(size);
    for (let i = 0; i < p; i++) data[i * p + i] = 0;
    return matrixFromData(p, data, { elementBytes: optionValue(opts, "elementBytes") });
  },
};
