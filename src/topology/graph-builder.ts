/**
 * GraphBuilder: adds hosts, switches and cables to a graphlib multigraph in order, and the link defaults shared by the
 * generators.
 */
import { Graph } from "@dagrejs/graphlib";
import { fail } from "../model/errors.js";
import { didYouMean } from "../internal/did-you-mean.js";
import { checkMemory } from "../model/memory-budget.js";
import { MAX_MACHINE_TIME, type MachineModel } from "../model/machine.js";
import {
  NEXT_HOP_PICKS,
  type NextHopPick,
  type SimgridClusterHint,
  type TopologyRouteDescription,
} from "../model/topology.js";
import type { RoutingPolicy, TopologyGraph, TopologyParam, TopologyParamValues } from "./types.js";

/** The link bandwidth without a machine: 25000 bytes/us (25 GB/s, a 200 Gb/s port). */
export const FALLBACK_BANDWIDTH = 25000;
/** The link latency by default: 0.1 us (about one switch hop). */
export const DEFAULT_LINK_LATENCY = 0.1;
/** The most hosts a generator builds. */
export const MAX_TOPOLOGY_HOSTS = 1 << 20;
/**
 * The most switches a network may have (shortest-path routing keeps 6 bytes per switch for each destination switch
 * routes lead to: up to 1.5 GiB).
 */
export const MAX_TOPOLOGY_SWITCHES = 16384;

/**
 * Bytes a built network takes per host, switch and cable (graphlib nodes and edges with their labels), with a margin
 * over the figures docs/topologies.md records.
 */
export const TOPOLOGY_BYTES_PER_ELEMENT = 640;

/**
 * The range of a link bandwidth parameter (bytes/us): a byte takes at most MAX_MACHINE_TIME us, as a machine's t_d,
 * and the most is far above any link (1e12 bytes/us is an exabyte per second), so that every modelled time stays
 * finite and printable (bw=1e-300 made a makespan of 300 digits).
 */
export const LINK_BANDWIDTH_RANGE = { min: 1 / MAX_MACHINE_TIME, max: MAX_MACHINE_TIME } as const;
/** The range of a link latency parameter (us): a machine's times'. */
export const LINK_LATENCY_RANGE = { min: 0, max: MAX_MACHINE_TIME } as const;

/** The `lat` parameter every generator takes. */
export const LATENCY_PARAM: TopologyParam = {
  name: "lat",
  type: "number",
  description: "latency of a link",
  default: DEFAULT_LINK_LATENCY,
  ...LINK_LATENCY_RANGE,
  unit: "us",
};

/** The `bw` and `lat` parameters every generator but cm5-fat-tree takes. */
export const LINK_PARAMS: readonly TopologyParam[] = [
  {
    name: "bw",
    type: "number",
    description: "bandwidth of a link, each direction",
    default: "1/t_d of the machine (25000 without one)",
    ...LINK_BANDWIDTH_RANGE,
    unit: "bytes/us",
  },
  LATENCY_PARAM,
];

/** The `routing` parameter of the generators with a choice among shortest paths (NextHopPick, model/topology.ts). */
export const ROUTING_PARAM: TopologyParam = {
  name: "routing",
  type: "string",
  description:
    "among equally short next hops: ecmp (a hash of the pair, as Ethernet) or dmodk (by the destination, D-mod-k, as InfiniBand fat-tree routing and SimGrid's FAT_TREE)",
  default: NEXT_HOP_PICKS[0]!,
};

/** The shortest-path policy of a run's `routing` parameter; `generator` names the generator in the error. */
export function shortestPolicy(params: TopologyParamValues, generator: string): RoutingPolicy {
  const v = params["routing"] ?? NEXT_HOP_PICKS[0]!;
  if (!NEXT_HOP_PICKS.includes(v as NextHopPick))
    throw fail(
      "topology",
      "BAD_OPTION",
      `${generator}: routing '${String(v)}' is not one of ${NEXT_HOP_PICKS.join(", ")}${didYouMean(String(v), NEXT_HOP_PICKS)}`,
      {
        field: "routing",
      },
    );
  return { kind: "shortest", pick: v as NextHopPick };
}

/** The link bandwidth and latency of a run: the parameters, else the machine's 1/t_d, else the fallbacks. */
export function linkDefaults(
  params: TopologyParamValues,
  machine: MachineModel | undefined,
): { bandwidth: number; latency: number } {
  const bw = params["bw"];
  const lat = params["lat"];
  const bandwidth = typeof bw === "number" ? bw : machine && machine.td > 0 ? 1 / machine.td : FALLBACK_BANDWIDTH;
  return { bandwidth, latency: typeof lat === "number" ? lat : DEFAULT_LINK_LATENCY };
}

/** The dictionaries a graphlib Graph keys by node name (and by edge id), each a plain object it checks with `in`. */
const GRAPH_DICTS = ["_nodes", "_in", "_preds", "_out", "_sucs", "_edgeObjs", "_edgeLabels"] as const;
/** The dictionaries graphlib makes for each node it adds. */
const NODE_DICTS = ["_in", "_preds", "_out", "_sucs"] as const;

/**
 * An empty topology graph whose dictionaries have no prototype, so that a node named `__proto__`,
 * `constructor` or `toString` is a key like any other (graphlib's plain objects would find those
 * names on Object.prototype, or set the prototype).
 */
function prototypeFreeGraph(): TopologyGraph {
  const g: TopologyGraph = new Graph({ directed: false, multigraph: true, compound: false });
  const inner = g as unknown as { [k: string]: { [k: string]: object } };
  for (const k of GRAPH_DICTS) {
    if (typeof inner[k] !== "object") throw new Error(`graphlib's Graph has no dictionary ${k}`);
    inner[k] = Object.create(null) as { [k: string]: object };
  }
  const setNode = g.setNode.bind(g);
  g.setNode = (...args: Parameters<TopologyGraph["setNode"]>): TopologyGraph => {
    const added = !g.hasNode(args[0]);
    setNode(...args);
    if (added) for (const k of NODE_DICTS) Object.setPrototypeOf(inner[k]![args[0]]!, null);
    return g;
  };
  return g;
}

/** Builds a topology graph: hosts are numbered in the order they are added (rank r on the r-th host). */
export class GraphBuilder {
  private readonly g: TopologyGraph = prototypeFreeGraph();
  private hosts = 0;
  private switches = 0;
  private cables = 0;

  constructor(
    private readonly module: string,
    /** Bytes the graph may take (reserve refuses a larger network). */
    private readonly maxMemory: number,
    private readonly limitHosts = MAX_TOPOLOGY_HOSTS,
  ) {}

  /**
   * Refuses, before anything is built, a network of more hosts or switches than the limits or one
   * whose graph would not fit the memory budget; `what` names it (a generator and its parameters).
   * The limits of host() and switch() would only stop a builder after it had built up to them.
   */
  reserve(hosts: number, switches: number, cables: number, what: string): this {
    if (hosts > this.limitHosts)
      throw fail(
        this.module,
        "BAD_OPTION",
        `${what} has ${hosts} hosts, more than ${this.limitHosts}: choose smaller parameters`,
      );
    if (switches > MAX_TOPOLOGY_SWITCHES)
      throw fail(
        this.module,
        "BAD_OPTION",
        `${what} has ${switches} switches, more than ${MAX_TOPOLOGY_SWITCHES}: choose smaller parameters`,
      );
    checkMemory(
      this.module,
      (hosts + switches + cables) * TOPOLOGY_BYTES_PER_ELEMENT,
      `${what}: a network of ${hosts} hosts, ${switches} switches and ${cables} cables`,
      this.maxMemory,
      { field: "topology" },
    );
    return this;
  }

  /** Adds host number `hosts` under `name` (default h<index>) and returns the name. */
  host(name = `h${this.hosts}`): string {
    if (this.hosts >= this.limitHosts)
      throw fail(this.module, "BAD_OPTION", `more than ${this.limitHosts} hosts: choose smaller parameters`);
    this.add(name, { kind: "host", index: this.hosts++ });
    return name;
  }

  /** Adds a switch (with torus coordinates or a dragonfly group) and returns its name. */
  switch(name: string, extra: { coords?: readonly number[]; group?: number } = {}): string {
    if (this.switches >= MAX_TOPOLOGY_SWITCHES)
      throw fail(this.module, "BAD_OPTION", `more than ${MAX_TOPOLOGY_SWITCHES} switches: choose smaller parameters`);
    this.add(name, { kind: "switch", index: this.switches++, ...extra });
    return name;
  }

  private add(name: string, label: Parameters<TopologyGraph["setNode"]>[1] & object): void {
    if (this.g.hasNode(name)) throw fail(this.module, "BAD_INPUT", `node '${name}' is declared twice`);
    this.g.setNode(name, label);
  }

  /** Adds a full-duplex cable between two existing nodes. */
  link(a: string, b: string, bandwidth: number, latency: number): void {
    const id = this.cables++;
    this.g.setEdge(a, b, { id, a, b, bandwidth, latency }, String(id));
  }

  /** The finished graph, labelled with its name and routing policy. */
  finish(
    name: string,
    routing: RoutingPolicy,
    extra: { routes?: readonly TopologyRouteDescription[]; simgridCluster?: SimgridClusterHint } = {},
  ): TopologyGraph {
    this.g.setGraph({
      name,
      hosts: this.hosts,
      switches: this.switches,
      cables: this.cables,
      routing,
      ...extra,
    });
    return this.g;
  }

  /** The number of hosts added so far. */
  get hostCount(): number {
    return this.hosts;
  }
}
