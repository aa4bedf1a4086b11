/** NetworkRoutes: a network compiled for the simulated machine (links and routes as typed arrays). */

/**
 * A network of hosts, switches and full-duplex links, compiled for the simulator's hot loop: every
 * direction of a cable is one directed link with its own bandwidth and latency, and the route from
 * host a to host b is a fixed list of directed link ids (host a's uplink first, host b's downlink
 * last). Rank r of a schedule runs on host r. Built by `src/topology` (graphlib), read by
 * `src/machines` (link contention by max-min fair sharing) and the verifier's link check.
 */
export interface NetworkRoutes {
  /** The specification it was built from, e.g. "fat-tree:k=8,oversub=4" or a file name. */
  readonly name: string;
  /** Number of hosts (ranks 0 .. hosts-1). */
  readonly hosts: number;
  /** Number of directed links. */
  readonly links: number;
  /** Bandwidth of each directed link, in bytes per microsecond. */
  readonly bandwidth: Float64Array;
  /** Latency of each directed link, in microseconds. */
  readonly latency: Float64Array;
  /**
   * At least the number of links of every route (a caller sizes the `out` array of `route` with it):
   * the longest route's length, or a sound bound of it when the exact figure would cost a search
   * from every switch (shortest-path routing; see docs/topologies.md).
   */
  readonly maxHops: number;
  /** A short readable name of directed link `id` ("host3->leaf0", "leaf0->spine1"). */
  linkLabel(id: number): string;
  /**
   * Writes the directed link ids of the route from host a to host b (a != b) into `out` and returns their count;
   * deterministic.
   */
  route(a: number, b: number, out: Int32Array): number;
  /**
   * Optional: the first and last links of the route from a to b (a's uplink, b's downlink) into
   * out[0] and out[1], without the links between; returns 2, or 0 when a = b. Where routes are
   * computed on demand it costs no routing tables; `routeEndLinks` falls back on `route` without it.
   */
  routeEnds?(a: number, b: number, out: Int32Array): number;
}

/**
 * The first and last links of the route from a to b as out[0] and out[n - 1] (n returned, 0 when
 * a = b): through `routeEnds` when the network has it, else `route` (`out` holds maxHops links).
 */
export function routeEndLinks(net: NetworkRoutes, a: number, b: number, out: Int32Array): number {
  return net.routeEnds ? net.routeEnds(a, b, out) : net.route(a, b, out);
}

/**
 * What is wrong with the shape of a NetworkRoutes object (a library caller may implement one), or
 * null: route and linkLabel functions, counts non-negative integers, a bandwidth and a latency per link.
 */
export function networkProblem(n: NetworkRoutes): string | null {
  if (typeof n !== "object" || n === null) return "network is not a NetworkRoutes object";
  if (typeof n.route !== "function" || typeof n.linkLabel !== "function")
    return "network has no route and linkLabel functions";
  for (const k of ["hosts", "links", "maxHops"] as const)
    if (!Number.isSafeInteger(n[k]) || n[k] < 0) return `network.${k} = ${String(n[k])} is not a non-negative integer`;
  for (const k of ["bandwidth", "latency"] as const)
    if (!(n[k] instanceof Float64Array) || n[k].length !== n.links)
      return `network.${k} is not a Float64Array of its ${n.links} links`;
  return null;
}

/**
 * What is wrong with a route a -> b that `route` (or `routeEndLinks`) wrote into `out` as `n` links,
 * or null: n an integer from 0 to out.length, every link id in 0 .. links - 1. A hand-built network
 * that broke this would make typed-array writes past the end, dropped silently: a wrong answer.
 */
export function routeProblem(net: NetworkRoutes, a: number, b: number, n: number, out: Int32Array): string | null {
  if (!(Number.isInteger(n) && n >= 0 && n <= out.length))
    return `network ${net.name}: route ${a} -> ${b} has ${String(n)} links, not 0..${out.length}`;
  for (let h = 0; h < n; h++) {
    const l = out[h]!;
    if (!(l >= 0 && l < net.links))
      return `network ${net.name}: route ${a} -> ${b} names link ${l}, not in 0..${net.links - 1}`;
  }
  return null;
}
