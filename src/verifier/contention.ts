/**
 * Node contention: per step, each node sends at most `ports` and receives at most `ports` network messages (003 sec
 * 2.1, 004 sec 2.3).
 */
import type { Schedule } from "../model/schedule.js";
import { check, type Check } from "./report.js";
import { counted } from "../internal/plural.js";

/**
 * Counts, per step, the network messages (src != dst) each node sends and receives, and checks
 * that a node listed as stalled in a step sends nothing in it: a stall delays the node's send
 * (004 fig. 10: node 18 stalls in step 3 and still receives from node 23). A local copy
 * (src == dst) uses no port.
 */
export function checkContention(s: Schedule, ports: number): { contention: Check; stalls: Check } {
  const { p } = s;
  const sends = new Uint32Array(p),
    recvs = new Uint32Array(p);
  const stamp = new Int32Array(p).fill(-1);
  const stalled = new Int32Array(p).fill(-1);
  let worst = 0,
    bad = 0;
  let witness: string | null = null;
  let stallWitness: string | null = null;
  let badStalls = 0;
  const { src, dst, stepStart } = s; // locals for the loop over every transfer
  for (let st = 0; st < s.stepCount; st++) {
    for (let k = s.stallStart[st]!; k < s.stallStart[st + 1]!; k++) stalled[s.stallNode[k]!] = st;
    for (let x = stepStart[st]!; x < stepStart[st + 1]!; x++) {
      const a = src[x]!,
        b = dst[x]!;
      if (stalled[a] === st) {
        badStalls++;
        stallWitness ??= `step ${st}: node ${a} is listed as stalled but sends to node ${b}`;
      }
      if (a === b) continue;
      if (stamp[a] !== st) {
        stamp[a] = st;
        sends[a] = 0;
        recvs[a] = 0;
      }
      if (stamp[b] !== st) {
        stamp[b] = st;
        sends[b] = 0;
        recvs[b] = 0;
      }
      const ns = ++sends[a]!,
        nr = ++recvs[b]!;
      if (ns > worst) worst = ns;
      if (nr > worst) worst = nr;
      if (ns > ports) {
        bad++;
        witness ??= `step ${st}: node ${a} sends ${ns} messages (to ${b} and others) with ${ports} send port(s)`;
      }
      if (nr > ports) {
        bad++;
        witness ??= `step ${st}: node ${b} receives ${nr} messages (from ${a} and others) with ${ports} receive port(s)`;
      }
    }
  }
  return {
    contention: check(
      "node-contention",
      `per step, each node sends and receives at most ${counted(ports, "message", "messages")}`,
      "003 sec 2.1; 004 sec 2.3 (node contention)",
      bad === 0,
      worst,
      ports,
      witness,
    ),
    stalls: check(
      "stalls",
      "a node stalled in a step sends nothing in it",
      "004 sec 3.2 B, fig. 10",
      badStalls === 0,
      badStalls,
      0,
      stallWitness,
    ),
  };
}
