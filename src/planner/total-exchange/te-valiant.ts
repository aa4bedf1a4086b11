/** te-valiant: Valiant's two-phase routing with total-exchange rounds (001 sec 3 intro, [23]). */
import { teOutputs, defineTeProtocol } from "./protocol.js";
import { collectHeld, directRounds, scatterRounds } from "./round-helpers.js";

/** te-valiant: every packet goes to a uniformly random intermediate, then to its destination. */
export const teValiant = defineTeProtocol({
  name: "te-valiant",
  title: "Total-exchange rounds, Valiant: random intermediate, then destination",
  source: "001 sec 3 (Valiant's two-stage strategy [23])",
  relayed: true,
  randomised: true,
  params: {},
  outputs: teOutputs({
    phase1Rounds: "rounds to the random intermediates",
    phase2Rounds: "direct rounds from the intermediates to the destinations",
  }),
  run(_m, eng, rng) {
    const held = collectHeld(eng);
    const hop = new Int32Array(held.dest.length);
    for (let x = 0; x < hop.length; x++) hop[x] = rng.int(eng.n);
    const phase1 = scatterRounds(eng, held, hop, Infinity, rng);
    const phase2 = directRounds(eng, Infinity);
    return { phase1Rounds: phase1, phase2Rounds: phase2 };
  },
});
