/** ranka-kl: the k / l / t bounded-traffic generator of 000 section 7 (fan-out k, non-uniformity l, traffic t). */
import { integer, number } from "../model/param-spec.js";
import { matrixFromData } from "../model/matrix.js";
import { MAX_SIZE_OPTION, elementBytesOption, optionAgainstP, definePattern } from "./pattern-options.js";
import { disjointPermutations } from "./random-permutations.js";

/** Splits `total` into `parts` integers that differ by at most 1 (the first `total % parts` get one more). */
function splitEvenly(total: number, parts: number): number[] {
  const base = Math.floor(total / parts);
  const extra = total - base * parts;
  return Array.from({ length: parts }, (_, s) => base + (s < extra ? 1 : 0));
}

/**
 * The k message sizes of one node (the same for every node), summing exactly to t.
 * Following the sentence of 000 sec. 7: round(l k) "large" destinations share (1 - l) t and the
 * other k - round(l k) share l t; round((1 - l) t) goes to the first group, the rest of t to the
 * second, each group split as evenly as integers allow. If round(l k) is 0 or k one group is
 * empty and t is split evenly over all k destinations.
 */
export function rankaKlSlotSizes(k: number, l: number, t: number): number[] {
  const nLarge = Math.round(l * k);
  if (nLarge <= 0 || nLarge >= k) return splitEvenly(t, k);
  const largeTotal = Math.round((1 - l) * t);
  return [...splitEvenly(largeTotal, nLarge), ...splitEvenly(t - largeTotal, k - nLarge)];
}

/**
 * The pattern `ranka-kl`: k disjoint off-diagonal random permutations, slot s of every node carrying
 * rankaKlSlotSizes[s].
 */
export const rankaKl = definePattern({
  name: "ranka-kl",
  title: "Bounded traffic t with fan-out k and non-uniformity l (000 sec. 7)",
  source: "000 (Ranka, Shankar, Alsabti 1995) section 7",
  options: {
    k: integer({ description: "fan-out and fan-in of every node (k < p)", min: 1, max: 16383, default: 4 }),
    l: number({
      description: "non-uniformity: round(l k) destinations get (1 - l) t, the other (1 - l) k get l t",
      min: 0,
      max: 1,
      default: 0.25,
    }),
    t: integer({
      description: "elements every node sends and receives (row and column sums)",
      min: 1,
      max: MAX_SIZE_OPTION,
      default: 1024,
    }),
    elementBytes: elementBytesOption(8),
  },
  generate(p, opts, rng) {
    const k = opts.k;
    if (k >= p) optionAgainstP("ranka-kl", "k", k, p, "must be less than p");
    const sizes = rankaKlSlotSizes(k, opts.l, opts.t);
    const perms = disjointPermutations(rng, p, k);
    const data = new Float64Array(p * p);
    perms.forEach((perm, s) => {
      const size = sizes[s]!;
      for (let i = 0; i < p; i++) data[i * p + perm[i]!] = size;
    });
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
});
