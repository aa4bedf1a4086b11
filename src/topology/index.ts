/**
 * The topology model: generators of hosts, switches and links (graphlib), user descriptions, and routes compiled into
 * NetworkRoutes.
 */
export { TOPOLOGY_GENERATORS, buildTopology, parseTopologySpec, type TopologySpec } from "./registry.js";
export { compileRoutes } from "./compile-routes.js";
export { pairHash } from "./route-steps.js";
export { graphFromDescription, describeTopology } from "./description.js";
export {
  DEFAULT_LINK_LATENCY,
  FALLBACK_BANDWIDTH,
  MAX_TOPOLOGY_HOSTS,
  MAX_TOPOLOGY_SWITCHES,
  linkDefaults,
} from "./graph-builder.js";
export type {
  RoutingPolicy,
  TopologyCable,
  TopologyGenerator,
  TopologyGraph,
  TopologyLabel,
  TopologyNode,
  TopologyParam,
} from "./types.js";
