/** te-simple: the simple routing protocol of 001 sec 3.1 (direct rounds, then blocks of log^c N with injective intermediates). */
import type { TeProtocol } from "./protocol.js";
import { relationLoad } from "./round-engine.js";
import { collectHeld, directRounds, scatterRounds } from "./round-helpers.js";

/** te-simple (001 sec 3.1, steps 1-4); falls back to direct rounds when Condition B fails or after maxIterations. */
export const teSimple: TeProtocol = {
  name: "te-simple",
  title: "Total-exchange rounds, 001 sec 3.1: direct rounds, then blocks of log^c N with injective intermediates",
  source: "001 sec 3.1 (Theorem 1)",
  params: [
    { name: "epsilon", description: "step 1 rounds: h/N + epsilon sqrt((h/N) loglog N) + alpha loglog N", default: 1, min: 0, max: 100, integer: false },
    { name: "alpha", description: "see epsilon", default: 1, min: 0, max: 100, integer: false },
    { name: "c", description: "block size log2(N)^c", default: 1, min: 0, max: 4, integer: false },
    { name: "maxIterations", description: "iterations of steps 2-3 before falling back to direct rounds", default: 64, min: 1, max: 10000, integer: true },
  ],
  run(m, eng, rng, params) {
    const n = eng.n;
    const h = relationLoad(m).t;
    const lg = Math.max(1, Math.log2(Math.max(2, n)));
    const lglg = Math.max(1, Math.log2(lg));
    const step1 = Math.ceil(h / n + params["epsilon"]! * Math.sqrt((h / n) * lglg) + params["alpha"]! * lglg);
    const direct = directRounds(eng, step1);
    const size = Math.min(n, Math.max(1, Math.round(lg ** params["c"]!)));
    const blocks = Math.ceil(n / size);
    const members = new Int32Array(n);
    for (let v = 0; v < n; v++) members[v] = v;
    const perBlock = new Int32Array(blocks);
    let iterations = 0, conditionB = true, fallbackRounds = 0, roundsTo = 0, roundsFrom = 0;
    while (eng.pending > 0 && iterations < params["maxIterations"]!) {
      // step 2a: each packet picks a random block (Condition B: at most `block size` per block and holder)
      const held = collectHeld(eng);
      const pick = new Int32Array(held.dest.length);
      for (let x = 0; x < pick.length; x++) pick[x] = rng.int(blocks);
      const hop = new Int32Array(held.dest.length);
      for (let u = 0; u < n && conditionB; u++) {
        perBlock.fill(0);
        for (let x = held.start[u]!; x < held.start[u + 1]!; x++) {
          const b = pick[x]!;
          const len = Math.min(n, (b + 1) * size) - b * size;
          if (++perBlock[b]! > len) { conditionB = false; break; }
        }
        if (!conditionB) break;
        // step 2b: injective intermediates within each block (a random partial shuffle of the block)
        perBlock.fill(0);
        for (let x = held.start[u]!; x < held.start[u + 1]!; x++) {
          const b = pick[x]!;
          const lo = b * size, len = Math.min(n, lo + size) - lo;
          const k = perBlock[b]!++;
          const r = k + rng.int(len - k);
          const t = members[lo + r]!;
          members[lo + r] = members[lo + k]!;
          members[lo + k] = t;
          hop[x] = t;
        }
      }
      if (!conditionB) break;
      // step 2c: one round to the intermediates (Condition C holds, so one round suffices)
      roundsTo += scatterRounds(eng, held, hop, 1);
      // step 3: one round in which every pair with packets delivers one
      roundsFrom += directRounds(eng, 1);
      iterations++;
    }
    if (eng.pending > 0) fallbackRounds = directRounds(eng, Infinity);
    return { step1Rounds: direct, blockSize: size, iterations, intermediateRounds: roundsTo, deliveryRounds: roundsFrom, conditionB, fallbackRounds };
  },
};
