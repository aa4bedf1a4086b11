/**
 * liu-pattern1 / liu-pattern2 / liu-pattern3: Patterns 1-3 of 002 section 4 (l_max tokens to some nodes, one token to
 * the rest).
 */
import { integer } from "../model/param-spec.js";
import { matrixFromData, type CommMatrix } from "../model/matrix.js";
import { MAX_SIZE_OPTION, elementBytesOption, definePattern } from "./pattern-options.js";
import { ceilSqrt } from "./ceil-sqrt.js";

const lmaxOption = integer({
  description: "the longest message in tokens (002 uses 128..1K and more)",
  min: 1,
  max: MAX_SIZE_OPTION,
  default: 256,
});
/** 002: "A token ... is 22-byte long in all the machines considered here". */
const TOKEN_BYTES = 22;
const source = "002 (Liu, Wang, Prasanna, ICDCS '96) section 4";

/** Fills every off-diagonal entry with 1 and the spikes chosen by `isSpike` with lmax; the diagonal stays 0. */
function spiky(
  p: number,
  opts: { readonly lmax: number; readonly elementBytes: number },
  isSpike: (i: number, j: number) => boolean,
): CommMatrix {
  const lmax = opts.lmax;
  const data = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < p; j++) if (j !== i) data[i * p + j] = isSpike(i, j) ? lmax : 1;
  }
  return matrixFromData(p, data, { elementBytes: opts.elementBytes });
}

/** The pattern `liu-pattern1`: node i sends lmax tokens to (i + 1) mod P and one token to every other node. */
export const liuPattern1 = definePattern({
  name: "liu-pattern1",
  title: "002 Pattern1: lmax tokens to (i + 1) mod P, one token to the rest",
  source,
  options: { lmax: lmaxOption, elementBytes: elementBytesOption(TOKEN_BYTES) },
  generate(p, opts, _rng) {
    return spiky(p, opts, (i, j) => j === (i + 1) % p);
  },
});

/**
 * The pattern `liu-pattern2`: lmax tokens to (i + 1) mod P and to every j with j mod ceil(sqrt P) = 0, one token to the
 * rest.
 */
export const liuPattern2 = definePattern({
  name: "liu-pattern2",
  title: "002 Pattern2: lmax tokens to (i + 1) mod P and to every j with j mod ceil(sqrt P) = 0, one token to the rest",
  source,
  options: { lmax: lmaxOption, elementBytes: elementBytesOption(TOKEN_BYTES) },
  generate(p, opts, _rng) {
    const c = ceilSqrt(p);
    return spiky(p, opts, (i, j) => j === (i + 1) % p || j % c === 0);
  },
});

/** The pattern `liu-pattern3`: every off-diagonal entry uniform in 1..lmax, drawn row by row. */
export const liuPattern3 = definePattern({
  name: "liu-pattern3",
  title: "002 Pattern3: a random number of tokens in 1..lmax to every other node",
  source,
  options: { lmax: lmaxOption, elementBytes: elementBytesOption(TOKEN_BYTES) },
  generate(p, opts, rng) {
    const lmax = opts.lmax;
    const data = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) if (j !== i) data[i * p + j] = 1 + rng.int(lmax);
    }
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
});
