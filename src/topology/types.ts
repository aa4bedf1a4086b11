/** Shapes of the topology model: the graphlib Graph's labels, routing policies and generator declarations. */
import type { Graph } from "@dagrejs/graphlib";
import type { MachineModel } from "../model/machine.js";
import type { NextHopPick, SimgridClusterHint, TopologyRouteDescription } from "../model/topology.js";

/**
 * How routes are chosen: shortest paths (hops) with ECMP or D-mod-k, dimension order on a torus, minimal
 * (local-global-local) on a dragonfly.
 */
export type RoutingPolicy =
  | { readonly kind: "shortest"; readonly pick: NextHopPick }
  | { readonly kind: "torus"; readonly dims: readonly number[] }
  | { readonly kind: "dragonfly"; readonly groups: number };

/** The label of the whole graph. */
export interface TopologyLabel {
  /** The specification it was built from (or the file name). */
  readonly name: string;
  readonly hosts: number;
  readonly switches: number;
  /** Number of cables (each one full-duplex link). */
  readonly cables: number;
  readonly routing: RoutingPolicy;
  /** Explicit routes of a user file (host and switch names). */
  readonly routes?: readonly TopologyRouteDescription[];
  /** A SimGrid cluster that builds this network exactly, when there is one. */
  readonly simgridCluster?: SimgridClusterHint;
}

/**
 * A node's label: a host (rank `index`) or a switch; torus switches carry coordinates, dragonfly switches their group.
 */
export interface TopologyNode {
  readonly kind: "host" | "switch";
  readonly index: number;
  readonly coords?: readonly number[];
  readonly group?: number;
}

/**
 * A cable's label: its index (directed links 2 id: a to b, 2 id + 1: b to a), its ends, bandwidth (bytes/us) and
 * latency (us).
 */
export interface TopologyCable {
  readonly id: number;
  readonly a: string;
  readonly b: string;
  readonly bandwidth: number;
  readonly latency: number;
}

/** The topology model: an undirected multigraph of hosts and switches whose edges are cables. */
export type TopologyGraph = Graph<TopologyLabel, TopologyNode, TopologyCable>;

/** A generator parameter: name, type, default and meaning (shown by `commplan topologies`). */
export interface TopologyParam {
  readonly name: string;
  readonly type: "integer" | "number" | "string";
  readonly description: string;
  /** The default, or a phrase saying how it is derived (from the host count or the machine). */
  readonly default: number | string;
  /** The smallest value an integer or number takes. */
  readonly min?: number;
  /** The largest value a number takes (an integer's is MAX_TOPOLOGY_HOSTS). */
  readonly max?: number;
  /** The unit of a number. */
  readonly unit?: string;
}

/** The resolved parameters of one generator run (numbers and strings by name; absent when derived). */
export type TopologyParamValues = { readonly [name: string]: number | string | undefined };

/** What a generator gets: its parameters, the host count P it must reach and the machine (link defaults). */
export interface GeneratorInput {
  readonly params: TopologyParamValues;
  readonly hosts: number;
  readonly machine: MachineModel | undefined;
  /** The specification string (the graph's name). */
  readonly spec: string;
  /** Bytes the graph may take (a larger network is refused before it is built). */
  readonly maxMemory: number;
}

/** A topology generator selected by `name:key=value,...`. */
export interface TopologyGenerator {
  readonly name: string;
  readonly title: string;
  readonly params: readonly TopologyParam[];
  /** Builds a graph with at least `hosts` hosts, or throws a CommplanError saying why it cannot. */
  build(input: GeneratorInput): TopologyGraph;
}
