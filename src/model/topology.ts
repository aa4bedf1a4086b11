/**
 * TopologyDescription: a network of hosts, switches and full-duplex links as plain data (the topology JSON file's
 * shape, and what the SimGrid platform writer takes).
 */

/**
 * One full-duplex cable between two nodes (by name); bandwidth in bytes per microsecond (each direction), latency in
 * microseconds.
 */
export interface TopologyLinkDescription {
  readonly a: string;
  readonly b: string;
  readonly bandwidth: number;
  readonly latency: number;
}

/** An explicit route from host `src` to host `dst` through the named switches, in order (hosts excluded). */
export interface TopologyRouteDescription {
  readonly src: string;
  readonly dst: string;
  readonly path: readonly string[];
}

/** A SimGrid `<cluster>` that builds the same network (when one does): its topology attribute and parameters. */
export interface SimgridClusterHint {
  readonly topology: "FLAT" | "FAT_TREE" | "TORUS";
  /** `topo_parameters` (absent for FLAT). */
  readonly topoParameters?: string;
  /** The bandwidth (bytes/us) and latency (us) of every link of the cluster. */
  readonly bandwidth: number;
  readonly latency: number;
}

/**
 * How a shortest-path route picks among equally short next hops: "ecmp" by a hash of the pair and
 * the hop (as Ethernet ECMP spreads flows), "dmodk" by the destination's index (D-mod-k, as
 * InfiniBand's fat-tree routing and SimGrid's FAT_TREE clusters do): at each choice of c links the
 * pick is floor(b / d) mod c, d the product of the sizes of the choices before it on the route.
 */
export type NextHopPick = "ecmp" | "dmodk";
/** Every NextHopPick, the default first. */
export const NEXT_HOP_PICKS: readonly NextHopPick[] = Object.freeze(["ecmp", "dmodk"]);

/**
 * A network as plain data: rank r runs on hosts[r]; cable i of `links` is directed link 2i (a to b)
 * and 2i+1 (b to a) of the compiled NetworkRoutes. `routes` (optional) fixes the route of a host pair.
 */
export interface TopologyDescription {
  readonly name: string;
  readonly hosts: readonly string[];
  readonly switches: readonly string[];
  readonly links: readonly TopologyLinkDescription[];
  readonly routes?: readonly TopologyRouteDescription[];
  /** The pick among equal shortest next hops (default "ecmp"). */
  readonly routing?: NextHopPick;
  /** Set by generators whose network a SimGrid cluster builds exactly. */
  readonly simgridCluster?: SimgridClusterHint;
}
