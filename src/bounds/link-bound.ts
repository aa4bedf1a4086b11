/** busiestLinkBound: the busiest-link lower bound of a matrix on a network with fixed routes (NetworkRoutes), for direct schedules. */
import { fail } from "../model/errors.js";
import type { CommMatrix } from "../model/matrix.js";
import type { NetworkRoutes } from "../model/network.js";

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
 * max_l load_l / w_l after its first barrier. O(P^2 x route length).
 */
export function busiestLinkBound(m: CommMatrix, routes: NetworkRoutes, barrier = 0): LinkBound {
  const { p, data, elementBytes: eb } = m;
  if (routes.hosts < p)
    throw fail("bounds", "MISMATCH", `the network '${routes.name}' has ${routes.hosts} hosts, the matrix P = ${p}`, {
      field: "hosts",
    });
  const load = new Float64Array(routes.links);
  const path = new Int32Array(Math.max(1, routes.maxHops));
  let traffic = false;
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++) {
      const v = data[i * p + j]!;
      if (i === j || v === 0) continue;
      traffic = true;
      const n = routes.route(i, j, path);
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
