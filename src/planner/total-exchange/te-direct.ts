/** te-direct: the direct protocol of 001 sec 4 (rounds = max packets over origin-destination pairs). */
import { defineTeProtocol } from "./protocol.js";
import { relationLoad } from "./round-engine.js";
import { directRounds } from "./round-helpers.js";

/** te-direct: in every round each pair with packets left sends one straight to its destination. */
export const teDirect = defineTeProtocol({
  name: "te-direct",
  title: "Total-exchange rounds, direct: round r carries packet r of every origin-destination pair",
  source: "001 sec 4 (direct protocol), sec 3 (Gerbessiotis and Valiant)",
  relayed: false,
  randomised: false,
  inPaperTable: true,
  params: {},
  outputs: {},
  run(_m, eng) {
    directRounds(eng, Infinity);
    return {};
  },
  count(m) {
    return { rounds: relationLoad(m).maxPair, info: {} };
  },
});
