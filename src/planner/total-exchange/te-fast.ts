/**
 * te-fast: the faster protocol of 001 sec 3.2 (random intermediates while h >= N, then dart throwing with copies or
 * dummies).
 */
import { integer } from "../../model/param-spec.js";
import type { Rng } from "../../model/rng.js";
import { teOutputs, defineTeProtocol } from "./protocol.js";
import type { RoundEngine } from "./round-engine.js";
import { collectHeld, currentLoad, directRounds, scatterRounds, type Held } from "./round-helpers.js";

/**
 * One dart-throwing iteration (001 sec 3.2 step 4): every undelivered packet makes `copies` copies,
 * each to a random intermediate (round A), then from the intermediates to the destinations
 * (round B); per ordered pair one copy (a random one) gets through per round. A packet is
 * delivered when one of its copies arrives; the schedule carries the packet along the path of that
 * copy (copies mode: in rounds A and B; dummies mode: rounds A and B move only dummies and the
 * packet follows in two more rounds). Returns the protocol rounds spent and the packets delivered.
 */
function dartRound(
  eng: RoundEngine,
  rng: Rng,
  held: Held,
  copies: number,
  dummies: boolean,
): { rounds: number; delivered: number } {
  const n = eng.n;
  const { start, dest } = held;
  const msgs = dest.length;
  const total = msgs * copies;
  const cMsg = new Int32Array(total),
    cHop = new Int32Array(total),
    cHolder = new Int32Array(total);
  for (let u = 0; u < n; u++) {
    for (let x = start[u]!; x < start[u + 1]!; x++) {
      for (let c = 0; c < copies; c++) {
        const y = x * copies + c;
        cMsg[y] = x;
        cHop[y] = rng.int(n);
        cHolder[y] = u;
      }
    }
  }
  // random priority order of copies: the first to claim a pair in a round wins it
  const order = new Int32Array(total);
  for (let y = 0; y < total; y++) order[y] = y;
  for (let y = total - 1; y > 0; y--) {
    const z = rng.int(y + 1);
    const t = order[y]!;
    order[y] = order[z]!;
    order[z] = t;
  }
  const claimA = new Int32Array(n * n).fill(-1),
    claimB = new Int32Array(n * n).fill(-1);
  const atA = new Uint8Array(total); // copy is at its intermediate after round A
  for (const y of order) {
    const u = cHolder[y]!,
      k = cHop[y]!;
    if (k === u) {
      atA[y] = 1;
      continue;
    }
    if (claimA[u * n + k]! < 0) {
      claimA[u * n + k] = y;
      atA[y] = 1;
    }
  }
  // path of each message: -1 none; else the winning copy (direct in A if its hop is the destination)
  const path = new Int32Array(msgs).fill(-1);
  const viaB = new Uint8Array(msgs);
  for (const y of order) {
    if (!atA[y]) continue;
    const x = cMsg[y]!,
      k = cHop[y]!,
      w = dest[x]!;
    if (k === w) {
      if (path[x]! < 0 || viaB[x]) {
        path[x] = y;
        viaB[x] = 0;
      }
      continue;
    }
    if (claimB[k * n + w]! < 0) {
      claimB[k * n + w] = y;
      if (path[x]! < 0) {
        path[x] = y;
        viaB[x] = 1;
      }
    }
  }
  // the real packets follow the winning paths
  const rounds = dummies ? 4 : 2;
  if (dummies) {
    eng.endRound(true);
    eng.endRound(true);
  }
  let delivered = 0;
  for (let x = 0; x < msgs; x++) {
    const y = path[x]!;
    if (y < 0) continue;
    delivered++;
    const u = cHolder[y]!,
      k = cHop[y]!;
    if (k !== u) eng.move(u, dest[x]!, k);
  }
  eng.endRound(true);
  for (let x = 0; x < msgs; x++) {
    const y = path[x]!;
    if (y < 0 || !viaB[x]) continue;
    const k = cHop[y]!;
    eng.move(k, dest[x]!, dest[x]!);
  }
  eng.endRound(true);
  return { rounds, delivered };
}

/** te-fast (001 sec 3.2 steps 1-4); the h of steps 2, 3d and 4d is measured, not taken from the formulas. */
export const teFast = defineTeProtocol({
  name: "te-fast",
  title:
    "Total-exchange rounds, 001 sec 3.2: direct, random intermediates while h >= N, then dart throwing with copies",
  source: "001 sec 3.2",
  relayed: true,
  randomised: true,
  params: {
    dummies: integer({
      description:
        "0: copies carry the packet (rounds A, B); 1: dummies, the packet follows in two more rounds (remark 1)",
      min: 0,
      max: 1,
      default: 0,
    }),
    maxIterations: integer({
      description: "iterations of steps 3 and 4 (each) before falling back to direct rounds",
      min: 1,
      max: 100000,
      default: 200,
    }),
  },
  outputs: teOutputs({
    step1Rounds: "direct rounds of step 1: ceil(h / N)",
    step3Iterations: "iterations of step 3 (while the remaining h >= N)",
    step3Rounds: "rounds of step 3: to random intermediates, then on to the destinations",
    step4Iterations: "iterations of step 4 (dart throwing)",
    step4Rounds: "rounds of step 4, the copies' or dummies' rounds included",
    maxCopies: "most copies per packet in step 4: floor(N / h)",
    fallbackRounds: "direct rounds after maxIterations",
  }),
  run(_m, eng, rng, params) {
    const n = eng.n;
    const cap = params.maxIterations;
    const dummies = params.dummies === 1;
    let h = currentLoad(eng);
    const step1 = directRounds(eng, Math.ceil(h / n));
    h = currentLoad(eng);
    let step3Iterations = 0,
      step3Rounds = 0;
    while (eng.pending > 0 && h >= n && step3Iterations < cap) {
      const k = Math.ceil(h / n);
      const held = collectHeld(eng);
      const hop = new Int32Array(held.dest.length);
      for (let x = 0; x < hop.length; x++) hop[x] = rng.int(n);
      step3Rounds += scatterRounds(eng, held, hop, k, rng);
      step3Rounds += directRounds(eng, k);
      h = currentLoad(eng);
      step3Iterations++;
    }
    let step4Iterations = 0,
      step4Rounds = 0,
      maxCopies = 0;
    while (eng.pending > 0 && step4Iterations < cap) {
      h = currentLoad(eng);
      const copies = Math.max(1, Math.floor(n / Math.max(1, h)));
      if (copies > maxCopies) maxCopies = copies;
      step4Rounds += dartRound(eng, rng, collectHeld(eng), copies, dummies).rounds;
      step4Iterations++;
    }
    const fallbackRounds = eng.pending > 0 ? directRounds(eng, Infinity) : 0;
    return {
      step1Rounds: step1,
      step3Iterations,
      step3Rounds,
      step4Iterations,
      step4Rounds,
      maxCopies,
      fallbackRounds,
    };
  },
});
