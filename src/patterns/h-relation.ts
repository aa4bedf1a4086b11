/**
 * h-relation: a random h-relation of 001 sections 1 and 3 (every node the origin and destination of at most h unit
 * messages).
 */
import { integer } from "../model/param-spec.js";
import { matrixFromData } from "../model/matrix.js";
import { elementBytesOption, definePattern } from "./pattern-options.js";
import { randomDerangement, randomPermutation } from "./random-permutations.js";

/**
 * The pattern `h-relation`: the union of h independent uniform random permutations (self = 1) or
 * uniform random derangements (self = 0); M[i][j] counts the permutations mapping i to j. Every row
 * and every column sums to exactly h (a "true" h-relation), except self = 0 with p = 1, which is
 * the zero matrix.
 */
export const hRelation = definePattern({
  name: "h-relation",
  title: "Random h-relation: union of h random permutations, entries = multiplicities",
  source: "001 (Rao, Suel, Tsantilas, Goudreau) sections 1 and 3",
  options: {
    h: integer({ description: "unit messages every node sends and receives", min: 0, max: 1 << 20, default: 4 }),
    self: integer({
      description: "1: destinations range over all p nodes, so messages to self occur (001); 0: never to self",
      min: 0,
      max: 1,
      default: 1,
    }),
    elementBytes: elementBytesOption(8),
  },
  generate(p, opts, rng) {
    const h = opts.h;
    const self = opts.self === 1;
    const data = new Float64Array(p * p);
    if (self || p > 1) {
      for (let m = 0; m < h; m++) {
        const perm = self ? randomPermutation(rng, p) : randomDerangement(rng, p);
        for (let i = 0; i < p; i++) data[i * p + perm[i]!]! += 1;
      }
    }
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
});
