/**
 * A TopologyDescription (a user's JSON file, plain data) turned into a topology graph, and a graph listed back as a
 * description.
 */
import { fail } from "../model/errors.js";
import { NEXT_HOP_PICKS, type TopologyDescription } from "../model/topology.js";
import { GraphBuilder } from "./graph-builder.js";
import { memoryBudgetOf } from "../host/memory.js";
import type { TopologyBuildOptions } from "./registry.js";
import type { TopologyGraph } from "./types.js";
import { checkTopologyGraph } from "./topology-graph-check.js";
import { checkArg, checkOptionsObject, isOptionsObject } from "../model/option-checks.js";

/**
 * Builds the graph of a description (routed by shortest paths picking by its `routing`, its explicit routes first);
 * names must be unique and links name declared nodes.
 */
export function graphFromDescription(
  d: TopologyDescription,
  file?: string,
  opts: TopologyBuildOptions = {},
): TopologyGraph {
  checkDescription(d, file);
  checkOptionsObject("topology", "options", opts);
  const b = new GraphBuilder("topology", memoryBudgetOf(opts)).reserve(
    d.hosts.length,
    d.switches.length,
    d.links.length,
    file === undefined ? `topology ${d.name}` : file,
  );
  const place = (field: string) => (file === undefined ? { field } : { file, field });
  const seen = new Set<string>();
  const declare = (name: string, field: string): void => {
    if (seen.has(name)) throw fail("topology", "BAD_INPUT", `${field}: '${name}' is declared twice`, place(field));
    seen.add(name);
  };
  d.hosts.forEach((h, i) => {
    declare(h, `/hosts/${i}`);
    b.host(h);
  });
  d.switches.forEach((s, i) => {
    declare(s, `/switches/${i}`);
    b.switch(s);
  });
  d.links.forEach((l, i) => {
    for (const end of ["a", "b"] as const)
      if (!seen.has(l[end]))
        throw fail(
          "topology",
          "BAD_INPUT",
          `/links/${i}/${end}: '${l[end]}' is not a declared host or switch`,
          place(`/links/${i}/${end}`),
        );
    b.link(l.a, l.b, l.bandwidth, l.latency);
  });
  return b.finish(
    d.name,
    { kind: "shortest", pick: d.routing ?? NEXT_HOP_PICKS[0]! },
    d.routes ? { routes: d.routes } : {},
  );
}

/** Lists a graph as plain data: hosts and switches by index, cables by id (what the SimGrid platform writer takes). */
export function describeTopology(graph: TopologyGraph): TopologyDescription {
  checkTopologyGraph("describeTopology", graph);
  const label = graph.graph();
  const hosts = new Array<string>(label.hosts),
    switches = new Array<string>(label.switches);
  for (const v of graph.nodes()) {
    const n = graph.node(v);
    (n.kind === "host" ? hosts : switches)[n.index] = v;
  }
  const links = new Array<TopologyDescription["links"][number]>(label.cables);
  for (const e of graph.edges()) {
    const c = graph.edge(e);
    links[c.id] = { a: c.a, b: c.b, bandwidth: c.bandwidth, latency: c.latency };
  }
  return {
    name: label.name,
    hosts,
    switches,
    links,
    ...(label.routes ? { routes: label.routes } : {}),
    ...(label.routing.kind === "shortest" && label.routing.pick !== NEXT_HOP_PICKS[0]
      ? { routing: label.routing.pick }
      : {}),
    ...(label.simgridCluster ? { simgridCluster: label.simgridCluster } : {}),
  };
}

/** Refuses a description that is not one (hosts, switches and links arrays; parseTopologyJsonText's), or a bad file. */
function checkDescription(d: unknown, file: unknown): void {
  const fn = "graphFromDescription";
  const ok =
    isOptionsObject(d) && Array.isArray(d["hosts"]) && Array.isArray(d["switches"]) && Array.isArray(d["links"]);
  checkArg(
    "topology",
    fn,
    "d",
    d,
    ok,
    "a TopologyDescription { name, hosts, switches, links } (parseTopologyJsonText's)",
  );
  checkArg("topology", fn, "file", file, file === undefined || typeof file === "string", "a file name or undefined");
}
