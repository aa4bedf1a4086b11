/**
 * te-simple: the simple routing protocol of 001 sec 3.1 (direct rounds, then blocks of log^c N with injective
 * intermediates).
 */
import { integer, number } from "../../model/param-spec.js";
import type { Rng } from "../../model/rng.js";
import { teOutputs, type TeInfo, defineTeProtocol } from "./protocol.js";
import { relationLoad, type RoundEngine } from "./round-engine.js";
import { collectHeld, currentLoad, directRounds, scatterRounds } from "./round-helpers.js";

/** What one run of steps 1-4 did. */
interface SimpleRun {
  step1Rounds: number;
  iterations: number;
  intermediateRounds: number;
  deliveryRounds: number;
  conditionB: boolean;
  fallbackRounds: number;
}

/**
 * Steps 1-4 of 001 sec 3.1 on the packets the engine holds now (h measured): step 1 direct rounds,
 * then iterations of 2a-2c and 3 over the blocks `first[b] .. first[b + 1]`; Condition B failing or
 * `maxIterations` reached: direct rounds for the rest.
 */
function routeOnce(
  eng: RoundEngine,
  rng: Rng,
  params: { readonly epsilon: number; readonly alpha: number; readonly maxIterations: number },
  first: Int32Array,
  blockOf: Int32Array,
): SimpleRun {
  const n = eng.n,
    blocks = first.length - 1;
  const h = currentLoad(eng);
  const lg = Math.max(1, Math.log2(Math.max(2, n)));
  const lglg = Math.max(1, Math.log2(lg));
  const step1 = Math.ceil(h / n + params.epsilon * Math.sqrt((h / n) * lglg) + params.alpha * lglg);
  const out: SimpleRun = {
    step1Rounds: directRounds(eng, step1),
    iterations: 0,
    intermediateRounds: 0,
    deliveryRounds: 0,
    conditionB: true,
    fallbackRounds: 0,
  };
  const members = new Int32Array(n);
  for (let v = 0; v < n; v++) members[v] = v;
  const perBlock = new Int32Array(blocks);
  while (eng.pending > 0 && out.iterations < params.maxIterations) {
    // step 2a: each packet picks a random block, weighted by its size (the block of a uniform node);
    // Condition B: no holder sends more packets to a block than it has nodes
    const held = collectHeld(eng);
    const pick = new Int32Array(held.dest.length);
    for (let x = 0; x < pick.length; x++) pick[x] = blockOf[rng.int(n)]!;
    const hop = new Int32Array(held.dest.length);
    for (let u = 0; u < n && out.conditionB; u++) {
      perBlock.fill(0);
      for (let x = held.start[u]!; x < held.start[u + 1]!; x++) {
        const b = pick[x]!;
        if (++perBlock[b]! > first[b + 1]! - first[b]!) {
          out.conditionB = false;
          break;
        }
      }
      if (!out.conditionB) break;
      // step 2b: injective intermediates within each block (a random partial shuffle of the block)
      perBlock.fill(0);
      for (let x = held.start[u]!; x < held.start[u + 1]!; x++) {
        const b = pick[x]!;
        const lo = first[b]!,
          len = first[b + 1]! - lo;
        const k = perBlock[b]!++;
        const r = k + rng.int(len - k);
        const t = members[lo + r]!;
        members[lo + r] = members[lo + k]!;
        members[lo + k] = t;
        hop[x] = t;
      }
    }
    if (!out.conditionB) break;
    // step 2c: one round to the intermediates (Condition C holds, so one round suffices)
    out.intermediateRounds += scatterRounds(eng, held, hop, 1, rng);
    // step 3: one round in which every pair with packets delivers one
    out.deliveryRounds += directRounds(eng, 1);
    out.iterations++;
  }
  if (eng.pending > 0) out.fallbackRounds = directRounds(eng, Infinity);
  return out;
}

/**
 * te-simple (001 sec 3.1, steps 1-4); falls back to direct rounds when Condition B fails or after
 * maxIterations. With `subsetH` > 0 and h > subsetH * N log2 N, the relation is split into
 * ceil(h / (subsetH * N log2 N)) sub-relations routed one after another (3.1: "running the
 * protocol repeatedly on small subsets of the input").
 */
export const teSimple = defineTeProtocol({
  name: "te-simple",
  title: "Total-exchange rounds, 001 sec 3.1: direct rounds, then blocks of log^c N with injective intermediates",
  source: "001 sec 3.1 (Theorem 1)",
  relayed: true,
  randomised: true,
  params: {
    epsilon: number({
      description: "step 1 rounds: h/N + epsilon sqrt((h/N) loglog N) + alpha loglog N",
      min: 0,
      max: 100,
      default: 1,
    }),
    alpha: number({
      description: "the factor of loglog N in step 1's rounds (see epsilon)",
      min: 0,
      max: 100,
      default: 1,
    }),
    c: number({ description: "block size log2(N)^c", min: 0, max: 4, default: 1 }),
    maxIterations: integer({
      description: "iterations of steps 2-3 before falling back to direct rounds",
      min: 1,
      max: 10000,
      default: 64,
    }),
    subsetH: number({
      description: "0: route the whole relation; s > 0: split it into sub-relations of h <= s N log2 N, routed in turn",
      min: 0,
      max: 1e6,
      default: 0,
    }),
  },
  outputs: teOutputs({
    blockSize: "nodes per block: round(log2(N)^c), at most N",
    blocks: "blocks of consecutive nodes: ceil(N / blockSize)",
    subsets: "sub-relations routed in turn (1 unless subsetH splits the relation)",
    step1Rounds: "direct rounds of step 1, summed over the sub-relations",
    iterations: "iterations of steps 2-3",
    intermediateRounds: "rounds to the intermediates (step 2c)",
    deliveryRounds: "direct delivery rounds (step 3)",
    conditionB: "false when Condition B failed and the rest went by direct rounds",
    fallbackRounds: "direct rounds after Condition B failed or maxIterations",
  }),
  run(m, eng, rng, params) {
    const n = eng.n;
    const lg = Math.max(1, Math.log2(Math.max(2, n)));
    const size = Math.min(n, Math.max(1, Math.round(lg ** params.c)));
    // step 2a's partition: ceil(N / size) blocks of consecutive nodes, balanced (sizes floor or ceil
    // of N / blocks, never above `size`), so that no block is a small leftover that overflows
    const blocks = Math.ceil(n / size);
    const first = new Int32Array(blocks + 1),
      blockOf = new Int32Array(n);
    for (let b = 0; b <= blocks; b++) first[b] = Math.floor((b * n) / blocks);
    for (let b = 0; b < blocks; b++) blockOf.fill(b, first[b]!, first[b + 1]!);
    const h = relationLoad(m).t,
      per = params.subsetH * n * lg;
    const subsets = per > 0 && h > per ? Math.ceil(h / per) : 1;
    if (subsets > 1) eng.hideAll();
    const sum: TeInfo = {
      blockSize: size,
      blocks,
      subsets,
      step1Rounds: 0,
      iterations: 0,
      intermediateRounds: 0,
      deliveryRounds: 0,
      conditionB: true,
      fallbackRounds: 0,
    };
    for (let i = 0; i < subsets; i++) {
      // sub-relation i: floor(c / s) packets of every pair, the c mod s extra ones spread over the subsets by pair
      if (subsets > 1) {
        for (let q = 0; q < n * n; q++) {
          const c = m.data[q]!;
          if (q % (n + 1) !== 0 && c > 0)
            eng.reveal(
              q,
              i === subsets - 1 ? eng.hiddenAt(q) : Math.floor(c / subsets) + ((q + i) % subsets < c % subsets ? 1 : 0),
            );
        }
      }
      const r = routeOnce(eng, rng, params, first, blockOf);
      for (const k of ["step1Rounds", "iterations", "intermediateRounds", "deliveryRounds", "fallbackRounds"] as const)
        sum[k] = (sum[k] as number) + r[k];
      if (!r.conditionB) sum["conditionB"] = false;
    }
    return sum;
  },
});
