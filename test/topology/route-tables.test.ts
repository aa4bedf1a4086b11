/** Shortest-path tables built on demand: only the destinations asked for, the same routes in any order, a sound maxHops, refused past the memory budget. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nicLinks } from "../../src/machines/sim/link-contention.js";
import type { NetworkRoutes } from "../../src/model/network.js";
import type { TopologyDescription } from "../../src/model/topology.js";
import { CompiledNetwork } from "../../src/topology/compile-routes.js";
import { buildTopology, compileRoutes, describeTopology, graphFromDescription } from "../../src/topology/index.js";
import { networkTables } from "../../src/topology/network-tables.js";
import { shortestHopMax } from "../../src/topology/route-steps.js";
import { errorOf } from "../helpers/errors.js";
import { hostDistances, routeNodes } from "./route-checks.js";

/** The tables counter of a compiled network. */
function rowsBuilt(r: NetworkRoutes): number {
  expect(r).toBeInstanceOf(CompiledNetwork);
  return (r as CompiledNetwork).rowsBuilt;
}

/** The links of the route from a to b. */
function links(r: NetworkRoutes, a: number, b: number): number[] {
  const out = new Int32Array(r.maxHops);
  return [...out.subarray(0, r.route(a, b, out))];
}

// fat-tree:k=48: 27648 hosts, 2880 switches, 1152 of them with hosts; 24 hosts per edge switch
const BIG = "fat-tree:k=48";
const big = buildTopology(BIG, 16);
const bigDesc = describeTopology(big);

describe("a large network with few ranks", () => {
  it("builds the tables of the destination switches its routes reach, and none for the NIC links of every host", () => {
    const r = compileRoutes(big);
    expect(rowsBuilt(r)).toBe(0);
    expect(r.maxHops).toBe(6);
    // ranks 0..15 share edge switch edge0_0: two links each, no table
    for (let a = 0; a < 16; a++) for (let b = 0; b < 16; b++) if (a !== b) expect(links(r, a, b)).toHaveLength(2);
    expect(rowsBuilt(r)).toBe(0);
    // every host's own links (the free-core run of f_lc) cost no table either
    const nic = nicLinks(r);
    expect(nic.reduce((s, x) => s + x, 0)).toBe(2 * 27648);
    expect(rowsBuilt(r)).toBe(0);
    // ranks 0..47 span edge0_0 and edge0_1: the tables of those two destinations
    for (let a = 0; a < 48; a++) for (let b = 0; b < 48; b++) if (a !== b) links(r, a, b);
    expect(rowsBuilt(r)).toBe(2);
    // a host in the last pod: one more destination, and back
    links(r, 0, 27647);
    links(r, 27647, 0);
    expect(rowsBuilt(r)).toBe(3);
  });

  it("its routes are shortest paths (an independent breadth-first search over the listed links)", () => {
    const r = compileRoutes(big);
    for (const a of [0, 23, 24, 575, 13824, 27647]) {
      const dist = hostDistances(bigDesc, a);
      for (const b of [0, 1, 24, 600, 1200, 9999, 27646, 27647]) {
        if (a === b) continue;
        const nodes = routeNodes(bigDesc, r, a, b);
        expect(nodes.length - 1, `${a}->${b}`).toBe(dist.get(bigDesc.hosts[b]!));
      }
    }
  });

  it("is accepted under a memory budget that holds its graph; the tables are refused in one line when they outgrow it", () => {
    const graph = buildTopology(BIG, 16, undefined, { maxMemory: 80 * 2 ** 20 });
    expect(links(compileRoutes(graph, { maxMemory: 80 * 2 ** 20 }), 0, 27647)).toHaveLength(6);
    const r = compileRoutes(graph, { maxMemory: 2 ** 20 });
    expect(links(r, 0, 27647)).toHaveLength(6);
    // a destination on each of 200 edge switches: about 200 x 2880 x 6 bytes
    const e = errorOf(() => {
      for (let b = 24; b < 24 * 200; b += 24) links(r, 0, b);
    });
    expect(e.message).toMatch(
      /^topology: fat-tree:k=48: the route tables of \d+ destination switches x 2880 switches needs about [\d.]+ MiB, past the memory budget of 1 MiB \(raise it with the option maxMemory \(bytes\), e\.g\. \d+M\)$/,
    );
    expect(rowsBuilt(r)).toBeGreaterThan(16);
    expect(rowsBuilt(r)).toBeLessThan(200);
  });
});

describe("tables built on demand", () => {
  it("give the same routes whatever order the pairs are asked in (multi-homed hosts, oversubscription, explicit routes)", () => {
    const user: TopologyDescription = {
      name: "u",
      hosts: ["a", "b", "c", "d"],
      switches: ["s", "t", "u", "v"],
      links: [
        { a: "a", b: "s", bandwidth: 1, latency: 1 },
        { a: "a", b: "u", bandwidth: 1, latency: 1 },
        { a: "b", b: "t", bandwidth: 1, latency: 1 },
        { a: "c", b: "u", bandwidth: 1, latency: 1 },
        { a: "d", b: "v", bandwidth: 1, latency: 1 },
        { a: "d", b: "s", bandwidth: 1, latency: 1 },
        { a: "s", b: "t", bandwidth: 1, latency: 1 },
        { a: "t", b: "u", bandwidth: 1, latency: 1 },
        { a: "u", b: "v", bandwidth: 1, latency: 1 },
        { a: "v", b: "s", bandwidth: 1, latency: 1 },
        { a: "s", b: "t", bandwidth: 2, latency: 1 },
      ],
      routes: [{ src: "b", dst: "c", path: ["t", "s", "v", "u"] }],
    };
    const nets: [() => NetworkRoutes, number][] = [
      [() => compileRoutes(buildTopology("rail:gpus=4,nodes=3,spines=2", 12)), 12],
      [() => compileRoutes(buildTopology("fat-tree:k=6,oversub=2/3", 54)), 54],
      [() => compileRoutes(buildTopology("cm5-fat-tree", 70)), 70],
      [() => compileRoutes(graphFromDescription(user)), 4],
    ];
    for (const [make, p] of nets) {
      const pairs: [number, number][] = [];
      for (let a = 0; a < p; a++) for (let b = 0; b < p; b++) if (a !== b) pairs.push([a, b]);
      const forward = make(),
        backward = make();
      const first = new Map(pairs.map(([a, b]) => [`${a} ${b}`, links(forward, a, b)]));
      for (const [a, b] of pairs.reverse()) expect(links(backward, a, b), `${a}->${b}`).toEqual(first.get(`${a} ${b}`));
    }
  });

  it("routeEnds gives the first and last links of route, and 0 for a host to itself", () => {
    for (const spec of ["rail:gpus=4,nodes=3,spines=2", "fat-tree:k=4,oversub=2", "torus:dims=3x4", "dragonfly"]) {
      const r = compileRoutes(buildTopology(spec, 12));
      const ends = new Int32Array(2);
      expect(r.routeEnds!(3, 3, ends)).toBe(0);
      for (let a = 0; a < 12; a++)
        for (let b = 0; b < 12; b++) {
          if (a === b) continue;
          const l = links(r, a, b);
          expect(r.routeEnds!(a, b, ends)).toBe(2);
          expect([ends[0], ends[1]], `${spec} ${a}->${b}`).toEqual([l[0], l.at(-1)]);
        }
    }
  });
});

/** The longest route over every ordered pair of hosts, each checked as long as an independent breadth-first search says. */
function longestShortest(d: TopologyDescription, r: NetworkRoutes): number {
  let longest = 0;
  for (let a = 0; a < d.hosts.length; a++) {
    const dist = hostDistances(d, a);
    for (let b = 0; b < d.hosts.length; b++) {
      if (a === b) continue;
      const n = routeNodes(d, r, a, b).length - 1;
      expect(n, `${d.name} ${a}->${b}`).toBe(dist.get(d.hosts[b]!));
      longest = Math.max(longest, n);
    }
  }
  return longest;
}

/** The most hops between two switches that have hosts (and a switch path between them), by a breadth-first search from each. */
function switchDiameter(d: TopologyDescription): number {
  const hosts = new Set(d.hosts);
  const adj = new Map<string, string[]>(d.switches.map((s) => [s, []]));
  const ends = new Set<string>();
  for (const l of d.links)
    if (hosts.has(l.a)) ends.add(l.b);
    else if (hosts.has(l.b)) ends.add(l.a);
    else {
      adj.get(l.a)!.push(l.b);
      adj.get(l.b)!.push(l.a);
    }
  let most = 0;
  for (const from of ends) {
    const dist = new Map([[from, 0]]);
    const queue = [from];
    for (let i = 0; i < queue.length; i++)
      for (const w of adj.get(queue[i]!)!)
        if (!dist.has(w)) {
          dist.set(w, dist.get(queue[i]!)! + 1);
          queue.push(w);
        }
    for (const to of ends) most = Math.max(most, dist.get(to) ?? 0);
  }
  return most;
}

describe("maxHops", () => {
  it("a grid of switches: the sweeps' bound is near the longest route, the search from every switch exact", () => {
    const n = 12;
    const at = (i: number, j: number) => `s${i}_${j}`;
    const hosts: string[] = [],
      switches: string[] = [],
      links: TopologyDescription["links"][number][] = [];
    const link = (a: string, b: string) => links.push({ a, b, bandwidth: 1, latency: 1 });
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        switches.push(at(i, j));
        hosts.push(`h${i}_${j}`);
        link(`h${i}_${j}`, at(i, j));
        if (i + 1 < n) link(at(i, j), at(i + 1, j));
        if (j + 1 < n) link(at(i, j), at(i, j + 1));
      }
    const d: TopologyDescription = { name: "grid", hosts, switches, links };
    const g = graphFromDescription(d);
    const r = compileRoutes(g);
    expect(switchDiameter(d)).toBe(2 * (n - 1));
    expect(r.maxHops).toBe(2 * (n - 1) + 2);
    const bound = shortestHopMax(networkTables(g), 0);
    expect(bound).toBeGreaterThanOrEqual(2 * (n - 1));
    expect(bound).toBeLessThanOrEqual(2 * (n - 1) + 2);
  });

  it.each([
    ["flat", 5],
    ["fat-tree:k=4", 16],
    ["fat-tree:k=6,oversub=4", 54],
    ["fat-tree:k=4", 3],
    ["rail:gpus=4,spines=3", 16],
    ["rail:gpus=2,nodes=3,spines=1", 6],
    ["cm5-fat-tree", 70],
    ["cm5-fat-tree", 12],
  ])("%s (P = %d): is the longest route (the bound is exact on trees, fat trees and rails)", (spec, p) => {
    const g = buildTopology(spec, p);
    const r = compileRoutes(g);
    expect(r.maxHops).toBe(longestShortest(describeTopology(g), r));
  });

  it("bounds every route of random user networks (several links per host, parallel cables, disconnected switches)", () => {
    const netArb = fc
      .record({
        switches: fc.integer({ min: 1, max: 12 }),
        hosts: fc.integer({ min: 2, max: 10 }),
        seed: fc.array(fc.nat(), { minLength: 80, maxLength: 80 }),
        extra: fc.integer({ min: 0, max: 12 }),
      })
      .map(({ switches, hosts, seed, extra }) => {
        let i = 0;
        const next = (n: number) => seed[i++ % seed.length]! % n;
        const links: TopologyDescription["links"][number][] = [];
        const link = (a: string, b: string) => links.push({ a, b, bandwidth: 1, latency: 1 });
        // a random tree over switches 0..c-1; switches c.. form lone islands with a host each (hosts never forward)
        const c = Math.max(1, switches - next(3));
        for (let s = 1; s < c; s++) link(`s${s}`, `s${next(s)}`);
        for (let k = 0; k < extra && c > 1; k++) {
          const x = next(c),
            y = next(c);
          if (x !== y) link(`s${x}`, `s${y}`);
        }
        const hostNames = Array.from({ length: hosts }, (_, h) => `h${h}`);
        for (const h of hostNames) {
          link(h, `s${next(c)}`);
          if (next(3) === 0) link(h, `s${next(switches)}`);
        }
        const d: TopologyDescription = {
          name: "random",
          hosts: hostNames,
          switches: Array.from({ length: switches }, (_, s) => `s${s}`),
          links,
        };
        return d;
      });
    fc.assert(
      fc.property(netArb, (d) => {
        const g = graphFromDescription(d);
        const r = compileRoutes(g);
        const exact = switchDiameter(d);
        expect(longestShortest(d, r)).toBeLessThanOrEqual(exact + 2);
        // a network this small is measured exactly; the sweeps' bound alone is sound and at most twice it
        expect(r.maxHops).toBe(exact + 2);
        const bound = shortestHopMax(networkTables(g), 0);
        expect(bound).toBeGreaterThanOrEqual(exact);
        expect(bound).toBeLessThanOrEqual(2 * exact);
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});
