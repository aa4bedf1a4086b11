/** Link contention on a network: per step, no link carries more messages than it can at the hosts' full rate. */
import { fail } from "../model/errors.js";
import { routeEndLinks, routeProblem, type NetworkRoutes } from "../model/network.js";
import type { Schedule } from "../model/schedule.js";
import { check, type Check } from "./report.js";

/** Throws the one-line error of a broken route a -> b (a hand-built network's), or returns n. */
function checkedRoute(net: NetworkRoutes, a: number, b: number, n: number, out: Int32Array): number {
  const bad = routeProblem(net, a, b, n, out);
  if (bad !== null) throw fail("verify", "BAD_INPUT", bad, { field: "network" });
  return n;
}

/** The hosts' injection rate: the least bandwidth of a host's first link (bytes/us); Infinity without hosts. */
function hostRate(net: NetworkRoutes): number {
  const out = new Int32Array(Math.max(2, net.maxHops));
  let rate = Infinity;
  for (let a = 0; a < net.hosts && net.hosts > 1; a++) {
    const b = (a + 1) % net.hosts;
    const n = checkedRoute(net, a, b, routeEndLinks(net, a, b, out), out);
    if (n > 0) rate = Math.min(rate, net.bandwidth[out[0]!]!);
  }
  return rate;
}

/**
 * Routes every network message (src != dst) of each step over `net` and counts the messages on
 * each directed link. A link of bandwidth B carries floor(B / r) messages at the hosts' full rate
 * r (the least bandwidth of a host's own link), at least one; a step that puts more on a link
 * slows them all (max-min sharing). Holds when no step does; measured is the worst ratio of
 * messages to that room, the witness its step and link. O(T x route length).
 */
export function checkLinkContention(s: Schedule, net: NetworkRoutes): Check {
  const rate = hostRate(net);
  const room = new Float64Array(net.links);
  for (let l = 0; l < net.links; l++) room[l] = Math.max(1, Math.floor(net.bandwidth[l]! / rate + 1e-9));
  const count = new Uint32Array(net.links),
    stamp = new Int32Array(net.links).fill(-1);
  const out = new Int32Array(Math.max(1, net.maxHops));
  let worst = 0,
    over = 0;
  let witness: string | null = null;
  for (let st = 0; st < s.stepCount; st++) {
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      const a = s.src[x]!,
        b = s.dst[x]!;
      if (a === b) continue;
      const n = checkedRoute(net, a, b, net.route(a, b, out), out);
      for (let k = 0; k < n; k++) {
        const l = out[k]!;
        if (stamp[l] !== st) {
          stamp[l] = st;
          count[l] = 0;
        }
        const c = ++count[l]!;
        const ratio = c / room[l]!;
        if (c > room[l]! && c === room[l]! + 1) over++;
        if (ratio > worst) {
          worst = ratio;
          if (c > room[l]!)
            witness = `step ${st}: link ${net.linkLabel(l)} carries ${c} messages, room for ${room[l]} at the hosts' rate`;
        }
      }
    }
  }
  return check(
    "link-contention",
    `no link carries more messages in a step than it can at the hosts' full rate (network ${net.name})`,
    "docs/verifier.md, link contention (max-min sharing, docs/simulator.md)",
    over === 0,
    worst,
    1,
    over === 0 ? null : `${witness} (${over} link-step(s) over)`,
  );
}
