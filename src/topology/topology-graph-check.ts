/** The check of a TopologyGraph argument at the public functions that take one (buildTopology's graph). */
import { checkArg, isOptionsObject } from "../model/option-checks.js";

/** Refuses `graph` unless it is a TopologyGraph (buildTopology's or graphFromDescription's), naming `fn`. */
export function checkTopologyGraph(fn: string, graph: unknown): void {
  const ok = isOptionsObject(graph) && typeof graph["graph"] === "function" && typeof graph["nodes"] === "function";
  const label: unknown = ok ? (graph as { graph: () => unknown }).graph() : null;
  checkArg(
    "topology",
    fn,
    "graph",
    graph,
    ok && isOptionsObject(label) && typeof label["hosts"] === "number",
    "a TopologyGraph (buildTopology's or graphFromDescription's)",
  );
}
