/**
 * SimGrid platform (version 4.1) of a network topology: a `<cluster>` (flat, FAT_TREE, TORUS) where one builds it, else
 * explicit links and routes in a Full (or Floyd) zone.
 */
import { escapeXml, xmlCommentText } from "./xml-escape.js";
import { fail } from "../model/errors.js";
import { quoted } from "../internal/quoted.js";
import type { NetworkRoutes } from "../model/network.js";
import type { TopologyDescription } from "../model/topology.js";
import { SIMGRID_HOST_FLOPS } from "./simgrid-platform.js";
import { simgridValue } from "./exact-number.js";
import { checkArg, checkOptionsObject, isIntIn, isOptionsObject } from "../model/option-checks.js";
import { MAX_P } from "../model/limits.js";

/**
 * Up to this many ranks the explicit platform lists every route between their hosts (Full routing, P (P - 1) routes);
 * above it SimGrid's Floyd computes shortest paths over every host.
 */
const SIMGRID_FULL_ROUTES_MAX_RANKS = 256;

/** A bandwidth in bytes/us as a SimGrid value in bytes per second (finite and > 0, else refused naming `field`). */
function bps(bytesPerUs: number, field: string): string {
  return simgridValue(bytesPerUs * 1e6, "Bps", `${field} (bytes per second)`, true);
}

/** A latency in us as a SimGrid value (finite and >= 0, else refused naming `field`). */
function lat(us: number, field: string): string {
  return simgridValue(us, "us", field, false);
}

/** The `<cluster>` of a network a SimGrid cluster builds (hosts must be h0 .. h<n-1>, as the generators name them). */
function clusterXml(d: TopologyDescription): string | null {
  const c = d.simgridCluster;
  if (!c || d.hosts.some((h, i) => h !== `h${i}`)) return null;
  const base = `id="c" prefix="h" suffix="" radical="0-${d.hosts.length - 1}" speed="${SIMGRID_HOST_FLOPS / 1e9}Gf" bw="${bps(c.bandwidth, "the cluster bandwidth")}" lat="${lat(c.latency, "the cluster latency")}" sharing_policy="SPLITDUPLEX"`;
  if (c.topology === "FLAT") return `  <cluster ${base}/>\n`; // no backbone: simgridPlatformXml says why
  return `  <cluster ${base} topology="${c.topology}" topo_parameters="${c.topoParameters ?? ""}"/>\n`;
}

/** The `<link_ctn>` of directed link `id` (cable id >> 1; UP is a to b). */
function linkCtn(id: number): string {
  return `<link_ctn id="l${id >> 1}" direction="${id & 1 ? "DOWN" : "UP"}"/>`;
}

/** Every route between hosts 0 .. n-1 (a != b, in order): [a, b, k], its links in out[0 .. k). */
function* routesAmong(routes: NetworkRoutes, n: number, out: Int32Array): Generator<[number, number, number]> {
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (a !== b) yield [a, b, routes.route(a, b, out)];
}

/** The cables (link id >> 1) on the routes between hosts 0 .. n-1, marked 1. */
function cablesOnRoutes(routes: NetworkRoutes, n: number): Uint8Array {
  const used = new Uint8Array(routes.links >> 1);
  const out = new Int32Array(routes.maxHops);
  for (const [, , k] of routesAmong(routes, n, out)) for (let h = 0; h < k; h++) used[out[h]! >> 1] = 1;
  return used;
}

function linkXml(i: number, l: TopologyDescription["links"][number]): string {
  return `    <link id="l${i}" bandwidth="${bps(l.bandwidth, `links[${i}].bandwidth`)}" latency="${lat(l.latency, `links[${i}].latency`)}" sharing_policy="SPLITDUPLEX"/>\n`;
}

/**
 * The explicit zone of hosts 0 .. n-1. Up to SIMGRID_FULL_ROUTES_MAX_RANKS of them: Full routing,
 * every host-to-host route of `routes`, and only the cables those routes use (one SPLITDUPLEX link
 * each, named by cable). Above: Floyd over every host, switch (router) and cable.
 */
function* explicitZone(d: TopologyDescription, routes: NetworkRoutes, n: number): Generator<string, void, undefined> {
  const full = n <= SIMGRID_FULL_ROUTES_MAX_RANKS;
  yield `  <zone id="net" routing="${full ? "Full" : "Floyd"}">\n`;
  const hosts = full ? d.hosts.slice(0, n) : d.hosts;
  for (const h of hosts) yield `    <host id="${escapeXml(h)}" speed="${SIMGRID_HOST_FLOPS / 1e9}Gf"/>\n`;
  if (!full) {
    for (const s of d.switches) yield `    <router id="${escapeXml(s)}"/>\n`;
    // SimGrid's DTD wants every <link> before the first <route>
    for (let i = 0; i < d.links.length; i++) yield linkXml(i, d.links[i]!);
    for (let i = 0; i < d.links.length; i++) {
      const l = d.links[i]!;
      yield `    <route src="${escapeXml(l.a)}" dst="${escapeXml(l.b)}" symmetrical="NO">${linkCtn(2 * i)}</route>\n`;
      yield `    <route src="${escapeXml(l.b)}" dst="${escapeXml(l.a)}" symmetrical="NO">${linkCtn(2 * i + 1)}</route>\n`;
    }
    yield `  </zone>\n`;
    return;
  }
  const used = cablesOnRoutes(routes, n);
  for (let i = 0; i < d.links.length; i++) if (used[i] === 1) yield linkXml(i, d.links[i]!);
  // the routes again (SimGrid wants every <link> first; recomputing them is cheaper than holding n^2 lines)
  const out = new Int32Array(routes.maxHops);
  for (const [a, b, k] of routesAmong(routes, n, out)) {
    let s = `    <route src="${escapeXml(d.hosts[a]!)}" dst="${escapeXml(d.hosts[b]!)}" symmetrical="NO">`;
    for (let h = 0; h < k; h++) s += linkCtn(out[h]!);
    yield s + "</route>\n";
  }
  yield `  </zone>\n`;
}

/**
 * The platform XML of a network, in pieces: the SimGrid cluster that builds it when the generator
 * gave one (flat, fat-tree without oversubscription, torus of rings >= 3 with one host per router),
 * else explicit: the hosts of ranks 0 .. ranks-1 (default: every host) with every route of `routes`
 * between them and the cables those routes use (Full routing), or, above
 * SIMGRID_FULL_ROUTES_MAX_RANKS ranks, every host, switch and cable with SimGrid's own shortest
 * paths (Floyd). `routes` must be the compiled form of `d`.
 */
export function* simgridTopologyPlatformPieces(
  d: TopologyDescription,
  routes: NetworkRoutes,
  opts: { explicit?: boolean; ranks?: number } = {},
): Generator<string, void, undefined> {
  const fn = "simgridTopologyPlatformPieces";
  const okD = isOptionsObject(d) && Array.isArray(d["hosts"]) && Array.isArray(d["links"]);
  checkArg("export", fn, "d", d, okD, "a TopologyDescription (describeTopology's or parseTopologyJsonText's)");
  const okR = isOptionsObject(routes) && typeof routes["hosts"] === "number" && typeof routes["links"] === "number";
  checkArg("export", fn, "routes", routes, okR, "NetworkRoutes (compileRoutes')");
  checkOptionsObject("export", "options", opts);
  if (routes.hosts !== d.hosts.length || routes.links !== 2 * d.links.length)
    throw fail("export", "MISMATCH", `the routes of ${routes.name} are not those of the description ${d.name}`);
  const ranks = opts.ranks ?? d.hosts.length;
  if (!Number.isInteger(ranks) || ranks < 1 || ranks > d.hosts.length)
    throw fail(
      "export",
      "BAD_OPTION",
      `ranks must be an integer in 1..${d.hosts.length} (the hosts of ${d.name}), got ${String(ranks)}`,
      { field: "ranks" },
    );
  const name = xmlCommentText(d.name);
  yield `<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n`;
  yield `<!-- commplan: topology ${name}; ${d.hosts.length} hosts, ${d.switches.length} switches, ${d.links.length} links -->\n`;
  yield `<platform version="4.1">\n`;
  const cluster = opts.explicit ? null : clusterXml(d);
  if (cluster) yield cluster;
  else yield* explicitZone(d, routes, ranks);
  yield `</platform>\n`;
}

/**
 * What a hostfile line cannot hold: white space and line breaks (a name per line), control characters, and ':' (smpirun
 * reads host:slots).
 */
/* eslint-disable no-control-regex -- control characters are what this pattern finds */
const NOT_HOSTFILE = /[\s\u0000-\u001f\u007f:]/u;
/* eslint-enable no-control-regex */

/** Whose hostfile it is, for the messages of simgridTopologyHostfile. */
export interface HostfileOptions {
  /** The module its errors name (the command writing it); default "export". */
  readonly module?: string;
  /** The topology file the hosts come from, named in its errors. */
  readonly file?: string;
}

/**
 * The hostfile of the first `p` hosts (rank r on hosts[r]); a host name a hostfile line cannot hold (NOT_HOSTFILE) is
 * refused, naming the topology's file (`opts.file`) and the host's JSON pointer (/hosts/r).
 */
export function simgridTopologyHostfile(d: TopologyDescription, p: number, opts: HostfileOptions = {}): string {
  const okD = isOptionsObject(d) && Array.isArray(d["hosts"]);
  checkArg(
    "export",
    "simgridTopologyHostfile",
    "d",
    d,
    okD,
    "a TopologyDescription (describeTopology's or parseTopologyJsonText's)",
  );
  checkArg(
    "export",
    "simgridTopologyHostfile",
    "p",
    p,
    isIntIn(p, 1, MAX_P),
    `an integer in 1..${MAX_P}`,
    "BAD_OPTION",
  );
  checkOptionsObject("export", "options", opts);
  const hosts = d.hosts.slice(0, p);
  hosts.forEach((h, r) => {
    if (h === "" || NOT_HOSTFILE.test(h))
      throw fail(
        opts.module ?? "export",
        "BAD_INPUT",
        `/hosts/${r} ${quoted(h)} cannot be a hostfile line (no white space, control characters or ':')`,
        opts.file === undefined ? { field: `/hosts/${r}` } : { file: opts.file, field: `/hosts/${r}` },
      );
  });
  return hosts.join("\n") + "\n";
}
