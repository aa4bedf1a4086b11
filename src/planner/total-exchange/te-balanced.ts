/**
 * te-balanced: the experimental protocol of 001 sec 4 (idle transmissions carry excess packets to random
 * intermediates).
 */
import { integer } from "../../model/param-spec.js";
import { teOutputs, defineTeProtocol } from "./protocol.js";
import { directRounds } from "./round-helpers.js";

/**
 * te-balanced. Every round, node u first sends one packet to every destination it holds packets
 * for (the direct protocol). The pairs u -> v for which u holds nothing would idle; they carry
 * excess packets instead, in a random order of the idle v: after the direct sends, a pair u -> w
 * whose load exceeds the level L is trimmed to L, where L >= max(floor, ceil(average load of u's
 * pairs)) is the lowest level whose excess fits in the idle slots (spare slots take packets from
 * pairs at the level). The intermediate v holds the packet for w like its own.
 */
export const teBalanced = defineTeProtocol({
  name: "te-balanced",
  title: "Total-exchange rounds, 001 sec 4: direct, idle slots carry excess packets to random intermediates",
  source: "001 sec 4 (the experimental protocol)",
  relayed: true,
  randomised: true,
  inPaperTable: true,
  params: {
    floor: integer({ description: "never trim a pair below this many packets", min: 0, max: 1 << 20, default: 1 }),
    maxRounds: integer({
      description: "rounds before falling back to the direct protocol",
      min: 1,
      max: 1 << 30,
      default: 100000,
    }),
  },
  outputs: teOutputs({
    forwarded: "packets sent to an intermediate on a slot that would idle",
    fallbackRounds: "direct rounds after maxRounds",
  }),
  run(_m, eng, rng, params) {
    const { n, count } = eng;
    const idle = new Int32Array(n);
    const floor = params.floor;
    const hist = new Int32Array(n + 1);
    let forwarded = 0,
      rounds = 0;
    while (eng.pending > 0 && rounds < params.maxRounds) {
      for (let u = 0; u < n; u++) {
        const row = u * n;
        let nIdle = 0,
          sum = 0,
          most = 0;
        for (let w = 0; w < n; w++) {
          if (w === u) continue;
          const c = count[row + w]!;
          if (c === 0) idle[nIdle++] = w;
          else {
            eng.move(u, w, w);
            sum += c - 1;
            if (c - 1 > most) most = c - 1;
          }
        }
        if (nIdle === 0 || most === 0) continue;
        const level0 = Math.max(floor, Math.ceil(sum / (n - 1)));
        if (most <= level0) continue;
        // lowest level L >= level0 whose excess sum_w max(0, c_w - L) fits in the idle slots: every level passed adds
        // one packet at least, so L is within nIdle of the top and the histogram counts the pairs by depth most - c
        // (at most P - 1 deep; its size never follows the entries' values)
        const depth = Math.min(most - level0, n);
        hist.fill(0, 0, depth + 1);
        for (let w = 0; w < n; w++) {
          const c = count[row + w]!;
          if (w !== u && c > 0 && most - c <= depth) hist[most - c]!++;
        }
        let d = 0,
          excess = 0,
          above = hist[0]!;
        while (d < most - level0 && excess + above <= nIdle) {
          excess += above;
          d++;
          above += hist[d]!;
        }
        const level = most - d;
        let spare = nIdle - excess;
        // random order of the idle intermediates
        for (let a = nIdle - 1; a > 0; a--) {
          const b = rng.int(a + 1);
          const t = idle[a]!;
          idle[a] = idle[b]!;
          idle[b] = t;
        }
        let next = 0;
        const start = rng.int(n);
        for (let s = 0; s < n && next < nIdle; s++) {
          const w = (start + s) % n;
          if (w === u) continue;
          let c = count[row + w]!;
          while (c > level && next < nIdle) {
            eng.move(u, w, idle[next++]!);
            c--;
            forwarded++;
          }
          if (c === level && level > level0 && spare > 0 && next < nIdle) {
            eng.move(u, w, idle[next++]!);
            spare--;
            forwarded++;
          }
        }
      }
      eng.endRound(true);
      rounds++;
    }
    const fallbackRounds = directRounds(eng, Infinity);
    return { forwarded, fallbackRounds };
  },
});
