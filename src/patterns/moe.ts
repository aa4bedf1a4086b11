/**
 * moe: the all-to-all token dispatch of a mixture-of-experts layer (GShard, Switch Transformer, DeepSpeed-MoE): top-k
 * routing over Zipf-skewed experts with a per-rank expert capacity.
 */
import { integer, number } from "../model/param-spec.js";
import { matrixFromData, type CommMatrix } from "../model/matrix.js";
import type { Rng } from "../model/rng.js";
import { elementBytesOption, definePattern, optionAgainstP } from "./pattern-options.js";
import { randomPermutation } from "./random-permutations.js";
import { cumulative, drawExcluding, zipfWeights } from "./zipf.js";
import { checkArg, isIntIn, isOptionsObject } from "../model/option-checks.js";
import { MAX_P } from "../model/limits.js";

const options = {
  tokens: integer({
    description: "tokens per rank (one rank's batch)",
    min: 1,
    max: 1 << 16,
    unit: "tokens",
    default: 1024,
  }),
  hidden: integer({
    description: "model (hidden) size: elements per token, so a token is hidden x (bytes per element) bytes",
    min: 1,
    max: 1 << 16,
    unit: "elements",
    default: 1024,
  }),
  experts: integer({
    description: "experts per rank (E = p x experts in all)",
    min: 1,
    max: 64,
    unit: "experts",
    default: 1,
  }),
  k: integer({
    description: "top-k: experts each token is sent to (distinct; k <= E)",
    min: 1,
    max: 8,
    unit: "experts",
    default: 2,
  }),
  skew: number({
    description: "Zipf exponent s of expert popularity (expert of popularity rank r weighs 1/r^s; 0 = uniform)",
    min: 0,
    max: 4,
    default: 0.5,
  }),
  capacityFactor: number({
    description:
      "expert capacity per rank = ceil(capacity factor x tokens x k / E) token copies; copies past it are dropped; 0 = no limit",
    min: 0,
    max: 1024,
    default: 1.25,
  }),
  elementBytes: elementBytesOption(2),
} as const;

/**
 * Token copies one rank may send one expert: ceil(capacityFactor x tokens x k / E), or Infinity when capacityFactor is
 * 0.
 */
export function moeCapacity(
  p: number,
  opts: { tokens: number; experts: number; k: number; capacityFactor: number },
): number {
  checkArg("patterns", "moeCapacity", "p", p, isIntIn(p, 1, MAX_P), `an integer in 1..${MAX_P}`, "BAD_OPTION");
  const o: { readonly [k: string]: unknown } = isOptionsObject(opts) ? opts : {};
  const num = (k: string): boolean => typeof o[k] === "number" && (o[k] as number) >= 0 && Number.isFinite(o[k]);
  const ok = isOptionsObject(opts) && ["tokens", "experts", "k", "capacityFactor"].every(num) && opts.experts > 0;
  checkArg(
    "patterns",
    "moeCapacity",
    "opts",
    opts,
    ok,
    "{ tokens, experts, k, capacityFactor } (numbers >= 0, experts > 0)",
    "BAD_OPTION",
  );
  if (opts.capacityFactor === 0) return Number.POSITIVE_INFINITY;
  return Math.ceil((opts.capacityFactor * opts.tokens * opts.k) / (p * opts.experts));
}

/**
 * One rank's routing: the k experts (popularity ranks) of every token, drawn without replacement; `choice[t * k + c]`.
 */
function routeRank(rng: Rng, cum: Float64Array, tokens: number, k: number): Int32Array {
  const choice = new Int32Array(tokens * k);
  const chosen = new Int32Array(k);
  for (let t = 0; t < tokens; t++) {
    for (let c = 0; c < k; c++) {
      const r = drawExcluding(cum, chosen, c, rng.next());
      choice[t * k + c] = r;
      let x = c; // keep `chosen` ascending
      while (x > 0 && chosen[x - 1]! > r) {
        chosen[x] = chosen[x - 1]!;
        x--;
      }
      chosen[x] = r;
    }
  }
  return choice;
}

/**
 * The pattern `moe`. Draws: a uniform random permutation of the E experts (popularity rank r ->
 * expert), then rank by rank, token by token, k distinct experts by popularity (each draw one
 * rng.next()). Dispatch follows GShard's priority: every token's first choice, then every token's
 * second, ...; an expert takes at most `capacity` copies from one rank, later ones are dropped.
 * M[i][j] = hidden x (token copies rank i sends to the experts of rank j); M[i][i] is the local part.
 */
export const moePattern = definePattern({
  name: "moe",
  title: "Mixture-of-experts token dispatch: top-k routing, Zipf-skewed experts, capacity factor (all-to-all)",
  source:
    "GShard (Lepikhin et al., ICLR 2021) sec 2.2; Switch Transformer (Fedus, Zoph, Shazeer, JMLR 2022) sec 2.2; DeepSpeed-MoE (Rajbhandari et al., ICML 2022)",
  options,
  generate(p, opts, rng) {
    const e = p * opts.experts;
    if (opts.k > e) optionAgainstP("moe", "k", opts.k, p, `must be at most the number of experts p x experts = ${e}`);
    const expertOf = randomPermutation(rng, e); // popularity rank -> expert
    const cum = cumulative(zipfWeights(e, opts.skew));
    const capacity = moeCapacity(p, opts);
    const data = new Float64Array(p * p);
    const load = new Int32Array(e);
    for (let i = 0; i < p; i++) {
      const choice = routeRank(rng, cum, opts.tokens, opts.k);
      load.fill(0);
      for (let c = 0; c < opts.k; c++)
        for (let t = 0; t < opts.tokens; t++) {
          const ex = expertOf[choice[t * opts.k + c]!]!;
          if (load[ex]! >= capacity) continue;
          load[ex]!++;
          data[i * p + Math.floor(ex / opts.experts)]! += opts.hidden;
        }
    }
    return matrixFromData(p, data, { elementBytes: opts.elementBytes });
  },
  notes(m: CommMatrix, opts) {
    const copies = m.p * opts.tokens * opts.k;
    let sent = 0;
    for (let x = 0; x < m.data.length; x++) sent += m.data[x]!;
    const dropped = copies - sent / opts.hidden;
    const capacity = moeCapacity(m.p, opts);
    return [
      `${dropped} of ${copies} token copies dropped (${((100 * dropped) / copies).toFixed(2)}%); capacity ${
        Number.isFinite(capacity) ? `${capacity} copies per expert per rank` : "unlimited"
      }`,
    ];
  },
});
