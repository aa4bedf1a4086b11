/**
 * compileRoutes: a topology graph compiled into NetworkRoutes (typed arrays, no per-pair objects; routes computed on
 * demand, deterministic).
 */
import { fail } from "../model/errors.js";
import { memoryBudgetOf } from "../host/memory.js";
import type { NetworkRoutes } from "../model/network.js";
import { networkTables, type NetworkTables } from "./network-tables.js";
import { linkTo, policyStep, type ShortestRows, type Walk } from "./route-steps.js";
import type { TopologyGraph } from "./types.js";
import { checkTopologyGraph } from "./topology-graph-check.js";
import { checkOptionsObject } from "../model/option-checks.js";

const MODULE = "topology";

/** The explicit routes of a user file as directed link ids, keyed by src x hosts + dst. */
function explicitRoutes(graph: TopologyGraph, t: NetworkTables): Map<number, Int32Array> {
  const out = new Map<number, Int32Array>();
  const label = graph.graph();
  const routes = label.routes ?? [];
  routes.forEach((r, i) => {
    const field = `/routes/${i}`;
    const bad = (text: string): never => {
      throw fail(MODULE, "BAD_INPUT", `${label.name}: ${field}: ${text}`, { field });
    };
    const node = (v: string) => (graph.hasNode(v) ? graph.node(v) : undefined);
    const src = node(r.src),
      dst = node(r.dst);
    if (src?.kind !== "host") bad(`src '${r.src}' is not a host`);
    if (dst?.kind !== "host") bad(`dst '${r.dst}' is not a host`);
    if (src!.index === dst!.index) bad("src and dst are the same host");
    if (r.path.length === 0) bad("path is empty (a route crosses at least one switch)");
    const visited = new Set<string>();
    const sw = r.path.map((v) => {
      const n = node(v);
      if (n?.kind !== "switch") bad(`path: '${v}' is not a switch`);
      // a loop would cross a link twice, and the flow models count a flow once per link
      if (visited.has(v)) bad(`path: switch '${v}' appears twice (a route is a path without loops)`);
      visited.add(v);
      return n!.index;
    });
    const links: number[] = [];
    const hostLink = (h: number, s: number, up: boolean): number => {
      for (let k = t.hostStart[h]!; k < t.hostStart[h + 1]!; k++)
        if (t.hostSw[k] === s) return up ? t.hostUp[k]! : t.hostDown[k]!;
      return bad(`host ${t.hostName[h]} has no link to switch ${t.switchName[s]}`);
    };
    links.push(hostLink(src!.index, sw[0]!, true));
    for (let k = 0; k + 1 < sw.length; k++) {
      const l = linkTo(t, sw[k]!, sw[k + 1]!, 0);
      if (l < 0) bad(`no link between switches ${r.path[k]} and ${r.path[k + 1]}`);
      links.push(l);
    }
    links.push(hostLink(dst!.index, sw[sw.length - 1]!, false));
    const key = src!.index * t.hosts + dst!.index;
    if (out.has(key)) bad(`a second route from ${r.src} to ${r.dst}`);
    out.set(key, Int32Array.from(links));
  });
  return out;
}

/**
 * The network in compiled form; `route` walks the routing policy from a's switch to b's (shortest-path tables built per
 * destination on first use).
 */
export class CompiledNetwork implements NetworkRoutes {
  readonly links: number;
  readonly bandwidth: Float64Array;
  readonly latency: Float64Array;
  private readonly pair = new Int32Array(2);
  constructor(
    readonly name: string,
    private readonly t: NetworkTables,
    private readonly walk: Walk,
    private readonly shortest: ShortestRows | undefined,
    private readonly fixed: Map<number, Int32Array>,
    readonly maxHops: number,
  ) {
    this.links = t.bandwidth.length;
    this.bandwidth = t.bandwidth;
    this.latency = t.latency;
  }

  get hosts(): number {
    return this.t.hosts;
  }

  /**
   * The number of destination switches whose shortest-path tables have been built so far (0 under torus and dragonfly
   * routing).
   */
  get rowsBuilt(): number {
    return this.shortest?.rows ?? 0;
  }

  linkLabel(id: number): string {
    const t = this.t;
    const name = (v: number): string => (v < t.hosts ? t.hostName[v]! : t.switchName[v - t.hosts]!);
    return `${name(t.from[id]!)}->${name(t.to[id]!)}`;
  }

  /**
   * The (uplink entry of a, downlink entry of b) pair with the fewest switch hops between them (a hash breaks ties).
   */
  private ends(a: number, b: number): [number, number] {
    const t = this.t;
    const a0 = t.hostStart[a]!,
      a1 = t.hostStart[a + 1]!,
      b0 = t.hostStart[b]!,
      b1 = t.hostStart[b + 1]!;
    if (!this.shortest || (a1 - a0 === 1 && b1 - b0 === 1)) return [a0, b0];
    this.shortest.nearest(a, b, this.pair);
    return [this.pair[0]!, this.pair[1]!];
  }

  routeEnds(a: number, b: number, out: Int32Array): number {
    const t = this.t;
    if (a === b) return 0;
    const fixed = this.fixed.size > 0 ? this.fixed.get(a * t.hosts + b) : undefined;
    if (fixed) {
      out[0] = fixed[0]!;
      out[1] = fixed[fixed.length - 1]!;
    } else {
      const [ia, ib] = this.ends(a, b);
      out[0] = t.hostUp[ia]!;
      out[1] = t.hostDown[ib]!;
    }
    return 2;
  }

  route(a: number, b: number, out: Int32Array): number {
    const t = this.t;
    if (a === b) return 0;
    const fixed = this.fixed.size > 0 ? this.fixed.get(a * t.hosts + b) : undefined;
    if (fixed) {
      out.set(fixed);
      return fixed.length;
    }
    const [ia, ib] = this.ends(a, b);
    out[0] = t.hostUp[ia]!;
    const n = this.walk(t.hostSw[ia]!, t.hostSw[ib]!, a, b, out, 1);
    if (n < 0) throw fail(MODULE, "BAD_INPUT", `${this.name}: no route from ${t.hostName[a]} to ${t.hostName[b]}`);
    out[n] = t.hostDown[ib]!;
    return n + 1;
  }
}

/** Options of compileRoutes. */
export interface CompileRoutesOptions {
  /** Bytes the shortest-path tables may grow to as routes are asked for; default: half the memory, <= 32 GiB. */
  readonly maxMemory?: number;
}

/**
 * Compiles `graph` (checked: every host linked, all hosts connected) into NetworkRoutes; routes follow the graph's
 * routing policy.
 */
export function compileRoutes(graph: TopologyGraph, opts: CompileRoutesOptions = {}): NetworkRoutes {
  checkTopologyGraph("compileRoutes", graph);
  checkOptionsObject(MODULE, "options", opts);
  const t = networkTables(graph);
  const { walk, maxSwitchHops, rows } = policyStep(graph, t, graph.graph().routing, memoryBudgetOf(opts));
  const fixed = explicitRoutes(graph, t);
  let maxHops = maxSwitchHops + 2;
  for (const r of fixed.values()) maxHops = Math.max(maxHops, r.length);
  return new CompiledNetwork(graph.graph().name, t, walk, rows, fixed, maxHops);
}
