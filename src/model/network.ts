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
  /** The longest route, in links (a caller sizes the `out` array of `route` with it). */
  readonly maxHops: number;
  /** A short readable name of directed link `id` ("host3->leaf0", "leaf0->spine1"). */
  linkLabel(id: number): string;
  /** Writes the directed link ids of the route from host a to host b (a != b) into `out` and returns their count; deterministic. */
  route(a: number, b: number, out: Int32Array): number;
}
