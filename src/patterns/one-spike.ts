/** pattern1: "One Spike" of 004 section 4, figure 14 (M_max elements to one random node, a few to the rest). */
import { matrixFromData } from "../model/matrix.js";
import { SPIKE_OPTIONS, elementBytesOption, definePattern } from "./pattern-options.js";

/**
 * The pattern `pattern1`: node i sends mmax to one node j != i chosen uniformly (one draw per node, i ascending) and
 * `small` to every other node.
 */
export const oneSpike = definePattern({
  name: "pattern1",
  title: "004 Pattern1 (one spike): mmax elements to one random node, `small` to the rest",
  source: "004 (Liu, Wang, Prasanna, JPDC 2002) section 4, figure 14",
  options: {
    ...SPIKE_OPTIONS,
    elementBytes: elementBytesOption(22),
  },
  generate(p, opts, rng) {
    const mmax = opts.mmax;
    const small = opts.small;
    const data = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) if (j !== i) data[i * p + j] = small;
      if (p > 1) {
        const r = rng.int(p - 1);
        const j = r < i ? r : r + 1; // uniform over the p - 1 nodes other than i
        data[i * p + j] = mmax;
      }
    }
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
});
