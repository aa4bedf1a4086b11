/**
 * pattern2: "2D Array Transpose" of 004 section 4, figure 14 (M_max elements to the node mirrored across the array
 * diagonal).
 */
import { matrixFromData } from "../model/matrix.js";
import { SPIKE_OPTIONS, elementBytesOption, definePattern } from "./pattern-options.js";
import { ceilSqrt } from "./ceil-sqrt.js";

/**
 * The spike partner of node i: (i % C) C + floor(i / C) with C = ceil(sqrt P), or -1 when that is i itself or not a
 * node (>= P).
 */
export function transposePartner(p: number, i: number): number {
  const c = ceilSqrt(p);
  const j = (i % c) * c + Math.floor(i / c);
  return j === i || j >= p ? -1 : j;
}

/**
 * The pattern `pattern2`: node i sends mmax to transposePartner(i) (if any) and `small` to every other node; no
 * randomness.
 */
export const transpose2d = definePattern({
  name: "pattern2",
  title: "004 Pattern2 (2-D array transpose): mmax elements to (i % C) C + floor(i / C), `small` to the rest",
  source: "004 (Liu, Wang, Prasanna, JPDC 2002) section 4, figure 14",
  options: {
    ...SPIKE_OPTIONS,
    elementBytes: elementBytesOption(22),
  },
  generate(p, opts, _rng) {
    const mmax = opts.mmax;
    const small = opts.small;
    const data = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) if (j !== i) data[i * p + j] = small;
      const j = transposePartner(p, i);
      if (j >= 0) data[i * p + j] = mmax;
    }
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
});
