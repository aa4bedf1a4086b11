/**
 * shuffle: the all-to-all of a parallel hash join (hash partitioning) or sample sort (range partitioning by sampled
 * splitters) over Zipf-skewed keys.
 */
import { integer, number } from "../model/param-spec.js";
import { matrixFromData } from "../model/matrix.js";
import type { Rng } from "../model/rng.js";
import { elementBytesOption, definePattern } from "./pattern-options.js";
import { randomPermutation } from "./random-permutations.js";
import { cumulative, searchCumulative, zipfWeights } from "./zipf.js";

const options = {
  rows: integer({ description: "rows (records) per rank", min: 0, max: 1 << 20, unit: "rows", default: 4096 }),
  keys: integer({
    description: "distinct key values (the key domain)",
    min: 1,
    max: 1 << 24,
    unit: "keys",
    default: 1 << 16,
  }),
  skew: number({
    description: "Zipf exponent s of key popularity (the key of popularity rank r weighs 1/r^s; 0 = uniform)",
    min: 0,
    max: 4,
    default: 0.5,
  }),
  range: integer({
    description:
      "0: hash partitioning (hash join: key -> hash mod p); 1: range partitioning by sampled splitters (sample sort)",
    min: 0,
    max: 1,
    default: 0,
  }),
  samples: integer({
    description: "keys each rank samples for the splitters (range = 1; sample sort's oversampling)",
    min: 1,
    max: 1024,
    unit: "keys",
    default: 16,
  }),
  elementBytes: elementBytesOption(100),
} as const;

/** MurmurHash3's 32-bit finalizer: the hash partitioning function (no seed). */
export function fmix32(v: number): number {
  let z = v >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * The destination rank of every key value under range partitioning: P - 1 splitters evenly spaced in p x samples
 * sampled keys.
 */
function rangeDestinations(rng: Rng, p: number, samples: number, keyCum: Float64Array, keyOf: Int32Array): Int32Array {
  const keys = keyOf.length;
  const drawn = new Int32Array(p * samples);
  for (let x = 0; x < drawn.length; x++) drawn[x] = keyOf[searchCumulative(keyCum, rng.next() * keyCum[keys]!)]!;
  drawn.sort();
  const dest = new Int32Array(keys);
  // bucket j holds the keys in (splitter_j, splitter_{j+1}]; splitter_j = drawn[j * samples - 1]
  let bucket = 0;
  for (let v = 0; v < keys; v++) {
    while (bucket < p - 1 && drawn[(bucket + 1) * samples - 1]! < v) bucket++;
    dest[v] = bucket;
  }
  return dest;
}

/**
 * The pattern `shuffle`. Draws: a uniform random permutation of the key values (popularity rank ->
 * key); with range = 1, p x samples keys by popularity (rank by rank) whose sorted values give the
 * splitters; then rank by rank, row by row, one rng.next() picks the row's destination from the
 * per-rank probability mass (the keys' popularity summed by destination). M[i][j] = rows rank i
 * sends rank j (bytes = rows x elementBytes); M[i][i] is the part that stays.
 */
export const shufflePattern = definePattern({
  name: "shuffle",
  title:
    "Hash-join / sample-sort shuffle: rows to the rank owning their key (hash or sampled-range partitioning), Zipf-skewed keys",
  source:
    "hash join: DeWitt, Naughton, Schneider, Seshadri, VLDB 1992; sample sort: Blelloch et al., SPAA 1991; Zipf keys: Gray et al., SIGMOD 1994",
  options,
  generate(p, opts, rng) {
    const keyOf = randomPermutation(rng, opts.keys); // popularity rank -> key value
    const weights = zipfWeights(opts.keys, opts.skew);
    const keyCum = cumulative(weights);
    let destOfKey: Int32Array;
    if (opts.range === 1) destOfKey = rangeDestinations(rng, p, opts.samples, keyCum, keyOf);
    else {
      destOfKey = new Int32Array(opts.keys);
      for (let v = 0; v < opts.keys; v++) destOfKey[v] = fmix32(v) % p;
    }
    const mass = new Float64Array(p);
    for (let r = 0; r < opts.keys; r++) mass[destOfKey[keyOf[r]!]!]! += weights[r]!;
    const cum = cumulative(mass);
    const total = cum[p]!;
    const data = new Float64Array(p * p);
    for (let i = 0; i < p; i++)
      for (let t = 0; t < opts.rows; t++) data[i * p + searchCumulative(cum, rng.next() * total)]! += 1;
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
  notes(m) {
    let max = 0,
      total = 0;
    for (let j = 0; j < m.p; j++) {
      let col = 0;
      for (let i = 0; i < m.p; i++) col += m.data[i * m.p + j]!;
      max = Math.max(max, col);
      total += col;
    }
    const ratio = total === 0 ? 1 : (max * m.p) / total;
    return [`the busiest rank receives ${max} rows, ${ratio.toFixed(2)} x the mean`];
  },
});
