/** Compiled routes: valid (links connect, a's uplink first, b's downlink last), shortest, deterministic, ECMP spread, dimension order, minimal dragonfly; fast-check over random generator parameters. */
import { alg } from "@dagrejs/graphlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTopology, compileRoutes, describeTopology, graphFromDescription } from "../../src/topology/index.js";
import type { TopologyDescription } from "../../src/model/topology.js";
import { errorOf } from "../helpers/errors.js";
import { hostDistances, routeNodes } from "./route-checks.js";

/** Checks every ordered pair of the first p hosts: valid and, unless `notShortest`, as short as a breadth-first search says. */
function checkAllPairs(spec: string, p: number, notShortest = false): void {
  const g = buildTopology(spec, p);
  const d = describeTopology(g);
  const r = compileRoutes(g);
  let longest = 0;
  for (let a = 0; a < p; a++) {
    const dist = hostDistances(d, a);
    for (let b = 0; b < p; b++) {
      if (a === b) continue;
      const nodes = routeNodes(d, r, a, b);
      longest = Math.max(longest, nodes.length - 1);
      if (!notShortest) expect(nodes.length - 1, `${spec} ${a}->${b}`).toBe(dist.get(d.hosts[b]!));
    }
  }
  expect(longest).toBeLessThanOrEqual(r.maxHops);
}

describe("routes of every generator", () => {
  it.each([
    ["flat", 9],
    ["fat-tree:k=4", 16],
    ["fat-tree:k=6,oversub=2/3", 54],
    ["torus:dims=4x4", 16],
    ["torus:dims=5x3x2,hpr=2", 60],
    ["rail:gpus=4,spines=3", 16],
    ["cm5-fat-tree", 40],
  ])("%s: every pair valid and shortest", (spec, p) => checkAllPairs(spec, p));

  it("dragonfly: valid, at most one global cable, local-global-local (at most 5 links)", () => {
    for (const spec of [
      "dragonfly",
      "dragonfly:groups=5,routers=2,hpr=1,globals=2",
      "dragonfly:groups=3,routers=3,hpr=2,globals=1",
    ]) {
      const g = buildTopology(spec, 10);
      const d = describeTopology(g);
      const r = compileRoutes(g);
      const group = (v: string) => (v.startsWith("g") ? (g.node(v).group ?? -1) : -1);
      for (let a = 0; a < d.hosts.length; a++)
        for (let b = 0; b < d.hosts.length; b++) {
          if (a === b) continue;
          const nodes = routeNodes(d, r, a, b).slice(1, -1);
          let globals = 0;
          for (let k = 0; k + 1 < nodes.length; k++) if (group(nodes[k]!) !== group(nodes[k + 1]!)) globals++;
          expect(globals).toBe(group(nodes[0]!) === group(nodes.at(-1)!) ? 0 : 1);
          expect(nodes.length).toBeLessThanOrEqual(4);
        }
    }
  });

  it("torus: dimension order, each dimension the shorter way round", () => {
    const dims = [5, 4, 3];
    const g = buildTopology("torus:dims=5x4x3", 60);
    const d = describeTopology(g);
    const r = compileRoutes(g);
    for (let a = 0; a < 60; a += 7)
      for (let b = 0; b < 60; b++) {
        if (a === b) continue;
        const sw = routeNodes(d, r, a, b)
          .slice(1, -1)
          .map((v) => g.node(v).coords!);
        let lastDim = 0;
        for (let k = 0; k + 1 < sw.length; k++) {
          const changed = [0, 1, 2].filter((i) => sw[k]![i] !== sw[k + 1]![i]);
          expect(changed.length).toBe(1);
          expect(changed[0]!).toBeGreaterThanOrEqual(lastDim);
          lastDim = changed[0]!;
        }
        for (let i = 0; i < 3; i++) {
          const delta = Math.abs(sw[0]![i]! - sw.at(-1)![i]!);
          const moves = sw.slice(1).filter((c, k) => c[i] !== sw[k]![i]).length;
          expect(moves).toBe(Math.min(delta, dims[i]! - delta));
        }
      }
  });

  it("route lengths equal graphlib's Dijkstra distances (an independent oracle; single-homed hosts never forward)", () => {
    for (const [spec, p] of [
      ["fat-tree:k=4,oversub=4", 16],
      ["torus:dims=3x4", 12],
      ["cm5-fat-tree", 40],
    ] as const) {
      const g = buildTopology(spec, p);
      const d = describeTopology(g);
      const r = compileRoutes(g);
      const out = new Int32Array(r.maxHops);
      for (let a = 0; a < p; a += 3) {
        const dist = alg.dijkstra(
          g,
          d.hosts[a]!,
          () => 1,
          (v) => g.nodeEdges(v) ?? [],
        );
        for (let b = 0; b < p; b++)
          if (a !== b) expect(r.route(a, b, out), `${spec} ${a}->${b}`).toBe(dist[d.hosts[b]!]!.distance);
      }
    }
  });
});

describe("route properties", () => {
  it("is deterministic: two compilations give the same routes", () => {
    const r1 = compileRoutes(buildTopology("fat-tree:k=6", 54));
    const r2 = compileRoutes(buildTopology("fat-tree:k=6", 54));
    const o1 = new Int32Array(r1.maxHops),
      o2 = new Int32Array(r2.maxHops);
    for (let a = 0; a < 54; a++)
      for (let b = 0; b < 54; b++) {
        if (a === b) continue;
        const n = r1.route(a, b, o1);
        expect(r2.route(a, b, o2)).toBe(n);
        expect([...o2.subarray(0, n)]).toEqual([...o1.subarray(0, n)]);
      }
  });

  it("ECMP spreads the cross-pod pairs of a fat tree over every core switch, evenly", () => {
    for (const k of [4, 6, 8]) {
      const g = buildTopology(`fat-tree:k=${k}`, (k * k * k) / 4);
      const d = describeTopology(g);
      const r = compileRoutes(g);
      const use = new Map<string, number>();
      const hosts = (k * k * k) / 4,
        perPod = (k * k) / 4;
      for (let a = 0; a < hosts; a++)
        for (let b = 0; b < hosts; b++) {
          if (Math.floor(a / perPod) === Math.floor(b / perPod)) continue;
          const core = routeNodes(d, r, a, b).find((v) => v.startsWith("core"))!;
          use.set(core, (use.get(core) ?? 0) + 1);
        }
      expect(use.size).toBe((k / 2) ** 2);
      const counts = [...use.values()];
      expect(Math.max(...counts) / Math.min(...counts)).toBeLessThan(1.5);
    }
  });

  it("D-mod-k picks a fat tree's up-links by the destination: aggregation b mod k/2, core floor(b / (k/2)) mod k/2", () => {
    for (const k of [4, 6]) {
      const half = k / 2,
        hosts = (k * k * k) / 4;
      const g = buildTopology(`fat-tree:k=${k},routing=dmodk`, hosts);
      const d = describeTopology(g);
      const r = compileRoutes(g);
      const pod = (h: number) => Math.floor(h / (half * half)),
        edge = (h: number) => Math.floor(h / half);
      for (let a = 0; a < hosts; a++)
        for (let b = 0; b < hosts; b++) {
          if (edge(a) === edge(b)) continue;
          const nodes = routeNodes(d, r, a, b);
          expect(nodes[2], `${a}->${b}`).toBe(`agg${pod(a)}_${b % half}`);
          if (pod(a) !== pod(b)) {
            expect(nodes[3], `${a}->${b}`).toBe(`core${(b % half) * half + (Math.floor(b / half) % half)}`);
            expect(nodes[4], `${a}->${b}`).toBe(`agg${pod(b)}_${b % half}`);
          }
        }
    }
  });

  /** The most pairs of one permutation (a -> perm(a) for every host a) sharing a directed link. */
  function busiestLink(spec: string, hosts: number, perms: readonly ((a: number) => number)[]): number {
    const r = compileRoutes(buildTopology(spec, hosts));
    const out = new Int32Array(r.maxHops);
    let most = 0;
    for (const perm of perms) {
      const use = new Uint32Array(r.links);
      for (let a = 0; a < hosts; a++) {
        const n = r.route(a, perm(a), out);
        for (let h = 0; h < n; h++) most = Math.max(most, ++use[out[h]!]!);
      }
    }
    return most;
  }

  it("D-mod-k routes every shift (and, P a power of 2, every XOR) permutation on a 1:1 fat tree without two pairs on a link; ECMP does not", () => {
    for (const k of [4, 6, 8]) {
      const hosts = (k * k * k) / 4;
      const shifts = Array.from({ length: hosts - 1 }, (_, s) => (a: number) => (a + s + 1) % hosts);
      expect(busiestLink(`fat-tree:k=${k},routing=dmodk`, hosts, shifts), `k = ${k}`).toBe(1);
      expect(busiestLink(`fat-tree:k=${k}`, hosts, shifts), `k = ${k} ECMP`).toBeGreaterThan(1);
    }
    for (const k of [4, 8]) {
      const hosts = (k * k * k) / 4;
      const xors = Array.from({ length: hosts - 1 }, (_, s) => (a: number) => a ^ (s + 1));
      expect(busiestLink(`fat-tree:k=${k},routing=dmodk`, hosts, xors), `k = ${k}`).toBe(1);
    }
  });

  it("labels links by their ends and gives bandwidth and latency per direction", () => {
    const r = compileRoutes(buildTopology("fat-tree:k=4,bw=8,oversub=4,lat=0.5", 16));
    expect(r.links).toBe(96);
    expect(r.linkLabel(0)).toBe("h0->edge0_0");
    expect(r.linkLabel(1)).toBe("edge0_0->h0");
    expect(r.linkLabel(4)).toBe("edge0_0->agg0_0");
    expect(r.bandwidth[0]).toBe(8);
    expect(r.bandwidth[5]).toBe(2);
    expect(r.latency[95]).toBe(0.5);
    expect(r.hosts).toBe(16);
    expect(r.name).toBe("fat-tree:k=4,bw=8,oversub=4,lat=0.5");
  });
});

describe("user networks", () => {
  const net = (over: Partial<TopologyDescription> = {}): TopologyDescription => ({
    name: "net",
    hosts: ["a", "b", "c"],
    switches: ["s", "t", "u"],
    links: [
      { a: "a", b: "s", bandwidth: 1, latency: 1 },
      { a: "b", b: "t", bandwidth: 1, latency: 1 },
      { a: "c", b: "u", bandwidth: 1, latency: 1 },
      { a: "s", b: "t", bandwidth: 1, latency: 1 },
      { a: "t", b: "u", bandwidth: 1, latency: 1 },
      { a: "s", b: "u", bandwidth: 1, latency: 1 },
    ],
    ...over,
  });
  it("routes by shortest paths and takes explicit routes first", () => {
    const d = net({ routes: [{ src: "a", dst: "c", path: ["s", "t", "u"] }] });
    const r = compileRoutes(graphFromDescription(d));
    expect(routeNodes(d, r, 0, 2)).toEqual(["a", "s", "t", "u", "c"]);
    expect(routeNodes(d, r, 2, 0)).toEqual(["c", "u", "s", "a"]);
    expect(r.maxHops).toBe(4);
  });
  it("names an unreachable host, a host without links, a route through a missing link or a loop", () => {
    const cut = net({
      links: net().links.filter((l) => !(l.a === "t" && l.b === "u") && !(l.a === "s" && l.b === "u")),
    });
    expect(errorOf(() => compileRoutes(graphFromDescription(cut))).message).toBe(
      "topology: net: host c is unreachable from host a (no switch path joins them; hosts do not forward)",
    );
    const lonely = net({ hosts: ["a", "b", "c", "d"] });
    expect(errorOf(() => compileRoutes(graphFromDescription(lonely))).message).toMatch(
      /host d has no link to a switch/,
    );
    const bad = net({ routes: [{ src: "a", dst: "b", path: ["u", "t"] }] });
    expect(errorOf(() => compileRoutes(graphFromDescription(bad))).message).toMatch(
      /\/routes\/0: host a has no link to switch u/,
    );
    const loop = net({ routes: [{ src: "a", dst: "c", path: ["s", "t", "s", "u"] }] });
    expect(errorOf(() => compileRoutes(graphFromDescription(loop))).message).toBe(
      "topology: net: /routes/0: path: switch 's' appears twice (a route is a path without loops)",
    );
    // a graph's link of bandwidth 0 (a description; a spec's bw=0 is refused as it is parsed, before any graph)
    const links = net().links.map((l, k) => (k === 0 ? { ...l, bandwidth: 0 } : l));
    expect(errorOf(() => compileRoutes(graphFromDescription(net({ links })))).message).toMatch(
      /link a - s has bandwidth 0, not a positive number/,
    );
    expect(errorOf(() => buildTopology("flat:bw=0", 2)).message).toMatch(/bw = '0' is not a number in 1e-12\.\.1e12/);
  });
  it("a description's routing: dmodk round-trips and routes as the generator does; ecmp is left out as the default", () => {
    const g = buildTopology("fat-tree:k=4,routing=dmodk", 16);
    const d = describeTopology(g);
    expect(d.routing).toBe("dmodk");
    expect(describeTopology(buildTopology("fat-tree:k=4", 16)).routing).toBeUndefined();
    const r1 = compileRoutes(g),
      r2 = compileRoutes(graphFromDescription({ ...d, name: "copy" }));
    for (let a = 0; a < 16; a++)
      for (let b = 0; b < 16; b++) if (a !== b) expect(routeNodes(d, r2, a, b)).toEqual(routeNodes(d, r1, a, b));
  });
  it("multi-homed hosts (rail): hosts do not forward, yet every pair routes", () => {
    checkAllPairs("rail:gpus=2,nodes=3,spines=1", 6);
  });
});

describe("property: random generator parameters", () => {
  const specArb = fc.oneof(
    fc.record({ p: fc.integer({ min: 1, max: 40 }) }).map(({ p }) => ({ spec: "flat", p, shortest: true })),
    fc
      .record({
        k: fc.integer({ min: 1, max: 3 }),
        o1: fc.integer({ min: 1, max: 4 }),
        o2: fc.integer({ min: 1, max: 4 }),
        routing: fc.constantFrom("ecmp", "dmodk"),
      })
      .chain(({ k, o1, o2, routing }) =>
        fc
          .integer({ min: 1, max: 2 * k * k * k })
          .map((p) => ({ spec: `fat-tree:k=${2 * k},oversub=${o1}/${o2},routing=${routing}`, p, shortest: true })),
      ),
    fc
      .record({
        a: fc.integer({ min: 1, max: 5 }),
        b: fc.integer({ min: 1, max: 4 }),
        c: fc.integer({ min: 1, max: 3 }),
        h: fc.integer({ min: 1, max: 2 }),
      })
      .chain(({ a, b, c, h }) =>
        fc
          .integer({ min: 1, max: a * b * c * h })
          .map((p) => ({ spec: `torus:dims=${a}x${b}x${c},hpr=${h}`, p, shortest: true })),
      ),
    fc
      .record({
        a: fc.integer({ min: 1, max: 4 }),
        h: fc.integer({ min: 1, max: 3 }),
        hpr: fc.integer({ min: 1, max: 2 }),
      })
      .chain(({ a, h, hpr }) =>
        fc
          .integer({ min: 1, max: a * h + 1 })
          .chain((g) =>
            fc
              .integer({ min: 1, max: g * a * hpr })
              .map((p) => ({ spec: `dragonfly:groups=${g},routers=${a},globals=${h},hpr=${hpr}`, p, shortest: false })),
          ),
      ),
    fc
      .record({
        g: fc.integer({ min: 1, max: 4 }),
        s: fc.integer({ min: 1, max: 3 }),
        p: fc.integer({ min: 1, max: 24 }),
        routing: fc.constantFrom("ecmp", "dmodk"),
      })
      .map(({ g, s, p, routing }) => ({ spec: `rail:gpus=${g},spines=${s},routing=${routing}`, p, shortest: true })),
    fc.integer({ min: 1, max: 70 }).map((p) => ({ spec: "cm5-fat-tree", p, shortest: true })),
  );
  it("at least P hosts, every sampled route valid (and shortest where routing is shortest-path)", () => {
    fc.assert(
      fc.property(
        specArb,
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 30 }),
        ({ spec, p, shortest }, pairs) => {
          const g = buildTopology(spec, p);
          expect(g.graph().hosts).toBeGreaterThanOrEqual(p);
          const d = describeTopology(g);
          const r = compileRoutes(g);
          for (const [x, y] of pairs) {
            const a = x % p,
              b = y % p;
            if (a === b) continue;
            const nodes = routeNodes(d, r, a, b);
            if (shortest) expect(nodes.length - 1).toBe(hostDistances(d, a).get(d.hosts[b]!));
          }
        },
      ),
      { numRuns: 150, seed: 7 },
    );
  });
});
