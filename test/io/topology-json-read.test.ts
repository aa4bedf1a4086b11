/** Topology JSON reader: a valid network, and errors naming the field and line (bad field, unknown host in a link, duplicates, size limit); a disconnected network is refused when compiled. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonPointerLine, parseTopologyJsonText, readTopologyJson } from "../../src/io/topology-json-read.js";
import { compileRoutes, graphFromDescription } from "../../src/topology/index.js";
import { errorOf } from "../helpers/errors.js";
import { tempDir } from "../helpers/temp-dir.js";

const doc = () => ({
  format: "commplan.topology/v1",
  name: "pair",
  hosts: ["x", "y", "z"],
  switches: ["s1", "s2"],
  links: [
    { a: "x", b: "s1", bandwidth: 100, latency: 0.5 },
    { a: "y", b: "s2", bandwidth: 100, latency: 0.5 },
    { a: "z", b: "s2", bandwidth: 100, latency: 0.5 },
    { a: "s1", b: "s2", bandwidth: 50, latency: 1 },
  ],
  routes: [{ src: "x", dst: "z", path: ["s1", "s2"] }],
});
const text = (d: unknown) => JSON.stringify(d, null, 2);
const errorFor = (edit: (d: ReturnType<typeof doc> & { [k: string]: unknown }) => void) => {
  const d = doc() as ReturnType<typeof doc> & { [k: string]: unknown };
  edit(d);
  return errorOf(() => parseTopologyJsonText(text(d), "net.json"));
};

describe("topology JSON reader", () => {
  it("reads a network that compiles and routes", () => {
    const d = parseTopologyJsonText(text(doc()), "net.json");
    expect(d.hosts).toEqual(["x", "y", "z"]);
    expect(parseTopologyJsonText(text({ ...doc(), routing: "dmodk" })).routing).toBe("dmodk");
    const r = compileRoutes(graphFromDescription(d));
    expect(r.name).toBe("pair");
    const out = new Int32Array(r.maxHops);
    expect(r.route(0, 2, out)).toBe(3);
    expect([...out.subarray(0, 3)].map((l) => r.linkLabel(l))).toEqual(["x->s1", "s1->s2", "s2->z"]);
  });
  it("names the file as the network when the document has no name", () => {
    const d = doc() as { name?: string };
    delete d.name;
    expect(parseTopologyJsonText(text(d), "n.json").name).toBe("n.json");
  });
  it("a bad field: the schema's message with its path and line", () => {
    const e = errorFor((d) => void ((d.links[1] as { bandwidth: unknown }).bandwidth = "fast"));
    expect(e.message).toBe("topology: net.json:line 23: /links/1/bandwidth must be number");
    expect(e.place).toEqual({ file: "net.json", line: 23, field: "/links/1/bandwidth" });
    expect(errorFor((d) => void (d.links[0]!.latency = -1)).message).toMatch(
      /line 18: \/links\/0\/latency must be >= 0/,
    );
    expect(errorFor((d) => void (d["routing"] = "random")).message).toMatch(
      /line 49: \/routing must be equal to one of the allowed values: "ecmp", "dmodk"/,
    );
    expect(errorFor((d) => void (d["extra"] = 1)).message).toMatch(
      /\/ must NOT have additional properties \('extra'\)/,
    );
    expect(errorFor((d) => void (d.format = "commplan.matrix/v1")).message).toMatch(
      /line 2: \/format is "commplan.matrix\/v1", expected "commplan.topology\/v1"/,
    );
  });
  it("an unknown host in a link, a name declared twice, a host-to-host link, a bad route", () => {
    expect(errorFor((d) => void (d.links[2]!.a = "w")).message).toBe(
      "topology: net.json:line 27: /links/2/a: 'w' is not a declared host or switch",
    );
    expect(errorFor((d) => void d.switches.push("y")).message).toMatch(/line 12: \/switches\/2: 'y' is declared twice/);
    expect(errorFor((d) => void (d.links[3]!.b = "s1")).message).toMatch(
      /\/links\/3\/b: the link joins 's1' to itself/,
    );
    expect(errorFor((d) => void (d.links[3] = { a: "x", b: "y", bandwidth: 1, latency: 0 })).message).toMatch(
      /\/links\/3: the link joins two hosts \('x', 'y'\): hosts connect only to switches/,
    );
    expect(errorFor((d) => void (d.routes[0]!.path = ["s1", "x"])).message).toMatch(
      /\/routes\/0\/path\/1: 'x' is not a declared switch/,
    );
  });
  it("a syntax error with its line", () => {
    expect(errorOf(() => parseTopologyJsonText('{\n  "hosts": [1,\n', "n.json")).message).toMatch(
      /^topology: n.json:line 3: not valid JSON: unexpected end of input/,
    );
  });
  it("a disconnected network is refused when compiled, naming the unreachable host", () => {
    const d = parseTopologyJsonText(text({ ...doc(), links: doc().links.slice(0, 3), routes: [] }), "net.json");
    expect(errorOf(() => compileRoutes(graphFromDescription(d))).message).toBe(
      "topology: pair: host y is unreachable from host x (no switch path joins them; hosts do not forward)",
    );
  });
  it("reads files, refusing a missing one", () => {
    const dir = tempDir("topo");
    writeFileSync(join(dir, "n.json"), text(doc()));
    expect(readTopologyJson(join(dir, "n.json")).switches).toEqual(["s1", "s2"]);
    expect(errorOf(() => readTopologyJson(join(dir, "none.json"))).message).toMatch(/^topology: .*none\.json/);
  });
  it("jsonPointerLine finds nested values", () => {
    const t = text(doc());
    expect(jsonPointerLine(t, "/format")).toBe(2);
    expect(jsonPointerLine(t, "/hosts/2")).toBe(7);
    expect(jsonPointerLine(t, "/routes/0/path/1")).toBe(45);
    expect(jsonPointerLine(t, "/nothing")).toBeUndefined();
  });
});
