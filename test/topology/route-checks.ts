/** Test helper: independent checks of compiled routes against the plain listing of a topology (valid, shortest, per-link names). */
import type { NetworkRoutes } from "../../src/model/network.js";
import type { TopologyDescription } from "../../src/model/topology.js";

/** The from and to node names of directed link `id` (2i: a to b, 2i + 1: b to a). */
export function ends(d: TopologyDescription, id: number): [string, string] {
  const l = d.links[id >> 1]!;
  return id & 1 ? [l.b, l.a] : [l.a, l.b];
}

/** The route from a to b as node names (hosts at both ends), after checking that its links connect; throws on a broken route. */
export function routeNodes(d: TopologyDescription, r: NetworkRoutes, a: number, b: number): string[] {
  const out = new Int32Array(r.maxHops);
  const n = r.route(a, b, out);
  if (n < 2 || n > r.maxHops) throw new Error(`route ${a}->${b} has ${n} links (maxHops ${r.maxHops})`);
  const hosts = new Set(d.hosts);
  const nodes = [ends(d, out[0]!)[0]];
  for (let k = 0; k < n; k++) {
    const [f, t] = ends(d, out[k]!);
    if (f !== nodes[nodes.length - 1])
      throw new Error(`route ${a}->${b}: link ${k} starts at ${f}, not ${nodes.at(-1)}`);
    nodes.push(t);
  }
  if (nodes[0] !== d.hosts[a] || nodes.at(-1) !== d.hosts[b])
    throw new Error(`route ${a}->${b} runs ${nodes.join(" ")}`);
  for (const v of nodes.slice(1, -1)) if (hosts.has(v)) throw new Error(`route ${a}->${b} crosses host ${v}`);
  return nodes;
}

/** Breadth-first hop counts (links) from host a to every host, hosts not forwarding. */
export function hostDistances(d: TopologyDescription, a: number): Map<string, number> {
  const adj = new Map<string, string[]>();
  for (const l of d.links) {
    (adj.get(l.a) ?? adj.set(l.a, []).get(l.a)!).push(l.b);
    (adj.get(l.b) ?? adj.set(l.b, []).get(l.b)!).push(l.a);
  }
  const hosts = new Set(d.hosts);
  const dist = new Map<string, number>([[d.hosts[a]!, 0]]);
  const queue = [d.hosts[a]!];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    if (i > 0 && hosts.has(v)) continue;
    for (const w of adj.get(v) ?? [])
      if (!dist.has(w)) {
        dist.set(w, dist.get(v)! + 1);
        queue.push(w);
      }
  }
  return dist;
}
