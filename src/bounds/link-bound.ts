/**
 * busiestLinkBound: the busiest-link lower bound of a matrix on a network with fixed routes (NetworkRoutes), for direct
 * schedules.
 */
import { fail } from "../model/errors.js";
import { matrixRows, type CommMatrix } from "../model/matrix.js";
import { networkProblem, routeEndLinks, routeProblem, type NetworkRoutes } from "../model/network.js";
import { checkMatrixArg } from "../model/matrix.js";
import { checkArg } from "../model/option-checks.js";

/** Throws when `routes` is not a sound NetworkRoutes object (a hand-built one) or has fewer than p hosts. */
function checkNetwork(routes: NetworkRoutes, p: number): void {
  const shape = networkProblem(routes);
  if (shape !== null) throw fail("bounds", "BAD_OPTION", shape, { field: "network" });
  if (routes.hosts < p)
    throw fail("bounds", "MISMATCH", `the network '${routes.name}' has ${routes.hosts} hosts, the matrix P = ${p}`, {
      field: "hosts",
    });
}

/** Throws the one-line error of a broken route a -> b (a hand-built network's), or returns n. */
function checkedRoute(routes: NetworkRoutes, a: number, b: number, n: number, out: Int32Array): number {
  const bad = routeProblem(routes, a, b, n, out);
  if (bad !== null) throw fail("bounds", "BAD_INPUT", bad, { field: "network" });
  return n;
}

/** The busiest-link bound and the link that gives it. */
export interface LinkBound {
  readonly name: "busiest-link";
  /** Direct schedules on the network's fixed routes: every byte of pair (i, j) crosses every link of route(i, j). */
  readonly scope: "direct";
  /** barrier + max over links of (bytes routed over the link) / bandwidth (us); 0 without network traffic. */
  readonly value: number;
  readonly formula: string;
  /** The busiest link (-1 without traffic), its label and the bytes routed over it. */
  readonly link: number;
  readonly linkLabel: string;
  readonly bytes: number;
}

/**
 * The busiest-link bound (docs/bounds.md): a link of bandwidth w moves at most w bytes per us
 * whatever else shares it, so a direct schedule whose messages follow `routes` takes at least
 * max_l load_l / w_l after its first barrier. O(P + E x route length).
 */
export function busiestLinkBound(m: CommMatrix, routes: NetworkRoutes, barrier = 0): LinkBound {
  checkMatrixArg("bounds", m, "busiestLinkBound");
  checkArg(
    "bounds",
    "busiestLinkBound",
    "barrier",
    barrier,
    typeof barrier === "number" && barrier >= 0 && barrier < Infinity,
    "a time >= 0",
    "BAD_OPTION",
  );
  const { p, elementBytes: eb } = m;
  checkNetwork(routes, p);
  const load = new Float64Array(routes.links);
  const path = new Int32Array(Math.max(1, routes.maxHops));
  let traffic = false;
  // the non-zero entries (O(P + E): no dense copy of a sparse matrix)
  const rows = matrixRows(m);
  for (let i = 0; i < p; i++)
    for (let k = rows.rowStart[i]!; k < rows.rowStart[i + 1]!; k++) {
      const j = rows.col[k]!,
        v = rows.val[k]!;
      if (i === j || v === 0) continue;
      traffic = true;
      const n = checkedRoute(routes, i, j, routes.route(i, j, path), path);
      for (let h = 0; h < n; h++) load[path[h]!] = load[path[h]!]! + v * eb;
    }
  let best = -1,
    time = 0;
  for (let l = 0; l < routes.links; l++) {
    const w = routes.bandwidth[l]!;
    if (!(w > 0))
      throw fail("bounds", "BAD_INPUT", `link ${routes.linkLabel(l)} of '${routes.name}' has bandwidth ${w}`, {
        field: "bandwidth",
      });
    const t = load[l]! / w;
    if (best < 0 || t > time) {
      best = l;
      time = t;
    }
  }
  const formula = "B + max_l (sum over pairs (i, j) routed over l of M_ij b) / bandwidth(l)";
  if (!traffic) return { name: "busiest-link", scope: "direct", value: 0, formula, link: -1, linkLabel: "", bytes: 0 };
  return {
    name: "busiest-link",
    scope: "direct",
    value: barrier + time,
    formula,
    link: best,
    linkLabel: routes.linkLabel(best),
    bytes: load[best]!,
  };
}

/** The host-link bound and the host that gives it. */
export interface HostLinkBound {
  readonly name: "host-links";
  /**
   * Every schedule: relays and split messages still move each element out of its origin and into its destination once.
   */
  readonly scope: "all";
  /**
   * barrier + start-up + max over hosts of max(row bytes / its links' outgoing bandwidth, column bytes / incoming); 0
   * without traffic.
   */
  readonly value: number;
  readonly formula: string;
  /** The host that gives it (-1 without traffic). */
  readonly host: number;
}

/**
 * The host-link bound (docs/bounds.md), for every schedule replayed on `routes`: host i sends each
 * of its off-diagonal elements at least once, and every message it sends leaves on the first link
 * of a route from i; so it needs at least R_i b / (the bandwidth of those first links, summed)
 * after its first barrier, and likewise for what it receives over the last links of the routes
 * into it. `startup` (S) is what every network message spends before its first byte enters the
 * network on the simulated machine (T_s in blocking mode, T_s,send in nonblocking mode): no byte
 * flows before B + S. O(P^2) route ends for the link sets (O(P^2 x route length) on a network
 * without routeEnds), O(P + E) for the row and column sums.
 */
export function hostLinkBound(m: CommMatrix, routes: NetworkRoutes, barrier = 0, startup = 0): HostLinkBound {
  const { p, elementBytes: eb } = m;
  checkNetwork(routes, p);
  const rows = matrixRows(m);
  const out = new Float64Array(p),
    into = new Float64Array(p);
  for (let i = 0; i < p; i++)
    for (let k = rows.rowStart[i]!; k < rows.rowStart[i + 1]!; k++) {
      const j = rows.col[k]!;
      if (j === i) continue;
      out[i] = out[i]! + rows.val[k]! * eb;
      into[j] = into[j]! + rows.val[k]! * eb;
    }
  // the bandwidth of the distinct first (last) links of the routes out of (into) each host
  const upBw = new Float64Array(p),
    downBw = new Float64Array(p);
  const seenUp = new Int32Array(routes.links).fill(-1),
    seenDown = new Int32Array(routes.links).fill(-1);
  const path = new Int32Array(Math.max(2, routes.maxHops));
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++) {
      if (i === j || (out[i] === 0 && into[j] === 0)) continue;
      const n = checkedRoute(routes, i, j, routeEndLinks(routes, i, j, path), path); // the first and last links only
      if (n === 0) continue;
      const first = path[0]!,
        last = path[n - 1]!;
      if (seenUp[first] !== i) {
        seenUp[first] = i;
        upBw[i] = upBw[i]! + routes.bandwidth[first]!;
      }
      if (seenDown[last] !== j) {
        seenDown[last] = j;
        downBw[j] = downBw[j]! + routes.bandwidth[last]!;
      }
    }
  let host = -1,
    time = 0;
  for (let i = 0; i < p; i++) {
    const t = Math.max(out[i]! > 0 ? out[i]! / upBw[i]! : 0, into[i]! > 0 ? into[i]! / downBw[i]! : 0);
    if (t > time) {
      time = t;
      host = i;
    }
  }
  const formula =
    "B + S + max_i max(R_i b / sum of bandwidth(first links out of i), C_i b / sum of bandwidth(last links into i))";
  return { name: "host-links", scope: "all", value: host < 0 ? 0 : barrier + startup + time, formula, host };
}
