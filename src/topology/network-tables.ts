/**
 * NetworkTables: a topology graph flattened into typed arrays (cables, host uplinks, switch adjacency), checked for
 * shape and connectivity.
 */
import { fail } from "../model/errors.js";
import { MAX_MACHINE_TIME } from "../model/machine.js";
import type { TopologyGraph } from "./types.js";

const MODULE = "topology";

/** The typed-array form of a topology graph. Node ids: host h is h, switch s is hosts + s. */
export interface NetworkTables {
  readonly hosts: number;
  readonly switches: number;
  readonly hostName: readonly string[];
  readonly switchName: readonly string[];
  /** Per directed link: bandwidth, latency, source and target node ids. */
  readonly bandwidth: Float64Array;
  readonly latency: Float64Array;
  readonly from: Int32Array;
  readonly to: Int32Array;
  /**
   * Host h's links: entries hostStart[h] .. hostStart[h+1]-1 of hostSw (switch), hostUp (host to switch), hostDown
   * (switch to host).
   */
  readonly hostStart: Int32Array;
  readonly hostSw: Int32Array;
  readonly hostUp: Int32Array;
  readonly hostDown: Int32Array;
  /**
   * Switch s's switch neighbours: entries swStart[s] .. swStart[s+1]-1 of swNbr and swLink (s to swNbr), sorted by
   * neighbour then link.
   */
  readonly swStart: Int32Array;
  readonly swNbr: Int32Array;
  readonly swLink: Int32Array;
}

/** Reads the cables of `graph` into per-directed-link arrays, refusing host-to-host cables, loops and bad numbers. */
function readCables(graph: TopologyGraph, name: string, idOf: (node: string) => number) {
  const cables = graph.graph().cables;
  const bandwidth = new Float64Array(2 * cables),
    latency = new Float64Array(2 * cables);
  const from = new Int32Array(2 * cables),
    to = new Int32Array(2 * cables);
  const hosts = graph.graph().hosts;
  for (const e of graph.edges()) {
    const c = graph.edge(e);
    const a = idOf(c.a),
      b = idOf(c.b);
    const where = `${name}: link ${c.a} - ${c.b}`;
    if (a === b) throw fail(MODULE, "BAD_INPUT", `${where} joins a node to itself`, { field: "links" });
    if (a < hosts && b < hosts)
      throw fail(MODULE, "BAD_INPUT", `${where} joins two hosts: hosts connect only to switches`, { field: "links" });
    if (!(c.bandwidth > 0) || !Number.isFinite(c.bandwidth))
      throw fail(MODULE, "BAD_INPUT", `${where} has bandwidth ${c.bandwidth}, not a positive number`, { field: "bw" });
    // at least the generators' least bw (a byte in at most MAX_MACHINE_TIME us): 1e-320 made every time Infinity
    if (c.bandwidth < 1 / MAX_MACHINE_TIME)
      throw fail(MODULE, "BAD_INPUT", `${where} has bandwidth ${c.bandwidth}, below 1e-12 bytes/us`, { field: "bw" });
    // a topology file's latency in the generators' range (lat: 0..MAX_MACHINE_TIME us): 1e308 overflowed the
    // replay's clock to Infinity, and simulate then reported a deadlock ("are the schedule's steps out of order?").
    // Bandwidths have no upper bound yet: bw 1e308 is the fuzzer's way to the SimGrid export's InfinityBps check
    if (!(c.latency >= 0) || !Number.isFinite(c.latency) || c.latency > MAX_MACHINE_TIME)
      throw fail(MODULE, "BAD_INPUT", `${where} has latency ${c.latency}, not a number in 0..1e12 us`, {
        field: "lat",
      });
    for (const [k, x, y] of [
      [2 * c.id, a, b],
      [2 * c.id + 1, b, a],
    ] as const) {
      bandwidth[k] = c.bandwidth;
      latency[k] = c.latency;
      from[k] = x;
      to[k] = y;
    }
  }
  return { bandwidth, latency, from, to };
}

/** Groups directed links by their source (hosts: links to switches; switches: links to switches) into CSR arrays. */
function adjacency(hosts: number, switches: number, from: Int32Array, to: Int32Array) {
  const nodes = hosts + switches;
  const start = new Int32Array(nodes + 1);
  for (let l = 0; l < from.length; l++) if (to[l]! >= hosts) start[from[l]! + 1]!++;
  for (let v = 0; v < nodes; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, nodes);
  const nbr = new Int32Array(start[nodes]!),
    link = new Int32Array(start[nodes]!);
  for (let l = 0; l < from.length; l++) {
    if (to[l]! < hosts) continue;
    const k = fill[from[l]!]!++;
    nbr[k] = to[l]! - hosts;
    link[k] = l;
  }
  for (let v = 0; v < nodes; v++) {
    // sort each row by (neighbour, link): insertion sort, rows are short
    for (let i = start[v]! + 1; i < start[v + 1]!; i++) {
      const n = nbr[i]!,
        l = link[i]!;
      let j = i - 1;
      while (j >= start[v]! && (nbr[j]! > n || (nbr[j] === n && link[j]! > l))) {
        nbr[j + 1] = nbr[j]!;
        link[j + 1] = link[j]!;
        j--;
      }
      nbr[j + 1] = n;
      link[j + 1] = l;
    }
  }
  return { start, nbr, link };
}

/** The union-find root of x (with path halving). */
function root(parent: Int32Array, x: number): number {
  while (parent[x] !== x) {
    parent[x] = parent[parent[x]!]!;
    x = parent[x]!;
  }
  return x;
}

/** The first host (other than 0) sharing no switch component with some other host, as [host, other], or null. */
function unreachablePair(t: Omit<NetworkTables, "hostDown">, comp: Int32Array): [number, number] | null {
  // common case: one component touches every host
  const touches = new Int32Array(t.switches);
  for (let h = 0; h < t.hosts; h++)
    for (let k = t.hostStart[h]!; k < t.hostStart[h + 1]!; k++) {
      const c = comp[t.hostSw[k]!]!;
      if (touches[c] === h) touches[c] = h + 1;
    }
  if (touches.some((n) => n === t.hosts)) return null;
  // otherwise compare the distinct sets of components of the hosts pairwise
  const sig = new Map<string, number>();
  for (let h = 0; h < t.hosts; h++) {
    const set = [...new Set(Array.from(t.hostSw.subarray(t.hostStart[h]!, t.hostStart[h + 1]!), (s) => comp[s]!))].sort(
      (x, y) => x - y,
    );
    const key = set.join(",");
    if (!sig.has(key)) sig.set(key, h);
  }
  const sets = [...sig.entries()].map(([k, h]) => ({ comps: new Set(k.split(",").map(Number)), host: h }));
  for (let i = 0; i < sets.length; i++)
    for (let j = 0; j < i; j++)
      if (![...sets[i]!.comps].some((c) => sets[j]!.comps.has(c))) return [sets[i]!.host, sets[j]!.host];
  return null;
}

/** Throws naming a host unreachable from another (switch components shared by no path; hosts do not forward). */
function checkConnected(t: Omit<NetworkTables, "hostDown">, name: string): void {
  const parent = new Int32Array(t.switches).map((_, i) => i);
  for (let s = 0; s < t.switches; s++)
    for (let k = t.swStart[s]!; k < t.swStart[s + 1]!; k++) {
      const x = root(parent, s),
        y = root(parent, t.swNbr[k]!);
      if (x !== y) parent[x] = y;
    }
  for (let h = 0; h < t.hosts; h++)
    if (t.hostStart[h] === t.hostStart[h + 1])
      throw fail(MODULE, "BAD_INPUT", `${name}: host ${t.hostName[h]} has no link to a switch`, { field: "links" });
  const comp = new Int32Array(t.switches).map((_, s) => root(parent, s));
  const bad = unreachablePair(t, comp);
  if (bad)
    throw fail(
      MODULE,
      "BAD_INPUT",
      `${name}: host ${t.hostName[bad[0]]} is unreachable from host ${t.hostName[bad[1]]} (no switch path joins them; hosts do not forward)`,
      { field: "links" },
    );
}

/** Flattens and checks `graph`: every host linked to a switch, all hosts reachable from host 0 through switches. */
export function networkTables(graph: TopologyGraph): NetworkTables {
  const label = graph.graph();
  const { hosts, switches, name } = label;
  const hostName = new Array<string>(hosts),
    switchName = new Array<string>(switches);
  for (const v of graph.nodes()) {
    const n = graph.node(v);
    if (n.kind === "host") hostName[n.index] = v;
    else switchName[n.index] = v;
  }
  const idOf = (v: string): number => {
    const n = graph.node(v);
    return n.kind === "host" ? n.index : hosts + n.index;
  };
  const cables = readCables(graph, name, idOf);
  const adj = adjacency(hosts, switches, cables.from, cables.to);
  const hostStart = adj.start.slice(0, hosts + 1);
  const hostSw = adj.nbr.slice(0, hostStart[hosts]);
  const hostUp = adj.link.slice(0, hostStart[hosts]);
  const hostDown = hostUp.map((l) => l ^ 1);
  const base = adj.start[hosts]!;
  const swStart = adj.start.slice(hosts).map((x) => x - base);
  const t = {
    hosts,
    switches,
    hostName,
    switchName,
    ...cables,
    hostStart,
    hostSw,
    hostUp,
    hostDown,
    swStart,
    swNbr: adj.nbr.slice(base),
    swLink: adj.link.slice(base),
  };
  if (hosts > 0) checkConnected(t, name);
  return t;
}
