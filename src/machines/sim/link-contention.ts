/**
 * Per-link results of a run on a network: bytes, busy time, peak flows, the hottest links and the link-contention
 * factor.
 */
import { routeEndLinks, type NetworkRoutes } from "../../model/network.js";
import type { PortSharing } from "./options.js";
import type { FlowNetwork, FlowRecomputeStats } from "./flow-network.js";

/** One link's load in a run. */
export interface LinkLoad {
  /** Directed link id. */
  readonly link: number;
  /** Its label (NetworkRoutes.linkLabel). */
  readonly label: string;
  /** Bytes that crossed it. */
  readonly bytes: number;
  /** Time it carried at least one flow (us). */
  readonly busy: number;
  /** busy / makespan (0 when the makespan is 0). */
  readonly busyFraction: number;
  /** Most flows it carried at once. */
  readonly peakFlows: number;
}

/** How many hottest links a result lists. */
export const HOTTEST_LINKS = 5;

/** What a run on a network adds to SimResult. */
export interface SimNetworkStats {
  /** NetworkRoutes.name. */
  readonly name: string;
  readonly portSharing: PortSharing;
  /** Number of directed links; the arrays below have one entry per link. */
  readonly links: number;
  /** Bytes that crossed each link. */
  readonly bytes: Float64Array;
  /** Time each link carried at least one flow (us). */
  readonly busy: Float64Array;
  /** Most flows each link carried at once. */
  readonly peakFlows: Int32Array;
  /** The HOTTEST_LINKS links of longest busy time (ties: smaller id first), busiest first. */
  readonly hottest: readonly LinkLoad[];
  /**
   * Link-contention factor f_lc = makespan / makespan of the same run with every link except the
   * hosts' own (NIC) links of infinite bandwidth (latencies kept): how much the network core, not
   * the hosts, stretches the run; 1 on a non-blocking core.
   */
  readonly flc: number | null;
  /**
   * The makespan with an infinite-bandwidth core (us), the denominator of flc; null when not computed (linkFactor
   * false).
   */
  readonly freeCoreMakespan: number | null;
  /** max over links of bytes / bandwidth (us): a lower bound on the makespan's link time. */
  readonly loadBound: number;
  /** Rate recomputations: component-local work against what full recomputations would do. */
  readonly recompute: FlowRecomputeStats;
}

/** Whether each link is a host's own link (the first hop of a route from it or the last hop of a route to it). */
export function nicLinks(net: NetworkRoutes): Uint8Array {
  const nic = new Uint8Array(net.links);
  const out = new Int32Array(Math.max(2, net.maxHops));
  for (let a = 0; a < net.hosts && net.hosts > 1; a++) {
    const b = (a + 1) % net.hosts;
    const n = routeEndLinks(net, a, b, out);
    if (n > 0) {
      nic[out[0]!] = 1;
      nic[out[n - 1]!] = 1;
    }
  }
  return nic;
}

/** The network with every non-NIC link of infinite bandwidth (routes, latencies and labels kept). */
export function freeCore(net: NetworkRoutes): NetworkRoutes {
  const nic = nicLinks(net);
  const bandwidth = new Float64Array(net.links);
  for (let l = 0; l < net.links; l++) bandwidth[l] = nic[l] ? net.bandwidth[l]! : Infinity;
  return {
    name: `${net.name} (free core)`,
    hosts: net.hosts,
    links: net.links,
    bandwidth,
    latency: net.latency,
    maxHops: net.maxHops,
    linkLabel: (id) => net.linkLabel(id),
    route: (a, b, out) => net.route(a, b, out),
    ...(net.routeEnds ? { routeEnds: (a: number, b: number, out: Int32Array) => net.routeEnds!(a, b, out) } : {}),
  };
}

/** The per-link books of `flows` after a run of `makespan`, with the free-core makespan for f_lc. */
export function linkStats(
  flows: FlowNetwork,
  portSharing: PortSharing,
  makespan: number,
  freeCoreMakespan: number | null,
): SimNetworkStats {
  const net = flows.net;
  const L = net.links;
  const order = Array.from({ length: L }, (_, l) => l)
    .filter((l) => flows.busy[l]! > 0 || flows.bytes[l]! > 0)
    .sort((x, y) => flows.busy[y]! - flows.busy[x]! || x - y)
    .slice(0, HOTTEST_LINKS);
  const hottest = order.map((l) => ({
    link: l,
    label: net.linkLabel(l),
    bytes: flows.bytes[l]!,
    busy: flows.busy[l]!,
    busyFraction: makespan > 0 ? flows.busy[l]! / makespan : 0,
    peakFlows: flows.peak[l]!,
  }));
  let loadBound = 0;
  for (let l = 0; l < L; l++) loadBound = Math.max(loadBound, flows.bytes[l]! / net.bandwidth[l]!);
  return {
    name: net.name,
    portSharing,
    links: L,
    bytes: flows.bytes,
    busy: flows.busy,
    peakFlows: flows.peak,
    hottest,
    flc: freeCoreMakespan === null ? null : freeCoreMakespan > 0 ? makespan / freeCoreMakespan : 1,
    freeCoreMakespan,
    loadBound,
    recompute: flows.stats(),
  };
}
