/**
 * Node contention: per step, each node sends at most `ports` and receives at most `ports` network messages (003 sec
 * 2.1, 004 sec 2.3); `ports` is the machine's port count: 1 on the papers' machines, k or unlimited (Infinity) on a
 * machine that serves several messages of a node at once.
 */
import type { Schedule } from "../model/schedule.js";
import { check, type Check } from "./report.js";
import { counted } from "../internal/plural.js";

/** The port count as the report's texts say it: `1 send port`, `4 send ports`, `unlimited send ports`. */
function portWords(ports: number, kind: string): string {
  return ports === Infinity ? `unlimited ${kind} ports` : counted(ports, `${kind} port`, `${kind} ports`);
}

/**
 * Counts, per step, the network messages (src != dst) each node sends and receives, and checks
 * that a node listed as stalled in a step sends nothing in it: a stall delays the node's send
 * (004 fig. 10: node 18 stalls in step 3 and still receives from node 23). A local copy
 * (src == dst) uses no port. `ports` a positive integer or Infinity (unlimited: the count is measured, never refused).
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
        if (witness === null) witness = peers(s, st, a, true, ports);
      }
      if (nr > ports) {
        bad++;
        if (witness === null) witness = peers(s, st, b, false, ports);
      }
    }
  }
  return {
    contention: check(
      "node-contention",
      ports === Infinity
        ? "per step, each node sends and receives any number of messages (unlimited ports; the most is measured)"
        : `per step, each node sends and receives at most ${counted(ports, "message", "messages")}`,
      "003 sec 2.1; 004 sec 2.3 (node contention)",
      bad === 0,
      worst,
      ports === Infinity ? null : ports,
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

/** The most peers a contention witness names before it counts the rest. */
const NAMED_PEERS = 4;

/**
 * The witness of node `u` sending (`sends`) or receiving too many network messages in step `st`: every message of the
 * step counted, and its peers named ("from 1 and 2", "to 1, 2, 3, 4 and 3 others").
 */
function peers(s: Schedule, st: number, u: number, sends: boolean, ports: number): string {
  const who: number[] = [];
  for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
    if (s.src[x] === s.dst[x]) continue;
    if (sends ? s.src[x] === u : s.dst[x] === u) who.push(sends ? s.dst[x]! : s.src[x]!);
  }
  who.sort((x, y) => x - y);
  const named = who.slice(0, who.length > NAMED_PEERS + 1 ? NAMED_PEERS : who.length);
  const rest = who.length - named.length;
  const list =
    rest > 0
      ? `${named.join(", ")} and ${counted(rest, "other", "others")}`
      : `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`;
  const why = ports === 1 ? "; a one-port machine takes one message per node and step" : "";
  return sends
    ? `step ${st}: node ${u} sends ${who.length} messages (to ${list}) with ${portWords(ports, "send")}${why}`
    : `step ${st}: node ${u} receives ${who.length} messages (from ${list}) with ${portWords(ports, "receive")}${why}`;
}
