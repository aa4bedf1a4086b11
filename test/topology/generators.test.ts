/** Topology generators: host, switch and link counts against hand-computed numbers, specs, parameters and refusals. */
import { describe, expect, it } from "vitest";
import { findMachine } from "../../src/machines/presets.js";
import { buildTopology, parseTopologySpec, TOPOLOGY_GENERATORS } from "../../src/topology/index.js";
import { errorOf } from "../helpers/errors.js";

const counts = (spec: string, p: number) => {
  const l = buildTopology(spec, p).graph();
  return [l.hosts, l.switches, l.cables];
};

describe("generator counts (hosts, switches, cables)", () => {
  it("flat: P hosts on one switch", () => {
    expect(counts("flat", 1)).toEqual([1, 1, 1]);
    expect(counts("flat", 37)).toEqual([37, 1, 37]);
  });
  it("fat-tree: k^3/4 hosts, 5k^2/4 switches, 3k^3/4 cables; k derived from P", () => {
    expect(counts("fat-tree:k=4", 16)).toEqual([16, 20, 48]);
    expect(counts("fat-tree:k=8", 100)).toEqual([128, 80, 384]);
    expect(counts("fat-tree", 17)).toEqual([54, 45, 162]); // k = 6
    expect(counts("fat-tree", 4096)).toEqual([4394, 845, 13182]); // k = 26
  });
  it("torus: routers x hpr hosts; a ring of >= 3 has one cable per router, of 2 one cable, of 1 none", () => {
    expect(counts("torus:dims=4x4", 16)).toEqual([16, 16, 16 + 32]);
    expect(counts("torus:dims=4x4x4,hpr=2", 100)).toEqual([128, 64, 128 + 3 * 64]);
    expect(counts("torus:dims=3x2", 6)).toEqual([6, 6, 6 + 6 + 3]);
    expect(counts("torus:dims=5x1", 5)).toEqual([5, 5, 10]);
    expect(counts("torus", 16)).toEqual([18, 18, 18 + 18 + 18 + 9]); // 3x3x2
  });
  it("dragonfly: g a hosts-per-router hosts, g a routers, a(a-1)/2 local cables per group, floor(a h/(g-1)) global cables per group pair", () => {
    expect(counts("dragonfly", 16)).toEqual([16, 8, 16 + 2 * 6 + 8]); // g = 2, passes = 8
    expect(counts("dragonfly:groups=9,routers=4,hpr=2,globals=2", 72)).toEqual([72, 36, 72 + 9 * 6 + 36]);
    expect(counts("dragonfly:groups=5,routers=2,hpr=1,globals=2", 10)).toEqual([10, 10, 10 + 5 + 10]);
  });
  it("dragonfly's default globals join every two groups at any P (2 per router joined at most 9 groups of 4 routers)", () => {
    expect(counts("dragonfly", 72)).toEqual([72, 36, 72 + 9 * 6 + 36]); // g = 9: globals 2, as before
    expect(counts("dragonfly", 128)).toEqual([128, 64, 128 + 16 * 6 + 120]); // g = 16: globals 4, one cable per pair
    expect(counts("dragonfly", 1024)).toEqual([1024, 512, 1024 + 128 * 6 + (128 * 127) / 2]); // g = 128: globals 32
    expect(() => counts("dragonfly:globals=2", 128)).toThrow(/16 groups need 15 global links per group/);
  });
  it("rail: n g hosts, g leaves + spines + n NVLink switches, 2 n g + g spines cables", () => {
    expect(counts("rail", 16)).toEqual([16, 8 + 2 + 2, 32 + 16]);
    expect(counts("rail:gpus=4,nodes=3,spines=2", 10)).toEqual([12, 4 + 2 + 3, 24 + 8]);
  });
  it("cm5-fat-tree: a switch per 4 hosts, per 16 hosts, a root above 16", () => {
    expect(counts("cm5-fat-tree", 4)).toEqual([4, 1, 4]);
    expect(counts("cm5-fat-tree", 16)).toEqual([16, 5, 20]);
    expect(counts("cm5-fat-tree", 64)).toEqual([64, 21, 84]);
    expect(counts("cm5-fat-tree", 18)).toEqual([18, 5 + 2 + 1, 18 + 5 + 2]);
  });
});

describe("link parameters", () => {
  const bw = (spec: string, machine?: string) => {
    const g = buildTopology(spec, 16, machine === undefined ? undefined : findMachine(machine));
    return [...new Set(g.edges().map((e) => g.edge(e).bandwidth))].sort((a, b) => a - b);
  };
  it("bandwidth is 1/t_d of the machine unless bw is given; oversub divides the uplinks of its level", () => {
    const m = findMachine("ib-hdr-200");
    expect(bw("flat", "ib-hdr-200")).toEqual([1 / m.td]);
    expect(bw("flat:bw=7")).toEqual([7]);
    expect(bw("fat-tree:k=4,bw=8,oversub=4")).toEqual([2, 8]);
    expect(bw("fat-tree:k=4,bw=8,oversub=2/4")).toEqual([2, 4, 8]);
    expect(bw("cm5-fat-tree")).toEqual([20, 40]);
    expect(bw("rail:bw=10,nvbw=100")).toEqual([10, 100]);
  });
  it("latency is lat", () => {
    const g = buildTopology("torus:dims=4x4,lat=0.25", 16);
    expect(new Set(g.edges().map((e) => g.edge(e).latency))).toEqual(new Set([0.25]));
  });
});

describe("specs", () => {
  it("every generator declares its parameters with a type, a default and a meaning", () => {
    expect(TOPOLOGY_GENERATORS.map((g) => g.name)).toEqual([
      "flat",
      "fat-tree",
      "torus",
      "dragonfly",
      "rail",
      "cm5-fat-tree",
    ]);
    for (const g of TOPOLOGY_GENERATORS)
      for (const p of g.params) {
        expect(p.description.length).toBeGreaterThan(5);
        expect(["integer", "number", "string"]).toContain(p.type);
        expect(p.default).toBeDefined();
      }
  });
  it("parses name:key=value,... with typed values", () => {
    const s = parseTopologySpec("fat-tree:k=8,oversub=2/1");
    expect(s.generator.name).toBe("fat-tree");
    expect({ ...s.params }).toEqual({ k: 8, oversub: "2/1" });
  });
  it.each([
    ["mesh", /unknown topology 'mesh'; known: flat, fat-tree/],
    ["fat-tree:q=1", /fat-tree: unknown parameter 'q'; known: k, oversub, routing, bw, lat/],
    ["fat-tree:k=x", /k = 'x' is not an integer >= 2/],
    ["fat-tree:k", /'k' is not key=value/],
    ["fat-tree:k=4,k=4", /given twice/],
    ["fat-tree:k=5", /k = 5 must be even/],
    ["fat-tree:k=4", /k = 4 gives 16 hosts, fewer than P = 17/],
    ["fat-tree:oversub=0/1", /oversub '0\/1' is not one or two ratios >= 1/],
    ["fat-tree:routing=hash", /fat-tree: routing 'hash' is not one of ecmp, dmodk$/],
    ["fat-tree:routing=dmdk", /fat-tree: routing 'dmdk' is not one of ecmp, dmodk \(did you mean dmodk\?\)$/],
    ["rail:routing=DmodK", /rail: routing 'DmodK' is not one of ecmp, dmodk/],
    ["torus:dims=4y4", /dims '4y4' is not one to three sizes/],
    ["torus:dims=4x4", /gives 16 hosts, fewer than P = 17/],
    ["dragonfly:groups=20,globals=2", /20 groups need 19 global links per group but routers x globals = 8/],
    ["rail:nodes=2", /builds 16 hosts, fewer than P = 17/],
    ["fat-tree:bw=1e-300", /^topology: fat-tree: bw = '1e-300' is not a number in 1e-12\.\.1e12 \(bytes\/us\)$/],
    ["flat:bw=2e12", /^topology: flat: bw = '2e12' is not a number in 1e-12\.\.1e12 \(bytes\/us\)$/],
    ["torus:lat=1e300", /^topology: torus: lat = '1e300' is not a number in 0\.\.1e12 \(us\)$/],
    ["cm5-fat-tree:lat=-1", /^topology: cm5-fat-tree: lat = '-1' is not a number in 0\.\.1e12 \(us\)$/],
    ["dragonfly:gbw=1e-13", /^topology: dragonfly: gbw = '1e-13' is not a number in 1e-12\.\.1e12 \(bytes\/us\)$/],
    ["rail:nvbw=0", /^topology: rail: nvbw = '0' is not a number in 1e-12\.\.1e12 \(bytes\/us\)$/],
  ])("%s is refused with a clear message", (spec, re) => {
    const e = errorOf(() => buildTopology(spec, 17));
    expect(e.message).toMatch(/^topology: /);
    expect(e.message).toMatch(re);
  });
  it("refuses a host count out of range", () => {
    expect(errorOf(() => buildTopology("flat", 0)).message).toMatch(/host count 0 is not an integer in 1\.\./);
  });
  it("refuses a network past the limits or the memory budget before building it (found by the fuzzer: the dragonfly built a million hosts, 2 GB, before its host limit stopped it)", () => {
    for (const [spec, re] of [
      [
        "dragonfly:groups=1000,routers=1000,hpr=1000",
        /dragonfly: 1000 groups x 1000 routers x 1000 hosts has 1000000000 hosts, more than 1048576/,
      ],
      ["rail:gpus=1000,spines=16000", /rail: 1 nodes x 1000 GPUs, 16000 spines has 17001 switches, more than 16384/],
      ["rail:gpus=1,nodes=1048576,spines=1", /has 1048578 switches, more than 16384/],
      ["torus:dims=128x128,hpr=1048576", /torus: 128x128 x 1048576 hosts per router has 17179869184 hosts/],
    ] as const) {
      const e = errorOf(() => buildTopology(spec, 16));
      expect(e.message).toMatch(/^topology: /);
      expect(e.message).toMatch(re);
    }
    const maxMemory = 32 * 2 ** 20;
    for (const spec of ["flat", "fat-tree:k=64", "cm5-fat-tree"])
      expect(errorOf(() => buildTopology(spec, 32768, undefined, { maxMemory })).message).toMatch(
        /^topology: .*a network of \d+ hosts, \d+ switches and \d+ cables needs about [\d.]+ MiB, past the memory budget of 32 MiB/,
      );
    const inside = buildTopology("fat-tree:k=8", 100, undefined, { maxMemory }).graph(); // 592 elements: well inside
    expect([inside.hosts, inside.switches, inside.cables]).toEqual([128, 80, 384]);
  });
});
