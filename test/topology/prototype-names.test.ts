/** Node names are plain keys: a host or switch named __proto__, constructor or toString builds, routes and lists back like any other. */
import { describe, expect, it } from "vitest";
import type { TopologyDescription } from "../../src/model/topology.js";
import { describeTopology, graphFromDescription } from "../../src/topology/description.js";
import { compileRoutes } from "../../src/topology/compile-routes.js";
import { parseTopologyJsonText } from "../../src/io/topology-json-read.js";

const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

/** A star of the given host names around one switch named `sw`. */
function star(hosts: readonly string[], sw: string): TopologyDescription {
  return {
    name: "star",
    hosts: [...hosts],
    switches: [sw],
    links: hosts.map((h) => ({ a: h, b: sw, bandwidth: 10, latency: 1 })),
  };
}

describe("node names that are Object.prototype's", () => {
  it("builds, routes and lists back a network of them", () => {
    const d = star(NAMES.slice(0, 4), NAMES[4]!);
    const g = graphFromDescription(d);
    expect(g.nodes().sort()).toEqual([...NAMES].sort());
    const routes = compileRoutes(g);
    expect(routes.hosts).toBe(4);
    const out = new Int32Array(routes.maxHops);
    expect(routes.route(0, 1, out)).toBe(2);
    const back = describeTopology(g);
    expect(back.hosts).toEqual(d.hosts);
    expect(back.switches).toEqual(d.switches);
  });

  it("reads them from a topology file", () => {
    const text = JSON.stringify({ format: "commplan.topology/v1", ...star(["__proto__", "constructor"], "s") });
    const d = parseTopologyJsonText(text, "t.json");
    expect(d.hosts).toEqual(["__proto__", "constructor"]);
    expect(compileRoutes(graphFromDescription(d)).hosts).toBe(2);
  });

  it("still refuses a name declared twice", () => {
    expect(() => graphFromDescription(star(["__proto__", "__proto__"], "s"))).toThrow(/'__proto__' is declared twice/);
  });
});
